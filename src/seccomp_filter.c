// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <stdarg.h>
#include <jansson.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "sandboxtime/seccomp_filter.h"

/* Where in the profile a problem is: the file and a JSON path. */
struct where {
	const char *file;
	char path[64];
};

static int _printf_(3, 4) bad(struct st_error *err, const struct where *w, const char *fmt, ...)
{
	char what[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return st_error_usage(err, "%s: %s: %s", w->file, w->path[0] ? w->path : ".", what);
}

static const struct {
	const char *name;
	uint32_t action;
	int takes_errno;
} actions[] = {
	{ "SCMP_ACT_ALLOW", SCMP_ACT_ALLOW, 0 },
	{ "SCMP_ACT_ERRNO", 0, 1 }, /* SCMP_ACT_ERRNO(errnoRet) */
	{ "SCMP_ACT_KILL", SCMP_ACT_KILL, 0 },
	{ "SCMP_ACT_KILL_THREAD", SCMP_ACT_KILL_THREAD, 0 },
	{ "SCMP_ACT_KILL_PROCESS", SCMP_ACT_KILL_PROCESS, 0 },
	{ "SCMP_ACT_TRAP", SCMP_ACT_TRAP, 0 },
	{ "SCMP_ACT_LOG", SCMP_ACT_LOG, 0 },
};

static const struct {
	const char *name;
	enum scmp_compare op;
} ops[] = {
	{ "SCMP_CMP_NE", SCMP_CMP_NE },	{ "SCMP_CMP_LT", SCMP_CMP_LT },
	{ "SCMP_CMP_LE", SCMP_CMP_LE },	{ "SCMP_CMP_EQ", SCMP_CMP_EQ },
	{ "SCMP_CMP_GE", SCMP_CMP_GE },	{ "SCMP_CMP_GT", SCMP_CMP_GT },
	{ "SCMP_CMP_MASKED_EQ", SCMP_CMP_MASKED_EQ },
};

static int parse_action(json_t *v, json_t *errno_ret, int default_errno, const struct where *w,
			uint32_t *out, struct st_error *err)
{
	const char *name = json_string_value(v);

	if (!name)
		return bad(err, w, "%s", "must be a string like \"SCMP_ACT_ALLOW\"");
	for (size_t i = 0; i < ARRAY_SIZE(actions); i++) {
		if (strcmp(name, actions[i].name) != 0)
			continue;
		if (!actions[i].takes_errno) {
			*out = actions[i].action;
			return 0;
		}
		if (errno_ret && !json_is_integer(errno_ret))
			return bad(err, w, "%s", "errnoRet must be a number");
		*out = SCMP_ACT_ERRNO(errno_ret ? (uint16_t)json_integer_value(errno_ret)
						: (uint16_t)default_errno);
		return 0;
	}
	return bad(err, w, "unknown action \"%s\"", name);
}

/* "SCMP_ARCH_X86_64" -> libseccomp's "x86_64". */
static int add_arch(scmp_filter_ctx ctx, json_t *v, const struct where *w, struct st_error *err)
{
	const char *name = json_string_value(v);
	char lower[32];
	uint32_t arch;
	size_t i;
	int ret;

	if (!name || strncmp(name, "SCMP_ARCH_", 10) != 0)
		return bad(err, w, "%s", "must be a string like \"SCMP_ARCH_X86_64\"");
	for (i = 0; name[10 + i] && i + 1 < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)name[10 + i]);
	lower[i] = '\0';
	arch = seccomp_arch_resolve_name(lower);
	if (!arch)
		return bad(err, w, "unknown architecture \"%s\"", name);
	ret = seccomp_arch_add(ctx, arch);
	if (ret < 0 && ret != -EEXIST)
		return bad(err, w, "cannot add architecture \"%s\" to the filter", name);
	return 0;
}

