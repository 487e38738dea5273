// SPDX-License-Identifier: MIT
/*
 * bench where: the same probe in four places (bench_where.h). Each round
 * starts each place once, in the grid's rotating order; a place's child
 * starts the probe there, times exec to the probe's first line, reads its
 * figures from its second line and checks them. The microVM and qemu-user
 * are found before the first round; what is missing makes the place
 * unavailable with the reason instead of failing the bench.
 */
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sandboxtime/bench_where.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/initramfs.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"
#include "sandboxtime/where_probe.h"

/* The Makefile passes make install's LIBEXECDIR. */
#ifndef ST_LIBEXECDIR
#define ST_LIBEXECDIR "/usr/local/libexec/sandboxtime"
#endif

#define OP_START ST_PROBE_FIGURES
#define PLACE_TIMEOUT_S 60u   /* a place's whole run, after its first line */
#define FIRST_LINE_S 30u      /* host, sandbox, qemu-user: exec to the first line */
#define VM_KVM_FIRST_LINE_S 20u /* a KVM microVM boots in about a second */
#define VM_TCG_FIRST_LINE_S 120u
#define EXIT_WAIT_MS 10000u   /* after the result line: the VM powers off */
#define VM_MEMORY "512M"      /* the probe touches 228 MiB */
#define OUTPUT_MAX 8192

static const char *const where_ops[ST_WHERE_OPS] = {
	"call", "write_devnull", "getppid", "memset_64mib", "memcpy_64mib", "fork_100mb", "start",
};
static const char *const where_units[ST_WHERE_OPS] = { "ns", "ns", "ns", "us", "us", "us", "us" };

static const char method[] =
	"One static program, sandboxtime-probe, times each operation in a loop (10 million calls; "
	"200,000 writes and getppids; 4 passes over 64 MiB, both buffers touched first; 5 forks of a "
	"parent with 100 MiB touched, each until reaped) and checks each against a count or checksum "
	"it must equal. It runs unchanged on the host, in the sandbox (sandboxtime -q [--ns] -- probe: "
	"the default hardened run), as /init of a qemu microVM (-M microvm, 1 vCPU, 512 MiB, the "
	"kernel's own console on a serial port, an initramfs written to memory) and, built for "
	"aarch64, under qemu-user. start: from the fork that starts the place to the probe's first "
	"line, so for the microVM boot to its first instruction of /init plus qemu's own start. Under "
	"--vm-accel=tcg the guest is told the host's TSC rate (tsc_early_khz, from /proc/cpuinfo): "
	"its clock is as right as that figure.";

static int executable(const char *path)
{
	return access(path, X_OK) == 0;
}

/* @name beside this binary, then in LIBEXECDIR (make install). */
static int find_probe(const char *self, const char *name, char *out, size_t len)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(self, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - self) : 1, slash ? self : ".");
	snprintf(out, len, "%s/%s", dir, name);
	if (executable(out))
		return 0;
	snprintf(out, len, "%s/%s", ST_LIBEXECDIR, name);
	return executable(out) ? 0 : -ENOENT;
}

/* --kernel, else /boot/vmlinuz-$(uname -r), else the newest /boot/vmlinuz-*. */
static int find_kernel(const char *given, char *out, size_t len, char *why, size_t wlen)
{
	struct utsname u;
	glob_t gl;
	int fd;

	if (given)
		snprintf(out, len, "%s", given);
	else if (uname(&u) == 0 && snprintf(out, len, "/boot/vmlinuz-%s", u.release) > 0 &&
		 access(out, F_OK) == 0)
		;
	else if (glob("/boot/vmlinuz-*", 0, NULL, &gl) == 0) {
		/* glob sorts: the last has the highest version in Debian's names. */
		snprintf(out, len, "%s", gl.gl_pathv[gl.gl_pathc - 1]);
		globfree(&gl);
	} else {
		snprintf(why, wlen, "no kernel in /boot: install Debian's linux-image-amd64 or pass "
			 "--kernel=PATH");
		return -ENOENT;
	}
	fd = open(out, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, wlen, "cannot read the kernel %s: %s%s", out, strerror(errno),
			 errno == EACCES ? " (Debian's /boot/vmlinuz-* are root's: copy one, or run as "
					   "root)" : "");
		return -errno;
	}
	close(fd);
	return 0;
}

