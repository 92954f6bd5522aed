// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_asm: assembly described by .cfi_* and by each kunwind
 * hint (asm_frames.S), and calls to no-return functions at the end of a
 * function.  Every walk is compared with ORC (which reads objtool's view
 * and the kernel's UNWIND_HINT_* placed beside the kunwind hints), and the
 * frame each hint describes is checked on its own: its rule in the table,
 * the ip and stack it leads to, and that the step came from the table,
 * not from the ORC fallback.
 */
#include <linux/kthread.h>
#include <linux/sched/task_stack.h>
#include "unwind/linux/registry_lookup.h"
#include "asm_frames.h"
#include "trace.h"

struct kt_asm_point {
	struct kt_trace kun, orc;
};

noinline void kt_asm_probe(struct kt_asm_point *p)
{
	kt_both_here(&p->kun, &p->orc);
	barrier();
}

typedef void (*asm_fn)(struct kt_asm_point *p);

static noinline void run_asm(asm_fn fn, struct kt_asm_point *p)
{
	fn(p);
	barrier();
}

static struct kt_asm_point *point(struct kunit *test)
{
	struct kt_asm_point *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

/*
 * Frames of every asm walk: [0] kt_asm_probe, [1] the asm function fn,
 * [2] what the asm frame leads to.  fn ends where the next function of
 * asm_frames.S (next) begins: its inner labels are symbols too.
 */
static void expect_asm_frame(struct kunit *test, struct kt_asm_point *p,
			     const char *fn, const void *start,
			     const void *next, int rule_type)
{
	struct kunwind_rule r;

	kt_expect_same_trace(test, fn, &p->kun, &p->orc, false);
	KUNIT_ASSERT_GE(test, p->kun.n, 2u);
	KUNIT_EXPECT_TRUE_MSG(test, kt_ip_in(p->kun.ip[0], "kt_asm_probe"),
			      "frame 0 %pS", (void *)p->kun.ip[0]);
	KUNIT_EXPECT_TRUE_MSG(test, p->kun.ip[1] > (unsigned long)start &&
			      p->kun.ip[1] < (unsigned long)next,
			      "frame 1 %pS, expected in %s", (void *)p->kun.ip[1], fn);
	KUNIT_ASSERT_TRUE_MSG(test, kunwind_find_rule(p->kun.ip[1] - 1, &r),
			      "no row at the call in %s", fn);
	KUNIT_EXPECT_EQ_MSG(test, r.type, rule_type,
			    "%s: rule type %u at the call, expected %u",
			    fn, r.type, rule_type);
	if (p->kun.n > 2)
		KUNIT_EXPECT_FALSE_MSG(test, p->kun.flags[2] & KUNWIND_FRAME_ORC,
				       "%s: the step to %pS came from the ORC fallback",
				       fn, (void *)p->kun.ip[2]);
}

static void asm_cfi_frame_on_rbp_equals_orc(struct kunit *test)
{
	struct kt_asm_point *p = point(test);

	run_asm(kt_asm_cfi, p);
	expect_asm_frame(test, p, "kt_asm_cfi", kt_asm_cfi, kt_asm_call,
			 KUNWIND_TYPE_CALL);
	KUNIT_EXPECT_TRUE(test, p->kun.n > 2 && kt_ip_in(p->kun.ip[2], "run_asm"));
}

static void asm_hint_call_describes_code_without_cfi(struct kunit *test)
{
	struct kt_asm_point *p = point(test);
	struct kunwind_rule r;

	run_asm(kt_asm_call, p);
	expect_asm_frame(test, p, "kt_asm_call", kt_asm_call, kt_asm_regs,
			 KUNWIND_TYPE_CALL);
	KUNIT_EXPECT_TRUE(test, p->kun.n > 2 && kt_ip_in(p->kun.ip[2], "run_asm"));
	KUNIT_ASSERT_TRUE(test, kunwind_find_rule(p->kun.ip[1] - 1, &r));
	KUNIT_EXPECT_EQ(test, r.cfa_off, 56);
	KUNIT_EXPECT_EQ(test, r.reg, KUNWIND_REG_SP);
}

/* A register or iret frame: the next frame is the exact interrupted ip. */
static void expect_interrupted(struct kunit *test, struct kt_asm_point *p,
			       unsigned long ip)
{
	struct kunwind_rule exact, before;

	KUNIT_ASSERT_GE(test, p->kun.n, 4u);
	KUNIT_EXPECT_EQ_MSG(test, p->kun.ip[2], ip, "frame 2 %pS, expected %pS",
			    (void *)p->kun.ip[2], (void *)ip);
	KUNIT_EXPECT_TRUE(test, p->kun.flags[2] & KUNWIND_FRAME_REGS);
	KUNIT_EXPECT_TRUE_MSG(test, kt_ip_in(p->kun.ip[3], "run_asm"),
			      "frame 3 %pS", (void *)p->kun.ip[3]);
	KUNIT_EXPECT_FALSE(test, p->kun.flags[3] & KUNWIND_FRAME_ORC);
	/* The test means something only if ip and ip - 1 differ. */
	KUNIT_ASSERT_TRUE(test, kunwind_find_rule(ip, &exact));
	KUNIT_ASSERT_TRUE(test, kunwind_find_rule(ip - 1, &before));
	KUNIT_EXPECT_EQ(test, exact.cfa_off, 24);
	KUNIT_EXPECT_EQ(test, before.cfa_off, 16);
}

static void asm_hint_regs_leads_to_exact_interrupted_ip(struct kunit *test)
{
	struct kt_asm_point *p = point(test);

	run_asm(kt_asm_regs, p);
	expect_asm_frame(test, p, "kt_asm_regs", kt_asm_regs, kt_asm_iret,
			 KUNWIND_TYPE_REGS);
	expect_interrupted(test, p, (unsigned long)kt_asm_regs_ip);
}

static void asm_hint_iret_leads_to_exact_interrupted_ip(struct kunit *test)
{
	struct kt_asm_point *p = point(test);

	run_asm(kt_asm_iret, p);
	expect_asm_frame(test, p, "kt_asm_iret", kt_asm_iret, kt_asm_switch,
			 KUNWIND_TYPE_IRET);
	expect_interrupted(test, p, (unsigned long)kt_asm_iret_ip);
}

/*
 * The private stack: a region low in this task's stack, far below the
 * frames in use.  Both unwinders accept reads there (it is a known stack)
 * and it lies below the old frames, so the switch back goes up.  (A
 * kmalloc()ed stack is known to neither: both would stop on it.)
 */
#define PRIVATE_TOP	6144

static noinline void run_switch(struct kt_asm_point *p, unsigned long *tos)
{
	kt_asm_switch(p, tos);
	barrier();
}

static void asm_hint_stack_switch_returns_to_the_old_stack(struct kunit *test)
{
	unsigned long lo = (unsigned long)task_stack_page(current);
	unsigned long *tos = (unsigned long *)(lo + PRIVATE_TOP);
	struct kt_asm_point *p = point(test);
	struct kunwind_rule r;

	KUNIT_ASSERT_GT_MSG(test, current_stack_pointer, lo + PRIVATE_TOP + 2048,
			    "the stack is too deep for the private region");
	run_switch(p, tos);
	kt_expect_same_trace(test, "kt_asm_switch", &p->kun, &p->orc, false);
	KUNIT_ASSERT_GE(test, p->kun.n, 3u);
	KUNIT_EXPECT_TRUE(test, kt_ip_in(p->kun.ip[1], "kt_asm_switch"));
	KUNIT_EXPECT_TRUE(test, kt_ip_in(p->kun.ip[2], "run_switch"));
	KUNIT_EXPECT_FALSE(test, p->kun.flags[2] & KUNWIND_FRAME_ORC);
	/* frame 1 runs on the private stack, frame 2 back on the old one */
	KUNIT_EXPECT_TRUE_MSG(test, p->kun.sp[1] <= (unsigned long)tos &&
			      p->kun.sp[1] > lo,
			      "frame 1 sp %lx, private top %lx", p->kun.sp[1],
			      (unsigned long)tos);
	KUNIT_EXPECT_GT(test, p->kun.sp[2], (unsigned long)tos + 2048);
	KUNIT_ASSERT_TRUE(test, kunwind_find_rule(p->kun.ip[1] - 1, &r));
	KUNIT_EXPECT_EQ(test, r.type, KUNWIND_TYPE_CALL);
	KUNIT_EXPECT_EQ(test, r.reg, KUNWIND_REG_SP_INDIRECT);
	KUNIT_EXPECT_EQ(test, r.cfa_off, 16);
}

static void asm_hint_end_completes_the_walk(struct kunit *test)
{
	struct kt_asm_point *p = point(test);

	run_asm(kt_asm_end, p);
	expect_asm_frame(test, p, "kt_asm_end", kt_asm_end, kt_asm_undefined,
			 KUNWIND_TYPE_END);
	KUNIT_EXPECT_EQ(test, p->kun.n, 2u);
	KUNIT_EXPECT_EQ(test, p->kun.stop, KUNWIND_STOP_END);
	KUNIT_EXPECT_FALSE(test, p->orc.orc_error);
}

static void asm_hint_undefined_stops_the_walk_incomplete(struct kunit *test)
{
	struct kt_asm_point *p = point(test);

	run_asm(kt_asm_undefined, p);
	expect_asm_frame(test, p, "kt_asm_undefined", kt_asm_undefined,
			 kt_asm_noret_caller, KUNWIND_TYPE_UNDEFINED);
	KUNIT_EXPECT_EQ(test, p->kun.n, 2u);
	KUNIT_EXPECT_NE(test, p->kun.stop, KUNWIND_STOP_END);
	KUNIT_EXPECT_TRUE(test, p->orc.orc_error);
}

/* ---- no-return calls ---- */

struct kt_noret {
	struct kt_trace kun, orc;
	struct completion done;
	bool use_asm;
};

void __noreturn kt_noreturn_probe(struct kt_noret *n, void *local)
{
	kt_both_here(&n->kun, &n->orc);
	kthread_complete_and_exit(&n->done, 0);
}

/* A frame of its own (the array), so the CFA at the call is not rsp + 8. */
static noinline void __noreturn c_noret_caller(struct kt_noret *n)
{
	char local[40];

	local[0] = 1;
	barrier_data(local);
	kt_noreturn_probe(n, local);
}

static int noret_thread(void *arg)
{
	struct kt_noret *n = arg;

	if (n->use_asm)
		kt_asm_noret_caller(n);
	c_noret_caller(n);
}

static struct kt_noret *run_noret(struct kunit *test, bool use_asm)
{
	struct kt_noret *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, n);
	init_completion(&n->done);
	n->use_asm = use_asm;
	t = kthread_run(noret_thread, n, "kunwind_noret");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&n->done, 10 * HZ));
	return n;
}

