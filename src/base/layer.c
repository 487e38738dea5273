// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sandboxtime/layer.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

#define ROW(l, n, f, file, config)                                                   \
	[l] = { .name = n, .flag = f, .flag_name = #f, .ns_file = file,                  \
		.max_file = "max_" file "_namespaces", .kconfig = config }

const struct st_layer_info st_layers[ST_LAYER_COUNT] = {
	ROW(ST_LAYER_USER, "user", CLONE_NEWUSER, "user", "CONFIG_USER_NS"),
	ROW(ST_LAYER_UTS, "uts", CLONE_NEWUTS, "uts", "CONFIG_UTS_NS"),
	ROW(ST_LAYER_IPC, "ipc", CLONE_NEWIPC, "ipc", "CONFIG_IPC_NS"),
	ROW(ST_LAYER_PID, "pid", CLONE_NEWPID, "pid", "CONFIG_PID_NS"),
	ROW(ST_LAYER_MOUNT, "mount", CLONE_NEWNS, "mnt", "CONFIG_NAMESPACES"),
	ROW(ST_LAYER_CGROUP, "cgroup", CLONE_NEWCGROUP, "cgroup", "CONFIG_CGROUPS"),
	ROW(ST_LAYER_TIME, "time", CLONE_NEWTIME, "time", "CONFIG_TIME_NS"),
	ROW(ST_LAYER_NET, "net", CLONE_NEWNET, "net", "CONFIG_NET_NS"),
};

const char *st_layer_names(void)
{
	static char names[128];

	if (!names[0]) {
		for (int l = 0; l < ST_LAYER_COUNT; l++) {
			if (l)
				strcat(names, ",");
			strcat(names, st_layers[l].name);
		}
	}
	return names;
}

int st_layer_lookup(const char *name)
{
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (strcmp(name, st_layers[l].name) == 0)
			return l;
	return -1;
}

uint64_t st_layer_flags(unsigned int mask)
{
	uint64_t flags = 0;

	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (mask & ST_LAYER_BIT(l))
			flags |= st_layers[l].flag;
	return flags;
}

int st_layer_parse(const char *list, unsigned int *mask, unsigned int *explicit_mask,
		   struct st_error *err)
{
	_cleanup_free_ char *copy = NULL;
	unsigned int names = 0;
	int keyword = -1; /* 0: none, 1: all */
	char *save = NULL;

	if (!list || !*list)
		return st_error_usage(err, "--ns: empty list (known: %s, or all, or none)",
				      st_layer_names());
	if (list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
		return st_error_usage(err, "--ns: empty element in '%s'", list);
	copy = strdup(list);
	if (!copy)
		return st_error_set(err, ENOMEM, "--ns");
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int l;

		if (strcmp(tok, "all") == 0 || strcmp(tok, "none") == 0) {
			if (keyword >= 0 && keyword != (tok[0] == 'a'))
				return st_error_usage(err, "--ns: '%s' says both all and none; give one", list);
			keyword = tok[0] == 'a';
			continue;
		}
		l = st_layer_lookup(tok);
		if (l < 0)
			return st_error_usage(err, "--ns: unknown namespace '%s' (known: %s)", tok,
					      st_layer_names());
		names |= ST_LAYER_BIT(l);
	}
	if (keyword >= 0 && names)
		return st_error_usage(err, "--ns: '%s' mixes all/none with names; give one or the other",
				      list);
	*mask = keyword == 1 ? ST_LAYERS_ALL : names;
	*explicit_mask = names;
	return 0;
}

/*
 * The one errno-to-advice table: what a user can do when the kernel refuses
 * to create (or enter) a namespace with this errno. A row applies to one
 * layer or to all (-1), and "@" in its text stands for that layer's
 * max_*_namespaces file (@MAX), kernel option (@CONFIG) or clone flag (@FLAG).
 */
