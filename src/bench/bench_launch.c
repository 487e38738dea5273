// SPDX-License-Identifier: MIT
/*
 * bench launch (bench_launch.h). Each place and round is the grid's child
 * launching the place's command --launches times (ST_LAUNCH_PER_ROUND), one after
 * another: the clock is read before fork() and after the reap, so a figure
 * is what a caller waits for, the same for every place (the launcher's own
 * fork is in all of them). Output goes to /dev/null; a launch that does not
 * exit 0 refuses the place, with what it said first (warm-up round: the
 * place is unavailable with that reason).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandboxtime/bench_launch.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/histogram.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/util.h"

enum { OP_MEAN, OP_P50, OP_P99, NOPS };

static const char *const places[ST_LAUNCH_NPLACES] = {
	[ST_LAUNCH_SANDBOXTIME] = "sandboxtime",
	[ST_LAUNCH_SANDBOXTIME_BARE] = "sandboxtime-bare",
	[ST_LAUNCH_UNSHARE] = "unshare",
	[ST_LAUNCH_BWRAP] = "bwrap",
	[ST_LAUNCH_TRUE] = "true",
};

static const char *const ops[NOPS] = { [OP_MEAN] = "mean", [OP_P50] = "p50", [OP_P99] = "p99" };

static const char method[] =
	"Each place launches /bin/true in a new sandbox of the uts, ipc, pid, mount and network "
	"namespaces (and a user namespace where the caller is not root), one launch after another: "
	"sandboxtime is the default hardened launch (sandboxtime --repeat=0 -q --ns=" ST_LAUNCH_NS
	" -- /bin/true: its init, the capability drop, no_new_privs, the default seccomp filter); "
	"sandboxtime-bare does only what unshare does (--no-init --seccomp=none --cap-add=ALL "
	"--no-new-privileges=false); unshare is util-linux's unshare --fork --pid --mount-proc --uts "
	"--ipc --net --mount; bwrap is bubblewrap's --unshare-all over a read-only /usr and a new "
	"/proc; true is /bin/true alone, no sandbox (the floor of any launch). A launch is timed from before fork() to after its reap, output to /dev/null, and "
	"must exit 0. In rounds across places after one unrecorded round, each place's child made "
	"--launches launches (default 100); mean (launches per second: 1e6 / mean), p50 and p99 are of that round's "
	"launches, in us, and a cell is their median over rounds.";

/* The argument vectors: the same namespaces for every place. */
static void build_argv(struct st_bench_launch *b, int root)
{
	static const char *const bare[] = { "--no-init", "--seccomp=none", "--cap-add=ALL",
					    "--no-new-privileges=false" };
	const char **a = b->argv[ST_LAUNCH_SANDBOXTIME_BARE];
	size_t n = 0;

	memcpy(b->argv[ST_LAUNCH_SANDBOXTIME],
	       (const char *[]){ b->self, "--repeat=0", "-q", "--ns=" ST_LAUNCH_NS, "--", "/bin/true", NULL },
	       7 * sizeof(char *));
	a[n++] = b->self;
	a[n++] = "--repeat=0";
	a[n++] = "-q";
	for (size_t i = 0; i < ARRAY_SIZE(bare); i++)
		a[n++] = bare[i];
	a[n++] = "--ns=" ST_LAUNCH_NS;
	a[n++] = "--";
	a[n++] = "/bin/true";
	a[n] = NULL;
	a = b->argv[ST_LAUNCH_UNSHARE];
	n = 0;
	a[n++] = b->unshare;
	/* Without root, unshare needs a user namespace for the rest; sandboxtime adds one itself. */
	if (!root) {
		a[n++] = "--user";
		a[n++] = "--map-root-user";
	}
	memcpy(&a[n], (const char *[]){ "--fork", "--pid", "--mount-proc", "--uts", "--ipc", "--net",
					"--mount", "/bin/true", NULL },
	       9 * sizeof(char *));
	memcpy(b->argv[ST_LAUNCH_TRUE], (const char *[]){ "/bin/true", NULL }, 2 * sizeof(char *));
	memcpy(b->argv[ST_LAUNCH_BWRAP],
	       (const char *[]){ b->bwrap, "--unshare-all", "--ro-bind", "/usr", "/usr", "--symlink",
				 "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink",
				 "usr/lib64", "/lib64", "--proc", "/proc", "/bin/true", NULL },
	       18 * sizeof(char *));
}

