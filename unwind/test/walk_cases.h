/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walk scenarios (see scenarios.h for the contract): kunwind_start() and
 * kunwind_next() over fake stack memory behind struct kunwind_ops hooks
 * with bounds, and a synthetic program's table.  Every stop reason of
 * enum kunwind_stop is reached, plus the rules a real walk depends on:
 * ip - 1, register, iret and signal frames, stack switches, the rbp
 * fallback, PLT rows, tracers' trampolines and the lookup cache.
 *
 *   walk_reaches_stop_reason.<kt_stop_cases>
 *   walk_scenario.<kt_walk_scenarios>
 */
#ifndef _KUNWIND_TEST_WALK_CASES_H
#define _KUNWIND_TEST_WALK_CASES_H

#include "walk_fake.h"

/*
 * The synthetic program, one function per 0x100 bytes from 0x1000:
 *   0x1000 leaf: CFA rsp+8          0x1100 mid: CFA rsp+24, rbp at c-16
 *   0x1200 fp:   CFA rbp+16, c-16   0x1300 end: end of stack
 *   0x1400 regs: pt_regs at rsp     0x1500 unsupported
 *   0x1600 signal: ucontext at rsp  0x1700 iret frame at rsp
 *   0x1800 gap (no row)             0x1900 a no-return caller's tail
 *   0x1a00 CFA rsp+64 (right after 0x19ff)
 *   0x1b00 stack switch: CFA *(rsp)+16, rbp at c-16
 *   0x1c00 undefined                0x1d00 PLT (threshold 11)
 *   0x1c80 realigned (DRAP): CFA *(rbp-8), rbp at rbp
 * Its text, as text_ok() sees it, is [0x1000, 0x2000): the functions and
 * a tracer's trampoline at 0x1f80.
 */
static const struct kt_row kt_program_rows[] = {
	{ 0x000, 0x100, { 8, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	{ 0x100, 0x200, { 24, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	{ 0x200, 0x300, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_BP } },
	{ 0x300, 0x400, { 8, 0, KUNWIND_TYPE_END, KUNWIND_REG_SP } },
	{ 0x400, 0x500, { 0, 0, KUNWIND_TYPE_REGS, KUNWIND_REG_SP } },
	{ 0x500, 0x600, { 0, 0, KUNWIND_TYPE_UNSUPPORTED, 0 } },
	{ 0x600, 0x700, { 0, 0, KUNWIND_TYPE_SIGNAL, KUNWIND_REG_SP } },
	{ 0x700, 0x800, { 0, 0, KUNWIND_TYPE_IRET, KUNWIND_REG_SP } },
	{ 0x900, 0xa00, { 16, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	{ 0xa00, 0xb00, { 64, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	{ 0xb00, 0xc00, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP_INDIRECT } },
	{ 0xc00, 0xc80, { 0, 0, KUNWIND_TYPE_UNDEFINED, 0 } },
	{ 0xc80, 0xd00, { -8, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_BP_INDIRECT } },
	{ 0xd00, 0xe00, { 8, 0, KUNWIND_TYPE_PLT, 11 } },
};

static struct kt_fake *kt_fake_new(KT_TEST *test)
{
	return kt_fake_new_rows(test, kt_program_rows,
				KT_ARRAY_SIZE(kt_program_rows), 0xe00);
}

/* ---- every stop reason ---- */

/* leaf -> mid -> end: complete, rbp restored from mid's frame. */
static void kt_s_end(struct kt_fake *f, unsigned long arg)
{
	kt_put(f, KT_STACK + 0x00, 0x1150);	/* leaf's RA into mid */
	kt_put(f, KT_STACK + 0x10, 0xbbbb);	/* mid's saved rbp at CFA-16 */
	kt_put(f, KT_STACK + 0x18, 0x1310);	/* mid's RA into end */
	kt_walk(f, 0x1010, KT_STACK, 0x1234, 0);
}

/* A register frame saved in user mode (by cs, whatever ip is). */
static void kt_s_user_regs(struct kt_fake *f, unsigned long arg)
{
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_IP, 0x1a00);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_SP, KT_STACK + 0x1c0);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_CS, 0x33);
	kt_walk(f, 0x1410, KT_STACK, 0, 0);
}

static void kt_s_user_iret(struct kt_fake *f, unsigned long arg)
{
	kt_put(f, KT_STACK + KUNWIND_IRET_IP, 0x1a00);
	kt_put(f, KT_STACK + KUNWIND_IRET_SP, KT_STACK + 0x1c0);
	kt_put(f, KT_STACK + KUNWIND_IRET_CS, 0x2b);
	kt_walk(f, 0x1710, KT_STACK, 0, 0);
}

/* Walk from arg with a stack of zeroes and rbp at KT_STACK + 0x20. */
static void kt_s_at(struct kt_fake *f, unsigned long arg)
{
	kt_walk(f, arg, KT_STACK, KT_STACK + 0x20, 0);
}

static void kt_s_bad_read(struct kt_fake *f, unsigned long arg)
{
	/* leaf's RA is read at sp, which is the top of the stack. */
	kt_walk(f, 0x1010, KT_TOP, 0, 0);
}

static void kt_s_unknown_stack(struct kt_fake *f, unsigned long arg)
{
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_IP, 0x1010);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_SP, 0x90000);	/* no such stack */
	kt_walk(f, 0x1410, KT_STACK, 0, 0);
}

/* A register frame whose ip is arg. */
static void kt_s_regs_ip(struct kt_fake *f, unsigned long arg)
{
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_IP, arg);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_SP, KT_STACK + 0x1c0);
	kt_walk(f, 0x1410, KT_STACK, 0, 0);
}

