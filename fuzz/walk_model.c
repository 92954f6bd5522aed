// SPDX-License-Identifier: GPL-2.0
/*
 * walk_fuzz's second walker: the fake machine as the input made it (its
 * stacks, a faulting word, the hooks' answers) and a model of one
 * kunwind_next() step, written from the format's description
 * (unwind/format.h, unwind/arch-x86.h) and the hooks' (kunwind.h), not
 * from walk.c: what the rule says the caller's ip, sp and bp are, which
 * ret_addr() call the step needs, or which stop reasons are acceptable.
 * walk_fuzz.c, the harness, checks every step of the real walker
 * against it.
 */
#include "walk_fuzz.h"

/* The stack holding [addr, addr + len), or NULL. */
const struct stack *stack_of(const struct walk_ctx *c,
			     unsigned long addr, size_t len)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		const struct stack *s = &c->stk[i];

		if (s->size >= len && addr - s->lo <= s->size - len)
			return s;
	}
	return NULL;
}

/* The walker uses only stacks that hold at least one word. */
const struct stack *usable_stack(const struct walk_ctx *c,
				 unsigned long addr)
{
	const struct stack *s = stack_of(c, addr, 1);

	return s && s->size >= sizeof(long) ? s : NULL;
}

/* A fault only exists with a read hook: a direct load cannot fail. */
static bool faults(const struct walk_ctx *c, unsigned long addr)
{
	return c->fault && !(c->mode & WALK_DIRECT) &&
	       addr - c->fault + 7 < 15;
}

/* What a read of the word at addr gives: on a stack and not faulting. */
bool ctx_read(const struct walk_ctx *c, unsigned long addr,
	      unsigned long *val)
{
	const struct stack *s = stack_of(c, addr, sizeof(*val));

	if (!s || faults(c, addr))
		return false;
	memcpy(val, s->mem + (addr - s->lo), sizeof(*val));
	return true;
}

/* The model's lookup: the rule of addr in a live segment, or NULL. */
const struct kunwind_rule *live_rule(const struct walk_ctx *c,
				     unsigned long addr)
{
	if (c->dead && kunwind_seg_at(c->t, addr - c->bias) == c->dead)
		return NULL;
	return kunwind_table_rule(c->t, addr - c->bias);
}

/*
 * text_ok(): the input's text range, if any, and the live segments, which
 * text_ok() must accept (kunwind.h: the walker does not ask for an ip in
 * the segment it is in, a segment being text).
 */
bool ctx_text_ok(const struct walk_ctx *c, unsigned long ip)
{
	if (!(c->hooks & HOOK_TEXT_OK))
		return true;
	if (c->ok_len && ip - c->ok_lo < c->ok_len)
		return true;
	return live_rule(c, ip) != NULL;
}

/*
 * Is ip code (kunwind.h, kunwind_code_at())?  Its lookup address (ip, or
 * ip - 1 for a return address) in a live segment, or text_ok(ip).
 */
bool ctx_code_at(const struct walk_ctx *c, unsigned long ip,
		 bool exact)
{
	return live_rule(c, exact ? ip : ip - 1) || ctx_text_ok(c, ip);
}

/* One tracer's trampoline, with one record: the slot it replaced. */
unsigned long ctx_ret_addr(const struct walk_ctx *c, unsigned long ip,
			   unsigned long addr_p)
{
	if (!(c->hooks & HOOK_RET_ADDR) || ip != c->tramp)
		return ip;
	return addr_p == c->slot ? c->real : 0;
}

/* The return address m->ip, read at addr_p, goes through ret_addr(). */
static void model_ret_call(struct step *m, unsigned long addr_p)
{
	m->ret_call = true;
	m->ret_ip = m->ip;
	m->ret_p = addr_p;
}

/*
 * A kernel register block (pt_regs, iret frame): cs first, whose
 * privilege level says whether the block was saved in user mode (the end
 * of the kernel stack, whatever ip and sp are); then ip and sp.
 */
static bool model_kernel_regs(const struct walk_ctx *c, unsigned long regs,
			      int cs_at, int ip_at, int sp_at,
			      struct step *m)
{
	unsigned long cs;

	if (!ctx_read(c, regs + cs_at, &cs))
		return false;
	if (cs & 3) {
		m->stops = STOP(END);
		return false;
	}
	return ctx_read(c, regs + ip_at, &m->ip) &&
	       ctx_read(c, regs + sp_at, &m->sp);
}

/*
 * Returns true with the caller's frame in m if the rule's reads yield one:
 * m->ip is still the address read, before ret_addr().
 */
static bool model_rule(const struct walk_ctx *c, const struct kunwind_state *s,
		       struct step *m)
{
	const struct kunwind_rule *r = live_rule(c, kunwind_frame_addr(s));
	unsigned int type = r ? r->type : KUNWIND_TYPE_NONE;
	unsigned long base;

