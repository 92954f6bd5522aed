/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 walk scenarios (see scenarios.h for the contract), for a build of
 * the core for arm64 (KUNWIND_ARCH_HAS_LR): the return address in x30
 * (leaves, prologues), frame records, the registers a pt_regs restores
 * (x30 with them), pointer authentication codes, the frame-record guess,
 * tracers' records keyed by the caller's x29, and the rules of one step
 * out of x30.  The world is walk_fake.h's.
 *
 *   walk_arm64_scenario.<kt_walk_arm64_scenarios>
 */
#ifndef _KUNWIND_TEST_WALK_CASES_ARM64_H
#define _KUNWIND_TEST_WALK_CASES_ARM64_H

#include "walk_fake.h"

/*
 * The synthetic program, one function per 0x100 bytes from 0x1000:
 *   0x1000 leaf: CFA sp+0, return address in x30
 *   0x1100 mid:  CFA sp+32, frame record at c-32 (x29), c-24 (x30)
 *   0x1200 fp:   CFA x29+16, record at c-16
 *   0x1300 end: end of stack        0x1400 regs: pt_regs at sp
 *   0x1500 unsupported
 *   0x1600 prologue: CFA sp+16, the record not saved yet (x30)
 *   0x1700 far: CFA x29+0x100, record at c-0x100 (at x29)
 *   0x1800 gap (no row)
 */
static const struct kt_row kt_arm64_rows[] = {
	{ 0x000, 0x100, { 0, 0, KUNWIND_TYPE_LR, KUNWIND_REG_SP } },
	{ 0x100, 0x200, { 32, -32, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	{ 0x200, 0x300, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_BP } },
	{ 0x300, 0x400, { 0, 0, KUNWIND_TYPE_END, KUNWIND_REG_SP } },
	{ 0x400, 0x500, { 0, 0, KUNWIND_TYPE_REGS, KUNWIND_REG_SP } },
	{ 0x500, 0x600, { 0, 0, KUNWIND_TYPE_UNSUPPORTED, 0 } },
	{ 0x600, 0x700, { 16, 0, KUNWIND_TYPE_LR, KUNWIND_REG_SP } },
	{ 0x700, 0x800, { 0x100, -0x100, KUNWIND_TYPE_CALL, KUNWIND_REG_BP } },
};

/* A user-half return address signed (PAC in bits 48-54 and 56-63). */
#define KT_A64_SIGNED(a)	((a) | 0x5a23000000000000ul)
/* Where the kernel case loads the program: a kernel text address. */
#define KT_A64_KBASE		0xffff800008000000ul

static struct kt_fake *kt_a64_new(KT_TEST *test)
{
	return kt_fake_new_rows(test, kt_arm64_rows,
				KT_ARRAY_SIZE(kt_arm64_rows), 0xe00);
}

/* The last walk reported these frames: ips and sps. */
static void kt_a64_expect(KT_TEST *test, struct kt_fake *f,
			  enum kunwind_stop why, unsigned int n,
			  const unsigned long *ip, const unsigned long *sp)
{
	unsigned int i;

	if (!KT_EXPECT_WALK(test, f, why, n))
		return;
	for (i = 0; i < n; i++) {
		KT_EXPECT(test, f->w.ip[i] == ip[i], "frame %u: ip %#lx, not %#lx",
			  i, f->w.ip[i], ip[i]);
		KT_EXPECT(test, !sp || f->w.sp[i] == sp[i],
			  "frame %u: sp %#lx, not %#lx", i, f->w.sp[i],
			  sp ? sp[i] : 0);
	}
}

/*
 * leaf -> mid -> fp -> end: the leaf's return address is x30 (signed),
 * its caller's sp is its own; mid's is in its frame record, fp's CFA
 * comes from the x29 mid's record restored.
 */
static void kt_a64_chain(struct kt_fake *f)
{
	unsigned long f1 = KT_STACK + 0x40;

	f->lr = KT_A64_SIGNED(0x1150ul);
	kt_put(f, KT_STACK + 0x00, f1);			/* mid's record */
	kt_put(f, KT_STACK + 0x08, KT_A64_SIGNED(0x1250ul));
	kt_put(f, f1 + 0x00, 0);			/* fp's record */
	kt_put(f, f1 + 0x08, 0x1350);
}

static void kt_walk_arm64_leaf_returns_through_lr(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1010, 0x1150, 0x1250, 0x1350 };
	static const unsigned long sp[] = { KT_STACK, KT_STACK, KT_STACK + 32,
					    KT_STACK + 0x50 };
	struct kt_fake *f = kt_a64_new(test);

	if (!f)
		return;
	kt_a64_chain(f);
	kt_walk(f, 0x1010, KT_STACK, 0x9999, 0);
	kt_a64_expect(test, f, KUNWIND_STOP_END, 4, ip, sp);
	KT_EXPECT(test, !f->w.s.unreliable, "a walk by rows was marked unreliable");
}

