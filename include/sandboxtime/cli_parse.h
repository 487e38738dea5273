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

/* --fail-if-slower: a percentage, fractions allowed, 0 to 1000. */
int st_cli_parse_percent(const char *what, const char *text, double *out, struct st_error *err);

/* --interval: seconds, fractions allowed, 0.1 to a day (docs/DESIGN.md). */
int st_cli_parse_interval(const char *text, double *out, struct st_error *err);

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

/* Parses --duration: seconds, fractions allowed, in (0, 3600]. */
int st_nb_parse_duration(const char *text, double *out, struct st_error *err);

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

/*
 * Parses --sizes: a comma list of sizes in MB, each 1 to ST_CLI_MAX_SIZE_MB,
 * at most @max of them, none twice; stores them in @out and their number in *@n.
 */
#define ST_CLI_MAX_SIZE_MB 1048576u /* 1 TiB */
int st_cli_parse_sizes(const char *text, unsigned int *out, size_t max, size_t *n,
		       struct st_error *err);

#endif
