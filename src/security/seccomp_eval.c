// SPDX-License-Identifier: MIT
/*
 * Classic BPF run as the kernel runs a seccomp filter: the reference that
 * seccomp_reshape.c checks its rewritten programs against, and tests use.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <string.h>

#include "sandboxtime/seccomp_eval.h"

/* What a step did: go on, return @verdict, or stop on an instruction seccomp refuses. */
enum step { STEP_NEXT, STEP_RETURN, STEP_BAD };

struct machine {
	uint32_t a, x, mem[BPF_MEMWORDS];
	size_t pc;
	int64_t verdict;
};

/* The loads, stores, register moves, returns and JA; STEP_BAD for any other code too. */
static enum step step_move(struct machine *m, const struct sock_filter *f, size_t len,
			   const struct seccomp_data *d)
{
	uint32_t w;

	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		if (f->k % 4 || f->k > sizeof(*d) - 4)
			return STEP_BAD;
		memcpy(&w, (const char *)d + f->k, 4);
		m->a = w;
		return STEP_NEXT;
	case BPF_LD | BPF_W | BPF_LEN:
		m->a = sizeof(*d);
		return STEP_NEXT;
	case BPF_LDX | BPF_W | BPF_LEN:
		m->x = sizeof(*d);
		return STEP_NEXT;
	case BPF_LD | BPF_IMM:
		m->a = f->k;
		return STEP_NEXT;
	case BPF_LDX | BPF_IMM:
		m->x = f->k;
		return STEP_NEXT;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
		if (f->k >= BPF_MEMWORDS)
			return STEP_BAD;
		if (f->code == (BPF_LD | BPF_MEM))
			m->a = m->mem[f->k];
		else if (f->code == (BPF_LDX | BPF_MEM))
			m->x = m->mem[f->k];
		else
			m->mem[f->k] = f->code == BPF_ST ? m->a : m->x;
		return STEP_NEXT;
	case BPF_MISC | BPF_TAX:
		m->x = m->a;
		return STEP_NEXT;
	case BPF_MISC | BPF_TXA:
		m->a = m->x;
		return STEP_NEXT;
	case BPF_RET | BPF_K:
		m->verdict = f->k;
		return STEP_RETURN;
	case BPF_RET | BPF_A:
		m->verdict = m->a;
		return STEP_RETURN;
	case BPF_JMP | BPF_JA:
		if (f->k >= len - m->pc)
			return STEP_BAD;
		m->pc += f->k;
		return STEP_NEXT;
	}
	return STEP_BAD;
}

static enum step step_alu(struct machine *m, const struct sock_filter *f, uint32_t src)
{
	switch (BPF_OP(f->code)) {
	case BPF_ADD:
		m->a += src;
		break;
	case BPF_SUB:
		m->a -= src;
		break;
	case BPF_MUL:
		m->a *= src;
		break;
	case BPF_DIV:
	case BPF_MOD:
		if (!src) { /* as the kernel: the filter returns 0 */
			m->verdict = 0;
			return STEP_RETURN;
		}
		m->a = BPF_OP(f->code) == BPF_DIV ? m->a / src : m->a % src;
		break;
	case BPF_OR:
		m->a |= src;
		break;
	case BPF_AND:
		m->a &= src;
		break;
	case BPF_XOR:
		m->a ^= src;
		break;
	case BPF_LSH:
		m->a = src < 32 ? m->a << src : 0;
		break;
	case BPF_RSH:
		m->a = src < 32 ? m->a >> src : 0;
		break;
	case BPF_NEG:
		m->a = -m->a;
		break;
	default:
		return STEP_BAD;
	}
	return STEP_NEXT;
}

static enum step step_jump(struct machine *m, const struct sock_filter *f, uint32_t src)
{
	int jump;

	switch (BPF_OP(f->code)) {
	case BPF_JEQ:
		jump = m->a == src;
		break;
	case BPF_JGT:
		jump = m->a > src;
		break;
	case BPF_JGE:
		jump = m->a >= src;
		break;
	case BPF_JSET:
		jump = !!(m->a & src);
		break;
	default:
		return STEP_BAD;
	}
	m->pc += jump ? f->jt : f->jf;
	return STEP_NEXT;
}

static int moves(const struct sock_filter *f)
{
	return BPF_CLASS(f->code) != BPF_ALU &&
	       (BPF_CLASS(f->code) != BPF_JMP || f->code == (BPF_JMP | BPF_JA));
}

int64_t st_seccomp_eval(const struct sock_filter *prog, size_t len, const struct seccomp_data *d)
{
	struct machine m = { 0 };

	for (size_t steps = 0; m.pc < len && steps <= len; steps++) {
		const struct sock_filter *f = &prog[m.pc++];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? m.x : f->k;
		enum step s = moves(f)			      ? step_move(&m, f, len, d)
			      : BPF_CLASS(f->code) == BPF_ALU ? step_alu(&m, f, src)
							      : step_jump(&m, f, src);

		if (s == STEP_RETURN)
			return m.verdict;
		if (s == STEP_BAD)
			return -1;
	}
	return -1;
}