static const struct {
	int errnum;
	enum st_advice_op op;
	int layer; /* -1: any; otherwise an enum st_layer */
	const char *text;
} advice[] = {
	{ ENOSPC, ST_ADVICE_CREATE, -1,
	  "the limit in /proc/sys/user/@MAX is reached; raise it with sysctl user.@MAX=N" },
	{ EPERM, ST_ADVICE_CREATE, ST_LAYER_USER,
	  "the kernel refuses this process a new user namespace" },
	{ EPERM, ST_ADVICE_CREATE, -1,
	  "creating this namespace needs CAP_SYS_ADMIN: run as root or add the user layer (--ns=user,...)" },
	{ EINVAL, ST_ADVICE_CREATE, -1, "this kernel was built without @CONFIG" },
	{ ENOSYS, ST_ADVICE_CREATE, -1,
	  "clone3 is missing here (Linux before 5.3, or a seccomp filter hides it), and clone() cannot pass @FLAG" },
	{ EUSERS, ST_ADVICE_CREATE, -1, "too many nested user namespaces (the kernel allows 32 levels)" },
	{ EPERM, ST_ADVICE_ENTER, ST_LAYER_NET,
	  "entering a network namespace needs CAP_SYS_ADMIN over it and in sandboxtime's own user namespace: run as root" },
};

/* @text with @MAX, @CONFIG and @FLAG replaced by @info's. */
static void advice_fill(char *buf, size_t len, const char *text, const struct st_layer_info *info)
{
	size_t used = 0;

	for (const char *p = text; *p && used + 1 < len;) {
		const char *with = NULL;

		if (strncmp(p, "@MAX", 4) == 0)
			with = info->max_file, p += 4;
		else if (strncmp(p, "@CONFIG", 7) == 0)
			with = info->kconfig, p += 7;
		else if (strncmp(p, "@FLAG", 5) == 0)
			with = info->flag_name, p += 5;
		if (with)
			used += (size_t)snprintf(buf + used, len - used, "%s", with);
		else
			buf[used++] = *p++;
	}
	buf[used < len ? used : len - 1] = '\0';
}

void st_layer_advise(struct st_error *err, int errnum, enum st_layer layer, enum st_advice_op op)
{
	for (size_t i = 0; i < ARRAY_SIZE(advice); i++) {
		if (advice[i].errnum != errnum || advice[i].op != op ||
		    (advice[i].layer >= 0 && advice[i].layer != (int)layer))
			continue;
		advice_fill(err->hint, sizeof(err->hint), advice[i].text, &st_layers[layer]);
		return;
	}
}

void st_layer_hint(struct st_error *err, int errnum, enum st_layer layer)
{
	st_layer_advise(err, errnum, layer, ST_ADVICE_CREATE);
}

static void probe_child(unsigned int mask, int rootless, int fd)
{
	int errnums[ST_LAYER_COUNT] = { 0 };

	if (rootless && unshare(CLONE_NEWUSER) < 0) {
		for (int l = 0; l < ST_LAYER_COUNT; l++)
			errnums[l] = errno;
	} else {
		for (int l = 0; l < ST_LAYER_COUNT; l++) {
			if (!(mask & ST_LAYER_BIT(l)) || (rootless && l == ST_LAYER_USER))
				continue;
			/* PID and TIME apply to children only: unshare still creates them. */
			if (unshare((int)st_layers[l].flag) < 0)
				errnums[l] = errno;
		}
	}
	if (write(fd, errnums, sizeof(errnums)) != (ssize_t)sizeof(errnums))
		_exit(1);
	_exit(0);
}

int st_layer_probe(unsigned int mask, int rootless, int errnums[ST_LAYER_COUNT],
		   struct st_error *err)
{
	_cleanup_close_ int rd = -1, wr = -1;
	_cleanup_pid_ pid_t pid = -1;
	ssize_t n;

	if (st_pipe(&rd, &wr, "probing namespaces: pipe", err) < 0)
		return -err->errnum;
	pid = st_fork_child(err);
	if (pid < 0)
		return st_error_wrap(err, "probing namespaces");
	if (pid == 0)
		probe_child(mask, rootless, wr);
	closep(&wr);
	n = TEMP_FAILURE_RETRY(read(rd, errnums, sizeof(int) * ST_LAYER_COUNT));
	if (n != (ssize_t)(sizeof(int) * ST_LAYER_COUNT))
		return st_error_set(err, n < 0 ? errno : EPROTO, "probing namespaces: no answer from the probe");
	return st_reap(take_pid(&pid), NULL, err);
}