static _printf_(3, 4) void unavailable(struct st_bench_where *b, size_t place, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->g.unavailable[place], sizeof(b->g.unavailable[place]), fmt, ap);
	va_end(ap);
}

/* The host's TSC rate in kHz, as /proc/cpuinfo's first "cpu MHz" says; 0: unknown. */
static unsigned long host_tsc_khz(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/cpuinfo", "re");
	char line[256];
	double mhz;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) == 1 && mhz > 0)
			return (unsigned long)(mhz * 1000);
	return 0;
}

/*
 * Under TCG, Debian's kernel calibrates the TSC against the emulated PIT,
 * which fails about every other boot, and then waits for a timer that never
 * ticks: the guest is told the rate instead (qemu's emulated TSC is the
 * host's), so its clock is as good as that figure.
 */
static void set_cmdline(struct st_bench_where *b)
{
	unsigned long khz = strcmp(b->vm_accel, "tcg") == 0 ? host_tsc_khz() : 0;
	int n = snprintf(b->vm_cmdline, sizeof(b->vm_cmdline), "console=ttyS0 quiet panic=-1");

	if (khz)
		snprintf(b->vm_cmdline + n, sizeof(b->vm_cmdline) - (size_t)n, " tsc_early_khz=%lu", khz);
}

static void prepare_vm(struct st_bench_where *b, const struct st_where_opts *o, struct st_error *err)
{
	static const char *const qemu[] = { "qemu-system-x86_64" };
	char *why = b->g.unavailable[ST_WHERE_VM];
	size_t wlen = sizeof(b->g.unavailable[ST_WHERE_VM]);
	int fd;

	if (st_find_on_path(qemu, ARRAY_SIZE(qemu), b->qemu_system, sizeof(b->qemu_system)) < 0)
		return unavailable(b, ST_WHERE_VM, "no qemu-system-x86_64 on PATH: install Debian's "
				   "qemu-system-x86");
	if (find_kernel(o->kernel, b->kernel, sizeof(b->kernel), why, wlen) < 0)
		return;
	if (strcmp(b->vm_accel, "kvm") == 0) {
		fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return (void)snprintf(why, wlen, "cannot open /dev/kvm: %s (%s)", strerror(errno),
					      errno == ENOENT ? "no KVM on this machine: --vm-accel=tcg "
								"emulates the VM instead" :
					      "run as root or as a member of its group; --vm-accel=tcg "
					      "emulates the VM instead");
		close(fd);
	}
	set_cmdline(b);
	fd = st_initramfs_memfd(b->probe, err);
	if (fd < 0)
		return (void)st_error_format(err, why, wlen);
	b->initramfs_fd = fd;
}

int st_bench_where_prepare(struct st_bench_where *b, unsigned int repeat,
			   const struct st_where_opts *o, struct st_error *err)
{
	static const char *const qemu_user[] = { "qemu-aarch64-static", "qemu-aarch64" };
	const char *places[ST_WHERE_PLACES];
	ssize_t n;
	int ret;

	memset(b, 0, sizeof(*b));
	b->initramfs_fd = -1;
	b->vm_accel = o->vm_accel ? o->vm_accel : "kvm";
	snprintf(b->vm_place, sizeof(b->vm_place), "vm-%s", b->vm_accel);
	places[ST_WHERE_HOST] = "host";
	places[ST_WHERE_SANDBOX] = "sandbox";
	places[ST_WHERE_VM] = b->vm_place;
	places[ST_WHERE_EMULATION] = "qemu-aarch64";
	ret = st_grid_init(&b->g, "where", "us", repeat, places, ST_WHERE_PLACES, where_ops,
			   ST_WHERE_OPS, err);
	if (ret < 0)
		return ret;
	b->g.op_units = where_units;
	b->g.method = method;
	if (o->ns)
		snprintf(b->ns_arg, sizeof(b->ns_arg), "--ns=%s", o->ns);
	n = readlink("/proc/self/exe", b->self, sizeof(b->self) - 1);
	if (n <= 0)
		return st_error_set(err, errno, "bench where: /proc/self/exe");
	b->self[n] = '\0';
	if (find_probe(b->self, "sandboxtime-probe", b->probe, sizeof(b->probe)) < 0)
		return st_error_set(err, ENOENT, "bench where: no sandboxtime-probe beside %s or in %s "
				    "(make builds it; make install puts it there)", b->self, ST_LIBEXECDIR);
	b->first_line_s = strcmp(b->vm_accel, "tcg") == 0 ? VM_TCG_FIRST_LINE_S : VM_KVM_FIRST_LINE_S;
	prepare_vm(b, o, err);
	if (find_probe(b->self, "sandboxtime-probe-aarch64", b->probe_foreign,
		       sizeof(b->probe_foreign)) < 0)
		unavailable(b, ST_WHERE_EMULATION, "no sandboxtime-probe-aarch64 beside %s: install "
			    "Debian's gcc-aarch64-linux-gnu and libc6-dev-arm64-cross, then make", b->self);
	else if (st_find_on_path(qemu_user, ARRAY_SIZE(qemu_user), b->qemu_user, sizeof(b->qemu_user)) < 0)
		unavailable(b, ST_WHERE_EMULATION, "no qemu-aarch64-static on PATH: install Debian's "
			    "qemu-user-static");
	return 0;
}