static _noreturn_ void exec_quiet(const char *const *argv, int err_fd)
{
	int null = open("/dev/null", O_RDWR);

	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err_fd, 2) < 0)
		_exit(127);
	st_signals_restore();
	execv(argv[0], (char *const *)argv);
	dprintf(2, "%s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* One launch: its wall time in ns, or -1 with the reason in @r (a status not 0). */
static int64_t launch(const char *const *argv, int err_fd, struct st_grid_result *r)
{
	uint64_t t0 = st_now_ns();
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		r->failed = 1;
		st_error_set(&r->err, errno, "bench launch: fork");
		return -1;
	}
	if (pid == 0)
		exec_quiet(argv, err_fd);
	if (TEMP_FAILURE_RETRY(waitpid(pid, &status, 0)) < 0) {
		r->failed = 1;
		st_error_set(&r->err, errno, "bench launch: waitpid");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		r->failed = 1;
		/* No errno: the status says it all. */
		st_error_set(&r->err, 0, "bench launch: %s %s %d", argv[0],
			     WIFEXITED(status) ? "exited with" : "was killed by signal",
			     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	return (int64_t)(st_now_ns() - t0);
}

/* What a failed launch wrote first, as the hint of its error. */
static void hint_from(int fd, struct st_grid_result *r)
{
	char buf[256], hint[300];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(hint, sizeof(hint), "it said: %s", buf);
	st_error_hint(&r->err, hint);
}

static void sample(const struct st_bench_grid *g, size_t place, void *ctx, struct st_grid_result *r)
{
	const struct st_bench_launch *b = ctx;
	_cleanup_close_ int err_fd = -1;
	struct st_hist *h = malloc(sizeof(*h));
	uint64_t total = 0;

	(void)g;
	/* A launch's standard error, kept for the reason when one fails. */
	err_fd = memfd_create("bench-launch-stderr", MFD_CLOEXEC);
	if (!h || err_fd < 0) {
		r->failed = 1;
		st_error_set(&r->err, h ? errno : ENOMEM, "bench launch: scratch");
		free(h);
		return;
	}
	st_hist_init(h);
	for (unsigned int i = 0; i < b->launches; i++) {
		int64_t ns = launch(b->argv[place], err_fd, r);

		if (ns < 0) {
			hint_from(err_fd, r);
			free(h);
			return;
		}
		if (ftruncate(err_fd, 0) < 0 || lseek(err_fd, 0, SEEK_SET) < 0)
			break;
		st_hist_record(h, (uint64_t)ns);
		total += (uint64_t)ns;
	}
	r->v[OP_MEAN] = (double)total / b->launches / 1000.0;
	r->v[OP_P50] = st_hist_quantile_ns(h, 0.5) / 1000.0;
	r->v[OP_P99] = st_hist_quantile_ns(h, 0.99) / 1000.0;
	st_guard_checksum(h->n, b->launches, "launches", r->refused[OP_MEAN],
			  sizeof(r->refused[OP_MEAN]));
	free(h);
}

static void unavailable(struct st_bench_launch *b, enum st_launch_place p, const char *why)
{
	snprintf(b->g.unavailable[p], sizeof(b->g.unavailable[p]), "%s", why);
}

int st_bench_launch_prepare(struct st_bench_launch *b, unsigned int repeat, unsigned int launches,
			    struct st_error *err)
{
	static const char *const unshare[] = { "unshare" }, *const bwrap[] = { "bwrap" };
	ssize_t n;
	int ret;

	memset(b, 0, sizeof(*b));
	ret = st_grid_init(&b->g, "launch", "us", repeat, places, ST_LAUNCH_NPLACES, ops, NOPS, err);
	if (ret < 0)
		return ret;
	b->g.method = method;
	b->launches = launches ? launches : ST_LAUNCH_PER_ROUND;
	st_grid_set_config(&b->g, "launches_per_round", b->launches);
	n = readlink("/proc/self/exe", b->self, sizeof(b->self) - 1);
	if (n < 0)
		return st_error_set(err, errno, "bench launch: /proc/self/exe");
	b->self[n] = '\0';
	if (st_find_on_path(unshare, 1, b->unshare, sizeof(b->unshare)) < 0)
		unavailable(b, ST_LAUNCH_UNSHARE, "no unshare on PATH: install Debian's util-linux");
	if (st_find_on_path(bwrap, 1, b->bwrap, sizeof(b->bwrap)) < 0)
		unavailable(b, ST_LAUNCH_BWRAP, "no bwrap on PATH: install Debian's bubblewrap");
	build_argv(b, geteuid() == 0);
	return 0;
}

/* The mean of place @p as launches per second, or -1. */
static double per_s(const struct st_bench_grid *g, size_t p)
{
	double mean = st_grid_median(g, p, OP_MEAN);

	return mean > 0 ? 1e6 / mean : -1;
}

static void summarize(void *ctx)
{
	struct st_bench_launch *b = ctx;
	const struct st_bench_grid *g = &b->g;
	double st = per_s(g, ST_LAUNCH_SANDBOXTIME), bare = per_s(g, ST_LAUNCH_SANDBOXTIME_BARE);
	double un = per_s(g, ST_LAUNCH_UNSHARE), bw = per_s(g, ST_LAUNCH_BWRAP);
	const char *tail = "a launch's time includes the exec of each tool and its libraries; the "
			   "network namespace's free comes after the reap and is in no figure.";
	int n = 0;

	if (st < 0 || bare < 0) {
		snprintf(b->g.summary, sizeof(b->g.summary),
			 "On this machine sandboxtime's own launches were refused (NOTE says why); %s", tail);
		return;
	}
	n = snprintf(b->g.summary, sizeof(b->g.summary),
		     "On this machine sandboxtime launched %.0f sandboxes per second one after another "
		     "(p50 %.0f us), %.0f doing only what unshare does",
		     st, st_grid_median(g, ST_LAUNCH_SANDBOXTIME, OP_P50), bare);
	if (un > 0)
		n += snprintf(b->g.summary + n, sizeof(b->g.summary) - (size_t)n,
			      "; unshare %.0f (sandboxtime-bare's mean %.2fx unshare's)", un, un / bare);
	if (bw > 0)
		n += snprintf(b->g.summary + n, sizeof(b->g.summary) - (size_t)n,
			      "; bwrap %.0f (sandboxtime's mean %.2fx bwrap's)", bw, bw / st);
	snprintf(b->g.summary + n, sizeof(b->g.summary) - (size_t)n, "; %s", tail);
}

const struct st_grid_bench st_bench_launch_grid =
	ST_GRID_BENCH(struct st_bench_launch, sample, summarize, NULL);
