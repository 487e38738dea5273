// SPDX-License-Identifier: MIT
/*
 * Option values: text to a typed value, nothing else. The network and
 * netbench parsers live here rather than beside their modules so that those
 * modules never see the command line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/cli_parse.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/util.h"

int st_cli_parse_count(const char *what, const char *text, uint64_t min, uint64_t max,
		       unsigned int *out, struct st_error *err)
{
	uint64_t v;
	int ret = st_parse_uint(what, text, min, max, &v, err);

	if (ret == 0)
		*out = (unsigned int)v;
	return ret;
}

int st_cli_parse_format(const char *text, enum st_format *out, struct st_error *err)
{
	static const char *const names[] = { "table", "json", "csv", "prometheus", "markdown" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (strcmp(text, names[i]) == 0) {
			*out = (enum st_format)i;
			return 0;
		}
	}
	return st_error_usage(err, "--format: unknown format '%s' (known: table, json, csv, prometheus, markdown)", text);
}

int st_cli_parse_double(const char *what, const char *noun, const char *text, double min,
			double max, double *out, struct st_error *err)
{
	char *end = NULL;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !(v >= min && v <= max))
		return st_error_usage(err, "%s: '%s' is not a %s from %g to %g", what, text, noun, min, max);
	*out = v;
	return 0;
}

int st_cli_parse_seconds(const char *what, const char *text, double min, double max, double *out,
			 struct st_error *err)
{
	char *end = NULL;
	double v;

	errno = 0;
	v = strtod(text, &end);
	/* strtod takes signs, blanks, "inf" and "nan": a duration is plain digits. */
	if (!*text || errno || !end || *end || !isfinite(v) || text[0] == '-' || text[0] == '+')
		return st_error_usage(err, "%s: '%s' is not a number of seconds", what, text);
	if (min <= 0 && (v <= 0 || v > max))
		return st_error_usage(err, "%s: %s is out of range (more than 0, at most %g seconds)", what,
				      text, max);
	if (min > 0 && (v < min || v > max))
		return st_error_usage(err, "%s: %s is out of range (%g to %g seconds)", what, text, min, max);
	*out = v;
	return 0;
}

int st_cli_parse_choice(const char *what, const char *noun, const char *const *choices,
			const char *text, int *out, struct st_error *err)
{
	char known[128];
	size_t n = 0, len = 0;

	for (; choices[n]; n++)
		if (strcmp(text, choices[n]) == 0) {
			*out = (int)n;
			return 0;
		}
	if (n == 2)
		return st_error_usage(err, "%s: '%s' is neither %s nor %s", what, text, choices[0],
				      choices[1]);
	known[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(known); i++)
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "", choices[i]);
	return st_error_usage(err, "%s: unknown %s '%s' (known: %s)", what, noun, text, known);
}

int st_ns_net_parse_mode(const char *text, enum st_net_mode *mode, const char **target,
			 struct st_error *err)
{
	if (strncmp(text, "join:", 5) == 0) {
		if (!text[5])
			return st_error_usage(err, "--net=join: needs a namespace file or a pid (join:/run/netns/NAME, join:PID)");
		*mode = ST_NET_JOIN;
		*target = text + 5;
		return 0;
	}
	for (int m = 0; m < ST_NET_COUNT; m++) {
		if (m == ST_NET_JOIN)
			continue;
		if (strcmp(text, st_net_mode_names[m]) == 0) {
			*mode = (enum st_net_mode)m;
			return 0;
		}
	}
	return st_error_usage(err, "--net: unknown mode '%s' (known: host, none, veth, bridge, join:PATH, join:PID)",
			      text);
}

int st_net_validate_ifname(const char *opt, const char *name, struct st_error *err)
{
	size_t len = strlen(name);

	if (len == 0 || len >= IFNAMSIZ)
		return st_error_usage(err, "%s: '%s' must be 1 to %d bytes long (IFNAMSIZ)", opt, name,
				      IFNAMSIZ - 1);
	if (strpbrk(name, "/: \t\n") || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return st_error_usage(err, "%s: '%s' is not a valid interface name", opt, name);
	return 0;
}

int st_net_parse_addr6(const char *text, struct st_ip6 *out, struct st_error *err)
{
	struct st_ip6 net;
	char t[64];
	int ret = st_ip6_parse("--addr6", text, out, err);

	if (ret < 0)
		return ret;
	st_ip6_format(out, t, sizeof(t));
	if (!st_ip6_is_ula(&out->addr))
		return st_error_usage(err, "--addr6: %s is not in fd00::/8 (unique local addresses, which no one routes on the Internet)",
				      t);
	if (out->prefix < 64 || out->prefix > 126)
		return st_error_usage(err, "--addr6: /%u: use a prefix from 64 (one link) to 126 (room for a gateway)",
				      out->prefix);
	net = st_ip6_network(out);
	if (memcmp(&net.addr, &out->addr, sizeof(net.addr)) == 0)
		return st_error_usage(err, "--addr6: %s is the network's own address (subnet-router anycast)", t);
	return 0;
}

int st_nb_parse_paths(const char *text, unsigned int *mask, struct st_error *err)
{
	char buf[128];
	char *save = NULL, *tok;

	if (strlen(text) >= sizeof(buf))
		return st_error_usage(err, "--paths: list too long");
	snprintf(buf, sizeof(buf), "%s", text);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int found = 0;

		if (strcmp(tok, "all") == 0) {
			*mask |= ST_NB_ALL_PATHS;
			continue;
		}
		for (int p = 0; p < ST_NB_PATH_COUNT; p++) {
			if (strcmp(tok, st_nb_path_names[p]) == 0) {
				*mask |= 1u << p;
				found = 1;
			}
		}
		if (!found)
			return st_error_usage(err, "--paths: unknown path '%s' (known: host,veth,bridge,host-to-sandbox,macvlan,all)", tok);
	}
	if (!*mask)
		return st_error_usage(err, "--paths: empty list (known: host,veth,bridge,host-to-sandbox,macvlan,all)");
	return 0;
}

int st_cli_parse_list(const struct st_cli_list *l, const char *text, unsigned int *out,
		      size_t *n, struct st_error *err)
{
	const char *p = text;

	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		char item[24];
		unsigned int v = 0;

		if (len == 0 || len >= sizeof(item))
			return len ? st_error_usage(err, "%s: '%s': a %s is too long", l->what, text, l->noun)
				   : st_error_usage(err, "%s: '%s': an empty %s (a comma list%s)", l->what,
						    text, l->noun, l->example);
		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		if (st_cli_parse_count(l->what, item, l->min, l->max_value, &v, err) < 0)
			return -EINVAL;
		for (size_t i = 0; i < *n; i++)
			if (out[i] == v)
				return st_error_usage(err, "%s: %u%s is listed twice", l->what, v, l->unit);
		if (*n == l->max_items)
			return st_error_usage(err, "%s: at most %zu %ss", l->what, l->max_items, l->noun);
		out[(*n)++] = v;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}