/* The argv that starts @place, in @argv (at most 32 entries). */
static void place_argv(const struct st_bench_where *b, size_t place, const char **argv, char *initrd,
		       size_t ilen)
{
	size_t n = 0;

	switch (place) {
	case ST_WHERE_HOST:
		argv[n++] = b->probe;
		break;
	case ST_WHERE_SANDBOX:
		argv[n++] = b->self;
		argv[n++] = "-q";
		/* Only build the sandbox and run the probe: no layer is measured first. */
		argv[n++] = "--repeat=0";
		if (b->ns_arg[0])
			argv[n++] = b->ns_arg;
		argv[n++] = "--";
		argv[n++] = b->probe;
		break;
	case ST_WHERE_VM:
		snprintf(initrd, ilen, "/dev/fd/%d", b->initramfs_fd);
		argv[n++] = b->qemu_system;
		argv[n++] = "-M";
		/* Debian's kernel waits for the legacy timers while it calibrates. */
		argv[n++] = "microvm,pit=on,pic=on,rtc=on";
		argv[n++] = "-accel";
		argv[n++] = b->vm_accel;
		argv[n++] = "-cpu";
		argv[n++] = strcmp(b->vm_accel, "kvm") == 0 ? "host" : "max";
		argv[n++] = "-m";
		argv[n++] = VM_MEMORY;
		argv[n++] = "-smp";
		argv[n++] = "1";
		argv[n++] = "-nodefaults";
		argv[n++] = "-no-user-config";
		argv[n++] = "-display";
		argv[n++] = "none";
		argv[n++] = "-monitor";
		argv[n++] = "none";
		argv[n++] = "-serial";
		argv[n++] = "stdio";
		argv[n++] = "-no-reboot";
		argv[n++] = "-kernel";
		argv[n++] = b->kernel;
		argv[n++] = "-initrd";
		argv[n++] = initrd;
		argv[n++] = "-append";
		argv[n++] = b->vm_cmdline;
		break;
	default:
		argv[n++] = b->qemu_user;
		argv[n++] = b->probe_foreign;
		break;
	}
	argv[n] = NULL;
}

/* What a place printed, line by line: the probe's two lines and the last other one. */
struct output {
	char buf[OUTPUT_MAX];
	size_t used;
	uint64_t start_ns;     /* when its first line came; 0: not yet */
	int have_result;
	struct st_probe_result result;
	char last_other[160]; /* the last line that was not the probe's: qemu's error, say */
	struct st_error err;
	int parse_failed;
};

static void take_line(struct output *o, char *line, uint64_t now)
{
	size_t len = strlen(line);

	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		line[--len] = '\0';
	while (*line == '\r')
		line++;
	if (strcmp(line, ST_PROBE_START_LINE) == 0) {
		if (!o->start_ns)
			o->start_ns = now;
	} else if (strncmp(line, ST_PROBE_RESULT_PREFIX, strlen(ST_PROBE_RESULT_PREFIX)) == 0) {
		o->have_result = 1;
		o->parse_failed = st_probe_parse(line, &o->result, &o->err) < 0;
	} else if (*line) {
		snprintf(o->last_other, sizeof(o->last_other), "%s", line);
	}
}

