// SPDX-License-Identifier: MIT
/* linux.sysctl: namespaced kernel parameters, written inside the sandbox. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/sysctl.h"
#include "sandboxtime/util.h"

/* The keys that belong to a namespace; a trailing '.' or '*' makes a prefix. */
static const struct {
	const char *key;
	enum st_layer layer;
} namespaced[] = {
	{ "kernel.msgmax", ST_LAYER_IPC },	     { "kernel.msgmnb", ST_LAYER_IPC },
	{ "kernel.msgmni", ST_LAYER_IPC },	     { "kernel.sem", ST_LAYER_IPC },
	{ "kernel.shmall", ST_LAYER_IPC },	     { "kernel.shmmax", ST_LAYER_IPC },
	{ "kernel.shmmni", ST_LAYER_IPC },	     { "kernel.shm_rmid_forced", ST_LAYER_IPC },
	{ "fs.mqueue.", ST_LAYER_IPC },		     { "net.", ST_LAYER_NET },
	{ "kernel.hostname", ST_LAYER_UTS },	     { "kernel.domainname", ST_LAYER_UTS },
};

static int key_ok(const char *key)
{
	/* Components of letters, digits, '_' and '-' between single dots. */
	if (!key[0] || key[0] == '.' || key[strlen(key) - 1] == '.' || strstr(key, ".."))
		return 0;
	return strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") ==
	       strlen(key);
}

int st_sysctl_layer(const char *key)
{
	if (!key_ok(key))
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(namespaced); i++) {
		size_t n = strlen(namespaced[i].key);
		int prefix = namespaced[i].key[n - 1] == '.';

		if (prefix ? strncmp(key, namespaced[i].key, n) == 0
			   : strcmp(key, namespaced[i].key) == 0)
			return (int)namespaced[i].layer;
	}
	return -EINVAL;
}

int st_sysctl_apply(const struct st_sysctl *v, size_t n, struct st_error *err)
{
	for (size_t i = 0; i < n; i++) {
		char path[256];
		int ret;

		snprintf(path, sizeof(path), "/proc/sys/%s", v[i].key);
		for (char *c = path + strlen("/proc/sys/"); *c; c++)
			if (*c == '.')
				*c = '/';
		ret = st_write_file(path, v[i].value);
		if (ret < 0)
			return st_error_set(err, -ret, "linux.sysctl: %s = %s", v[i].key, v[i].value);
	}
	return 0;
}

void st_sysctl_free(struct st_sysctl *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}
