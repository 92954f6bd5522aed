// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_sample.ko: a module built with the one-line kunwind opt-in
 * (see Kbuild) whose stacks are printed twice from the same points, by
 * kunwind_dump_stack() and by the kernel's own dump_stack(), so that a
 * script can compare the two (tests/stock.test) or show them side by
 * side (scripts/demo.sh).
 *
 * Each point prints
 *	kunwind-sample: point N begin NAME
 *	kunwind-sample: point N kunwind		then kunwind's trace
 *	kunwind-sample: point N kernel		then the kernel's trace
 *	kunwind-sample: point N end
 * Both traces of a point are taken from the same call instruction (see
 * ksample_report()), so every frame, the first included, must agree.
 *
 * The points: module functions at several depths (static, global,
 * recursive, __init and __exit), the assembly of sample_asm.S (.cfi_*
 * directives and each kunwind hint), a timer (softirq) and an hrtimer
 * (hardirq), a kthread inside a no-return function, and the same kthread
 * seen from outside while it sleeps.  Loading runs them all but the exit
 * point, which runs at rmmod; writing to
 * /sys/module/kunwind_sample/parameters/trigger runs one more from a
 * sysfs write.  With points=0 (kunwind_sample.points=0 on the command
 * line of tests/harness/mkinitramfs.sh's initramfs) none of them runs,
 * not even the exit point, and the module prints nothing of its own.
 *
 * The module's other jobs are in files of their own: deaths.c (the die
 * parameter: the kernel killed under module frames), dump.c (the dump
 * parameter: sleeping kthreads, then a panic, for gdb's crash-dump
 * walks) and work.c (work=1: a busy kthread for the profilers); the
 * assembly of the points and of one death is sample_asm.S.  This file
 * holds the points and the module's init and exit.
 */
#define pr_fmt(fmt) "kunwind-sample: " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/timer.h>
#include <linux/hrtimer.h>
#include <linux/completion.h>
#include <linux/delay.h>

#include "kunwind_api.h"
#include "sample.h"

enum ksample_point {
	P_INIT = 1,		/* init -> report */
	P_DEEP,			/* init -> __init helper -> depth 1, 2, 3 */
	P_RECURSE,		/* init -> recursion, 5 levels */
	P_ASM_CFI,		/* assembly described by .cfi_* */
	P_ASM_CALL,		/* assembly without CFI, KUNWIND_HINT_CALL */
	P_ASM_REGS,		/* a pt_regs frame, KUNWIND_HINT_REGS */
	P_ASM_IRET,		/* an iret frame, KUNWIND_HINT_IRET */
	P_ASM_SWITCH,		/* a stack switch, KUNWIND_HINT_STACK_SWITCH */
	P_ASM_END,		/* end of stack, KUNWIND_HINT_END */
	P_ASM_UNDEFINED,	/* unwindable no further, KUNWIND_HINT_UNDEFINED */
	P_TIMER,		/* timer_list callback: softirq */
	P_HRTIMER,		/* hrtimer callback: hardirq */
	P_NORETURN,		/* kthread, inside a no-return function */
	P_SLEEPING,		/* the same kthread, asleep, walked from init */
	P_TRIGGER,		/* a write to the trigger parameter */
	P_EXIT,			/* rmmod: __exit -> __exit helper -> report */
};

static const char *const ksample_point_names[] = {
	[P_INIT]		= "init",
	[P_DEEP]		= "init-depth-4",
	[P_RECURSE]		= "init-recursion-5",
	[P_ASM_CFI]		= "asm-cfi",
	[P_ASM_CALL]		= "asm-hint-call",
	[P_ASM_REGS]		= "asm-hint-regs",
	[P_ASM_IRET]		= "asm-hint-iret",
	[P_ASM_SWITCH]		= "asm-hint-stack-switch",
	[P_ASM_END]		= "asm-hint-end",
	[P_ASM_UNDEFINED]	= "asm-hint-undefined",
	[P_TIMER]		= "timer-softirq",
	[P_HRTIMER]		= "hrtimer-hardirq",
	[P_NORETURN]		= "kthread-noreturn",
	[P_SLEEPING]		= "kthread-sleeping",
	[P_TRIGGER]		= "sysfs-trigger",
	[P_EXIT]		= "exit",
};

long ksample_sink;

/*
 * The one place that takes both traces.  kunwind_dump_stack() and
 * dump_stack() are called through one pointer from one call instruction
 * (the loop is not unrolled: its trip count is hidden from the compiler),
 * so both see the same return address into this function and the same
 * stack above it.
 */
