/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_LAYER_H
#define SANDBOXTIME_LAYER_H

#include <stdint.h>

#include "sandboxtime/error.h"

/*
 * The layers in the fixed order they are built: user first, so that every
 * later layer works without root; net last, because it is by far the most
 * expensive and its cost should not be hidden in the others' increments.
 */
enum st_layer {
	ST_LAYER_USER,
	ST_LAYER_UTS,
	ST_LAYER_IPC,
	ST_LAYER_PID,
	ST_LAYER_MOUNT,
	ST_LAYER_CGROUP,
	ST_LAYER_TIME,
	ST_LAYER_NET,
	ST_LAYER_COUNT,
};

struct st_layer_info {
	const char *name;      /* as in --ns and in reports */
	uint64_t flag;         /* CLONE_NEW* */
	const char *flag_name; /* "CLONE_NEWUTS", for the report */
	const char *ns_file;   /* /proc/PID/ns/<ns_file> */
	const char *max_file;  /* /proc/sys/user/<max_file>: the probe's limit */
	const char *kconfig;   /* the kernel option that provides it */
};

#define ST_LAYER_BIT(l) (1u << (l))
#define ST_LAYERS_ALL ((1u << ST_LAYER_COUNT) - 1)

extern const struct st_layer_info st_layers[ST_LAYER_COUNT];

/* Comma list of all layer names in order: "user,uts,...,net". */
const char *st_layer_names(void);

/* Index of layer @name, or -1. */
int st_layer_lookup(const char *name);

/* Clone flags of every layer in @mask. */
uint64_t st_layer_flags(unsigned int mask);

/*
 * Parses --ns: a comma list of names, "all" or "none". A repeated name counts
 * once; "all"/"none" cannot be mixed with names; an empty list or element is an
 * error. *@explicit_mask gets the layers named one by one (a missing one is an
 * error, while "all" quietly leaves out what the kernel lacks).
 */
int st_layer_parse(const char *list, unsigned int *mask, unsigned int *explicit_mask,
		   struct st_error *err);

/*
 * Attaches to @err advice on @errnum from creating a namespace of @layer:
 * which sysctl, limit or kernel option to change.
 */
void st_layer_hint(struct st_error *err, int errnum, enum st_layer layer);

/* What failed with the errno that st_layer_advise() turns into advice. */
enum st_advice_op {
	ST_ADVICE_CREATE, /* unshare/clone of a new namespace */
	ST_ADVICE_ENTER,  /* setns into an existing one */
};

/*
 * Sets @err's hint from the one errno-to-advice table (layer.c) for @op on
 * @layer failing with @errnum; leaves it as it is when no row matches.
 * st_layer_hint() is the same for ST_ADVICE_CREATE.
 */
void st_layer_advise(struct st_error *err, int errnum, enum st_layer layer, enum st_advice_op op);

/* What decides whether this process may create a user namespace. */
struct st_userns_env {
	int chrooted;          /* 1 in a chroot, 0 not, -1 unknown */
	int max_user;          /* user.max_user_namespaces, -1 unknown */
	int unpriv_clone;      /* kernel.unprivileged_userns_clone (Debian), -1 absent */
	int apparmor_restrict; /* kernel.apparmor_restrict_unprivileged_userns, -1 absent */
	int seccomp;           /* the Seccomp: mode of /proc/self/status, -1 unknown */
	int root;              /* euid 0 */
	int proc;              /* /proc is mounted (/proc/self/status exists) */
};

/* Reads @env from /proc (race-free enough: nothing here changes while we run). */
void st_userns_env_read(struct st_userns_env *env);

/*
 * Names the cause of @errnum from creating a user namespace, given @env, and
 * what to do, in err->hint: a chroot, the sysctls, AppArmor or a seccomp
 * filter. Returns 1 when it found one, 0 (hint left alone) when not.
 */
int st_userns_cause(struct st_error *err, int errnum, const struct st_userns_env *env);

/* st_layer_hint(), with the cause read from this host for the user layer. */
void st_layer_hint_here(struct st_error *err, int errnum, enum st_layer layer);

/*
 * Tries to create each layer of @mask (after a user namespace when @rootless)
 * in a short-lived child, and fills @errnums[layer] with 0 or the errno that
 * the kernel returned, so that a missing or forbidden layer is reported with
 * its reason instead of failing mid-measurement.
 */
int st_layer_probe(unsigned int mask, int rootless, int errnums[ST_LAYER_COUNT],
		   struct st_error *err);

#endif
