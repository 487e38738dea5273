/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SECCOMP_SEARCH_H
#define SANDBOXTIME_SECCOMP_SEARCH_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/* A range of A with one outcome. */
struct st_bpf_range {
	uint32_t start; /* the range runs to the next range's start */
	uint64_t what;	/* what the searcher's leaf emits for it */
};

struct st_bpf_prog {
	struct sock_filter *v;
	size_t n, cap;
	int oom;
};

/* A jump to a place known later: instruction @at jumps to label @label. */
struct st_bpf_fixup {
	size_t at, label;
};

struct st_bpf_layout {
	struct st_bpf_prog p;
	struct st_bpf_fixup *fix;
	size_t nfix, capfix;
	size_t *label_pos; /* per label: where it was placed */
	int oom;
};

/*
 * A search over segments of A: @s sorted by start; @leaf emits a segment's
 * outcome as one instruction; @ret says whether an outcome is a constant
 * verdict, which a jump can reach in a pool of RETs instead.
 */
struct st_bpf_search {
	const struct st_bpf_range *s;
	void (*leaf)(struct st_bpf_layout *, uint64_t, const void *);
	int (*ret)(uint64_t, const void *, uint32_t *);
	const void *ctx;
};

/* Appends an instruction and returns its index; on no memory sets p->oom. */
size_t st_bpf_emit(struct st_bpf_prog *p, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k);

/* Appends a JA to @label, whose place is patched in by the caller from l->label_pos. */
void st_bpf_jump(struct st_bpf_layout *l, size_t label);

/*
 * A binary search over segments [lo, hi) of A: the lower half first (JGE's
 * false branch falls through), a JA over it when it is longer than a
 * conditional jump reaches. A subtree short enough is a block: its
 * comparisons jump straight to a pool of RETs after it, so a verdict costs
 * no instruction of its own (most leaves are "allow" or the default).
 */
void st_bpf_tree(struct st_bpf_layout *l, const struct st_bpf_search *t, size_t lo, size_t hi);

#endif
