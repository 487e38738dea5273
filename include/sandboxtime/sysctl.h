/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SYSCTL_H
#define SANDBOXTIME_SYSCTL_H

#include <stddef.h>

#include "sandboxtime/error.h"
#include "sandboxtime/layer.h"

/* One entry of config.json's linux.sysctl: "net.ipv4.ip_forward" = "1". */
struct st_sysctl {
	char *key;
	char *value;
};

/*
 * The namespace that owns @key, as runc allows them: kernel.msg*, kernel.sem,
 * kernel.shm*, fs.mqueue.* (ipc), net.* (network), kernel.hostname and
 * kernel.domainname (uts). Returns the layer, or -EINVAL for a key that is
 * not namespaced (it would change the host) or that climbs out ("..", "/").
 */
int st_sysctl_layer(const char *key);

/*
 * In the sandbox, after pivot_root (its own /proc): writes each value to
 * /proc/sys/KEY with dots as slashes.
 */
int st_sysctl_apply(const struct st_sysctl *v, size_t n, struct st_error *err);

void st_sysctl_free(struct st_sysctl *v, size_t n);

#endif
