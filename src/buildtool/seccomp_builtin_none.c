// SPDX-License-Identifier: MIT
/*
 * No built-in program: what sandboxtime-seccomp-gen links (it makes the
 * program, so it cannot carry it), and the fuzz targets (clang builds that
 * never load a filter). Every "default" is then compiled.
 */
#include "sandboxtime/seccomp_filter.h"

const struct st_seccomp_builtin st_seccomp_builtin = { .prog = NULL };