/* kunwind_trace() with a cache: the same frames as kunwind_next(). */
static void kt_walk_arm64_trace_gives_the_same_frames(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1010, 0x1150, 0x1250, 0x1350 };
	struct kunwind_cache *cache = KT_ZALLOC(test, sizeof(*cache));
	struct kt_fake *f = kt_a64_new(test);
	unsigned int round;

	if (!f || !KT_EXPECT(test, cache, "no memory for the cache"))
		return;
	kt_a64_chain(f);
	kunwind_cache_clear(cache);
	f->cache = cache;
	f->trace = true;
	f->no_hook = true;
	for (round = 0; round < 2; round++) {	/* cold, then warm */
		kt_walk(f, 0x1010, KT_STACK, 0x9999, 0);
		kt_a64_expect(test, f, KUNWIND_STOP_END, 4, ip, NULL);
	}
}

/* A prologue before its record is saved: CFA sp+16, x30 the return. */
static void kt_walk_arm64_prologue_returns_through_lr(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1610, 0x1150, 0x1350 };
	static const unsigned long sp[] = { KT_STACK, KT_STACK + 16,
					    KT_STACK + 48 };
	struct kt_fake *f = kt_a64_new(test);

	if (!f)
		return;
	f->lr = 0x1150;
	kt_put(f, KT_STACK + 0x10, 0);			/* mid's record */
	kt_put(f, KT_STACK + 0x18, 0x1350);
	kt_walk(f, 0x1610, KT_STACK, 0, 0);
	kt_a64_expect(test, f, KUNWIND_STOP_END, 3, ip, sp);
}

/*
 * A return address in a function whose row keeps it in x30: the call
 * was that function's and clobbered x30.  Never x30 read again: the walk
 * stops, or the frame-record guess takes the step, unreliable.
 */
static void kt_walk_arm64_called_frame_has_no_lr(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1011, 0x1350 };
	struct kt_fake *f = kt_a64_new(test);

	if (!f)
		return;
	f->lr = 0x1150;		/* not this frame's: it was called */
	kt_put(f, KT_STACK + 0x40, 0);
	kt_put(f, KT_STACK + 0x48, 0x1350);
	kt_walk(f, 0x1011, KT_STACK, KT_STACK + 0x40, KUNWIND_FIRST_CALLED);
	kt_a64_expect(test, f, KUNWIND_STOP_UNSUPPORTED, 1, ip, NULL);
	kt_walk(f, 0x1011, KT_STACK, KT_STACK + 0x40,
		KUNWIND_FIRST_CALLED | KUNWIND_FP_FALLBACK);
	kt_a64_expect(test, f, KUNWIND_STOP_END, 2, ip, NULL);
	KT_EXPECT(test, f->w.s.unreliable, "a guessed frame was not marked unreliable");
}

/* x30 serves one step: a second frame in x30 after it has none. */
static void kt_walk_arm64_lr_serves_one_step(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1010, 0x1021 };
	struct kt_fake *f = kt_a64_new(test);

	if (!f)
		return;
	f->lr = 0x1021;		/* back into the leaf, as if it were called */
	kt_walk(f, 0x1010, KT_STACK, 0, 0);
	kt_a64_expect(test, f, KUNWIND_STOP_UNSUPPORTED, 2, ip, NULL);
}

