/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SECCOMP_EVAL_H
#define SANDBOXTIME_SECCOMP_EVAL_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The seccomp verdict of classic BPF @prog for one call (the kernel's
 * struct seccomp_data: nr, arch, instruction_pointer, args[6]), as the
 * kernel's interpreter would return it; -1 for an instruction seccomp does
 * not allow or a jump out of the program. For tests and the check of
 * st_seccomp_reshape().
 */
struct seccomp_data;
int64_t st_seccomp_eval(const struct sock_filter *prog, size_t len, const struct seccomp_data *d);

#endif