static int parse_args(json_t *args, const struct where *parent, struct scmp_arg_cmp *cmp,
		      unsigned int *n, struct st_error *err)
{
	struct where w = *parent;
	size_t i;
	json_t *a;

	*n = 0;
	if (!args)
		return 0;
	if (!json_is_array(args) || json_array_size(args) > 6)
		return bad(err, parent, "%s", "args must be an array of at most 6 comparisons");
	json_array_foreach(args, i, a) {
		json_t *index = json_object_get(a, "index"), *value = json_object_get(a, "value");
		json_t *two = json_object_get(a, "valueTwo");
		const char *op = json_string_value(json_object_get(a, "op"));
		size_t k;

		snprintf(w.path, sizeof(w.path), "%s.args[%zu]", parent->path, i);
		if (!json_is_integer(index) || json_integer_value(index) < 0 || json_integer_value(index) > 5)
			return bad(err, &w, "%s", "index must be 0 to 5");
		if (!json_is_integer(value) || (two && !json_is_integer(two)))
			return bad(err, &w, "%s", "value and valueTwo must be numbers");
		for (k = 0; op && k < ARRAY_SIZE(ops) && strcmp(op, ops[k].name) != 0; k++)
			;
		if (!op || k == ARRAY_SIZE(ops))
			return bad(err, &w, "unknown op \"%s\"", op ? op : "(missing)");
		cmp[*n].arg = (unsigned int)json_integer_value(index);
		cmp[*n].op = ops[k].op;
		/* MASKED_EQ: (arg & value) == valueTwo, as the OCI spec and runc read it. */
		cmp[*n].datum_a = (scmp_datum_t)json_integer_value(value);
		cmp[*n].datum_b = two ? (scmp_datum_t)json_integer_value(two) : 0;
		(*n)++;
	}
	return 0;
}

static void note_unknown(struct st_seccomp *out, const char *name)
{
	size_t used = strlen(out->unknown_names);

	out->unknown++;
	if (used + strlen(name) + 2 < sizeof(out->unknown_names))
		snprintf(out->unknown_names + used, sizeof(out->unknown_names) - used, "%s%s",
			 used ? "," : "", name);
}

static int add_rule(scmp_filter_ctx ctx, json_t *rule, size_t idx, int default_errno,
		    const char *file, struct st_seccomp *out, struct st_error *err)
{
	struct where w = { .file = file };
	json_t *names = json_object_get(rule, "names"), *name;
	struct scmp_arg_cmp cmp[6];
	unsigned int ncmp = 0;
	uint32_t action;
	size_t i;
	int ret;

	snprintf(w.path, sizeof(w.path), ".syscalls[%zu]", idx);
	if (!json_is_object(rule))
		return bad(err, &w, "%s", "must be an object");
	/* "name" is the spec's older single-name form. */
	if (!names && json_is_string(json_object_get(rule, "name")))
		names = json_pack("[O]", json_object_get(rule, "name"));
	else
		json_incref(names);
	if (!json_is_array(names)) {
		json_decref(names);
		return bad(err, &w, "%s", "names must be an array of syscall names");
	}
	snprintf(w.path, sizeof(w.path), ".syscalls[%zu].action", idx);
	ret = parse_action(json_object_get(rule, "action"), json_object_get(rule, "errnoRet"),
			   default_errno, &w, &action, err);
	snprintf(w.path, sizeof(w.path), ".syscalls[%zu]", idx);
	if (ret == 0)
		ret = parse_args(json_object_get(rule, "args"), &w, cmp, &ncmp, err);
	json_array_foreach(names, i, name) {
		int nr;

		if (ret < 0)
			break;
		if (!json_is_string(name)) {
			snprintf(w.path, sizeof(w.path), ".syscalls[%zu].names[%zu]", idx, i);
			ret = bad(err, &w, "%s", "must be a string");
			break;
		}
		/* Unknown to this libseccomp or arch: reported once and skipped, like runc. */
		nr = seccomp_syscall_resolve_name(json_string_value(name));
		if (nr == __NR_SCMP_ERROR) {
			note_unknown(out, json_string_value(name));
			continue;
		}
		ret = seccomp_rule_add_array(ctx, action, nr, ncmp, cmp);
		if (ret < 0) {
			snprintf(w.path, sizeof(w.path), ".syscalls[%zu].names[%zu]", idx, i);
			ret = st_error_set(err, -ret, "%s: %s: cannot add a rule for %s", file, w.path,
					   json_string_value(name));
			break;
		}
		out->rules++;
	}
	json_decref(names);
	return ret;
}