/*
 * A frame found by other means (kunwind_step_to(), the kernel's own
 * steps) has no x30 of its own, even when interrupted.
 */
static void kt_walk_arm64_step_to_forgets_lr(KT_TEST *test)
{
	struct kt_fake *f = kt_a64_new(test);
	struct kunwind_state *s;

	if (!f)
		return;
	f->lr = 0x1150;
	kt_put(f, KT_STACK + 0x10, 0);
	kt_put(f, KT_STACK + 0x18, 0x1350);
	s = &f->w.s;
	kunwind_start(s, &kt_fake_ops, f, 0x1010, KT_STACK, 0, KT_DEPTH, 0);
	kunwind_set_lr(s, f->lr);
	KT_EXPECT(test, kunwind_step_to(s, 0x1020, KT_STACK + 16, 0, true) ==
		  KUNWIND_STOP_NONE, "kunwind_step_to() refused a frame");
	KT_EXPECT(test, !kunwind_next(s) && s->stop == KUNWIND_STOP_UNSUPPORTED,
		  "stepped from x30 the frame never had, to %#lx (stop \"%s\")",
		  s->ip, kunwind_stop_str(s->stop));
}

/* pt_regs at sp: pc exact, and x30 for the leaf it interrupted. */
static void kt_walk_arm64_regs_frame_restores_lr(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1410, 0x1010, 0x1150, 0x1350 };
	static const unsigned long sp[] = { KT_STACK, KT_STACK + 0x150,
					    KT_STACK + 0x150, KT_STACK + 0x170 };
	struct kt_fake *f = kt_a64_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_PC, 0x1010);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_SP, KT_STACK + 0x150);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_FP, 0x7777);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_LR, KT_A64_SIGNED(0x1150ul));
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_PSTATE, 0x3c5);	/* EL1h */
	kt_put(f, KT_STACK + 0x150, 0);				/* mid's record */
	kt_put(f, KT_STACK + 0x158, 0x1350);
	kt_walk(f, 0x1410, KT_STACK, 0, 0);
	kt_a64_expect(test, f, KUNWIND_STOP_END, 4, ip, sp);
	KT_EXPECT(test, f->w.s.bp == 0, "x29 %#lx after mid's record, not 0",
		  f->w.s.bp);
}

/* pt_regs saved at EL0 (pstate mode 0): the kernel stack ends. */
static void kt_walk_arm64_user_regs_end(KT_TEST *test)
{
	struct kt_fake *f = kt_a64_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_PC, 0x1010);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_SP, KT_STACK + 0x150);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_PSTATE, 0x80000000);	/* EL0t */
	kt_walk(f, 0x1410, KT_STACK, 0, 0);
	KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 1);
}

/* A kernel return address signed: stripped to the kernel half. */
static void kt_walk_arm64_strips_kernel_pac(KT_TEST *test)
{
	const unsigned long k = KT_A64_KBASE;
	const unsigned long ip[] = { k + 0x1110, k + 0x1350 };
	unsigned long signed_ra = ((k + 0x1350) & ~0xff7f000000000000ul) |
				  0x3c25000000000000ul;
	struct kt_fake *f = kt_a64_new(test);

	if (!f)
		return;
	f->bias = k;
	f->text_hi = 0;
	KT_EXPECT(test, signed_ra != k + 0x1350 && signed_ra >> 55 & 1,
		  "the test's signed address %#lx", signed_ra);
	kt_put(f, KT_STACK + 0x00, 0);
	kt_put(f, KT_STACK + 0x08, signed_ra);
	kt_walk(f, k + 0x1110, KT_STACK, 0, 0);
	kt_a64_expect(test, f, KUNWIND_STOP_END, 2, ip, NULL);
}

/*
 * No row: the frame-record guess.  The caller's sp is not at the record
 * (the record is at the bottom of this frame): the caller's own row says
 * where, from the x29 it pointed at its record.
 */