static void kt_s_bad_start(struct kt_fake *f, unsigned long arg)
{
	kt_walk(f, 0x1010, 0x50000, 0, 0);	/* sp on no stack at all */
}

static void kt_s_sp_direction(struct kt_fake *f, unsigned long arg)
{
	kt_put(f, KT_STACK + 0x28, 0x1010);	/* rbp-based: RA at rbp + 8 */
	kt_walk(f, 0x1210, KT_STACK + 0x100, KT_STACK + 0x20, 0);
}

static void kt_s_depth(struct kt_fake *f, unsigned long arg)
{
	unsigned int i;

	for (i = 0; i < KT_WORDS; i++)
		f->mem[i] = 0x1010;		/* a recursion that never ends */
	kt_walk(f, 0x1010, KT_STACK, 0, 0);
}

/* leaf's return address is arg. */
static void kt_s_leaf_returns_to(struct kt_fake *f, unsigned long arg)
{
	kt_put(f, KT_STACK + 0x00, arg);
	kt_walk(f, 0x1010, KT_STACK, 0, 0);
}

/*
 * leaf's return address replaced by a trampoline whose record is for
 * another slot: it cannot be undone, and ret_addr() gives 0, which is
 * never reported, not even when arg says that every ip is text and the
 * rbp fallback is on.
 */
static void kt_s_lost_trampoline(struct kt_fake *f, unsigned long arg)
{
	f->tramp = 0x1f80;
	f->tramp_p = KT_STACK + 8;
	f->tramp_ip = 0x1150;
	if (arg)
		f->text_hi = 0;
	kt_put(f, KT_STACK + 0x00, 0x1f80);
	kt_put(f, KT_STACK + 0x18, 0x1310);
	kt_walk(f, 0x1010, KT_STACK, 0, arg ? KUNWIND_FP_FALLBACK : 0);
}

/*
 * A return address one past the segment's end (a no-return call ended
 * it): ip - 1 is in the segment, so it is code whatever text_ok() says of
 * the address itself, with a cache or without.  The frame at 0x1dff is
 * the last of the PLT rows; its caller returns into end.
 */
static void kt_s_past_the_end(struct kt_fake *f, unsigned long arg)
{
	f->text_hi = 0x1e00;
	kt_put(f, KT_STACK + 0x08, 0x1e00);
	kt_put(f, KT_STACK + 0x10, 0x1310);
	kt_walk(f, 0x1dff, KT_STACK, 0, 0);
}

/*
 * A return address of 0 is never a frame, even where a segment covers
 * its ip - 1, ~0 (the table loaded at the top of the address space).
 */
static void kt_s_zero_under_a_segment(struct kt_fake *f, unsigned long arg)
{
	f->bias = ~0ul - 0x1050;
	f->text_hi = 0;
	kt_put(f, KT_STACK + 0x00, 0);
	kt_put(f, KT_STACK + 0x08, 0x1310 + f->bias);
	kt_walk(f, ~0ul, KT_STACK, 0, 0);
}

struct kt_stop_case {
	const char *name;
	enum kunwind_stop want;
	unsigned int frames;
	void (*run)(struct kt_fake *f, unsigned long arg);
	unsigned long arg;
};

