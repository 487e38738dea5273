// SPDX-License-Identifier: MIT
/*
 * A seccomp program rewritten to load faster, deciding the same.
 *
 * Why: seccomp(2) costs per instruction of the program: the kernel checks
 * it, converts it to eBPF, JIT-compiles it (several passes) and runs it once
 * per syscall number to fill its action cache (Linux 5.11+). For the default
 * profile that was ~0.25 ms of every launch (docs/bench-notes/12, 24).
 * libseccomp's binary tree has a leaf per syscall *number*; but neighbouring
 * numbers mostly share their outcome, so a search over *ranges* of numbers
 * with one outcome each needs far fewer instructions.
 *
 * How, without reimplementing libseccomp: its program is walked once for
 * every cell of (architecture, number) in which no comparison of the program
 * can tell two values apart (the cells are cut at every constant the
 * program compares the architecture or the number with). The walk follows
 * only loads of nr/arch, comparisons with constants, jumps and constant
 * returns; it ends at a RET (the cell's verdict) or at the first other
 * instruction (usually the load of an argument): from there the original
 * instructions are copied unchanged, with A reloaded if that instruction
 * reads it. X and the scratch memory are untouched before that point in
 * both programs, so the copied part runs in the same state it ran in
 * before. The new prefix uses only instructions the kernel's action cache
 * emulates (loads of nr/arch, JGE, JA, RET K), so syscalls allowed
 * whatever their arguments still skip the filter at run time. The default
 * profile: 1236 instructions from libseccomp, 308 reshaped.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/seccomp_reshape.h"

#define OFF_NR ((uint32_t)offsetof(struct seccomp_data, nr))
#define OFF_ARCH ((uint32_t)offsetof(struct seccomp_data, arch))

#define MAX_CELLS (1u << 18)

/* What A may hold at an instruction: zero (nothing loaded yet), nr, arch, or anything else. */
enum { F_ZERO = 1, F_NR = 2, F_ARCH = 4, F_OTHER = 8 };

int64_t st_seccomp_eval(const struct sock_filter *prog, size_t len, const struct seccomp_data *d)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	size_t pc = 0;

	for (size_t steps = 0; pc < len && steps <= len; steps++) {
		const struct sock_filter *f = &prog[pc++];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k, w;
		int jump = -1;

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k % 4 || f->k > sizeof(*d) - 4)
				return -1;
			memcpy(&w, (const char *)d + f->k, 4);
			a = w;
			continue;
		case BPF_LD | BPF_W | BPF_LEN:
			a = sizeof(*d);
			continue;
		case BPF_LDX | BPF_W | BPF_LEN:
			x = sizeof(*d);
			continue;
		case BPF_LD | BPF_IMM:
			a = f->k;
			continue;
		case BPF_LDX | BPF_IMM:
			x = f->k;
			continue;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
		case BPF_ST:
		case BPF_STX:
			if (f->k >= BPF_MEMWORDS)
				return -1;
			if (f->code == (BPF_LD | BPF_MEM))
				a = mem[f->k];
			else if (f->code == (BPF_LDX | BPF_MEM))
				x = mem[f->k];
			else
				mem[f->k] = f->code == BPF_ST ? a : x;
			continue;
		case BPF_MISC | BPF_TAX:
			x = a;
			continue;
		case BPF_MISC | BPF_TXA:
			a = x;
			continue;
		case BPF_RET | BPF_K:
			return f->k;
		case BPF_RET | BPF_A:
			return a;
		case BPF_JMP | BPF_JA:
			if (f->k >= len - pc)
				return -1;
			pc += f->k;
			continue;
		}
		if (BPF_CLASS(f->code) == BPF_ALU) {
			switch (BPF_OP(f->code)) {
			case BPF_ADD:
				a += src;
				break;
			case BPF_SUB:
				a -= src;
				break;
			case BPF_MUL:
				a *= src;
				break;
			case BPF_DIV:
				if (!src)
					return 0;
				a /= src;
				break; /* as the kernel: the filter returns 0 */
			case BPF_MOD:
				if (!src)
					return 0;
				a %= src;
				break;
			case BPF_OR:
				a |= src;
				break;
			case BPF_AND:
				a &= src;
				break;
			case BPF_XOR:
				a ^= src;
				break;
			case BPF_LSH:
				a = src < 32 ? a << src : 0;
				break;
			case BPF_RSH:
				a = src < 32 ? a >> src : 0;
				break;
			case BPF_NEG:
				a = -a;
				break;
			default:
				return -1;
			}
			continue;
		}
		if (BPF_CLASS(f->code) != BPF_JMP)
			return -1;
		switch (BPF_OP(f->code)) {
		case BPF_JEQ:
			jump = a == src;
			break;
		case BPF_JGT:
			jump = a > src;
			break;
		case BPF_JGE:
			jump = a >= src;
			break;
		case BPF_JSET:
			jump = !!(a & src);
			break;
		default:
			return -1;
		}
		pc += jump ? f->jt : f->jf;
	}
	return -1;
}