static void kt_walk_arm64_guess_takes_sp_from_callers_row(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1810, 0x1150, 0x1350 };
	static const unsigned long sp[] = { KT_STACK, KT_STACK + 0x60,
					    KT_STACK + 0x80 };
	struct kt_fake *f = kt_a64_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + 0x20, KT_STACK + 0x60);	/* this frame's record */
	kt_put(f, KT_STACK + 0x28, 0x1150);
	kt_put(f, KT_STACK + 0x30, 0xbad);		/* where x29 + 16 reads */
	kt_put(f, KT_STACK + 0x38, 0xbad);
	kt_put(f, KT_STACK + 0x60, 0);			/* mid's record */
	kt_put(f, KT_STACK + 0x68, 0x1350);
	kt_walk(f, 0x1810, KT_STACK, KT_STACK + 0x20, KUNWIND_FP_FALLBACK);
	kt_a64_expect(test, f, KUNWIND_STOP_END, 3, ip, sp);
	KT_EXPECT(test, f->w.s.unreliable, "a guessed frame was not marked unreliable");
}

/*
 * A tracer's trampoline: arm64's records are keyed by the caller's x29
 * (ftrace's frame_pointer, kretprobe's regs[29]), not by where the
 * return address was.
 */
static void kt_walk_arm64_trampoline_keyed_by_callers_fp(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1110, 0x1350 };
	struct kt_fake *f = kt_a64_new(test);

	if (!f)
		return;
	f->tramp = 0x1f80;
	f->tramp_p = KT_STACK + 0x40;	/* the x29 mid's record restores */
	f->tramp_ip = 0x1350;
	kt_put(f, KT_STACK + 0x00, KT_STACK + 0x40);
	kt_put(f, KT_STACK + 0x08, 0x1f80);
	kt_walk(f, 0x1110, KT_STACK, 0, 0);
	kt_a64_expect(test, f, KUNWIND_STOP_END, 2, ip, NULL);
}

/*
 * A CFA past the stack's top (x29 near it, the record far below the
 * CFA): the return address is on the stack, the caller's sp is not.  No
 * frame there, by kunwind_next() or by kunwind_trace()'s fast path, which
 * on x86 may take the return address's place on the stack for the CFA's.
 */
static void kt_walk_arm64_cfa_past_the_top_is_no_frame(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1710 };
	struct kt_fake *f = kt_a64_new(test);
	unsigned int round;

	if (!f)
		return;
	kt_put(f, KT_TOP - 0x20, 0);			/* the record */
	kt_put(f, KT_TOP - 0x18, 0x1350);
	for (round = 0; round < 2; round++) {		/* next, then trace */
		f->trace = round;
		kt_walk(f, 0x1710, KT_STACK, KT_TOP - 0x20, 0);
		kt_a64_expect(test, f, KUNWIND_STOP_BAD_READ, 1, ip, NULL);
	}
}

/*
 * call_on_irq_stack(): a handler on the IRQ stack (stack 2) whose CFA is
 * that stack's very top, where the switching frame called it with sp at
 * the top (the stack empty); that frame's row is x29-based, its record
 * on the task stack.  The walk goes through the empty-stack frame to the
 * task stack, with stacks given exactly as [lo, hi) (the kernel's).
 */
static void kt_walk_arm64_empty_stack_frame(KT_TEST *test)
{
	static const unsigned long ip[] = { 0x1110, 0x1250, 0x1350 };
	unsigned long rec = KT_STACK + 0x40, top2 = KT_STACK2 + 8 * KT_WORDS;
	unsigned long sp[] = { top2 - 32, top2, rec + 16 };
	struct kt_fake *f = kt_a64_new(test);
	unsigned int round;

	if (!f)
		return;
	f->two = true;
	f->exact_top = true;
	kt_put(f, top2 - 32, rec);			/* the handler's record */
	kt_put(f, top2 - 24, 0x1250);
	kt_put(f, rec, 0);				/* the switcher's */
	kt_put(f, rec + 8, 0x1350);
	for (round = 0; round < 2; round++) {		/* next, then trace */
		f->trace = round;
		kt_walk(f, 0x1110, top2 - 32, 0x9999, 0);
		kt_a64_expect(test, f, KUNWIND_STOP_END, 3, ip, round ? NULL : sp);
	}
}