static const struct kt_stop_case kt_stop_cases[] = {
	{ "end_of_stack", KUNWIND_STOP_END, 3, kt_s_end, 0 },
	{ "end_at_user_mode_register_frame", KUNWIND_STOP_END, 1, kt_s_user_regs, 0 },
	{ "end_at_user_mode_iret_frame", KUNWIND_STOP_END, 1, kt_s_user_iret, 0 },
	{ "no_row_in_a_gap", KUNWIND_STOP_NO_ROW, 1, kt_s_at, 0x1810 },
	{ "no_row_without_table", KUNWIND_STOP_NO_ROW, 1, kt_s_at, 0x9000 },
	{ "no_row_where_undefined", KUNWIND_STOP_NO_ROW, 1, kt_s_at, 0x1c10 },
	{ "bad_read_off_the_stack", KUNWIND_STOP_BAD_READ, 1, kt_s_bad_read, 0 },
	{ "bad_read_on_unknown_stack", KUNWIND_STOP_BAD_READ, 1,
	  kt_s_unknown_stack, 0 },
	{ "bad_read_when_sp_is_on_no_stack", KUNWIND_STOP_BAD_READ, 1,
	  kt_s_bad_start, 0 },
	{ "sp_direction_when_sp_goes_down", KUNWIND_STOP_SP_DIRECTION, 1,
	  kt_s_sp_direction, 0 },
	{ "depth_limit", KUNWIND_STOP_DEPTH, KT_DEPTH, kt_s_depth, 0 },
	{ "unsupported_rule", KUNWIND_STOP_UNSUPPORTED, 1, kt_s_at, 0x1510 },
	{ "bad_return_address_0", KUNWIND_STOP_BAD_RA, 1, kt_s_leaf_returns_to, 0 },
	{ "bad_return_address_on_the_stack", KUNWIND_STOP_BAD_RA, 1,
	  kt_s_leaf_returns_to, KT_STACK + 8 },
	{ "bad_return_address_in_user_space", KUNWIND_STOP_BAD_RA, 1,
	  kt_s_leaf_returns_to, 0x400000 },
	{ "bad_return_address_non_canonical", KUNWIND_STOP_BAD_RA, 1,
	  kt_s_leaf_returns_to, 0x8000000000001150ull },
	{ "bad_return_address_in_freed_text", KUNWIND_STOP_BAD_RA, 1,
	  kt_s_leaf_returns_to, 0x2010 },
	{ "bad_return_address_regs_ip_not_text", KUNWIND_STOP_BAD_RA, 1,
	  kt_s_regs_ip, 0xdead0000 },
	{ "bad_return_address_unrecoverable_trampoline", KUNWIND_STOP_BAD_RA, 1,
	  kt_s_lost_trampoline, 0 },
	{ "bad_return_address_0_even_without_text_check", KUNWIND_STOP_BAD_RA, 1,
	  kt_s_lost_trampoline, 1 },
	{ "end_after_returning_past_the_segment_end", KUNWIND_STOP_END, 3,
	  kt_s_past_the_end, 0 },
	{ "bad_return_address_0_under_a_segment", KUNWIND_STOP_BAD_RA, 1,
	  kt_s_zero_under_a_segment, 0 },
};

static void kt_walk_reaches_stop_reason(KT_TEST *test,
					const struct kt_stop_case *c)
{
	struct kt_fake *f = kt_fake_new(test);
	struct kt_walked *w;

	if (!f)
		return;
	w = &f->w;
	c->run(f, c->arg);
	KT_EXPECT_WALK(test, f, c->want, c->frames);
	KT_EXPECT(test, kunwind_done(&w->s), "stopped, but not done");
	/* What is not code is never a frame: the walk stays on the last one. */
	if (c->want == KUNWIND_STOP_BAD_RA)
		KT_EXPECT(test, w->s.ip == w->ip[w->n - 1] &&
			  w->s.sp == w->sp[w->n - 1],
			  "stopped at ip %#lx sp %#lx, not the last frame's",
			  w->s.ip, w->s.sp);
	/* A stopped walk stays stopped. */
	KT_EXPECT(test, !kunwind_next(&w->s), "a stopped walk went on");
	KT_EXPECT(test, w->s.stop == c->want, "then stopped for \"%s\"",
		  kunwind_stop_str(w->s.stop));
}

/* Every reason but "not stopped" is in kt_stop_cases. */
static void kt_walk_stop_cases_cover_every_reason(KT_TEST *test)
{
	unsigned int seen = 0, i;

	for (i = 0; i < KT_ARRAY_SIZE(kt_stop_cases); i++)
		seen |= 1u << kt_stop_cases[i].want;
	for (i = KUNWIND_STOP_NONE + 1; i < KUNWIND_STOP_NR; i++)
		KT_EXPECT(test, seen & (1u << i), "no case reaches \"%s\"",
			  kunwind_stop_str(i));
}

