// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>

#include "sandboxtime/caps.h"

/* Docker's default set (moby oci/caps/defaults.go), in CAP_* order. */
static const cap_value_t docker_default[] = {
	CAP_CHOWN,	      CAP_DAC_OVERRIDE, CAP_FOWNER,   CAP_FSETID,  CAP_KILL,
	CAP_SETGID,	      CAP_SETUID,       CAP_SETPCAP,  CAP_NET_BIND_SERVICE,
	CAP_NET_RAW,	      CAP_SYS_CHROOT,   CAP_MKNOD,    CAP_AUDIT_WRITE,
	CAP_SETFCAP,
};

static void cap_name_freep(char **name)
{
	if (*name)
		cap_free(*name);
}

static int last_cap(void)
{
	int last = (int)cap_max_bits() - 1;

	return last > 63 ? 63 : last;
}

uint64_t st_caps_default(void)
{
	uint64_t mask = 0;

	for (size_t i = 0; i < ARRAY_SIZE(docker_default); i++)
		mask |= 1ull << docker_default[i];
	return mask;
}

/* "chown", "CAP_CHOWN", "Cap_Chown": the libcap name is "cap_chown". */
static int cap_lookup(const char *opt, const char *name, cap_value_t *cap, struct st_error *err)
{
	char lower[64];
	size_t i;

	for (i = 0; name[i] && i + 5 < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	if (strncmp(lower, "cap_", 4) != 0) {
		memmove(lower + 4, lower, i + 1);
		memcpy(lower, "cap_", 4);
	}
	if (!name[0] || cap_from_name(lower, cap) < 0 || *cap > last_cap())
		return st_error_usage(err, "%s: unknown capability '%s' (like CAP_NET_ADMIN; see capabilities(7))",
				      opt, name);
	return 0;
}

/* Whether the comma list @list names ALL (any case). */
static int names_all(const char *list)
{
	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 3 && strncasecmp(p, "all", 3) == 0)
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

static int edit(uint64_t *mask, const char *opt, const char *list, int add, struct st_error *err)
{
	_cleanup_free_ char *copy = NULL;
	char *save = NULL;

	if (!list)
		return 0;
	if (!*list || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
		return st_error_usage(err, "%s: empty element in '%s'", opt, list);
	copy = strdup(list);
	if (!copy)
		return st_error_set(err, ENOMEM, "%s", opt);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		cap_value_t cap;
		int ret;

		if (strcasecmp(tok, "all") == 0)
			continue; /* decided the base set: see st_caps_edit */
		ret = cap_lookup(opt, tok, &cap, err);
		if (ret < 0)
			return ret;
		if (add)
			*mask |= 1ull << cap;
		else
			*mask &= ~(1ull << cap);
	}
	return 0;
}

/*
 * As Docker (moby TweakCapabilities): ALL decides the set to start from
 * (--cap-drop=ALL: none, else --cap-add=ALL: every one), the named drops
 * come off it, then the named additions go on: --cap-add=ALL
 * --cap-drop=NET_ADMIN keeps all but NET_ADMIN, and a name both dropped and
 * added stays.
 */
int st_caps_edit(uint64_t *mask, const char *drop, const char *add, struct st_error *err)
{
	int ret;

	if (names_all(drop))
		*mask = 0;
	else if (names_all(add))
		*mask = ST_CAPS_ALL;
	ret = edit(mask, "--cap-drop", drop, 0, err);
	if (ret == 0)
		ret = edit(mask, "--cap-add", add, 1, err);
	/* Bits the kernel does not have are not capabilities. */
	if (ret == 0 && last_cap() < 63)
		*mask &= (1ull << (last_cap() + 1)) - 1;
	return ret;
}

void st_caps_format(uint64_t mask, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c <= last_cap() && used < len; c++) {
		_cleanup_(cap_name_freep) char *name = NULL;

		if (!(mask & (1ull << c)))
			continue;
		name = cap_to_name(c);
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", name ? name : "?");
	}
	for (char *p = buf; *p; p++)
		*p = (char)toupper((unsigned char)*p);
}

/* The permitted set now, as a mask, and whether CAP_SETPCAP is effective. */
static int current_caps(uint64_t *permitted, int *setpcap, struct st_error *err)
{
	cap_t now = cap_get_proc();
	cap_flag_value_t v;

	if (!now)
		return st_error_set(err, errno, "capabilities: cap_get_proc");
	*permitted = 0;
	for (int c = 0; c <= last_cap(); c++)
		if (cap_get_flag(now, c, CAP_PERMITTED, &v) == 0 && v == CAP_SET)
			*permitted |= 1ull << c;
	*setpcap = cap_get_flag(now, CAP_SETPCAP, CAP_EFFECTIVE, &v) == 0 && v == CAP_SET;
	cap_free(now);
	return 0;
}

int st_caps_apply(uint64_t mask, struct st_error *err)
{
	uint64_t permitted = 0;
	int setpcap = 0, ret;
	cap_t caps;

	/*
	 * This can only take away: a process without privilege (sandboxtime
	 * run by a user, no user namespace) keeps its empty sets and cannot
	 * change its bounding set; no_new_privs keeps it from gaining any.
	 */
	ret = current_caps(&permitted, &setpcap, err);
	if (ret < 0)
		return ret;
	/* Bounding first: dropping from it needs CAP_SETPCAP, which may go below. */
	for (int c = 0; setpcap && c <= last_cap(); c++) {
		if (mask & (1ull << c))
			continue;
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
			return st_error_set(err, errno, "capabilities: dropping %d from the bounding set", c);
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return st_error_set(err, errno, "capabilities: clearing the ambient set");
	caps = cap_init(); /* all clear: inheritable stays empty */
	if (!caps)
		return st_error_set(err, errno, "capabilities: cap_init");
	for (int c = 0; c <= last_cap(); c++) {
		cap_value_t v = c;

		if (!(mask & permitted & (1ull << c)))
			continue;
		if (cap_set_flag(caps, CAP_PERMITTED, 1, &v, CAP_SET) < 0 ||
		    cap_set_flag(caps, CAP_EFFECTIVE, 1, &v, CAP_SET) < 0) {
			ret = st_error_set(err, errno, "capabilities: cap_set_flag");
			break;
		}
	}
	if (ret == 0 && cap_set_proc(caps) < 0)
		ret = st_error_set(err, errno, "capabilities: cap_set_proc");
	cap_free(caps);
	return ret;
}
