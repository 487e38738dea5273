// SPDX-License-Identifier: MIT
/*
 * runc's command line as its callers write it (urfave/cli): flags before
 * the positional arguments, "--flag value", "--flag=value", "-flag" and
 * the one-letter aliases; the first word that is not a flag starts the
 * positional arguments (an exec's command keeps its own flags).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/runtime_args.h"

static const struct st_rt_flag *find(const struct st_rt_flag *flags, const char *name, size_t len)
{
	for (const struct st_rt_flag *f = flags; f->name; f++) {
		if ((strlen(f->name) == len && strncmp(f->name, name, len) == 0) ||
		    (f->alias && len == 1 && f->alias == name[0]))
			return f;
	}
	return NULL;
}

int st_rt_parse_flags(const char *cmd, const struct st_rt_flag *flags, int argc, char **argv, int *next,
		      struct st_error *err)
{
	int i = *next;

	while (i < argc && argv[i][0] == '-' && argv[i][1]) {
		const char *a = argv[i] + (argv[i][1] == '-' ? 2 : 1), *eq;
		const struct st_rt_flag *f;
		size_t len;

		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		f = find(flags, a, len);
		if (!f)
			return st_error_usage(err, "%s: flag provided but not defined: -%.*s", cmd, (int)len, a);
		if (f->kind == ST_RT_BOOL) {
			/* --detach, --detach=true, --detach=false */
			*f->as_bool = !eq || strcmp(eq + 1, "false") != 0;
		} else {
			const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v)
				return st_error_usage(err, "%s: flag needs an argument: -%s", cmd, f->name);
			if (f->kind == ST_RT_STRING) {
				*f->as_string = v;
			} else if (f->kind == ST_RT_LIST) {
				if (f->list->n < ST_RT_LIST_MAX)
					f->list->v[f->list->n++] = v;
			} else {
				char *end;
				long n = strtol(v, &end, 10);

				if (!*v || *end || n < 0 || n > 1 << 20)
					return st_error_usage(err, "%s: -%s: '%s' is not a count", cmd, f->name, v);
				*f->as_int = (int)n;
			}
		}
		i++;
	}
	*next = i;
	return 0;
}