/* ---- the rules of a walk ---- */

static void kt_walk_end_restores_rbp(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_s_end(f, 0);
	if (!KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 3))
		return;
	KT_EXPECT_EQ(test, f->w.ip[1], 0x1150);
	KT_EXPECT_EQ(test, f->w.ip[2], 0x1310);
	KT_EXPECT_EQ(test, f->w.s.bp, 0xbbbb);
	KT_EXPECT(test, !f->w.s.unreliable, "a table walk marked unreliable");
}

static void kt_walk_follows_rbp_based_cfa(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + 0x20, 0x5555);	/* saved rbp at rbp */
	kt_put(f, KT_STACK + 0x28, 0x1320);	/* RA at rbp + 8 */
	kt_walk(f, 0x1210, KT_STACK, KT_STACK + 0x20, 0);
	if (!KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 2))
		return;
	KT_EXPECT_EQ(test, f->w.ip[1], 0x1320);
	KT_EXPECT_EQ(test, f->w.s.sp, KT_STACK + 0x30);
	KT_EXPECT_EQ(test, f->w.s.bp, 0x5555);
}

static void kt_walk_fp_fallback_is_unreliable(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + 0x20, 0x5555);
	kt_put(f, KT_STACK + 0x28, 0x1320);
	kt_walk(f, 0x1810, KT_STACK, KT_STACK + 0x20, KUNWIND_FP_FALLBACK);
	if (!KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 2))
		return;
	KT_EXPECT_EQ(test, f->w.ip[1], 0x1320);
	KT_EXPECT(test, f->w.s.unreliable, "an rbp guess not marked unreliable");
}

/*
 * A return address 0x1a00 is the first byte of the next function (a call
 * to a no-return function ended the caller at 0x19ff): the caller's rule
 * (rsp+16) must be used, not 0x1a00's (rsp+64).
 */
static void kt_walk_looks_up_return_address_minus_one(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + 0x00, 0x1a00);	/* leaf returns to 0x1a00 */
	kt_put(f, KT_STACK + 0x10, 0x1310);	/* 0x19xx frame: CFA rsp+16 */
	kt_walk(f, 0x1010, KT_STACK, 0, 0);
	if (KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 3))
		KT_EXPECT_EQ(test, f->w.ip[2], 0x1310);
}

static void kt_walk_first_frame_uses_exact_ip(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + 0x38, 0x1310);
	kt_walk(f, 0x1a00, KT_STACK, 0, 0);
	KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 2);
	KT_EXPECT_EQ(test, f->w.s.sp, KT_STACK + 64);
}

/* KUNWIND_FIRST_CALLED: a sleeping task's first ip is a return address. */
static void kt_walk_first_called_uses_ip_minus_one(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + 0x08, 0x1310);	/* 0x19xx: RA at rsp + 8 */
	kt_walk(f, 0x1a00, KT_STACK, 0, KUNWIND_FIRST_CALLED);
	if (!KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 2))
		return;
	KT_EXPECT_EQ(test, f->w.ip[1], 0x1310);
	KT_EXPECT_EQ(test, f->w.s.sp, KT_STACK + 16);
}

/*
 * A register block at KT_STACK, as the row at ip says (pt_regs, ucontext,
 * iret frame), gives the next frame: 0x1a00, exact (looked up as itself,
 * not as 0x19ff: its rule, CFA rsp+64, finds 0x1310), and rbp from the
 * block's bp_at, or, if the block has none (bp_at 0), rbp unchanged.
 */
static void kt_expect_register_block(KT_TEST *test, unsigned long ip,
				     unsigned long ip_at, unsigned long sp_at,
				     unsigned long bp_at)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + ip_at, 0x1a00);
	kt_put(f, KT_STACK + sp_at, KT_STACK + 0x1c0);
	if (bp_at)
		kt_put(f, KT_STACK + bp_at, 0x7777);
	kt_put(f, KT_STACK + 0x1c0 + 56, 0x1310);
	kt_walk(f, ip, KT_STACK, 0x4444, 0);
	if (!KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 3))
		return;
	KT_EXPECT_EQ(test, f->w.ip[1], 0x1a00);
	KT_EXPECT_EQ(test, f->w.ip[2], 0x1310);
	KT_EXPECT_EQ(test, f->w.s.bp, bp_at ? 0x7777 : 0x4444);
}

static void kt_walk_regs_frame_then_exact_ip(KT_TEST *test)
{
	kt_expect_register_block(test, 0x1410, KUNWIND_PT_REGS_IP,
				 KUNWIND_PT_REGS_SP, KUNWIND_PT_REGS_BP);
}

