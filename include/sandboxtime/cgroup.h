/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CGROUP_H
#define SANDBOXTIME_CGROUP_H

#include <stdint.h>
#include <sys/types.h>

#include "sandboxtime/error.h"
#include "sandboxtime/steps.h"

/*
 * The cgroup resource layer (--cgroup[=PARENT], config.json's
 * linux.resources and linux.cgroupsPath). The sandbox's cgroup is made in
 * every hierarchy that matters here: the unified (v2) one when it is mounted,
 * which the sandbox is born into (clone3 CLONE_INTO_CGROUP), and each v1
 * hierarchy of memory, pids and cpu, which it is moved into before it is
 * released (cgroup.procs). A pure v2 host has only the first, a v1 host only
 * the others, a hybrid host (v1 controllers beside an empty unified tree)
 * both. A limit goes where its controller is: a v1 hierarchy, or else the
 * unified one when the parent enables it in cgroup.subtree_control.
 */

enum st_cg_ctrl {
	ST_CG_MEMORY,
	ST_CG_PIDS,
	ST_CG_CPU,
	ST_CG_DEVICES, /* v1 only: cgroup v2 filters devices with a BPF program, not loaded here */
	ST_CG_NCTRL,
};

/* One rule of linux.resources.devices, as devices.allow/deny take it: "c 1:3 rwm". */
struct st_cg_device {
	int allow;
	char type;        /* 'a', 'c' or 'b' */
	int64_t major;    /* -1: any */
	int64_t minor;    /* -1: any */
	char access[4];   /* of "rwm" */
};

#define ST_CG_MAX_DEVICES 64

/* Limits as config.json gives them; 0: not set, -1: unlimited ("max"). */
struct st_cgroup_limits {
	int64_t memory;      /* memory.limit, bytes */
	int64_t pids;        /* pids.limit */
	int64_t cpu_quota;   /* cpu.quota, us per period */
	uint64_t cpu_period; /* cpu.period, us */
	uint64_t cpu_shares; /* cpu.shares (v1); v2 gets the matching cpu.weight */
	/*
	 * Device rules in order; only set when a rule allows something (deny
	 * all alone is what the /dev sandboxtime makes gives, with no cgroup).
	 */
	size_t ndevices;
	struct st_cg_device devices[ST_CG_MAX_DEVICES];
};

/* What was asked: from the command line and the config. */
struct st_cgroup_spec {
	int enabled;
	const char *parent; /* --cgroup=PARENT (a cgroup path); NULL: our own cgroup */
	const char *path;   /* linux.cgroupsPath; NULL: PARENT/sandboxtime-<pid> */
	struct st_cgroup_limits lim;
};

#define ST_CG_MAX_DIRS 6
#define ST_CG_PATH_MAX 512
#define ST_CG_PREFIX "sandboxtime-"

struct st_cgroup_dir {
	char path[ST_CG_PATH_MAX]; /* the directory in its mounted hierarchy */
	unsigned int ctrls;        /* 1 << st_cg_ctrl it holds limits for */
	int v2;
	int made;
};

/* The sandbox's cgroup, decided by st_cgroup_plan() and made by st_cgroup_create(). */
struct st_cgroup {
	struct st_cgroup_dir dir[ST_CG_MAX_DIRS];
	size_t n;
	int v2_fd;        /* the unified directory, for CLONE_INTO_CGROUP; -1 */
	int clone3;       /* clone3 works here (st_cgroup_plan() asks once) */
	int into_clone;   /* the sandbox is born into v2_fd (clone3 is there) */
	struct st_cgroup_limits lim;
	const char *mode; /* "v2", "v1" or "hybrid" */
};

/*
 * Checks a cgroup path of the command line or config (@what names it):
 * no "." or ".." component, no empty one, no systemd "slice:prefix:name".
 * @absolute: it must start with '/'. Returns 0 or -EINVAL (a usage error).
 */
int st_cgroup_path_check(const char *what, const char *path, int absolute, struct st_error *err);

/* cpu.shares (2..262144) as cgroup v2's cpu.weight (1..10000), as runc converts it. */
uint64_t st_cgroup_shares_to_weight(uint64_t shares);

/*
 * Finds the hierarchies of this host (@mountinfo, @self_cgroup: normally
 * /proc/self/mountinfo and /proc/self/cgroup) and decides the sandbox's
 * directories in them for @spec, named for @pid. Checks that each parent
 * exists and is writable and that every limit has its controller. Returns
 * 0, or -errno with @err saying why and what to do (the caller decides
 * whether that is fatal or the layer is unavailable).
 */
int st_cgroup_plan_at(const struct st_cgroup_spec *spec, pid_t pid, const char *mountinfo,
		      const char *self_cgroup, struct st_cgroup *cg, struct st_error *err);
int st_cgroup_plan(const struct st_cgroup_spec *spec, struct st_cgroup *cg, struct st_error *err);

/* Steps cgroup_mkdir and cgroup_limits: makes the directories and writes the limits. */
int st_cgroup_create(struct st_cgroup *cg, struct st_steps *steps, struct st_error *err);

/* Step cgroup_attach: moves @pid into the directories it was not born in. */
int st_cgroup_attach(struct st_cgroup *cg, pid_t pid, struct st_steps *steps, struct st_error *err);

/*
 * Step cgroup_rmdir: removes what st_cgroup_create() made, once the sandbox
 * is gone (what is still in it is killed first: it is ours). Safe to call
 * on any path, more than once.
 */
int st_cgroup_remove(struct st_cgroup *cg, struct st_steps *steps, struct st_error *err);

/*
 * The steps' work, untimed, for the measurement (cgroup_measure.c):
 * mkdir every directory (opening the unified one), write the limits, move
 * @pid (@all: into the unified one too), remove what was made.
 */
int st_cgroup_mkdirs(struct st_cgroup *cg, struct st_error *err);
int st_cgroup_write_limits(struct st_cgroup *cg, struct st_error *err);
int st_cgroup_move(struct st_cgroup *cg, pid_t pid, int all, struct st_error *err);
int st_cgroup_rmdirs(struct st_cgroup *cg, struct st_error *err);

/*
 * Removes the directory @path and every directory below it, deepest first,
 * killing (by pid) what the cgroup.procs of each still lists. For
 * st_cgroup_remove() and `cleanup`.
 */
int st_cgroup_rmdir_tree(const char *path, struct st_error *err);

/* The mount points of the hierarchies st_cgroup_plan() would use (up to @max). */
int st_cgroup_mounts(char (*mnt)[256], size_t max, size_t *n, struct st_error *err);

/*
 * The state marker of cgroups named by the bundle (cgroup_marker.c): the
 * directory (-ENOENT: rootless without XDG_RUNTIME_DIR), written after the
 * directories are made, removed with them. Best effort: -errno, never fatal.
 */
int st_cgroup_marker_dir(char *buf, size_t len);
int st_cgroup_marker_write(const struct st_cgroup *cg);
void st_cgroup_marker_remove(void);

/*
 * `cleanup`: the sandboxtime-<pid> cgroups of dead sandboxtimes, in every
 * hierarchy, and those their markers list.
 */
struct st_cgroup_leftovers {
	size_t found, removed, kept;
};
int st_cgroup_cleanup(int dry_run, int quiet, struct st_cgroup_leftovers *out, struct st_error *err);

#endif
