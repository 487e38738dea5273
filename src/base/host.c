// SPDX-License-Identifier: MIT
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/error.h"
#include "sandboxtime/host.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

int st_host_mem_available_mb(uint64_t *out, struct st_error *err)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kb;
	char line[128];

	*out = 0;
	if (!f)
		return st_error_set(err, errno, "/proc/meminfo");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			*out = kb / 1024;
			return 0;
		}
	}
	return st_error_set(err, ENOENT, "/proc/meminfo has no MemAvailable (Linux 3.14 or later)");
}

int st_host_is_rootless(void)
{
	char map[128];
	unsigned int inner, outer, count;

	if (geteuid() != 0)
		return 1;
	/* uid 0 of a container is only root when its map is the identity. */
	if (st_read_file("/proc/self/uid_map", map, sizeof(map)) < 0)
		return 0;
	if (sscanf(map, "%u %u %u", &inner, &outer, &count) != 3)
		return 1;
	return !(inner == 0 && outer == 0 && count == 4294967295u);
}

static void read_cpuinfo(struct st_host *h)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	h->virtualized = -1;
	if (!f)
		return;
	h->virtualized = 0;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!h->cpu_model[0] && strncmp(line, "model name", 10) == 0) {
			snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", colon + 2);
			h->cpu_model[strcspn(h->cpu_model, "\n")] = '\0';
		}
		if (strncmp(line, "flags", 5) == 0 && strstr(colon, " hypervisor")) {
			h->virtualized = 1;
			break;
		}
	}
	fclose(f);
}

static const char *cgroup_mode(void)
{
	struct statfs s;

	if (statfs("/sys/fs/cgroup", &s) < 0)
		return "none";
	if (s.f_type == CGROUP2_SUPER_MAGIC)
		return "v2";
	if (statfs("/sys/fs/cgroup/unified", &s) == 0 && s.f_type == CGROUP2_SUPER_MAGIC)
		return "hybrid";
	return "v1";
}

void st_host_identify(struct st_host *h, int pinned_cpu)
{
	memset(h, 0, sizeof(*h));
	h->rootless = st_host_is_rootless();
	h->uid = getuid();
	h->pinned_cpu = pinned_cpu;
	st_steal_begin(&h->steal);
}

void st_host_collect(struct st_host *h)
{
	struct utsname u;
	char buf[16];

	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
	h->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	read_cpuinfo(h);
	h->rcu_expedited = st_read_file("/sys/kernel/rcu_expedited", buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
	snprintf(h->cgroup, sizeof(h->cgroup), "%s", cgroup_mode());
	h->clone_call = st_clone_call();
	st_steal_end(&h->steal);
}