static void kt_walk_signal_frame(KT_TEST *test)
{
	kt_expect_register_block(test, 0x1610, KUNWIND_UC_IP, KUNWIND_UC_SP,
				 KUNWIND_UC_BP);
}

static void kt_walk_iret_frame_keeps_rbp(KT_TEST *test)
{
	kt_expect_register_block(test, 0x1710, KUNWIND_IRET_IP,
				 KUNWIND_IRET_SP, 0);
}

static void kt_walk_regs_frame_switches_to_another_known_stack(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	f->two = true;
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_IP, 0x1010);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_SP, KT_STACK2);
	kt_put(f, KT_STACK2, 0x1310);		/* leaf's RA on the other stack */
	kt_walk(f, 0x1410, KT_STACK, 0, 0);
	KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 3);
	KT_EXPECT_EQ(test, f->w.s.stack_lo, KT_STACK2);
}

/* A stack switch hint: the old sp was saved at [rsp] of the new stack. */
static void kt_walk_stack_switch_reads_saved_sp(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	f->two = true;
	kt_put(f, KT_STACK2, KT_STACK + 0x20);	/* saved sp on the new stack */
	kt_put(f, KT_STACK + 0x20, 0xabcd);	/* rbp at CFA - 16 */
	kt_put(f, KT_STACK + 0x28, 0x1310);	/* RA at CFA - 8 */
	kt_walk(f, 0x1b10, KT_STACK2, 0, 0);
	if (!KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 2))
		return;
	KT_EXPECT_EQ(test, f->w.ip[1], 0x1310);
	KT_EXPECT_EQ(test, f->w.s.sp, KT_STACK + 0x30);
	KT_EXPECT_EQ(test, f->w.s.bp, 0xabcd);
}

/*
 * A realigned stack (DRAP): the CFA is the word at rbp - 8, the caller's
 * rbp the word at rbp, and the return address below the CFA; nothing is
 * at a fixed offset from rsp, which the realignment moved.
 */
static void kt_walk_realigned_stack_reads_cfa_at_rbp(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + 0x18, KT_STACK + 0x48);	/* CFA at rbp - 8 */
	kt_put(f, KT_STACK + 0x20, 0x7777);		/* caller's rbp at rbp */
	kt_put(f, KT_STACK + 0x28, 0x1310);		/* a copy of the RA */
	kt_put(f, KT_STACK + 0x40, 0x1310);		/* RA at CFA - 8 */
	kt_walk(f, 0x1c90, KT_STACK, KT_STACK + 0x20, 0);
	if (!KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 2))
		return;
	KT_EXPECT_EQ(test, f->w.ip[1], 0x1310);
	KT_EXPECT_EQ(test, f->w.sp[1], KT_STACK + 0x48);
	KT_EXPECT_EQ(test, f->w.s.bp, 0x7777);
	KT_EXPECT(test, !f->w.s.unreliable, "a table walk marked unreliable");
}

/*
 * A call frame may not leave its stack: the return address of a frame
 * whose CFA lies beyond the top is never read, even if the memory there
 * could be read.
 */
static void kt_walk_never_reads_outside_known_stacks(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_put(f, KT_TOP - 8, 0x1010);
	/* mid: CFA = sp + 24 lands 16 bytes past the top */
	kt_walk(f, 0x1110, KT_TOP - 8, 0, 0);
	KT_EXPECT_WALK(test, f, KUNWIND_STOP_BAD_READ, 1);
}

static void kt_walk_plt_rule_depends_on_ip(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	kt_put(f, KT_STACK + 0x00, 0x1310);	/* (ip & 15) < 11: rsp + 8 */
	kt_put(f, KT_STACK + 0x08, 0x1320);	/* (ip & 15) >= 11: rsp + 16 */
	kt_walk(f, 0x1d02, KT_STACK, 0, 0);
	if (KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 2))
		KT_EXPECT_EQ(test, f->w.ip[1], 0x1310);
	kt_walk(f, 0x1d0c, KT_STACK, 0, 0);
	if (KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 2))
		KT_EXPECT_EQ(test, f->w.ip[1], 0x1320);
}

/* leaf's return address replaced by a trampoline: recovered. */
static void kt_walk_recovers_return_address_from_trampoline(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	f->tramp = 0x1f80;
	f->tramp_p = KT_STACK;
	f->tramp_ip = 0x1150;
	kt_put(f, KT_STACK + 0x00, 0x1f80);
	kt_put(f, KT_STACK + 0x18, 0x1310);
	kt_walk(f, 0x1010, KT_STACK, 0, 0);
	if (!KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 3))
		return;
	KT_EXPECT_EQ(test, f->w.ip[1], 0x1150);
	KT_EXPECT_EQ(test, f->w.ip[2], 0x1310);
}