/*
 * The steps a kernel walk falls back on (kunwind.ko's arch/arm64.c): at
 * ip 0 (a call through NULL) by x30, sp kept; where no row is, by the
 * frame record at x29 (the caller's sp from its row), unreliable.
 */
static void kt_walk_arm64_fallback_steps(KT_TEST *test)
{
	struct kt_fake *f = kt_a64_new(test);
	struct kunwind_state *s;

	if (!f)
		return;
	kt_a64_chain(f);
	s = &f->w.s;
	kunwind_start(s, &kt_fake_ops, f, 0, KT_STACK, 0x9999, KT_DEPTH, 0);
	KT_EXPECT(test, !kunwind_lr_step(s), "an lr step without an lr");
	kunwind_set_lr(s, f->lr);
	KT_EXPECT(test, !kunwind_next(s) && s->stop == KUNWIND_STOP_NO_ROW,
		  "ip 0 has a row? stop %d", s->stop);
	KT_EXPECT(test, kunwind_lr_step(s) && s->ip == 0x1150 &&
		  s->sp == KT_STACK && !s->exact_ip && !s->lr,
		  "the lr step gave ip %#lx sp %#lx", s->ip, s->sp);
	KT_EXPECT(test, !kunwind_lr_step(s), "a second lr step");
	/* mid's frame by its record instead of its row: the same frame */
	s->bp = KT_STACK;
	KT_EXPECT(test, kunwind_fp_step(s) && s->ip == 0x1250 &&
		  s->sp == KT_STACK + 16 && s->bp == KT_STACK + 0x40 &&
		  s->unreliable, "the record step gave ip %#lx sp %#lx",
		  s->ip, s->sp);
	/* a record outside the stacks: no step, the stop as it was */
	s->stop = KUNWIND_STOP_UNSUPPORTED;
	s->bp = 0x10;
	KT_EXPECT(test, !kunwind_fp_step(s) && s->ip == 0x1250 &&
		  s->stop == KUNWIND_STOP_UNSUPPORTED,
		  "a record step off the stack: ip %#lx, stop %d", s->ip, s->stop);
}

/*
 * The frame-record step off the IRQ stack: no row for a frame on stack 2
 * (the IRQ stack, exactly [lo, hi)), x29 at a record on the task stack
 * (call_on_irq_stack()'s): the step crosses to it, as the kernel's walk
 * does, and the walk goes on by rows there.
 */
static void kt_walk_arm64_fp_step_crosses_stacks(KT_TEST *test)
{
	unsigned long rec = KT_STACK + 0x40, top2 = KT_STACK2 + 8 * KT_WORDS;
	struct kt_fake *f = kt_a64_new(test);
	struct kunwind_state *s;

	if (!f)
		return;
	f->two = true;
	f->exact_top = true;
	kt_put(f, rec, 0);
	kt_put(f, rec + 8, 0x1350);
	s = &f->w.s;
	kunwind_start(s, &kt_fake_ops, f, 0x1810, top2 - 16, rec, KT_DEPTH,
		      KUNWIND_FIRST_CALLED);
	KT_EXPECT(test, !kunwind_next(s) && s->stop == KUNWIND_STOP_NO_ROW,
		  "a row in the gap? stop %d", s->stop);
	KT_EXPECT(test, kunwind_fp_step(s) && s->ip == 0x1350 &&
		  s->sp == rec + 16 && s->stack_lo == KT_STACK,
		  "the record step gave ip %#lx sp %#lx on the stack at %#lx",
		  s->ip, s->sp, s->stack_lo);
	KT_EXPECT(test, !kunwind_next(s) && s->stop == KUNWIND_STOP_END,
		  "the task stack's end: stop %d", s->stop);

	/*
	 * The same to an sp-based caller (mid, 0x1150): its sp comes from
	 * its row and the record it saved, on the task stack, not the
	 * lower bound x29 + 16 (the task stack's bounds, not the IRQ's).
	 */
	kt_put(f, rec, rec + 0x40);			/* mid's record */
	kt_put(f, rec + 8, 0x1150);
	kt_put(f, rec + 0x40, 0);
	kt_put(f, rec + 0x48, 0x1350);
	kunwind_start(s, &kt_fake_ops, f, 0x1810, top2 - 16, rec, KT_DEPTH,
		      KUNWIND_FIRST_CALLED);
	KT_EXPECT(test, !kunwind_next(s) && kunwind_fp_step(s) &&
		  s->ip == 0x1150 && s->sp == rec + 0x40,
		  "the record step gave ip %#lx sp %#lx, not mid's sp %#lx",
		  s->ip, s->sp, rec + 0x40);
	KT_EXPECT(test, kunwind_next(s) && s->ip == 0x1350 &&
		  !kunwind_next(s) && s->stop == KUNWIND_STOP_END,
		  "mid's row from there: ip %#lx stop %d", s->ip, s->stop);
}