static noinline void ksample_report(int point)
{
	void (*dump)(void) = kunwind_dump_stack;
	int passes = 2;
	int pass;

	OPTIMIZER_HIDE_VAR(passes);
	pr_info("point %d begin %s\n", point, ksample_point_names[point]);
	for (pass = 0; pass < passes; pass++) {
		pr_info("point %d %s\n", point, pass ? "kernel" : "kunwind");
		OPTIMIZER_HIDE_VAR(dump);
		dump();
		dump = dump_stack;
	}
	pr_info("point %d end\n", point);
}

/*
 * Call chains.  noinline keeps the frames; the barrier() after each call
 * keeps it from being a tail call, which would drop the caller's frame.
 */
static noinline void ksample_depth3(int point)
{
	ksample_report(point);
	barrier();
}

noinline void ksample_depth2(int point)
{
	ksample_depth3(point);
	barrier();
}

static noinline void ksample_depth1(int point)
{
	ksample_depth2(point);
	barrier();
}

noinline void ksample_recurse(int n, int point)
{
	if (n > 1)
		ksample_recurse(n - 1, point);
	else
		ksample_report(point);
	barrier();
}

asmlinkage noinline void ksample_from_asm(int point)
{
	ksample_report(point);
	barrier();
}

#ifdef CONFIG_X86_64
/*
 * A stack switch onto a private stack carved 2 KiB below the current
 * frame, in the unused part of the task stack.  It has to be inside a
 * stack that get_stack_info() knows: dump_stack() (ORC) and kunwind both
 * read only the task, IRQ, exception and entry stacks, so from a
 * kmalloc()ed stack both would print nothing.  What is tested is that the
 * unwinders follow the saved stack pointer (CFA = *rsp + 8), not rsp
 * arithmetic: the 2 KiB in between hold no frame.  2 KiB leaves room for
 * an interrupt entry's pt_regs below the caller's frame before the switch.
 */
#define KSAMPLE_SWITCH_GAP	2048

static noinline void ksample_switch(int point)
{
	unsigned long tos = current_stack_pointer - KSAMPLE_SWITCH_GAP;

	/* 16-byte aligned before the call on the new stack, as the ABI wants */
	ksample_asm_switch((unsigned long *)ALIGN_DOWN(tos, 16), point);
	barrier();
}
#endif

/*
 * The no-return case.  ksample_call_noreturn() ends with the call to
 * ksample_noreturn(), so its return address is the first byte after it:
 * ksample_after_noreturn() (or, with CONFIG_CALL_PADDING, that function's
 * padding), which the compiler is told not to align, and not to trace:
 * arm64's ftrace with call ops (Debian's arm64 kernel) wants every
 * patchable entry 8-byte aligned, and BUG()s at the module's load on one
 * that is not (arch/arm64/kernel/ftrace.c, "Misaligned patch-site").  An
 * unwinder that
 * looks the return address up as is, not as ip - 1, gets the wrong rule
 * and the wrong symbol.  tests/stock.test checks this layout in the .ko.
 *
 * Both live in a section of their own: GCC would otherwise move
 * ksample_call_noreturn(), only ever called before a no-return call, to
 * .text.unlikely, where it ends the section.  noipa: no clone, no
 * inlining.  ksample_call_noreturn() is __noreturn itself (objtool sees
 * that it cannot return and would otherwise call the instruction after
 * its call site unreachable), so its caller, ksample_thread(), ends with
 * a call too.
 */
static noinline __noreturn void ksample_noreturn(void);

#define __ksample_noreturn_text __section(".text.ksample_noreturn")

__ksample_noreturn_text __attribute__((__noipa__))
__noreturn void ksample_call_noreturn(long x)
{
	ksample_sink += x;
	ksample_noreturn();
}

__ksample_noreturn_text
__attribute__((__noipa__, __optimize__("align-functions=1"))) notrace
long ksample_after_noreturn(const long *p)
{
	return *p + 1;
}

static struct task_struct *ksample_task;
static DECLARE_COMPLETION(ksample_thread_ready);

/*
 * Does not return and must not kill the machine: prints its stack, then
 * sleeps until kthread_stop() (module exit), then ends the thread.
 */
static noinline __noreturn void ksample_noreturn(void)
{
	ksample_report(P_NORETURN);
	complete(&ksample_thread_ready);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	kthread_complete_and_exit(NULL, 0);
}

static int ksample_thread(void *unused)
{
	static const long two = 2;

	ksample_call_noreturn(ksample_after_noreturn(&two));
}