/* Interrupted at the trampoline's first instruction (just returned). */
static void kt_walk_recovers_trampoline_at_interrupted_ip(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);

	if (!f)
		return;
	f->tramp = 0x1f80;
	f->tramp_p = KT_STACK + 0x1c0 - 8;
	f->tramp_ip = 0x1150;
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_IP, 0x1f80);
	kt_put(f, KT_STACK + KUNWIND_PT_REGS_SP, KT_STACK + 0x1c0);
	kt_put(f, KT_STACK + 0x1c0 + 16, 0x1310);	/* 0x1150 (mid): CFA rsp+24 */
	kt_walk(f, 0x1410, KT_STACK, 0, 0);
	if (!KT_EXPECT_WALK(test, f, KUNWIND_STOP_END, 3))
		return;
	KT_EXPECT_EQ(test, f->w.ip[1], 0x1150);
	KT_EXPECT_EQ(test, f->w.ip[2], 0x1310);
}

/* The optional lookup cache gives the frames the table gives, twice. */
static void kt_walk_cache_gives_the_same_frames(KT_TEST *test)
{
	struct kt_fake *f = kt_fake_new(test);
	struct kunwind_cache *cache;
	struct kt_walked *plain;
	unsigned int round, i;

	if (!f)
		return;
	plain = KT_ZALLOC(test, sizeof(*plain));
	cache = KT_ZALLOC(test, sizeof(*cache));
	if (!KT_EXPECT(test, plain && cache, "no memory"))
		return;
	kt_s_end(f, 0);
	*plain = f->w;
	kunwind_cache_clear(cache);
	f->cache = cache;
	for (round = 0; round < 2; round++) {
		kt_s_end(f, 0);
		if (!KT_EXPECT_WALK(test, f, plain->s.stop, plain->n))
			return;
		for (i = 0; i < plain->n; i++)
			KT_EXPECT(test, f->w.ip[i] == plain->ip[i],
				  "round %u, frame %u: %#lx with the cache, %#lx without",
				  round, i, f->w.ip[i], plain->ip[i]);
	}
}

/*
 * Every stop case walks the same frames with kunwind_next() alone, with
 * kunwind_trace(), and both again through a cold and a warm cache.
 */
static void kt_walk_trace_and_cache_give_the_same_frames(KT_TEST *test)
{
	struct kt_walked *plain = KT_ZALLOC(test, sizeof(*plain));
	struct kunwind_cache *cache = KT_ZALLOC(test, sizeof(*cache));
	struct kt_fake *fresh = KT_ZALLOC(test, sizeof(*fresh));
	struct kt_fake *f = kt_fake_new(test);
	const struct kt_stop_case *c;
	unsigned int i, way, k;

	if (!f || !KT_EXPECT(test, plain && cache && fresh, "no memory"))
		return;
	*fresh = *f;
	/* with the ret_addr hook and without (the runs of cached frames) */
	for (i = 0; i < 2 * KT_ARRAY_SIZE(kt_stop_cases); i++) {
		c = &kt_stop_cases[i / 2];
		*f = *fresh;
		f->no_hook = i & 1;
		c->run(f, c->arg);
		*plain = f->w;
		kunwind_cache_clear(cache);
		/* trace; cache cold, warm; trace with the cache cold, warm */
		for (way = 1; way < 6; way++) {
			*f = *fresh;
			f->no_hook = i & 1;
			f->trace = way & 1;
			f->cache = way > 1 ? cache : NULL;
			if (way == 4)
				kunwind_cache_clear(cache);
			c->run(f, c->arg);
			if (!KT_EXPECT(test, f->w.n == plain->n &&
				       f->w.s.stop == plain->s.stop,
				       "%s%s, way %u: \"%s\" after %u frames, kunwind_next() alone \"%s\" after %u",
				       c->name, f->no_hook ? " (no hook)" : "",
				       way, kunwind_stop_str(f->w.s.stop),
				       f->w.n, kunwind_stop_str(plain->s.stop),
				       plain->n))
				continue;
			for (k = 0; k < plain->n; k++)
				KT_EXPECT(test, f->w.ip[k] == plain->ip[k],
					  "%s%s, way %u, frame %u: %#lx, kunwind_next() alone %#lx",
					  c->name, f->no_hook ? " (no hook)" : "",
					  way, k, f->w.ip[k],
					  plain->ip[k]);
		}
	}
}