/* Reads what is there; 0 at the end of the output, 1 for more, <0 on error. */
static int read_some(int fd, struct output *o)
{
	ssize_t n = read(fd, o->buf + o->used, sizeof(o->buf) - 1 - o->used);
	uint64_t now = st_now_ns();
	char *nl;

	if (n < 0)
		return errno == EINTR ? 1 : -errno;
	if (n == 0)
		return 0;
	o->used += (size_t)n;
	o->buf[o->used] = '\0';
	while ((nl = memchr(o->buf, '\n', o->used)) != NULL) {
		size_t len = (size_t)(nl - o->buf) + 1;

		*nl = '\0';
		take_line(o, o->buf, now);
		memmove(o->buf, o->buf + len, o->used - len);
		o->used -= len;
	}
	/* A line longer than the buffer is no line of the probe's: drop it. */
	if (o->used == sizeof(o->buf) - 1)
		o->used = 0;
	return 1;
}

static _noreturn_ void exec_place(const char *const *argv, int out)
{
	int null = open("/dev/null", O_RDWR);

	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(127);
	st_signals_restore();
	execv(argv[0], (char *const *)argv);
	_exit(127);
}

/* Reads until the result line or @first_line_s without a first line; the child exits after. */
static int collect(int fd, unsigned int first_line_s, uint64_t t0, struct output *o)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int ret = 1;

	while (ret > 0 && !o->have_result) {
		uint64_t limit = t0 + (uint64_t)(o->start_ns ? first_line_s + PLACE_TIMEOUT_S :
							       first_line_s) * 1000000000ull;
		uint64_t now = st_now_ns();

		if (now >= limit || st_signals_poll())
			return -ETIMEDOUT;
		ret = poll(&p, 1, (int)((limit - now) / 1000000 + 1));
		if (ret > 0)
			ret = read_some(fd, o);
		else if (ret < 0 && errno == EINTR)
			ret = 1;
		else if (ret < 0)
			ret = -errno;
		else
			ret = 1;
	}
	return ret < 0 ? ret : 0;
}

/* Waits up to EXIT_WAIT_MS for @pid (the VM powering off), then kills it. */
static int wait_exit(pid_t pid, int *status)
{
	for (unsigned int ms = 0; ms < EXIT_WAIT_MS; ms += 5) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0)
			return -errno;
		st_sleep_ms(5);
	}
	kill(pid, SIGKILL);
	return waitpid(pid, status, 0) == pid ? -ETIMEDOUT : -errno;
}

/* The place failed: @what, and the last thing it said that was not the probe's. */
static void fail(struct st_grid_result *r, const struct st_bench_where *b, size_t place,
		 const struct output *o, const char *what)
{
	r->failed = 1;
	st_error_set(&r->err, 0, "%s%s%s%s", what, o->last_other[0] ? " (it said: " : "",
		     o->last_other, o->last_other[0] ? ")" : "");
	if (place == ST_WHERE_VM && !o->start_ns && strcmp(b->vm_accel, "kvm") == 0 &&
	    access("/sys/module/kvm_pvm", F_OK) == 0)
		st_error_hint(&r->err, "/dev/kvm is kvm_pvm's here: it runs only PVM guest kernels "
			      "at speed, and Debian's is none; --vm-accel=tcg emulates the VM");
}

static void sample(const struct st_bench_grid *g, size_t place, void *ctx, struct st_grid_result *r)
{
	const struct st_bench_where *b = ctx;
	const char *argv[40];
	char initrd[32], what[256];
	_cleanup_close_ int rd = -1, wr = -1;
	struct output o;
	unsigned int first = place == ST_WHERE_VM ? b->first_line_s : FIRST_LINE_S;
	uint64_t t0;
	pid_t pid;
	int status = 0, ret;

	memset(&o, 0, sizeof(o));
	place_argv(b, place, argv, initrd, sizeof(initrd));
	if (st_pipe(&rd, &wr, "bench where: pipe", &r->err) < 0) {
		r->failed = 1;
		return;
	}
	t0 = st_now_ns();
	pid = st_fork_child(&r->err);
	if (pid < 0) {
		r->failed = 1;
		return;
	}
	if (pid == 0)
		exec_place(argv, wr);
	closep(&wr);
	ret = collect(rd, first, t0, &o);
	if (ret == -ETIMEDOUT) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		snprintf(what, sizeof(what), "%s: %s in %u s", argv[0],
			 o.start_ns ? "no figures from the probe" : "the probe did not start",
			 o.start_ns ? first + PLACE_TIMEOUT_S : first);
		return fail(r, b, place, &o, what);
	}
	ret = wait_exit(pid, &status);
	if (!o.have_result || o.parse_failed || !o.start_ns) {
		snprintf(what, sizeof(what), "%s %s", argv[0],
			 o.parse_failed ? o.err.msg : o.start_ns ? "ended without the probe's figures" :
			 "ended before the probe ran");
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !o.start_ns)
			snprintf(what, sizeof(what), "%s: cannot run %s", g->places[place], argv[0]);
		return fail(r, b, place, &o, what);
	}
	for (int f = 0; f < ST_PROBE_FIGURES; f++) {
		r->v[f] = o.result.v[f];
		snprintf(r->refused[f], sizeof(r->refused[f]), "%s", o.result.refused[f]);
	}
	r->v[OP_START] = (double)(o.start_ns - t0) / 1e3;
	if (place == ST_WHERE_EMULATION && strcmp(o.result.arch, "aarch64") != 0)
		snprintf(r->refused[0], sizeof(r->refused[0]), "impossible: the emulated probe says it "
			 "ran as %s", o.result.arch);
	if (ret < 0)
		snprintf(r->flag[OP_START], sizeof(r->flag[OP_START]), "%s did not exit after its "
			 "figures: killed", g->places[place]);
}

