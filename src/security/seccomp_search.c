// SPDX-License-Identifier: MIT
/*
 * A binary search over ranges of a 32-bit value in A, written as classic
 * BPF: the code generator of seccomp_reshape.c, apart from what it searches.
 */
#include <stdlib.h>

#include "sandboxtime/seccomp_search.h"

size_t st_bpf_emit(struct st_bpf_prog *p, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 256;
		struct sock_filter *v = realloc(p->v, cap * sizeof(*v));

		if (!v) {
			p->oom = 1;
			return p->n;
		}
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n] = (struct sock_filter){ code, jt, jf, k };
	return p->n++;
}

void st_bpf_jump(struct st_bpf_layout *l, size_t label)
{
	size_t at = st_bpf_emit(&l->p, BPF_JMP | BPF_JA, 0, 0, 0);

	if (l->nfix == l->capfix) {
		size_t cap = l->capfix ? 2 * l->capfix : 64;
		struct st_bpf_fixup *v = realloc(l->fix, cap * sizeof(*v));

		if (!v) {
			l->oom = 1;
			return;
		}
		l->fix = v;
		l->capfix = cap;
	}
	l->fix[l->nfix++] = (struct st_bpf_fixup){ at, label };
}

#define POOL_MAX 8
#define BLOCK_MAX 250 /* instructions a block and its pool may take: conditional jumps reach 255   \
		       */

static int is_ret(const struct st_bpf_search *t, size_t i, uint32_t *k)
{
	return t->ret(t->s[i].what, t->ctx, k);
}

/* A block's distinct verdicts over [lo, hi); POOL_MAX + 1 when there are more. */
static size_t pool_of(const struct st_bpf_search *t, size_t lo, size_t hi, uint32_t pool[POOL_MAX])
{
	size_t n = 0, j;
	uint32_t k;

	for (size_t i = lo; i < hi; i++) {
		if (!is_ret(t, i, &k))
			continue;
		for (j = 0; j < n && pool[j] != k; j++)
			;
		if (j < n)
			continue;
		if (n == POOL_MAX)
			return POOL_MAX + 1;
		pool[n++] = k;
	}
	return n;
}

/* A block's instructions without its pool: one per comparison and per outcome that is no verdict.
 */
static size_t body_size(const struct st_bpf_search *t, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;
	uint32_t k;

	if (hi - lo == 1)
		return is_ret(t, lo, &k) ? 0 : 1;
	return 1 + body_size(t, lo, mid) + body_size(t, mid, hi);
}

static int fits_block(const struct st_bpf_search *t, size_t lo, size_t hi)
{
	uint32_t pool[POOL_MAX];
	size_t n = pool_of(t, lo, hi, pool);

	return hi - lo >= 2 && n <= POOL_MAX && body_size(t, lo, hi) + n <= BLOCK_MAX;
}

/* Instructions the search over segments [lo, hi) takes. */
static size_t tree_size(const struct st_bpf_search *t, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2, left;
	uint32_t pool[POOL_MAX];

	if (hi - lo == 1)
		return 1;
	if (fits_block(t, lo, hi))
		return body_size(t, lo, hi) + pool_of(t, lo, hi, pool);
	left = tree_size(t, lo, mid);
	return 1 + (left > 255) + left + tree_size(t, mid, hi);
}

struct pool_ref {
	size_t at;
	int jt; /* which branch of the comparison at @at */
	uint32_t k;
};

/* A block's comparisons: a branch to a verdict points into the pool, patched after. */
static void block_body(struct st_bpf_layout *l, const struct st_bpf_search *t, size_t lo, size_t hi,
		       struct pool_ref *refs, size_t *nrefs)
{
	size_t mid = lo + (hi - lo) / 2, at;
	uint32_t k;

	at = st_bpf_emit(&l->p, BPF_JMP | BPF_JGE | BPF_K, 0, 0, t->s[mid].start);
	if (mid - lo == 1 && is_ret(t, lo, &k))
		refs[(*nrefs)++] = (struct pool_ref){ at, 0, k };
	else if (mid - lo == 1)
		t->leaf(l, t->s[lo].what, t->ctx);
	else
		block_body(l, t, lo, mid, refs, nrefs);
	if (hi - mid == 1 && is_ret(t, mid, &k)) {
		refs[(*nrefs)++] = (struct pool_ref){ at, 1, k };
		return;
	}
	if (!l->p.oom)
		l->p.v[at].jt = (uint8_t)(l->p.n - at - 1);
	if (hi - mid == 1)
		t->leaf(l, t->s[mid].what, t->ctx);
	else
		block_body(l, t, mid, hi, refs, nrefs);
}

void st_bpf_tree(struct st_bpf_layout *l, const struct st_bpf_search *t, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2, left;

	if (hi - lo == 1) {
		t->leaf(l, t->s[lo].what, t->ctx);
		return;
	}
	if (fits_block(t, lo, hi)) {
		struct pool_ref *refs = malloc((hi - lo) * sizeof(*refs));
		uint32_t pool[POOL_MAX];
		size_t n = pool_of(t, lo, hi, pool), nrefs = 0, pos[POOL_MAX];

		if (!refs) {
			l->oom = 1;
			return;
		}
		block_body(l, t, lo, hi, refs, &nrefs);
		for (size_t i = 0; i < n; i++)
			pos[i] = st_bpf_emit(&l->p, BPF_RET | BPF_K, 0, 0, pool[i]);
		for (size_t r = 0; r < nrefs && !l->p.oom; r++) {
			size_t i = 0;

			while (pool[i] != refs[r].k)
				i++;
			if (refs[r].jt)
				l->p.v[refs[r].at].jt = (uint8_t)(pos[i] - refs[r].at - 1);
			else
				l->p.v[refs[r].at].jf = (uint8_t)(pos[i] - refs[r].at - 1);
		}
		free(refs);
		return;
	}
	left = tree_size(t, lo, mid);
	if (left <= 255) {
		st_bpf_emit(&l->p, BPF_JMP | BPF_JGE | BPF_K, (uint8_t)left, 0, t->s[mid].start);
	} else {
		st_bpf_emit(&l->p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, t->s[mid].start);
		st_bpf_emit(&l->p, BPF_JMP | BPF_JA, 0, 0, (uint32_t)left);
	}
	st_bpf_tree(l, t, lo, mid);
	st_bpf_tree(l, t, mid, hi);
}