/*
 * The lookup cache answers as the table does for every address, also for
 * those an empty slot could be mistaken for (0, ~0: the walk fuzzer's
 * regress-cache-address-zero and regress-cache-address-ones).
 */
static void kt_walk_cache_answers_as_the_table_for_every_address(KT_TEST *test)
{
	static const unsigned long at[] = { 0, 1, ~0ul, ~1ul, 0xff, 0x100 };
	struct kt_fake *f = kt_fake_new(test);
	struct kunwind_cache *cache;
	enum kunwind_stop plain;
	unsigned int i;

	if (!f)
		return;
	cache = KT_ZALLOC(test, sizeof(*cache));
	if (!KT_EXPECT(test, cache, "no memory for the cache"))
		return;
	f->text_hi = 0;
	for (i = 0; i < KT_ARRAY_SIZE(at); i++) {
		/* the end-of-stack row 0x1310 placed at run-time address at[i] */
		f->bias = at[i] - 0x1310;
		f->cache = NULL;
		kt_walk(f, at[i], KT_STACK, 0, 0);
		plain = f->w.s.stop;
		kunwind_cache_clear(cache);
		f->cache = cache;
		kt_walk(f, at[i], KT_STACK, 0, 0);
		KT_EXPECT(test, plain == KUNWIND_STOP_END &&
			  f->w.s.stop == plain,
			  "ip %#lx: without the cache \"%s\", with it \"%s\"",
			  at[i], kunwind_stop_str(plain),
			  kunwind_stop_str(f->w.s.stop));
	}
}

/*
 * Two frames whose lookup addresses share a cache slot (0x111f and
 * 0x101f: the slot is the low byte) and have other rules (rsp+24, rbp
 * saved; rsp+8): a warm cache, whose slot holds the other's rule for
 * each in turn, must not lend one the other's (the runs of cached
 * frames, walk.c's call_run(), check the slot's address).  Where a
 * wrong rule would look for a return address, one whose row is cached
 * lies: a trace a frame short.
 */
static void kt_walk_cache_slot_shared_by_two_frames(KT_TEST *test)
{
	struct kunwind_cache *cache = KT_ZALLOC(test, sizeof(*cache));
	static const unsigned long want[] = { 0x1010, 0x1120, 0x1020, 0x1310 };
	struct kt_fake *f = kt_fake_new(test);
	unsigned int round, k;

	if (!f || !KT_EXPECT(test, cache, "no memory"))
		return;
	kt_put(f, KT_STACK + 0x00, 0x1120);	/* leaf: CFA rsp+8 */
	kt_put(f, KT_STACK + 0x10, 0x4444);	/* mid: rbp at CFA-16 */
	kt_put(f, KT_STACK + 0x18, 0x1020);	/* mid: CFA rsp+24 */
	kt_put(f, KT_STACK + 0x20, 0x1310);	/* leaf again, then the end */
	/* where a wrong rule would look: the end, whose row is cached too */
	kt_put(f, KT_STACK + 0x08, 0x1310);	/* leaf's rule, for mid */
	kt_put(f, KT_STACK + 0x30, 0x1310);	/* mid's rule, for leaf */
	kunwind_cache_clear(cache);
	f->no_hook = true;
	f->trace = true;
	f->cache = cache;
	for (round = 0; round < 3; round++) {
		kt_walk(f, 0x1010, KT_STACK, 0, 0);
		if (!KT_EXPECT(test, f->w.n == KT_ARRAY_SIZE(want) &&
			       f->w.s.stop == KUNWIND_STOP_END,
			       "round %u: \"%s\" after %u frames, not the end after 4",
			       round, kunwind_stop_str(f->w.s.stop), f->w.n))
			return;
		for (k = 0; k < KT_ARRAY_SIZE(want); k++)
			KT_EXPECT(test, f->w.ip[k] == want[k],
				  "round %u, frame %u: %#lx, not %#lx", round, k,
				  f->w.ip[k], want[k]);
	}
}

/*
 * A hit in the cache for ip - 1 says that ip is no trampoline (walk.c's
 * call_run() asks the ret_addr hook nothing then), so the lookup
 * address of a trampoline is never cached, even when a walk looks it up:
 * here its first frame, a return address (KUNWIND_FIRST_CALLED), is one.
 */
