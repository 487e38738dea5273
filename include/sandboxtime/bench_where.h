/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_WHERE_H
#define SANDBOXTIME_BENCH_WHERE_H

#include <limits.h>

#include "sandboxtime/bench_grid.h"

/*
 * `bench where` (issue 14.2): the articles' "container vs VM vs emulation"
 * table. One static program, sandboxtime-probe, runs the same small
 * programs (a function call, write of one byte to /dev/null, getppid,
 * memset and memcpy of 64 MiB with a checksum, fork of a 100 MiB parent) in
 * four places: on the host, in the full sandbox (`sandboxtime -- probe`,
 * the default hardened run), as /init of a microVM (qemu-system-x86_64 -M
 * microvm with Debian's kernel and an initramfs sandboxtime writes), and
 * built for aarch64 under qemu-user. One more figure per place: from
 * starting it (exec of the probe, of sandboxtime, of qemu) to the probe's
 * first line, which for the microVM is boot to the first instruction of
 * /init. A place whose program, kernel or accelerator is missing is
 * unavailable, with the reason, and the rest runs.
 */
enum st_where_place {
	ST_WHERE_HOST,
	ST_WHERE_SANDBOX,
	ST_WHERE_VM,
	ST_WHERE_EMULATION,
	ST_WHERE_PLACES,
};

#define ST_WHERE_OPS 7 /* the probe's figures, then start */
/* Each round boots a VM; the probe's loops already average millions of calls. */
#define ST_WHERE_DEFAULT_REPEAT 5u

struct st_where_opts {
	const char *kernel;   /* --kernel; NULL: /boot/vmlinuz-$(uname -r), else the newest */
	const char *vm_accel; /* --vm-accel: "kvm" (the default) or "tcg" */
	const char *ns;       /* --ns as given, for the sandbox's run; NULL: the run's default */
};

struct st_bench_where {
	struct st_bench_grid g;
	char self[PATH_MAX];          /* this sandboxtime, which makes the sandbox */
	char probe[PATH_MAX];         /* sandboxtime-probe for this machine */
	char probe_foreign[PATH_MAX]; /* sandboxtime-probe-aarch64 */
	char qemu_user[PATH_MAX];     /* qemu-aarch64-static or qemu-aarch64 */
	char qemu_system[PATH_MAX];   /* qemu-system-x86_64 */
	char kernel[PATH_MAX];
	char ns_arg[256];             /* "--ns=..." or "" */
	const char *vm_accel;
	char vm_place[16];            /* "vm-kvm" or "vm-tcg" */
	int initramfs_fd;             /* the microVM's /init, in memory; -1: none */
	char vm_cmdline[128];         /* the microVM kernel's command line */
	unsigned int first_line_s;    /* a place that prints nothing for this long failed */
};

int st_bench_where_prepare(struct st_bench_where *b, unsigned int repeat,
			   const struct st_where_opts *o, struct st_error *err);
extern const struct st_grid_bench st_bench_where_grid;

#endif
