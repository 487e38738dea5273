// SPDX-License-Identifier: MIT
#include "sandboxtime/bench_syscall.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/session.h"

int st_cmd_bench(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		 struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_syscall b __attribute__((cleanup(st_bench_syscall_free))) = { .nwhere = 0 };
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	/* The session pins the CPU, opens -o and decides the sandbox's layers. */
	ret = st_session_prepare(&s, out, &o->measure, err);
	if (ret == 0)
		ret = st_bench_syscall_prepare(&b, o->name, s.report.mask, o->measure.repeat, err);
	if (ret == 0)
		ret = st_bench_syscall_run(&b, err);
	if (ret == 0) {
		s.report.bench = &b;
		ret = st_session_report(&s, err);
	}
	if (ret < 0)
		return ret;
	*exit_code = ST_EXIT_OK;
	return 0;
}