	m->bp = s->bp;
	m->stops = STOP(BAD_READ);
	base = r && r->reg == KUNWIND_REG_BP ? s->bp : s->sp;
	switch (type) {
	case KUNWIND_TYPE_CALL:
		if (r->reg == KUNWIND_REG_BP_INDIRECT) {
			/* Realigned: the CFA at rbp + cfa_off, rbp at rbp. */
			if (!ctx_read(c, s->bp + r->cfa_off, &m->sp) ||
			    !ctx_read(c, s->bp, &m->bp))
				return false;
		} else {
			/* A stack switch: the previous sp is at [rsp]. */
			if (r->reg == KUNWIND_REG_SP_INDIRECT &&
			    !ctx_read(c, s->sp, &base))
				return false;
			m->sp = base + r->cfa_off;
		}
		if (!ctx_read(c, m->sp - 8, &m->ip))
			return false;
		model_ret_call(m, m->sp - 8);
		return !r->bp_off || ctx_read(c, m->sp + r->bp_off, &m->bp);
	case KUNWIND_TYPE_PLT:
		m->sp = s->sp + r->cfa_off + ((s->ip & 15) >= r->reg ? 8 : 0);
		if (!ctx_read(c, m->sp - 8, &m->ip))
			return false;
		model_ret_call(m, m->sp - 8);
		return true;
	case KUNWIND_TYPE_REGS:
		m->exact = true;
		base += r->cfa_off;
		return model_kernel_regs(c, base, KUNWIND_PT_REGS_CS,
					 KUNWIND_PT_REGS_IP,
					 KUNWIND_PT_REGS_SP, m) &&
		       ctx_read(c, base + KUNWIND_PT_REGS_BP, &m->bp);
	case KUNWIND_TYPE_IRET:
		m->exact = true;
		return model_kernel_regs(c, base + r->cfa_off, KUNWIND_IRET_CS,
					 KUNWIND_IRET_IP, KUNWIND_IRET_SP, m);
	case KUNWIND_TYPE_SIGNAL:
		/* A user signal frame: no cs to test. */
		m->exact = true;
		base += r->cfa_off;
		return ctx_read(c, base + KUNWIND_UC_IP, &m->ip) &&
		       ctx_read(c, base + KUNWIND_UC_SP, &m->sp) &&
		       ctx_read(c, base + KUNWIND_UC_BP, &m->bp);
	case KUNWIND_TYPE_END:
		m->stops = STOP(END);
		return false;
	case KUNWIND_TYPE_UNSUPPORTED:
		m->stops = STOP(UNSUPPORTED);
		return false;
	default:	/* no row: only the rbp guess, which may decline */
		m->stops = STOP(NO_ROW);
		if (!(s->flags & KUNWIND_FP_FALLBACK))
			return false;
		m->stops |= STOP(BAD_READ);
		m->fp = true;
		m->sp = s->bp + 16;
		if (!ctx_read(c, s->bp + 8, &m->ip) ||
		    !ctx_read(c, s->bp, &m->bp))
			return false;
		model_ret_call(m, s->bp + 8);
		return true;
	}
}

void model_step(const struct walk_ctx *c, const struct kunwind_state *s,
		struct step *m)
{
	const struct stack *to;
	unsigned long real;

	memset(m, 0, sizeof(*m));
	if (s->depth + 1 >= s->max_depth) {
		m->stops = STOP(DEPTH);
		return;
	}
	if (!model_rule(c, s, m))
		return;
	m->framed = true;
	/*
	 * A tracer's trampoline in place of the return address is undone.
	 * A register block's ip is one too if the frame was interrupted
	 * right after returning to the trampoline, whose record is then the
	 * word just below the interrupted sp; recovered, that ip is a return
	 * address again, no longer exact.
	 */
	if (m->exact)
		model_ret_call(m, m->sp - 8);
	real = ctx_ret_addr(c, m->ip, m->ret_p);
	if (m->exact)
		m->exact = real == m->ip;
	m->ip = real;
	/*
	 * A frame the rule yields is refused for where its sp lies: on no
	 * usable stack, below sp on the same stack, or on a stack the walk
	 * has left before (walk.c never returns to one); then, if it lies
	 * well, for an ip of 0 (with or without text_ok(): also the 0 of a
	 * trampoline that could not be undone) or one text_ok() refuses.
	 */
	to = usable_stack(c, m->sp);
	if (!to)
		m->stops = STOP(BAD_READ);
	else if (to->lo == s->stack_lo && m->sp <= s->sp)
		m->stops = STOP(SP_DIRECTION);
	else if (to->lo != s->stack_lo && c->seen[to - c->stk])
		m->stops = STOP(SP_DIRECTION);
	else if (!m->ip || !ctx_code_at(c, m->ip, m->exact))
		m->stops = STOP(BAD_RA);
	else
		m->stops = 0;	/* must succeed */
	/* The rbp guess may also decline: it is a guess (walk.c's policy). */
	if (m->fp)
		m->stops |= STOP(NO_ROW);
}

const char *stops_str(unsigned int stops)
{
	static char buf[256];
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < KUNWIND_STOP_NR; i++)
		if (stops & 1U << i)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%s'%s'", buf[0] ? " or " : "",
				 kunwind_stop_str(i));
	return buf[0] ? buf : "success";
}