/*
 * [0] kt_noreturn_probe, [1] just past the caller's call, [2] in
 * noret_thread, or just past it: noret_thread ends with a call to a
 * no-return function too, so both are looked up at ip - 1.
 */
static void expect_noret(struct kunit *test, struct kt_noret *n,
			 const char *caller)
{
	kt_expect_same_trace(test, caller, &n->kun, &n->orc, false);
	KUNIT_ASSERT_GE(test, n->kun.n, 3u);
	KUNIT_EXPECT_TRUE(test, kt_ip_in(n->kun.ip[0], "kt_noreturn_probe"));
	KUNIT_EXPECT_TRUE_MSG(test, kt_ip_in(n->kun.ip[1] - 1, caller),
			      "frame 1 %pS: its call is not in %s",
			      (void *)n->kun.ip[1], caller);
	KUNIT_EXPECT_TRUE_MSG(test, kt_ip_in(n->kun.ip[2] - 1, "noret_thread"),
			      "frame 2 %pS: its call is not in noret_thread",
			      (void *)n->kun.ip[2]);
	KUNIT_EXPECT_FALSE_MSG(test, n->kun.flags[2] & KUNWIND_FRAME_ORC,
			       "the caller's frame came from the ORC fallback");
	KUNIT_EXPECT_EQ(test, n->kun.stop, KUNWIND_STOP_END);
}