static void kt_walk_cache_never_holds_a_trampoline(KT_TEST *test)
{
	struct kunwind_cache *cache = KT_ZALLOC(test, sizeof(*cache));
	struct kt_fake *f = kt_fake_new(test);
	unsigned long addr = 0x1090 - 1;

	if (!f || !KT_EXPECT(test, cache, "no memory"))
		return;
	f->tramp = 0x1090;		/* inside leaf, which has a row */
	kt_put(f, KT_STACK + 0x00, 0x1310);
	kunwind_cache_clear(cache);
	f->cache = cache;
	f->trace = true;
	kt_walk(f, 0x1090, KT_STACK, 0, KUNWIND_FIRST_CALLED);
	KT_EXPECT(test, cache->e[addr & (KUNWIND_CACHE_SIZE - 1)].addr != addr,
		  "the cache holds %#lx, a trampoline's lookup address", addr);
}

/*
 * Nor a gap's lookup address, in a segment (0x1800) or in none (0x9000):
 * a hit is a row (call_run() tests no type), and a kernel walk's run
 * that is given no row for an address must not leave it cached as one.
 */
static void kt_walk_cache_never_holds_a_gap(KT_TEST *test)
{
	static const unsigned long ret[] = { 0x1810, 0x9000 };
	struct kunwind_cache *cache = KT_ZALLOC(test, sizeof(*cache));
	unsigned int i;

	if (!KT_EXPECT(test, cache, "no memory"))
		return;
	for (i = 0; i < sizeof(ret) / sizeof(ret[0]); i++) {
		struct kt_fake *f = kt_fake_new(test);
		unsigned long addr = ret[i] - 1;

		if (!f)
			return;
		kt_put(f, KT_STACK + 0x00, ret[i]);	/* leaf's caller */
		kunwind_cache_clear(cache);
		f->cache = cache;
		f->trace = true;
		f->no_hook = true;	/* with the hook nothing is cached */
		kt_walk(f, 0x1090, KT_STACK, 0, KUNWIND_FIRST_CALLED);
		KT_EXPECT(test, cache->e[addr & (KUNWIND_CACHE_SIZE - 1)].addr != addr,
			  "the cache holds %#lx, a lookup address without a row",
			  addr);
	}
}

static const struct kt_scenario kt_walk_scenarios[] = {
	{ "walk_stop_cases_cover_every_reason",
	  kt_walk_stop_cases_cover_every_reason },
	{ "walk_end_restores_rbp", kt_walk_end_restores_rbp },
	{ "walk_follows_rbp_based_cfa", kt_walk_follows_rbp_based_cfa },
	{ "walk_fp_fallback_is_unreliable", kt_walk_fp_fallback_is_unreliable },
	{ "walk_looks_up_return_address_minus_one",
	  kt_walk_looks_up_return_address_minus_one },
	{ "walk_first_frame_uses_exact_ip", kt_walk_first_frame_uses_exact_ip },
	{ "walk_first_called_uses_ip_minus_one",
	  kt_walk_first_called_uses_ip_minus_one },
	{ "walk_regs_frame_then_exact_ip", kt_walk_regs_frame_then_exact_ip },
	{ "walk_signal_frame", kt_walk_signal_frame },
	{ "walk_iret_frame_keeps_rbp", kt_walk_iret_frame_keeps_rbp },
	{ "walk_regs_frame_switches_to_another_known_stack",
	  kt_walk_regs_frame_switches_to_another_known_stack },
	{ "walk_stack_switch_reads_saved_sp", kt_walk_stack_switch_reads_saved_sp },
	{ "walk_realigned_stack_reads_cfa_at_rbp",
	  kt_walk_realigned_stack_reads_cfa_at_rbp },
	{ "walk_never_reads_outside_known_stacks",
	  kt_walk_never_reads_outside_known_stacks },
	{ "walk_plt_rule_depends_on_ip", kt_walk_plt_rule_depends_on_ip },
	{ "walk_recovers_return_address_from_trampoline",
	  kt_walk_recovers_return_address_from_trampoline },
	{ "walk_recovers_trampoline_at_interrupted_ip",
	  kt_walk_recovers_trampoline_at_interrupted_ip },
	{ "walk_cache_gives_the_same_frames", kt_walk_cache_gives_the_same_frames },
	{ "walk_trace_and_cache_give_the_same_frames",
	  kt_walk_trace_and_cache_give_the_same_frames },
	{ "walk_cache_answers_as_the_table_for_every_address",
	  kt_walk_cache_answers_as_the_table_for_every_address },
	{ "walk_cache_slot_shared_by_two_frames",
	  kt_walk_cache_slot_shared_by_two_frames },
	{ "walk_cache_never_holds_a_trampoline",
	  kt_walk_cache_never_holds_a_trampoline },
	{ "walk_cache_never_holds_a_gap", kt_walk_cache_never_holds_a_gap },
};

#endif /* _KUNWIND_TEST_WALK_CASES_H */
