/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CLI_PARSE_H
#define SANDBOXTIME_CLI_PARSE_H

/*
 * Option values, text to typed value: pure functions that know nothing of
 * the option table or of any command, so that fuzz targets and unit tests
 * reach them alone. Every failure is a usage error that names the option.
 */
#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/ip6.h"
#include "sandboxtime/ns_net.h"
#include "sandboxtime/output.h"

/* An unsigned count in [@min, @max]; @what names the option in the message. */
int st_cli_parse_count(const char *what, const char *text, uint64_t min, uint64_t max,
		       unsigned int *out, struct st_error *err);

/* --format: table, json, csv, prometheus or markdown. */
int st_cli_parse_format(const char *text, enum st_format *out, struct st_error *err);

/* A double from @min to @max, fractions allowed: "--fail-if-slower: 'x' is not a percentage from 0 to 1000". */
int st_cli_parse_double(const char *what, const char *noun, const char *text, double min,
			double max, double *out, struct st_error *err);

/* Seconds, fractions allowed, from @min to @max; @min 0: more than 0 (--duration, --interval). */
int st_cli_parse_seconds(const char *what, const char *text, double min, double max, double *out,
			 struct st_error *err);

/*
 * One word of the NULL-terminated @choices, its index into *@out; the error
 * lists them ("unknown mode 'x' (known: auto, always, never)"), or says
 * "neither A nor B" when there are two.
 */
int st_cli_parse_choice(const char *what, const char *noun, const char *const *choices,
			const char *text, int *out, struct st_error *err);

/* Parses --net: a mode name, or join:PATH / join:PID (*@target points after "join:"). */
int st_ns_net_parse_mode(const char *text, enum st_net_mode *mode, const char **target,
			 struct st_error *err);

/*
 * Parses --addr6: an address in fd00::/8 (unique local, never routed on the
 * Internet) with a prefix from 64 to 126 that leaves room for a gateway.
 */
int st_net_parse_addr6(const char *text, struct st_ip6 *out, struct st_error *err);

/* Checks an interface name option: 1 to IFNAMSIZ-1 bytes, no '/', no blanks. */
int st_net_validate_ifname(const char *opt, const char *name, struct st_error *err);

/* Parses --paths: a comma list of host,veth,bridge,host-to-sandbox,macvlan (or "all"). */
int st_nb_parse_paths(const char *text, unsigned int *mask, struct st_error *err);

/* A comma list of distinct counts: --sizes, --parallel. */
struct st_cli_list {
	const char *what;    /* "--sizes" */
	const char *noun;    /* "size": "an empty size", "at most 16 sizes" */
	const char *unit;    /* " MB": "1 MB is listed twice" */
	const char *example; /* " of MB: 1,10,100", after "a comma list" */
	uint64_t min, max_value;
	size_t max_items;
};

int st_cli_parse_list(const struct st_cli_list *l, const char *text, unsigned int *out,
		      size_t *n, struct st_error *err);

#define ST_CLI_MAX_SIZE_MB 1048576u /* --sizes: 1 TiB */

#endif