/* seccomp_export_bpf writes to an fd (libseccomp 2.5): a memfd brings it back. */
static int export_prog(scmp_filter_ctx ctx, struct st_seccomp *out, struct st_error *err)
{
	_cleanup_close_ int fd = memfd_create("sandboxtime-seccomp", MFD_CLOEXEC);
	off_t size;
	int ret;

	if (fd < 0)
		return st_error_set(err, errno, "seccomp: memfd_create");
	ret = seccomp_export_bpf(ctx, fd);
	if (ret < 0)
		return st_error_set(err, -ret, "seccomp: exporting the filter");
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0 || size % (off_t)sizeof(struct sock_filter))
		return st_error_set(err, EPROTO, "seccomp: exported filter has %lld bytes", (long long)size);
	out->prog = malloc((size_t)size);
	if (!out->prog)
		return st_error_set(err, ENOMEM, "seccomp");
	if (pread(fd, out->prog, (size_t)size, 0) != size)
		return st_error_set(err, errno ? errno : EIO, "seccomp: reading the exported filter");
	out->len = (size_t)size / sizeof(struct sock_filter);
	return 0;
}

static void ctx_releasep(scmp_filter_ctx *ctx)
{
	if (*ctx)
		seccomp_release(*ctx);
}

static int compile_doc(json_t *doc, const char *file, struct st_seccomp *out, struct st_error *err)
{
	_cleanup_(ctx_releasep) scmp_filter_ctx ctx = NULL;
	struct where w = { .file = file };
	json_t *errno_default = json_object_get(doc, "defaultErrnoRet");
	json_t *arches = json_object_get(doc, "architectures");
	json_t *rules = json_object_get(doc, "syscalls"), *v;
	int default_errno = EPERM;
	uint32_t default_action;
	size_t i;
	int ret;

	if (!json_is_object(doc))
		return bad(err, &w, "%s", "a profile is a JSON object");
	if (errno_default && !json_is_integer(errno_default)) {
		snprintf(w.path, sizeof(w.path), ".defaultErrnoRet");
		return bad(err, &w, "%s", "must be a number");
	}
	if (errno_default)
		default_errno = (int)json_integer_value(errno_default);
	snprintf(w.path, sizeof(w.path), ".defaultAction");
	ret = parse_action(json_object_get(doc, "defaultAction"), errno_default, default_errno, &w,
			   &default_action, err);
	if (ret < 0)
		return ret;
	ctx = seccomp_init(default_action);
	if (!ctx)
		return st_error_set(err, ENOMEM, "seccomp: seccomp_init");
	if (arches && !json_is_array(arches)) {
		snprintf(w.path, sizeof(w.path), ".architectures");
		return bad(err, &w, "%s", "must be an array");
	}
	json_array_foreach(arches, i, v) {
		snprintf(w.path, sizeof(w.path), ".architectures[%zu]", i);
		ret = add_arch(ctx, v, &w, err);
		if (ret < 0)
			return ret;
	}
	if (rules && !json_is_array(rules)) {
		snprintf(w.path, sizeof(w.path), ".syscalls");
		return bad(err, &w, "%s", "must be an array");
	}
	json_array_foreach(rules, i, v) {
		ret = add_rule(ctx, v, i, default_errno, file, out, err);
		if (ret < 0)
			return ret;
	}
	return export_prog(ctx, out, err);
}

int st_seccomp_compile(const char *spec, struct st_seccomp *out, struct st_error *err)
{
	json_auto_t *doc = NULL;
	json_error_t jerr;
	const char *file = spec;

	memset(out, 0, sizeof(*out));
	if (strcmp(spec, "none") == 0)
		return 0;
	if (strcmp(spec, "default") == 0) {
		file = "default profile";
		doc = json_loadb(st_seccomp_default_json, st_seccomp_default_json_len, 0, &jerr);
	} else {
		doc = json_load_file(spec, 0, &jerr);
	}
	if (!doc)
		return st_error_usage(err, "--seccomp: %s:%d: %s", file, jerr.line, jerr.text);
	snprintf(out->source, sizeof(out->source), "%s", spec);
	return compile_doc(doc, file, out, err);
}

int st_seccomp_load(const struct st_seccomp *f, struct st_error *err)
{
	struct sock_fprog prog = { .len = (unsigned short)f->len, .filter = f->prog };

	if (!f->prog)
		return 0;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return st_error_set(err, errno, "seccomp: loading the filter");
	return 0;
}

void st_seccomp_free(struct st_seccomp *f)
{
	free(f->prog);
	f->prog = NULL;
}