/* 64 MiB per pass: faster than the machine's own cache copies is impossible. */
static void bandwidth_guards(struct st_bench_where *b)
{
	double bound = st_guard_bandwidth_bound_gbps();

	for (size_t p = 0; p < ST_WHERE_PLACES; p++)
		for (int op = ST_PROBE_MEMSET; op <= ST_PROBE_MEMCPY; op++) {
			double us = st_grid_median(&b->g, p, (size_t)op);
			struct st_grid_cell *c = &b->g.cell[p][op];

			if (us > 0)
				st_guard_bandwidth((64.0 * 1024 * 1024) / (us * 1e3), bound, c->refused,
						   sizeof(c->refused));
		}
}

static void summarize(struct st_bench_where *b)
{
	const struct st_bench_grid *g = &b->g;
	double call[ST_WHERE_PLACES], wr[ST_WHERE_PLACES], start_vm;
	size_t used = 0;
	char *s = b->g.summary;
	size_t len = sizeof(b->g.summary);

	for (size_t p = 0; p < ST_WHERE_PLACES; p++) {
		call[p] = st_grid_median(g, p, ST_PROBE_CALL);
		wr[p] = st_grid_median(g, p, ST_PROBE_WRITE);
	}
	start_vm = st_grid_median(g, ST_WHERE_VM, OP_START);
	used += (size_t)snprintf(s + used, len - used, "On this machine");
	if (call[0] > 0 && wr[0] > 0)
		used += (size_t)snprintf(s + used, len - used,
					 " a function call took %.2f ns and write(/dev/null) %.0f ns on "
					 "the host", call[0], wr[0]);
	if (wr[ST_WHERE_SANDBOX] > 0 && wr[0] > 0)
		used += (size_t)snprintf(s + used, len - used, ", %.2fx that in the sandbox (seccomp's "
					 "filter runs on every syscall)", wr[ST_WHERE_SANDBOX] / wr[0]);
	if (start_vm > 0)
		used += (size_t)snprintf(s + used, len - used, "; the %s took %.0f ms to its /init",
					 g->places[ST_WHERE_VM], start_vm / 1e3);
	if (call[ST_WHERE_EMULATION] > 0 && call[0] > 0)
		used += (size_t)snprintf(s + used, len - used,
					 "; qemu-aarch64 ran a call %.1fx and a write %.1fx slower",
					 call[ST_WHERE_EMULATION] / call[0],
					 wr[ST_WHERE_EMULATION] > 0 && wr[0] > 0 ?
						 wr[ST_WHERE_EMULATION] / wr[0] : 0.0);
	if (used < len)
		snprintf(s + used, len - used, ". Not shown: I/O through virtio, memory beyond 64 MiB "
			 "(no TLB pressure), and more than one vCPU%s.",
			 strcmp(b->vm_accel, "tcg") == 0 ? "; vm-tcg is x86 emulated by qemu, not a KVM "
			 "guest" : "");
}

static void free_where(void *ctx)
{
	struct st_bench_where *b = ctx;

	closep(&b->initramfs_fd);
}

static void finish(void *ctx)
{
	struct st_bench_where *b = ctx;

	bandwidth_guards(b);
	summarize(b);
}

const struct st_grid_bench st_bench_where_grid =
	ST_GRID_BENCH(struct st_bench_where, sample, finish, free_where);