/* The instructions the walk steps through; any other ends it. */
static int walkable(const struct sock_filter *f)
{
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		return f->k == OFF_NR || f->k == OFF_ARCH;
	case BPF_JMP | BPF_JEQ | BPF_K:
	case BPF_JMP | BPF_JGT | BPF_K:
	case BPF_JMP | BPF_JGE | BPF_K:
	case BPF_JMP | BPF_JA:
	case BPF_RET | BPF_K:
		return 1;
	}
	return 0;
}

/* Successors of @pc (0, 1 or 2); -1 if a jump leaves the program. */
static int successors(const struct sock_filter *prog, size_t len, size_t pc, size_t next[2])
{
	const struct sock_filter *f = &prog[pc];
	int n = 0;

	if (BPF_CLASS(f->code) == BPF_RET)
		return 0;
	if (f->code == (BPF_JMP | BPF_JA)) {
		next[n++] = pc + 1 + (size_t)f->k;
	} else if (BPF_CLASS(f->code) == BPF_JMP) {
		next[n++] = pc + 1 + f->jt;
		next[n++] = pc + 1 + f->jf;
	} else {
		next[n++] = pc + 1;
	}
	for (int i = 0; i < n; i++)
		if (next[i] >= len)
			return -1;
	return n;
}

/*
 * An outcome of the walk, as one number: a constant verdict, or the copied
 * tail from instruction pc with A first reloaded with a field (F_*), or not (0).
 */
#define T_RET (1ull << 48)
#define T_TAIL (2ull << 48)
#define tail_of(pc, reload) (T_TAIL | ((uint64_t)(reload) << 32) | (uint64_t)(pc))

struct seg {
	uint32_t start; /* the range runs to the next segment's start */
	uint64_t what;	/* nr ranges: an outcome; arch ranges: a class index */
};

struct segs {
	struct seg *v;
	size_t n, cap;
};

static int segs_add(struct segs *s, uint32_t start, uint64_t what)
{
	if (s->n && s->v[s->n - 1].what == what)
		return 0; /* the same outcome as the range before: one range */
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct seg *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct seg){ start, what };
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The starts of the cells: 0 and every value where a comparison with a constant changes. */
struct cuts {
	uint32_t *v;
	size_t n;
};

static void cut_add(struct cuts *c, uint32_t v)
{
	c->v[c->n++] = v;
}

static void cuts_of(const struct sock_filter *f, struct cuts *c)
{
	switch (BPF_OP(f->code)) {
	case BPF_JEQ:
		cut_add(c, f->k);
		if (f->k != UINT32_MAX)
			cut_add(c, f->k + 1);
		break;
	case BPF_JGT:
		if (f->k != UINT32_MAX)
			cut_add(c, f->k + 1);
		break;
	case BPF_JGE:
		cut_add(c, f->k);
		break;
	}
}

static void cuts_sort(struct cuts *c)
{
	size_t n = 0;

	cut_add(c, 0);
	if (c->n) /* none when cut_add() could not allocate: qsort(NULL, 0) is undefined */
		qsort(c->v, c->n, sizeof(*c->v), cmp_u32);
	for (size_t i = 0; i < c->n; i++)
		if (!n || c->v[n - 1] != c->v[i])
			c->v[n++] = c->v[i];
	c->n = n;
}

