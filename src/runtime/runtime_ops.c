// SPDX-License-Identifier: MIT
/*
 * The runtime's hands on a container's processes: kill (one, or all of its
 * cgroups or pid namespace), waiting for them to go, ps, and the features
 * document. A process is the container's only while its start time is the
 * one recorded: a pid reused by another process is never signalled.
 */
#include <dirent.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <unistd.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/procfs.h"
#include "sandboxtime/runtime_ops.h"
#include "sandboxtime/util.h"
#include "sandboxtime/version.h"

int st_rt_signal_parse(const char *text, int *sig, struct st_error *err)
{
	const char *name = strncasecmp(text, "SIG", 3) == 0 ? text + 3 : text;
	char *end;
	long n = strtol(text, &end, 10);

	if (*text && !*end && n > 0 && n < NSIG) {
		*sig = (int)n;
		return 0;
	}
	for (int s = 1; s < NSIG; s++) {
		const char *abbrev = sigabbrev_np(s);

		if (abbrev && strcasecmp(abbrev, name) == 0) {
			*sig = s;
			return 0;
		}
	}
	return st_error_usage(err, "kill: unknown signal '%s'", text);
}

/* The pids listed by a cgroup directory's cgroup.procs: up to @max into @pids. */
static size_t cgroup_pids(const char *dir, pid_t *pids, size_t max)
{
	char path[ST_CG_PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	return st_read_pids(path, pids, max);
}

/* The pids whose pid namespace is the container process's: up to @max. */
static size_t pidns_pids(pid_t pid, pid_t *pids, size_t max)
{
	char path[64], want[64], got[64];
	struct dirent *de;
	size_t n = 0;
	ssize_t len;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	len = readlink(path, want, sizeof(want) - 1);
	if (len <= 0)
		return 0;
	want[len] = '\0';
	/*
	 * A container without a pid namespace of its own shares ours: its
	 * other processes cannot be told from the host's, so none is listed
	 * (kill --all then signals its own process alone, never the host).
	 */
	len = readlink("/proc/self/ns/pid", got, sizeof(got) - 1);
	if (len <= 0 || (got[len] = '\0', strcmp(got, want) == 0) || !(d = opendir("/proc")))
		return 0;
	while (n < max && (de = readdir(d))) {
		int p = atoi(de->d_name);

		if (p <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", p);
		len = readlink(path, got, sizeof(got) - 1);
		if (len > 0 && (got[len] = '\0', strcmp(got, want) == 0))
			pids[n++] = p;
	}
	closedir(d);
	return n;
}

/* Every process of the container, its own first. */
static size_t container_pids(const struct st_rt_state *s, pid_t *pids, size_t max)
{
	size_t n = 0;

	pids[n++] = s->pid;
	for (size_t i = 0; i < s->ncgroup && n == 1; i++)
		n += cgroup_pids(s->cgroup_dirs[i], pids + n, max - n);
	if (n == 1)
		n += pidns_pids(s->pid, pids + n, max - n);
	return n;
}

int st_rt_kill(const struct st_rt_state *s, int sig, int all, struct st_error *err)
{
	enum st_rt_status st = st_rt_status(s);
	pid_t pids[4096];
	size_t n;

	if (st != ST_RT_RUNNING && st != ST_RT_CREATED)
		return st_error_set(err, ESRCH, "container not running: %s", s->id);
	n = all ? container_pids(s, pids, ARRAY_SIZE(pids)) : 1;
	pids[0] = s->pid;
	for (size_t i = 0; i < n; i++)
		if (kill(pids[i], sig) < 0 && errno != ESRCH && i == 0)
			return st_error_set(err, errno, "kill %s: pid %d", s->id, pids[0]);
	return 0;
}

int st_rt_wait_gone(const struct st_rt_state *s, unsigned int ms, struct st_error *err)
{
	for (unsigned int waited = 0; st_rt_pid_start(s->pid) == s->start_ticks; waited++) {
		if (waited >= ms)
			return st_error_set(err, ETIMEDOUT, "container %s: pid %d still there after %u ms", s->id, s->pid, ms);
		usleep(1000);
	}
	return 0;
}

int st_rt_ps(const struct st_rt_state *s, int json, FILE *out, struct st_error *err)
{
	pid_t pids[4096];
	size_t n = 0;

	if (st_rt_status(s) == ST_RT_RUNNING || st_rt_status(s) == ST_RT_CREATED)
		n = container_pids(s, pids, ARRAY_SIZE(pids));
	/* The container's own pid may be in its cgroup's list too: once each. */
	for (size_t i = 1; i < n; i++)
		if (pids[i] == pids[0])
			pids[i--] = pids[--n];
	if (json) {
		json_auto_t *a = json_array();

		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, json_integer(pids[i]));
		json_dumpf(a, out, JSON_COMPACT);
		fputc('\n', out);
		return 0;
	}
	fprintf(out, "PID\tCMD\n");
	for (size_t i = 0; i < n; i++) {
		char path[64], comm[64] = "?";

		snprintf(path, sizeof(path), "/proc/%d/comm", pids[i]);
		st_read_file(path, comm, sizeof(comm));
		fprintf(out, "%d\t%s\n", pids[i], comm);
	}
	return 0;
}

json_t *st_rt_features(void)
{
	const struct scmp_version *v = seccomp_version();
	json_t *ns = json_array(), *caps = json_array(), *actions, *archs, *doc;
	char version[32];

	char names[2048], *save = NULL;
	unsigned int bits = cap_max_bits();

	/* The runtime-spec's names: "network" where the layer table says "net". */
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		json_array_append_new(ns, json_string(l == ST_LAYER_NET ? "network" : st_layers[l].name));
	st_caps_format(bits >= 64 ? ~0ull : (1ull << bits) - 1, names, sizeof(names));
	for (char *c = strtok_r(names, ",", &save); c; c = strtok_r(NULL, ",", &save))
		json_array_append_new(caps, json_string(c));
	actions = json_pack("[s,s,s,s,s,s,s]", "SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO", "SCMP_ACT_KILL",
			    "SCMP_ACT_KILL_PROCESS", "SCMP_ACT_KILL_THREAD", "SCMP_ACT_LOG", "SCMP_ACT_TRAP");
	archs = json_pack("[s]", "SCMP_ARCH_NATIVE");
	snprintf(version, sizeof(version), "%u.%u.%u", v->major, v->minor, v->micro);
	doc = json_pack("{s:s,s:s}", "ociVersionMin", "1.0.0", "ociVersionMax", "1.0.2");
	json_object_set_new(doc, "hooks", json_pack("[s,s,s,s,s,s]", "prestart", "createRuntime", "createContainer",
						     "startContainer", "poststart", "poststop"));
	json_object_set_new(doc, "mountOptions",
			    json_pack("[s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s]", "ro", "rw", "nosuid", "suid",
				      "nodev", "dev", "noexec", "exec", "bind", "rbind", "private", "rprivate",
				      "shared", "rshared", "slave", "rslave", "relatime", "noatime", "strictatime",
				      "nostrictatime"));
	json_object_set_new(doc, "linux",
			    json_pack("{s:o,s:o,s:{s:b,s:b,s:b},s:{s:b,s:o,s:o,s:o},s:{s:b},s:{s:b}}", "namespaces", ns,
				      "capabilities", caps, "cgroup", "v1", 1, "v2", 1, "systemd", 0, "seccomp",
				      "enabled", 1, "actions", actions, "operators",
				      json_pack("[s,s,s,s,s,s,s]", "SCMP_CMP_EQ", "SCMP_CMP_NE", "SCMP_CMP_LT",
						"SCMP_CMP_LE", "SCMP_CMP_GT", "SCMP_CMP_GE", "SCMP_CMP_MASKED_EQ"),
				      "archs", archs, "apparmor", "enabled", 0, "selinux", "enabled", 0));
	json_object_set_new(doc, "annotations",
			    json_pack("{s:s,s:s}", "io.github.sandboxtime.version", ST_VERSION,
				      "io.github.seccomp.libseccomp.version", version));
	return doc;
}
