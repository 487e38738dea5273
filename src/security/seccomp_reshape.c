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
#include "sandboxtime/seccomp_eval.h"
#include "sandboxtime/seccomp_reshape.h"
#include "sandboxtime/seccomp_search.h"

#define OFF_NR ((uint32_t)offsetof(struct seccomp_data, nr))
#define OFF_ARCH ((uint32_t)offsetof(struct seccomp_data, arch))

#define MAX_CELLS (1u << 18)

/* What A may hold at an instruction: zero (nothing loaded yet), nr, arch, or anything else. */
enum { F_ZERO = 1, F_NR = 2, F_ARCH = 4, F_OTHER = 8 };

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


struct segs {
	struct st_bpf_range *v;
	size_t n, cap;
};

static int segs_add(struct segs *s, uint32_t start, uint64_t what)
{
	if (s->n && s->v[s->n - 1].what == what)
		return 0; /* the same outcome as the range before: one range */
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct st_bpf_range *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct st_bpf_range){ start, what };
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

/* Labels: one per class section, then one per tail outcome (stub or copied instruction). */
struct labels {
	const uint64_t *tails; /* distinct tail outcomes, sorted */
	size_t ntails, first_tail;
	const struct segs *classes;
};

static void nr_leaf(struct st_bpf_layout *l, uint64_t what, const void *ctx)
{
	const struct labels *lb = ctx;

	if ((what & ~0xffffffffull) == T_RET) {
		st_bpf_emit(&l->p, BPF_RET | BPF_K, 0, 0, (uint32_t)what);
		return;
	}
	for (size_t i = 0; i < lb->ntails; i++)
		if (lb->tails[i] == what) {
			st_bpf_jump(l, lb->first_tail + i);
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

static void arch_leaf(struct st_bpf_layout *l, uint64_t what, const void *ctx)
{
	const struct labels *lb = ctx;
	const struct segs *c = &lb->classes[what];

	/* An architecture with one verdict for every number (a foreign one): the verdict itself. */
	if (c->n == 1 && (c->v[0].what & ~0xffffffffull) == T_RET)
		st_bpf_emit(&l->p, BPF_RET | BPF_K, 0, 0, (uint32_t)c->v[0].what);
	else
		st_bpf_jump(l, what);
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

/* One reshaping: the program in, what is learned of it, and the program written. */
struct reshape {
	const struct sock_filter *in;
	size_t len;
	uint8_t *fields;   /* per instruction: what A may hold there (F_*) */
	uint8_t *keep;	   /* per instruction: reached from a tail, so copied */
	size_t *new_index; /* per kept instruction: its index among the copied ones */
	size_t *stack;
	struct cuts archc, nrc;
	struct segs *classes; /* per class of architectures: the outcome of each number range */
	size_t nclasses;
	struct segs arch_segs; /* per architecture range: its class */
	uint64_t *tails;       /* distinct tail outcomes, sorted */
	size_t ntails;
	struct st_bpf_layout l;
	struct labels lb;
};

static int reshape_alloc(struct reshape *r)
{
	r->fields = calloc(r->len, 1);
	r->keep = calloc(r->len, 1);
	r->new_index = calloc(r->len, sizeof(size_t));
	r->stack = malloc(r->len * sizeof(size_t));
	r->archc.v = malloc((2 * r->len + 1) * sizeof(uint32_t));
	r->nrc.v = malloc((2 * r->len + 1) * sizeof(uint32_t));
	return r->fields && r->keep && r->new_index && r->stack && r->archc.v && r->nrc.v ? 0 : -1;
}

static void reshape_free(struct reshape *r)
{
	for (size_t c = 0; c < r->nclasses; c++)
		free(r->classes[c].v);
	free(r->classes);
	free(r->arch_segs.v);
	free(r->tails);
	free(r->l.p.v);
	free(r->l.fix);
	free(r->l.label_pos);
	free(r->fields);
	free(r->keep);
	free(r->new_index);
	free(r->stack);
	free(r->archc.v);
	free(r->nrc.v);
}

/* What A may hold where (a sound over-approximation); which constants cut which field. */
static int find_cuts(struct reshape *r)
{
	r->fields[0] = F_ZERO;
	for (size_t pc = 0; pc < r->len; pc++) {
		const struct sock_filter *f = &r->in[pc];
		size_t next[2];
		int n = successors(r->in, r->len, pc, next), now = r->fields[pc];

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
			if (r->fields[pc] & F_NR)
				cuts_of(f, &r->nrc);
			if (r->fields[pc] & F_ARCH)
				cuts_of(f, &r->archc);
		}
		for (int i = 0; i < n; i++)
			r->fields[next[i]] |= (uint8_t)now;
	}
	cuts_sort(&r->archc);
	cuts_sort(&r->nrc);
	/*
	 * Every cell is walked, and checked on both ends in both programs: a
	 * bound on the work for odd programs (libseccomp's default profile:
	 * a few architectures times ~2,000 number cells).
	 */
	return (uint64_t)r->archc.n * r->nrc.n > MAX_CELLS ? -1 : 0;
}

/* The index of the class with the outcomes @s, added if new (then @s is owned by it). */
static int class_of(struct reshape *r, struct segs *s, size_t *c)
{
	struct segs *grown;

	for (*c = 0; *c < r->nclasses && !same_segs(&r->classes[*c], s); ++*c)
		;
	if (*c < r->nclasses) {
		free(s->v);
		return 0;
	}
	grown = realloc(r->classes, (r->nclasses + 1) * sizeof(*r->classes));
	if (!grown) {
		free(s->v);
		return -1;
	}
	r->classes = grown;
	r->classes[r->nclasses++] = *s;
	return 0;
}

/* Per architecture cell, the outcome of every number range; equal lists are one class. */
static int group_archs(struct reshape *r)
{
	for (size_t i = 0; i < r->archc.n; i++) {
		struct segs s = { 0 };
		size_t c;

		for (size_t j = 0; j < r->nrc.n; j++) {
			uint64_t what = walk(r->in, r->len, r->archc.v[i], r->nrc.v[j]);

			if (!what || segs_add(&s, r->nrc.v[j], what) < 0) {
				free(s.v);
				return -1;
			}
		}
		if (class_of(r, &s, &c) < 0 || segs_add(&r->arch_segs, r->archc.v[i], c) < 0)
			return -1;
	}
	return 0;
}

/* The distinct tails, sorted. */
static int collect_tails(struct reshape *r)
{
	size_t n = 0;

	for (size_t c = 0; c < r->nclasses; c++)
		for (size_t k = 0; k < r->classes[c].n; k++)
			if ((r->classes[c].v[k].what & ~0xffffffffffffull) == T_TAIL) {
				uint64_t *grown = realloc(r->tails, (r->ntails + 1) * sizeof(*r->tails));

				if (!grown)
					return -1;
				r->tails = grown;
				r->tails[r->ntails++] = r->classes[c].v[k].what;
			}
	if (r->ntails) /* qsort(NULL, 0) is undefined: a program with no argument checks has no tail */
		qsort(r->tails, r->ntails, sizeof(*r->tails), cmp_u64);
	for (size_t i = 0; i < r->ntails; i++)
		if (!n || r->tails[n - 1] != r->tails[i])
			r->tails[n++] = r->tails[i];
	r->ntails = n;
	return 0;
}

/* The original instructions the tails reach. */
static void mark_kept(struct reshape *r)
{
	size_t nstack = 0;

	for (size_t i = 0; i < r->ntails; i++) {
		size_t pc = (size_t)(r->tails[i] & 0xffffffffull);

		if (!r->keep[pc]) {
			r->keep[pc] = 1;
			r->stack[nstack++] = pc;
		}
	}
	while (nstack) {
		size_t pc = r->stack[--nstack], next[2];
		int n = successors(r->in, r->len, pc, next);

		for (int i = 0; i < n; i++)
			if (!r->keep[next[i]]) {
				r->keep[next[i]] = 1;
				r->stack[nstack++] = next[i];
			}
	}
}

/* The search over architectures, then one over numbers per class that needs it. */
static int emit_searches(struct reshape *r)
{
	struct st_bpf_layout *l = &r->l;

	/* Labels: classes 0..nclasses-1, then the tails' entries. */
	r->lb = (struct labels){ r->tails, r->ntails, r->nclasses, r->classes };
	l->label_pos = calloc(r->nclasses + r->ntails + 1, sizeof(size_t));
	if (!l->label_pos)
		return -1;

	st_bpf_emit(&l->p, BPF_LD | BPF_W | BPF_ABS, 0, 0, OFF_ARCH);
	st_bpf_tree(l, &(struct st_bpf_search){ r->arch_segs.v, arch_leaf, arch_ret, &r->lb }, 0,
		    r->arch_segs.n);
	for (size_t c = 0; c < r->nclasses; c++) {
		const struct segs *cl = &r->classes[c];

		if (cl->n == 1 && (cl->v[0].what & ~0xffffffffull) == T_RET)
			continue; /* returned from the architecture's leaf */
		l->label_pos[c] = l->p.n;
		st_bpf_emit(&l->p, BPF_LD | BPF_W | BPF_ABS, 0, 0, OFF_NR);
		st_bpf_tree(l, &(struct st_bpf_search){ cl->v, nr_leaf, nr_ret, &r->lb }, 0, cl->n);
	}
	return 0;
}

/* A tail whose first instruction reads A: A as it was there, then a JA to the tail. */
static void emit_reloads(struct reshape *r)
{
	struct st_bpf_layout *l = &r->l;

	for (size_t i = 0; i < r->ntails; i++) {
		int reload = (int)((r->tails[i] >> 32) & 0xff);

		if (!reload)
			continue;
		l->label_pos[r->nclasses + i] = l->p.n;
		if (reload == F_ZERO)
			st_bpf_emit(&l->p, BPF_LD | BPF_IMM, 0, 0, 0);
		else
			st_bpf_emit(&l->p, BPF_LD | BPF_W | BPF_ABS, 0, 0,
				    reload == F_NR ? OFF_NR : OFF_ARCH);
		st_bpf_emit(&l->p, BPF_JMP | BPF_JA, 0, 0, 0); /* k set by patch_labels() */
	}
}

/* The kept original instructions, their jumps renumbered. */
static void copy_kept(struct reshape *r)
{
	const size_t *ni = r->new_index;

	for (size_t pc = 0, n = 0; pc < r->len; pc++)
		if (r->keep[pc])
			r->new_index[pc] = n++;
	for (size_t pc = 0; pc < r->len; pc++) {
		struct sock_filter f = r->in[pc];

		if (!r->keep[pc])
			continue;
		if (f.code == (BPF_JMP | BPF_JA)) {
			f.k = (uint32_t)(ni[pc + 1 + f.k] - ni[pc] - 1);
		} else if (BPF_CLASS(f.code) == BPF_JMP) {
			f.jt = (uint8_t)(ni[pc + 1 + f.jt] - ni[pc] - 1);
			f.jf = (uint8_t)(ni[pc + 1 + f.jf] - ni[pc] - 1);
		}
		st_bpf_emit(&r->l.p, f.code, f.jt, f.jf, f.k);
	}
}

/* Every jump to a label, now that the copied tails begin at @tail_base. */
static void patch_labels(struct reshape *r, size_t tail_base)
{
	struct st_bpf_layout *l = &r->l;

	for (size_t i = 0; i < r->ntails; i++) {
		size_t entry = tail_base + r->new_index[r->tails[i] & 0xffffffffull];
		size_t *pos = &l->label_pos[r->nclasses + i];

		if ((r->tails[i] >> 32) & 0xff)
			l->p.v[*pos + 1].k = (uint32_t)(entry - (*pos + 1) - 1);
		else
			*pos = entry;
	}
	for (size_t i = 0; i < l->nfix; i++)
		l->p.v[l->fix[i].at].k = (uint32_t)(l->label_pos[l->fix[i].label] - l->fix[i].at - 1);
}

int st_seccomp_reshape(const struct sock_filter *in, size_t len, struct sock_filter **out,
		       size_t *out_len)
{
	struct reshape r = { .in = in, .len = len };
	size_t tail_base;
	int ret = -1;

	if (!len || len > BPF_MAXINSNS || reshape_alloc(&r) < 0)
		goto out;
	if (find_cuts(&r) < 0 || group_archs(&r) < 0 || collect_tails(&r) < 0)
		goto out;
	mark_kept(&r);
	if (emit_searches(&r) < 0)
		goto out;
	emit_reloads(&r);
	tail_base = r.l.p.n;
	copy_kept(&r);
	if (r.l.oom || r.l.p.oom)
		goto out;
	patch_labels(&r, tail_base);
	if (r.l.p.n >= len || r.l.p.n > BPF_MAXINSNS ||
	    check(in, len, r.l.p.v, r.l.p.n, &r.archc, &r.nrc) < 0)
		goto out;
	*out = steal_pointer(&r.l.p.v);
	*out_len = r.l.p.n;
	ret = 0;
out:
	reshape_free(&r);
	return ret;
}