/* The outcome of the cell holding (@arch, @nr); 0 if the walk went wrong. */
static uint64_t walk(const struct sock_filter *prog, size_t len, uint32_t arch, uint32_t nr)
{
	uint32_t a = 0;
	int field = F_ZERO;
	size_t pc = 0;

	for (size_t steps = 0; pc < len && steps <= len; steps++) {
		const struct sock_filter *f = &prog[pc];
		int jump;

		if (!walkable(f))
			return tail_of(pc, BPF_CLASS(f->code) == BPF_LD ? 0 : field);
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			field = f->k == OFF_NR ? F_NR : F_ARCH;
			a = field == F_NR ? nr : arch;
			pc++;
			continue;
		case BPF_RET | BPF_K:
			return T_RET | f->k;
		case BPF_JMP | BPF_JA:
			if (f->k >= len - pc - 1)
				return 0;
			pc += 1 + f->k;
			continue;
		}
		jump = BPF_OP(f->code) == BPF_JEQ   ? a == f->k
		       : BPF_OP(f->code) == BPF_JGT ? a > f->k
						    : a >= f->k;
		pc += 1 + (jump ? f->jt : f->jf);
	}
	return 0;
}

struct prog {
	struct sock_filter *v;
	size_t n, cap;
	int oom;
};

static size_t emit(struct prog *p, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
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

/* A jump to a place known later: instruction @at jumps to label @label. */
struct fixup {
	size_t at, label;
};

struct layout {
	struct prog p;
	struct fixup *fix;
	size_t nfix, capfix;
	size_t *label_pos; /* per label: where it was placed */
	int oom;
};

static void jump_to(struct layout *l, size_t label)
{
	size_t at = emit(&l->p, BPF_JMP | BPF_JA, 0, 0, 0);

	if (l->nfix == l->capfix) {
		size_t cap = l->capfix ? 2 * l->capfix : 64;
		struct fixup *v = realloc(l->fix, cap * sizeof(*v));

		if (!v) {
			l->oom = 1;
			return;
		}
		l->fix = v;
		l->capfix = cap;
	}
	l->fix[l->nfix++] = (struct fixup){ at, label };
}

/*
 * A search over segments of A: @s sorted by start; @leaf emits a segment's
 * outcome as one instruction; @ret says whether an outcome is a constant
 * verdict, which a jump can reach in a pool of RETs instead.
 */
struct search {
	const struct seg *s;
	void (*leaf)(struct layout *, uint64_t, const void *);
	int (*ret)(uint64_t, const void *, uint32_t *);
	const void *ctx;
};

#define POOL_MAX 8
#define BLOCK_MAX 250 /* instructions a block and its pool may take: conditional jumps reach 255   \
		       */

static int is_ret(const struct search *t, size_t i, uint32_t *k)
{
	return t->ret(t->s[i].what, t->ctx, k);
}

/* A block's distinct verdicts over [lo, hi); POOL_MAX + 1 when there are more. */
static size_t pool_of(const struct search *t, size_t lo, size_t hi, uint32_t pool[POOL_MAX])
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
static size_t body_size(const struct search *t, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;
	uint32_t k;

	if (hi - lo == 1)
		return is_ret(t, lo, &k) ? 0 : 1;
	return 1 + body_size(t, lo, mid) + body_size(t, mid, hi);
}

static int fits_block(const struct search *t, size_t lo, size_t hi)
{
	uint32_t pool[POOL_MAX];
	size_t n = pool_of(t, lo, hi, pool);

	return hi - lo >= 2 && n <= POOL_MAX && body_size(t, lo, hi) + n <= BLOCK_MAX;
}

/* Instructions the search over segments [lo, hi) takes. */
static size_t tree_size(const struct search *t, size_t lo, size_t hi)
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
static void block_body(struct layout *l, const struct search *t, size_t lo, size_t hi,
		       struct pool_ref *refs, size_t *nrefs)
{
	size_t mid = lo + (hi - lo) / 2, at;
	uint32_t k;

	at = emit(&l->p, BPF_JMP | BPF_JGE | BPF_K, 0, 0, t->s[mid].start);
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

/*
 * A binary search over segments [lo, hi) of A: the lower half first (JGE's
 * false branch falls through), a JA over it when it is longer than a
 * conditional jump reaches. A subtree short enough is a block: its
 * comparisons jump straight to a pool of RETs after it, so a verdict costs
 * no instruction of its own (most leaves are "allow" or the default).
 */
static void tree(struct layout *l, const struct search *t, size_t lo, size_t hi)
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
			pos[i] = emit(&l->p, BPF_RET | BPF_K, 0, 0, pool[i]);
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
		emit(&l->p, BPF_JMP | BPF_JGE | BPF_K, (uint8_t)left, 0, t->s[mid].start);
	} else {
		emit(&l->p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, t->s[mid].start);
		emit(&l->p, BPF_JMP | BPF_JA, 0, 0, (uint32_t)left);
	}
	tree(l, t, lo, mid);
	tree(l, t, mid, hi);
}