/*
 * Asleep means off the CPU, its stack saved by schedule(): a task whose
 * state is no longer running may still be on its way there, so it must
 * stay so for a while.
 */
bool ksample_asleep(struct task_struct *t)
{
	int i;

	for (i = 0; i < 100 && task_is_running(t); i++)
		msleep(20);
	msleep(50);
	return !task_is_running(t);
}

/* Walk the kthread from outside while it sleeps in ksample_noreturn(). */
static void ksample_sleeping(struct task_struct *t)
{
	if (!ksample_asleep(t)) {
		pr_warn("point %d skipped: the kthread does not sleep\n",
			P_SLEEPING);
		return;
	}
	pr_info("point %d begin %s\n", P_SLEEPING,
		ksample_point_names[P_SLEEPING]);
	pr_info("point %d kunwind\n", P_SLEEPING);
	kunwind_show_stack(t, NULL, KERN_INFO);
	pr_info("point %d kernel\n", P_SLEEPING);
	sched_show_task(t);
	pr_info("point %d end\n", P_SLEEPING);
}

static struct timer_list ksample_timer;
static struct hrtimer ksample_hrtimer;
static DECLARE_COMPLETION(ksample_timer_done);

static void ksample_timer_fn(struct timer_list *t)
{
	ksample_depth1(P_TIMER);
	complete(&ksample_timer_done);
}

static enum hrtimer_restart ksample_hrtimer_fn(struct hrtimer *t)
{
	ksample_depth3(P_HRTIMER);
	complete(&ksample_timer_done);
	return HRTIMER_NORESTART;
}

static int ksample_trigger_set(const char *val, const struct kernel_param *kp)
{
	ksample_depth1(P_TRIGGER);
	return 0;
}

static const struct kernel_param_ops ksample_trigger_ops = {
	.set = ksample_trigger_set,
};
module_param_cb(trigger, &ksample_trigger_ops, NULL, 0200);
MODULE_PARM_DESC(trigger, "write anything: print both traces once more");

static bool ksample_points = true;
module_param_named(points, ksample_points, bool, 0444);
MODULE_PARM_DESC(points, "run the points at load and rmmod (default: yes)");

static noinline void __init ksample_init_deep(void)
{
	ksample_depth1(P_DEEP);
	barrier();
}

static int __init ksample_init(void)
{
	int ret;

	ksample_deaths_init();
	ret = ksample_work_start();
	if (ret)
		return ret;
	if (!ksample_points)
		return 0;

	ksample_report(P_INIT);
	ksample_init_deep();
	ksample_recurse(5, P_RECURSE);

	ksample_asm_cfi(P_ASM_CFI);
#ifdef CONFIG_X86_64	/* kunwind's assembly hints: x86-64's only */
	ksample_asm_call(P_ASM_CALL);
	ksample_asm_regs(P_ASM_REGS);
	ksample_asm_iret(P_ASM_IRET);
	ksample_switch(P_ASM_SWITCH);
	ksample_asm_end(P_ASM_END);
	ksample_asm_undefined(P_ASM_UNDEFINED);
#endif

	timer_setup(&ksample_timer, ksample_timer_fn, 0);
	mod_timer(&ksample_timer, jiffies + 1);
	wait_for_completion(&ksample_timer_done);
	del_timer_sync(&ksample_timer);

	hrtimer_init(&ksample_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	ksample_hrtimer.function = ksample_hrtimer_fn;
	hrtimer_start(&ksample_hrtimer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&ksample_timer_done);
	hrtimer_cancel(&ksample_hrtimer);

	ksample_task = kthread_run(ksample_thread, NULL, "ksample-noreturn");
	if (IS_ERR(ksample_task))
		return PTR_ERR(ksample_task);
	wait_for_completion(&ksample_thread_ready);
	ksample_sleeping(ksample_task);
	pr_info("all points done\n");
	return 0;
}

static noinline void __exit ksample_exit_deep(void)
{
	ksample_report(P_EXIT);
	barrier();
}

static void __exit ksample_exit(void)
{
	ksample_deaths_exit();
	ksample_work_stop();
	ksample_dump_stop();
	if (!ksample_points)
		return;
	ksample_exit_deep();
	kthread_stop(ksample_task);
}

module_init(ksample_init);
module_exit(ksample_exit);
MODULE_DESCRIPTION("kunwind sample: kunwind's backtraces beside dump_stack()'s");
MODULE_LICENSE("GPL");
