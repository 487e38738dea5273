/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_RUNTIME_ARGS_H
#define SANDBOXTIME_RUNTIME_ARGS_H

#include "sandboxtime/error.h"

/* One flag of a runtime command: its name, its one-letter alias, where it goes. */
enum st_rt_flag_kind { ST_RT_BOOL, ST_RT_STRING, ST_RT_INT, ST_RT_LIST };

#define ST_RT_LIST_MAX 64

struct st_rt_list {
	const char *v[ST_RT_LIST_MAX];
	int n;
};

struct st_rt_flag {
	const char *name;
	char alias;
	enum st_rt_flag_kind kind;
	int *as_bool;
	const char **as_string;
	int *as_int;
	struct st_rt_list *list; /* repeatable (--env) */
};

#define ST_RT_FLAG_BOOL(n, a, p) { .name = (n), .alias = (a), .kind = ST_RT_BOOL, .as_bool = (p) }
#define ST_RT_FLAG_STR(n, a, p) { .name = (n), .alias = (a), .kind = ST_RT_STRING, .as_string = (p) }
#define ST_RT_FLAG_INT(n, a, p) { .name = (n), .alias = (a), .kind = ST_RT_INT, .as_int = (p) }
#define ST_RT_FLAG_LIST(n, a, p) { .name = (n), .alias = (a), .kind = ST_RT_LIST, .list = (p) }

/*
 * Parses the flags of @cmd from argv[*@next] on, as runc's urfave/cli does
 * (flags first; --flag=value, --flag value, -flag, one-letter aliases;
 * "--" ends them); *@next is left on the first positional argument.
 * @flags ends with a row whose name is NULL. An unknown flag is refused as
 * runc refuses it: "flag provided but not defined: -x".
 */
int st_rt_parse_flags(const char *cmd, const struct st_rt_flag *flags, int argc, char **argv, int *next,
		      struct st_error *err);

#endif