/* Labels: one per class section, then one per tail outcome (stub or copied instruction). */
struct labels {
	const uint64_t *tails; /* distinct tail outcomes, sorted */
	size_t ntails, first_tail;
	const struct segs *classes;
};

static void nr_leaf(struct layout *l, uint64_t what, const void *ctx)
{
	const struct labels *lb = ctx;

	if ((what & ~0xffffffffull) == T_RET) {
		emit(&l->p, BPF_RET | BPF_K, 0, 0, (uint32_t)what);
		return;
	}
	for (size_t i = 0; i < lb->ntails; i++)
		if (lb->tails[i] == what) {
			jump_to(l, lb->first_tail + i);
			return;
		}
	l->oom = 1; /* cannot happen: every tail outcome was collected */
}

static int nr_ret(uint64_t what, const void *ctx, uint32_t *k)
{
	*k = (uint32_t)what;
	return (what & ~0xffffffffull) == T_RET;
}

/* An architecture with one verdict for every number (a foreign one): the verdict itself. */
static int arch_ret(uint64_t what, const void *ctx, uint32_t *k)
{
	const struct labels *lb = ctx;
	const struct segs *c = &lb->classes[what];

	return c->n == 1 && nr_ret(c->v[0].what, NULL, k);
}

static void arch_leaf(struct layout *l, uint64_t what, const void *ctx)
{
	const struct labels *lb = ctx;
	const struct segs *c = &lb->classes[what];

	/* An architecture with one verdict for every number (a foreign one): the verdict itself. */
	if (c->n == 1 && (c->v[0].what & ~0xffffffffull) == T_RET)
		emit(&l->p, BPF_RET | BPF_K, 0, 0, (uint32_t)c->v[0].what);
	else
		jump_to(l, what);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int same_segs(const struct segs *a, const struct segs *b)
{
	return a->n == b->n && memcmp(a->v, b->v, a->n * sizeof(*a->v)) == 0;
}

/* Both programs on both ends of every cell, with two sets of arguments. */
static int check(const struct sock_filter *a, size_t alen, const struct sock_filter *b, size_t blen,
		 const struct cuts *archc, const struct cuts *nrc)
{
	struct seccomp_data d;
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i < archc->n; i++) {
		uint32_t arch_end = i + 1 < archc->n ? archc->v[i + 1] - 1 : UINT32_MAX;

		for (size_t j = 0; j < nrc->n; j++) {
			uint32_t nr_end = j + 1 < nrc->n ? nrc->v[j + 1] - 1 : UINT32_MAX;

			for (int e = 0; e < 4; e++) {
				memset(&d, 0, sizeof(d));
				d.arch = e & 1 ? arch_end : archc->v[i];
				d.nr = (int)(e & 2 ? nr_end : nrc->v[j]);
				if (e == 3)
					for (int k = 0; k < 6; k++)
						d.args[k] = seed = seed * 6364136223846793005ull +
								   1442695040888963407ull;
				if (st_seccomp_eval(a, alen, &d) != st_seccomp_eval(b, blen, &d))
					return -1;
			}
		}
	}
	return 0;
}

