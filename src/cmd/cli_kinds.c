// SPDX-License-Identifier: MIT
/*
 * An option's value by its row's kind: one parser per kind stores the text
 * at the place the command keeps it (an offset into struct st_opts) and
 * marks it given; the defaults are the rows' own texts, parsed the same way,
 * so that what --help prints is what is stored.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "sandboxtime/cli.h"
#include "sandboxtime/cli_parse.h"
#include "sandboxtime/util.h"

const struct st_cli_place *st_cli_place_of(const struct st_cli_option *r, enum st_command c)
{
	for (size_t i = 0; i < ST_CLI_MAX_PLACES; i++) {
		const struct st_cli_place *p = &r->places[i];
		unsigned int served = p->commands ? p->commands : r->commands;

		if ((p->at || p->parse) && (served & ST_CMD_BIT(c)))
			return p;
	}
	return NULL;
}

const char *st_cli_default_text(const struct st_cli_option *r, size_t i)
{
	return i < ST_CLI_MAX_PLACES && r->places[i].def ? r->places[i].def : r->def;
}

/* The value of a place, typed: @at is an offset into @o. */
#define FIELD(o, at, type) ((type *)(void *)((char *)(o) + (at)))

static int store_uint(const struct st_cli_option *r, const char *what, const char *arg,
		      void *at, struct st_error *err)
{
	uint64_t v;
	int ret = st_parse_uint(what, arg, r->min, r->max, &v, err);

	if (ret < 0)
		return ret;
	if (r->kind == ST_OPT_U64)
		*(uint64_t *)at = v;
	else
		*(unsigned int *)at = (unsigned int)v;
	return 0;
}

static int store_string(const struct st_cli_option *r, const char *what, const char *arg,
			void *at, struct st_error *err)
{
	if (r->noun && !*arg)
		return st_error_usage(err, "%s: empty %s", what, r->noun);
	if (r->check) {
		int ret = r->check(arg, err);

		if (ret < 0)
			return ret;
	}
	*(const char **)at = arg;
	return 0;
}

static int store_choice(const struct st_cli_option *r, const char *what, const char *arg,
			void *at, struct st_error *err)
{
	int i, ret = st_cli_parse_choice(what, r->noun, r->choices, arg, &i, err);

	if (ret == 0)
		*(int *)at = r->values ? r->values[i] : i;
	return ret;
}

/* Parses @arg by @r's kind into place @p of @o; nothing is marked given. */
static int store_value(struct st_opts *o, const struct st_cli_option *r,
		       const struct st_cli_place *p, const char *arg, struct st_error *err)
{
	void *at = FIELD(o, p->at, char);
	char what[64];

	snprintf(what, sizeof(what), "--%s", r->name);
	switch (r->kind) {
	case ST_OPT_FLAG:
		*(int *)at = !r->clears;
		return 0;
	case ST_OPT_UINT:
	case ST_OPT_U64:
		return store_uint(r, what, arg, at, err);
	case ST_OPT_DOUBLE:
		return st_cli_parse_double(what, r->noun, arg, r->dmin, r->dmax, at, err);
	case ST_OPT_DURATION:
		return st_cli_parse_seconds(what, arg, r->dmin, r->dmax, at, err);
	case ST_OPT_STRING:
		return store_string(r, what, arg, at, err);
	case ST_OPT_CHOICE:
		return store_choice(r, what, arg, at, err);
	case ST_OPT_LIST:
		return st_cli_parse_list(r->list, arg, at, FIELD(o, p->count_at, size_t), err);
	case ST_OPT_CUSTOM:
		return p->parse(o, p->at ? at : NULL, arg, err);
	}
	return st_error_set(err, EINVAL, "%s: no parser for its kind", what);
}

int st_cli_store(struct st_opts *o, const struct st_cli_option *r, const char *arg,
		 struct st_error *err)
{
	const struct st_cli_place *p = st_cli_place_of(r, o->command);
	int ret;

	if (!p)
		return st_error_set(err, EINVAL, "--%s: %s keeps it nowhere", r->name,
				    st_cli_command_name(o->command));
	if (!arg && r->kind != ST_OPT_FLAG)
		arg = r->implied;
	ret = store_value(o, r, p, arg, err);
	if (ret < 0)
		return ret;
	if (p->given_at && p->given_bit)
		*FIELD(o, p->given_at, unsigned int) |= p->given_bit;
	else if (p->given_at)
		*FIELD(o, p->given_at, int) = 1;
	if (p->text_at)
		*FIELD(o, p->text_at, const char *) = arg;
	return 0;
}

/*
 * Every row's default into each of its places. The texts are the table's
 * own, so one that fails to parse is a bug of the table, not of the user:
 * test_cli's test_defaults_parse_back parses each one, and nothing fails here.
 */
static void row_defaults(struct st_opts *o)
{
	struct st_error err = { 0 };

	for (size_t i = 0; i < st_cli_noptions; i++) {
		const struct st_cli_option *r = &st_cli_options[i];

		for (size_t j = 0; j < ST_CLI_MAX_PLACES; j++) {
			const char *def = st_cli_default_text(r, j);

			if (def && (r->places[j].at || r->places[j].parse))
				store_value(o, r, &r->places[j], def, &err);
		}
	}
}

void st_cli_defaults(struct st_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->command = ST_CMD_RUN;
	o->out.format = ST_FORMAT_TABLE;
	/* Not given: the commands' checks decide (cli.c) or the value means "none". */
	o->out.cpu = -1;
	o->compare.fail_pct = -1;
	o->netbench.rr = -1;
	o->run.measure.deferred_repeat = UINT_MAX; /* --repeat's, at most 10 */
	o->bench.measure.deferred_repeat = UINT_MAX;
	row_defaults(o);
	/* bench measures as a run does, with its warmup, though it takes no --warmup. */
	o->bench.measure.warmup = o->run.measure.warmup;
}