/* Another architecture's table: no segment for this walker. */
static void kt_walk_arm64_foreign_table_is_no_table(KT_TEST *test)
{
	struct kt_fake *f = kt_a64_new(test);
	struct kunwind_hdr *x86;

	if (!f)
		return;
	x86 = KT_ZALLOC(test, f->t_len);
	if (!KT_EXPECT(test, x86, "no memory for a copy of the table"))
		return;
	__builtin_memcpy(x86, f->t, f->t_len);
	x86->flags = KUNWIND_ARCH_ID_X86_64;
	f->t = x86;
	kt_put(f, KT_STACK + 0x00, 0);
	kt_put(f, KT_STACK + 0x08, 0x1350);
	kt_walk(f, 0x1110, KT_STACK, 0, 0);
	KT_EXPECT_WALK(test, f, KUNWIND_STOP_NO_ROW, 1);
}

static const struct kt_scenario kt_walk_arm64_scenarios[] = {
	{ "walk_arm64_leaf_returns_through_lr",
	  kt_walk_arm64_leaf_returns_through_lr },
	{ "walk_arm64_trace_gives_the_same_frames",
	  kt_walk_arm64_trace_gives_the_same_frames },
	{ "walk_arm64_prologue_returns_through_lr",
	  kt_walk_arm64_prologue_returns_through_lr },
	{ "walk_arm64_called_frame_has_no_lr",
	  kt_walk_arm64_called_frame_has_no_lr },
	{ "walk_arm64_lr_serves_one_step", kt_walk_arm64_lr_serves_one_step },
	{ "walk_arm64_step_to_forgets_lr", kt_walk_arm64_step_to_forgets_lr },
	{ "walk_arm64_regs_frame_restores_lr",
	  kt_walk_arm64_regs_frame_restores_lr },
	{ "walk_arm64_user_regs_end", kt_walk_arm64_user_regs_end },
	{ "walk_arm64_strips_kernel_pac", kt_walk_arm64_strips_kernel_pac },
	{ "walk_arm64_guess_takes_sp_from_callers_row",
	  kt_walk_arm64_guess_takes_sp_from_callers_row },
	{ "walk_arm64_trampoline_keyed_by_callers_fp",
	  kt_walk_arm64_trampoline_keyed_by_callers_fp },
	{ "walk_arm64_cfa_past_the_top_is_no_frame",
	  kt_walk_arm64_cfa_past_the_top_is_no_frame },
	{ "walk_arm64_foreign_table_is_no_table",
	  kt_walk_arm64_foreign_table_is_no_table },
	{ "walk_arm64_empty_stack_frame", kt_walk_arm64_empty_stack_frame },
	{ "walk_arm64_fallback_steps", kt_walk_arm64_fallback_steps },
	{ "walk_arm64_fp_step_crosses_stacks",
	  kt_walk_arm64_fp_step_crosses_stacks },
};

#endif /* _KUNWIND_TEST_WALK_CASES_ARM64_H */