int st_seccomp_reshape(const struct sock_filter *in, size_t len, struct sock_filter **out,
		       size_t *out_len)
{
	_cleanup_free_ uint8_t *fields = calloc(len ? len : 1, 1);
	_cleanup_free_ uint8_t *keep = calloc(len ? len : 1, 1);
	_cleanup_free_ size_t *new_index = calloc(len ? len : 1, sizeof(size_t));
	_cleanup_free_ uint32_t *archv = malloc((2 * len + 1) * sizeof(uint32_t));
	_cleanup_free_ uint32_t *nrv = malloc((2 * len + 1) * sizeof(uint32_t));
	_cleanup_free_ uint64_t *tails = NULL;
	_cleanup_free_ struct segs *classes = NULL;
	_cleanup_free_ size_t *stack = malloc((len ? len : 1) * sizeof(size_t));
	struct cuts archc = { archv, 0 }, nrc = { nrv, 0 };
	struct segs arch_segs = { 0 };
	struct layout l = { 0 };
	struct labels lb = { 0 };
	size_t nclasses = 0, ntails = 0, nstack = 0, tail_base;
	int ret = -1;

	if (!len || len > BPF_MAXINSNS || !fields || !keep || !new_index || !archv || !nrv ||
	    !stack)
		return -1;

	/* What A may hold where (a sound over-approximation); which constants cut which field. */
	fields[0] = F_ZERO;
	for (size_t pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &in[pc];
		size_t next[2];
		int n = successors(in, len, pc, next), now = fields[pc];

		if (!now)
			continue;
		if (n < 0)
			return -1;
		if (f->code == (BPF_LD | BPF_W | BPF_ABS) && f->k == OFF_NR)
			now = F_NR;
		else if (f->code == (BPF_LD | BPF_W | BPF_ABS) && f->k == OFF_ARCH)
			now = F_ARCH;
		else if (BPF_CLASS(f->code) == BPF_LD || BPF_CLASS(f->code) == BPF_ALU ||
			 f->code == (BPF_MISC | BPF_TXA))
			now = F_OTHER;
		if (BPF_CLASS(f->code) == BPF_JMP && BPF_SRC(f->code) == BPF_K &&
		    BPF_OP(f->code) != BPF_JA) {
			if (fields[pc] & F_NR)
				cuts_of(f, &nrc);
			if (fields[pc] & F_ARCH)
				cuts_of(f, &archc);
		}
		for (int i = 0; i < n; i++)
			fields[next[i]] |= (uint8_t)now;
	}
	cuts_sort(&archc);
	cuts_sort(&nrc);
	/*
	 * Every cell is walked, and checked on both ends in both programs: a
	 * bound on the work for odd programs (libseccomp's default profile:
	 * a few architectures times ~2,000 number cells).
	 */
	if ((uint64_t)archc.n * nrc.n > MAX_CELLS)
		return -1;

	/* Per architecture cell, the outcome of every number range; equal lists are one class. */
	for (size_t i = 0; i < archc.n; i++) {
		struct segs s = { 0 };
		size_t c;

		for (size_t j = 0; j < nrc.n; j++) {
			uint64_t what = walk(in, len, archc.v[i], nrc.v[j]);

			if (!what || segs_add(&s, nrc.v[j], what) < 0) {
				free(s.v);
				goto out;
			}
		}
		for (c = 0; c < nclasses && !same_segs(&classes[c], &s); c++)
			;
		if (c == nclasses) {
			struct segs *grown = realloc(classes, (nclasses + 1) * sizeof(*classes));

			if (!grown) {
				free(s.v);
				goto out;
			}
			classes = grown;
			classes[nclasses++] = s;
		} else {
			free(s.v);
		}
		if (segs_add(&arch_segs, archc.v[i], c) < 0)
			goto out;
	}

	/* The distinct tails, and the original instructions they reach. */
	for (size_t c = 0; c < nclasses; c++)
		for (size_t k = 0; k < classes[c].n; k++)
			if ((classes[c].v[k].what & ~0xffffffffffffull) == T_TAIL) {
				uint64_t *grown = realloc(tails, (ntails + 1) * sizeof(*tails));

				if (!grown)
					goto out;
				tails = grown;
				tails[ntails++] = classes[c].v[k].what;
			}
	if (ntails) /* qsort(NULL, 0) is undefined: a program with no argument checks has no tail */
		qsort(tails, ntails, sizeof(*tails), cmp_u64);
	{
		size_t n = 0;

		for (size_t i = 0; i < ntails; i++)
			if (!n || tails[n - 1] != tails[i])
				tails[n++] = tails[i];
		ntails = n;
	}
	for (size_t i = 0; i < ntails; i++) {
		size_t pc = (size_t)(tails[i] & 0xffffffffull);

		if (!keep[pc]) {
			keep[pc] = 1;
			stack[nstack++] = pc;
		}
	}
	while (nstack) {
		size_t pc = stack[--nstack], next[2];
		int n = successors(in, len, pc, next);

		for (int i = 0; i < n; i++)
			if (!keep[next[i]]) {
				keep[next[i]] = 1;
				stack[nstack++] = next[i];
			}
	}

	/* Labels: classes 0..nclasses-1, then the tails' entries. */
	lb.tails = tails;
	lb.ntails = ntails;
	lb.first_tail = nclasses;
	lb.classes = classes;
	l.label_pos = calloc(nclasses + ntails + 1, sizeof(size_t));
	if (!l.label_pos)
		goto out;

	emit(&l.p, BPF_LD | BPF_W | BPF_ABS, 0, 0, OFF_ARCH);
	tree(&l, &(struct search){ arch_segs.v, arch_leaf, arch_ret, &lb }, 0, arch_segs.n);
	for (size_t c = 0; c < nclasses; c++) {
		if (classes[c].n == 1 && (classes[c].v[0].what & ~0xffffffffull) == T_RET)
			continue; /* returned from the architecture's leaf */
		l.label_pos[c] = l.p.n;
		emit(&l.p, BPF_LD | BPF_W | BPF_ABS, 0, 0, OFF_NR);
		tree(&l, &(struct search){ classes[c].v, nr_leaf, nr_ret, &lb }, 0, classes[c].n);
	}
	/* A tail whose first instruction reads A: A as it was there, then the tail. */
	for (size_t i = 0; i < ntails; i++) {
		int reload = (int)((tails[i] >> 32) & 0xff);

		if (!reload)
			continue;
		l.label_pos[nclasses + i] = l.p.n;
		if (reload == F_ZERO)
			emit(&l.p, BPF_LD | BPF_IMM, 0, 0, 0);
		else
			emit(&l.p, BPF_LD | BPF_W | BPF_ABS, 0, 0,
			     reload == F_NR ? OFF_NR : OFF_ARCH);
		emit(&l.p, BPF_JMP | BPF_JA, 0, 0, 0); /* k set below */
	}
	tail_base = l.p.n;
	for (size_t pc = 0, n = 0; pc < len; pc++)
		if (keep[pc])
			new_index[pc] = n++;
	for (size_t pc = 0; pc < len; pc++) {
		struct sock_filter f = in[pc];

		if (!keep[pc])
			continue;
		if (f.code == (BPF_JMP | BPF_JA)) {
			f.k = (uint32_t)(new_index[pc + 1 + f.k] - new_index[pc] - 1);
		} else if (BPF_CLASS(f.code) == BPF_JMP) {
			f.jt = (uint8_t)(new_index[pc + 1 + f.jt] - new_index[pc] - 1);
			f.jf = (uint8_t)(new_index[pc + 1 + f.jf] - new_index[pc] - 1);
		}
		emit(&l.p, f.code, f.jt, f.jf, f.k);
	}
	if (l.oom || l.p.oom)
		goto out;
	for (size_t i = 0; i < ntails; i++) {
		size_t entry = tail_base + new_index[tails[i] & 0xffffffffull];

		if ((tails[i] >> 32) & 0xff)
			l.p.v[l.label_pos[nclasses + i] + 1].k =
			    (uint32_t)(entry - (l.label_pos[nclasses + i] + 1) - 1);
		else
			l.label_pos[nclasses + i] = entry;
	}
	for (size_t i = 0; i < l.nfix; i++)
		l.p.v[l.fix[i].at].k = (uint32_t)(l.label_pos[l.fix[i].label] - l.fix[i].at - 1);

	if (l.p.n >= len || l.p.n > BPF_MAXINSNS || check(in, len, l.p.v, l.p.n, &archc, &nrc) < 0)
		goto out;
	*out = steal_pointer(&l.p.v);
	*out_len = l.p.n;
	ret = 0;
out:
	for (size_t c = 0; c < nclasses; c++)
		free(classes[c].v);
	free(arch_segs.v);
	free(l.p.v);
	free(l.fix);
	free(l.label_pos);
	return ret;
}