static void noreturn_asm_call_at_function_end_finds_the_caller(struct kunit *test)
{
	struct kunwind_rule at, before;
	struct kt_noret *n = run_noret(test, true);

	expect_noret(test, n, "kt_asm_noret_caller");
	/* The return address is the next function's first byte... */
	KUNIT_EXPECT_EQ(test, n->kun.ip[1], (unsigned long)kt_asm_after_noret);
	/* ...whose own row (rsp + 8) would give the wrong caller. */
	KUNIT_ASSERT_TRUE(test, kunwind_find_rule(n->kun.ip[1], &at));
	KUNIT_ASSERT_TRUE(test, kunwind_find_rule(n->kun.ip[1] - 1, &before));
	KUNIT_EXPECT_EQ(test, at.cfa_off, 8);
	KUNIT_EXPECT_EQ(test, before.cfa_off, 24);
	/* Keep kt_asm_after_noret a real, called function. */
	kt_asm_after_noret(n);
}

static void noreturn_c_call_at_function_end_finds_the_caller(struct kunit *test)
{
	struct kt_noret *n = run_noret(test, false);

	expect_noret(test, n, "c_noret_caller");
	kunit_info(test, "the return address %pS is %s c_noret_caller\n",
		   (void *)n->kun.ip[1],
		   kt_ip_in(n->kun.ip[1], "c_noret_caller") ? "inside" : "past the end of");
}

/*
 * kunit/Kbuild builds this file for x86-64 only; the #ifdef says so to
 * tests/harness/kunit-report.py, which reads the cases of every .c file
 * with the kernel's .config.
 */
#ifdef CONFIG_X86_64
static struct kunit_case asm_test_cases[] = {
	KUNIT_CASE(asm_cfi_frame_on_rbp_equals_orc),
	KUNIT_CASE(asm_hint_call_describes_code_without_cfi),
	KUNIT_CASE(asm_hint_regs_leads_to_exact_interrupted_ip),
	KUNIT_CASE(asm_hint_iret_leads_to_exact_interrupted_ip),
	KUNIT_CASE(asm_hint_stack_switch_returns_to_the_old_stack),
	KUNIT_CASE(asm_hint_end_completes_the_walk),
	KUNIT_CASE(asm_hint_undefined_stops_the_walk_incomplete),
	KUNIT_CASE(noreturn_asm_call_at_function_end_finds_the_caller),
	KUNIT_CASE(noreturn_c_call_at_function_end_finds_the_caller),
	{}
};

static struct kunit_suite asm_test_suite = {
	.name = "kunwind_asm",
	.init = kt_steps_init,
	.exit = kt_steps_exit,
	.test_cases = asm_test_cases,
};

kunit_test_suite(asm_test_suite);
#endif