static int read_int(const char *path)
{
	char buf[32];

	if (st_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return atoi(buf);
}

/*
 * The kernel refuses user namespaces to a chrooted process (create_user_ns:
 * current_chrooted(), the root is not the mount namespace's root). The
 * evidence, strongest first: "/" is not the root of a mount at all
 * (statx's STATX_ATTR_MOUNT_ROOT, Linux 5.8; needs no /proc, which a chroot
 * often lacks); root can compare its root with pid 1's; otherwise a chroot
 * hides the mount of "/" from mountinfo. 1, 0, or -1 when nothing tells.
 */
static int chrooted(void)
{
	struct stat self, init;
	struct statx stx;
	char line[1024];
	FILE *f;
	int found = 0;

	if (statx(AT_FDCWD, "/", 0, STATX_BASIC_STATS, &stx) == 0 &&
	    (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) && !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
		return 1;
	if (stat("/", &self) == 0 && stat("/proc/1/root/", &init) == 0)
		return self.st_dev != init.st_dev || self.st_ino != init.st_ino;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		char mnt[16];

		found = sscanf(line, "%*s %*s %*s %*s %15s", mnt) == 1 && strcmp(mnt, "/") == 0;
	}
	fclose(f);
	return !found;
}

static int seccomp_mode(void)
{
	char line[128];
	int mode = -1;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	fclose(f);
	return mode;
}

void st_userns_env_read(struct st_userns_env *env)
{
	env->chrooted = chrooted();
	env->proc = access("/proc/self/status", F_OK) == 0;
	env->max_user = read_int("/proc/sys/user/max_user_namespaces");
	env->unpriv_clone = read_int("/proc/sys/kernel/unprivileged_userns_clone");
	env->apparmor_restrict = read_int("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
	env->seccomp = seccomp_mode();
	env->root = geteuid() == 0;
}

/*
 * Each cause is named only on its evidence, and each remedy is one this
 * host has: a sysctl is named only if it exists here. When nothing read
 * explains a refusal, what is left is said as that: the kernel's other
 * reasons (a chroot it could not be told from, a security module's
 * policy), never a sysctl this kernel lacks.
 */
int st_userns_cause(struct st_error *err, int errnum, const struct st_userns_env *env)
{
	int refused = errnum == EPERM || errnum == EACCES;

	if (env->chrooted == 1 && refused)
		st_error_hint(err, "this process runs in a chroot, where the kernel refuses every new user namespace: run sandboxtime outside the chroot, or in a container (pivot_root, not chroot)");
	else if (!env->proc)
		st_error_hint(err, "/proc is not mounted here, and sandboxtime needs it (namespaces, id maps, status): mount it with 'mount -t proc proc /proc'");
	else if (errnum == ENOSPC && env->max_user == 0)
		st_error_hint(err, "sysctl user.max_user_namespaces is 0 here: allow some with sysctl -w user.max_user_namespaces=N");
	else if (refused && !env->root && env->unpriv_clone == 0)
		st_error_hint(err, "unprivileged user namespaces are disabled by sysctl kernel.unprivileged_userns_clone=0: set it to 1");
	else if (refused && !env->root && env->apparmor_restrict == 1)
		st_error_hint(err, "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1): give sandboxtime a profile that allows 'userns,', or set the sysctl to 0");
	else if ((refused || errnum == ENOSYS) && env->seccomp == 2)
		st_error_hint(err, "a seccomp filter refuses it (as Docker's default profile does): run the container with a profile that allows clone and unshare with CLONE_NEWUSER");
	else if (refused)
		st_error_hint(err, "no sysctl, AppArmor setting or seccomp filter here refuses it; the kernel also refuses a chrooted process and one whose uid has no mapping in its user namespace, and a security module (SELinux, a BPF LSM) may: run sandboxtime outside any chroot, as a user mapped where it runs");
	else
		return 0;
	return 1;
}

void st_layer_hint_here(struct st_error *err, int errnum, enum st_layer layer)
{
	struct st_userns_env env;

	if (layer == ST_LAYER_USER) {
		st_userns_env_read(&env);
		if (st_userns_cause(err, errnum, &env))
			return;
	}
	st_layer_hint(err, errnum, layer);
}
