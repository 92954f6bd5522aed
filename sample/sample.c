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
 * line of tests/harness/mkinitramfs.sh's initramfs) none of them runs, not even
 * the exit point, and the module prints nothing of its own.
 *
 * Deaths: writing a KIND to /sys/module/kunwind_sample/parameters/die
 * prints "kunwind-sample: die KIND", then kills the kernel that way, so
 * that an oops, a BUG or a panic has module frames to walk
 * (tests/harness/death-boot.sh boots one death each, with oops=panic).  Every
 * NULL read is a real one, through a pointer the compiler cannot see.
 * Each death happens under at least four module frames: the writer's
 * (or the kthread's, tasklet's, hrtimer's) function, then a chain of
 * three.
 *
 *	kthread-null	a NULL read in a kthread, "ksample-die"
 *	null-call	a call through a NULL function pointer (ip 0)
 *	bug		BUG() in the writing process
 *	asm		a NULL read in sample_asm.S: a function described by
 *			kunwind hints, called by one described by .cfi_*
 *	noreturn	a NULL read in a __noreturn function called as the last
 *			instruction of its caller, whose return address is
 *			the first byte of the next function (ip - 1 rule)
 *	tasklet		a NULL read in a tasklet (softirq)
 *	hrtimer		a NULL read in a hard hrtimer (hardirq) that
 *			interrupted this module's code
 *	sort		a NULL read in sort()'s comparison callback: the
 *			kernel's sort_r() and sort() between module frames
 *	idr		a NULL read in idr_for_each()'s callback: a kernel
 *			function from lib/, far into vmlinux's text (past
 *			2 MiB of it on every kernel tested), between module
 *			frames, its ip the first of vmlinux's in the walk
 *	panic		panic()
 *	stack-overflow	unbounded recursion into the task stack's guard page:
 *			a double fault (CONFIG_VMAP_STACK)
 *
 * A panic for a memory dump (tests/harness/gdb-boot.sh): writing anything to
 * /sys/module/kunwind_sample/parameters/dump starts three kthreads that
 * sleep at different depths of module functions, prints the kernel's
 * trace of each (sched_show_task()), then panics in
 * ksample_dump_panic(), under the deaths' three-frame chain and the
 * writer's ksample_dump_set().  A dump of the panicked guest then holds stacks whose every
 * frame is known, for gdb and drgn to walk.  It prints
 *	kunwind-sample: dump begin
 *	kunwind-sample: dump sleeper N pid PID comm COMM depth D begin
 *	(sched_show_task()'s "task:COMM state:S ..." and its Call Trace)
 *	kunwind-sample: dump sleeper N end
 *	... (N = 1, 2, 3; depth 1, 3, 5; comm ksample-sleep1, -sleep3,
 *	-sleep5) ...
 *	kunwind-sample: dump panic cpu C pid PID comm COMM
 *	Kernel panic - not syncing: kunwind-sample: dump
 */
#define pr_fmt(fmt) "kunwind-sample: " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/pid.h>
#include <linux/timer.h>
#include <linux/hrtimer.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/idr.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <asm/asm.h>

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

static long ksample_sink;

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

/*
 * The no-return case.  ksample_call_noreturn() ends with the call to
 * ksample_noreturn(), so its return address is the first byte after it:
 * ksample_after_noreturn() (or, with CONFIG_CALL_PADDING, that function's
 * padding), which the compiler is told not to align.  An unwinder that
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
__attribute__((__noipa__, __optimize__("align-functions=1")))
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
static bool ksample_asleep(struct task_struct *t)
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

/*
 * Deaths (the die parameter).  Each is a bottom function, what dies, run
 * in a context, where it dies: the writing process, a kthread, a tasklet
 * or a hard hrtimer.  Every context reaches the bottom function through
 * the same three-frame chain, so an oops always has module frames under
 * the faulting one.
 */
typedef void (*ksample_fn)(void);

/*
 * A read of address 0 that the compiler cannot drop or fold: it cannot
 * see the pointer's value, and the caller uses what was read.
 */
static __always_inline long ksample_read_null(void)
{
	long *p = NULL;

	OPTIMIZER_HIDE_VAR(p);
	return READ_ONCE(*p);
}

static noinline void ksample_die_depth3(ksample_fn bottom)
{
	bottom();
	barrier();
}

noinline void ksample_die_depth2(ksample_fn bottom)
{
	ksample_die_depth3(bottom);
	barrier();
}

static noinline void ksample_die_depth1(ksample_fn bottom)
{
	ksample_die_depth2(bottom);
	barrier();
}

/* The bottom functions. */
static noinline void ksample_die_null(void)
{
	ksample_sink += ksample_read_null();
}

/*
 * A call through a NULL function pointer, the commonest oops: the fault
 * is the fetch at ip 0, and the return address into this function is at
 * sp.  The call is not the last instruction (barrier()): it is a call,
 * not a jump.
 */
static noinline void ksample_die_null_call(void)
{
	void (*fn)(void) = NULL;

	OPTIMIZER_HIDE_VAR(fn);
	fn();
	barrier();
}

static noinline void ksample_die_bug(void)
{
	BUG();
}

static noinline void ksample_die_panic(void)
{
	panic("kunwind-sample: die panic");
}

/* sample_asm.S: a .cfi_* frame calling a hinted function that reads 0. */
static noinline void ksample_die_asm(void)
{
	ksample_sink += ksample_asm_die();
	barrier();
}

/*
 * sort()'s callback faults at its second call: the kernel's sort_r()
 * (and sort(), unless it tail-calls sort_r()) between module frames.
 */
static int ksample_die_cmp_calls;

static int ksample_die_cmp(const void *a, const void *b)
{
	if (ksample_die_cmp_calls++)
		ksample_sink += ksample_read_null();
	return *(const int *)a - *(const int *)b;
}

static noinline void ksample_die_sort(void)
{
	int v[] = { 3, 1, 4, 1, 5 };

	sort(v, ARRAY_SIZE(v), sizeof(v[0]), ksample_die_cmp, NULL);
	ksample_sink += v[0];
}

/*
 * The no-return death, laid out as the no-return point above (see there
 * for the section, noipa and align-functions=1): ksample_die_noreturn()
 * faults, and its return address in ksample_die_call_noreturn() is the
 * first byte of ksample_die_after_noreturn() (or of its padding).  If the
 * read did not fault, the writer sleeps forever, so that the boot times
 * out rather than die some other way.
 */
static noinline __noreturn void ksample_die_noreturn(void)
{
	ksample_sink += ksample_read_null();
	for (;;)
		msleep(1000);
}

#define __ksample_die_noreturn_text __section(".text.ksample_die_noreturn")

__ksample_die_noreturn_text __attribute__((__noipa__))
__noreturn void ksample_die_call_noreturn(long x)
{
	ksample_sink += x;
	ksample_die_noreturn();
}

__ksample_die_noreturn_text
__attribute__((__noipa__, __optimize__("align-functions=1")))
long ksample_die_after_noreturn(const long *p)
{
	return *p + 1;
}

static noinline void ksample_die_noreturn_path(void)
{
	static const long three = 3;

	ksample_die_call_noreturn(ksample_die_after_noreturn(&three));
}

/*
 * Recursion into the guard page below the task stack: the fault cannot
 * push its exception frame on the stack it faulted on, so the CPU raises
 * a double fault, which runs on its own IST stack and reports the guard
 * page hit (CONFIG_VMAP_STACK: every kernel here has it).  Each level
 * writes both ends of a 768-byte array (below the test kernel's
 * CONFIG_FRAME_WARN=1024) and reads it after the call, so the frame is
 * real and the call no tail call.  A 16 KiB kernel stack holds about 20
 * levels (18 to 20 frames in the traces of 6.1, 6.12 and the test
 * kernel); the limit is far beyond that, yet keeps the recursion finite
 * for the compiler (-Winfinite-recursion).
 */
#define KSAMPLE_OVERFLOW_FRAME	768

static noinline long ksample_overflow(unsigned long depth)
{
	char frame[KSAMPLE_OVERFLOW_FRAME];
	unsigned long limit = 1UL << 20;
	long below = 0;

	OPTIMIZER_HIDE_VAR(limit);
	frame[0] = depth;
	frame[KSAMPLE_OVERFLOW_FRAME - 1] = depth;
	barrier_data(frame);	/* the frame is written, and kept */
	if (depth < limit)
		below = ksample_overflow(depth + 1);
	return below + frame[depth % KSAMPLE_OVERFLOW_FRAME];
}

static noinline void ksample_die_overflow(void)
{
	ksample_sink += ksample_overflow(0);
}

/*
 * The contexts.  A context other than the writer finds its bottom
 * function in ksample_die_later and dies on its own, while the write
 * returns.
 */
static ksample_fn ksample_die_later;

static int ksample_die_here(ksample_fn bottom)
{
	ksample_die_depth1(bottom);
	return 0;
}

static int ksample_die_thread(void *unused)
{
	ksample_die_depth1(ksample_die_later);
	return 0;
}

static int ksample_die_in_kthread(ksample_fn bottom)
{
	struct task_struct *t;

	ksample_die_later = bottom;
	t = kthread_run(ksample_die_thread, NULL, "ksample-die");
	return PTR_ERR_OR_ZERO(t);
}

static void ksample_die_tasklet_fn(struct tasklet_struct *t)
{
	ksample_die_depth1(ksample_die_later);
	barrier();
}

static DECLARE_TASKLET(ksample_die_tasklet, ksample_die_tasklet_fn);

static int ksample_die_in_tasklet(ksample_fn bottom)
{
	ksample_die_later = bottom;
	tasklet_schedule(&ksample_die_tasklet);
	return 0;
}

static struct hrtimer ksample_die_hrtimer;

static enum hrtimer_restart ksample_die_hrtimer_fn(struct hrtimer *t)
{
	ksample_die_depth1(ksample_die_later);
	return HRTIMER_NORESTART;
}

/*
 * Interrupted in module code: the timer is pinned to this CPU, which
 * spins in ksample_die_wait() until it fires, so that the oops's trace
 * goes from the IRQ stack through the interrupt's register frame (RIP:
 * in this module) back to the task stack.  Not reached: the timer kills
 * the machine well within the second.
 */
static noinline void ksample_die_wait(void)
{
	u64 end = ktime_get_ns() + NSEC_PER_SEC;

	while (ktime_get_ns() < end)
		cpu_relax();
	pr_warn("die hrtimer: the timer did not fire within a second\n");
}

static int ksample_die_in_hrtimer(ksample_fn bottom)
{
	ksample_die_later = bottom;
	preempt_disable();
	hrtimer_start(&ksample_die_hrtimer, ms_to_ktime(1),
		      HRTIMER_MODE_REL_PINNED_HARD);
	ksample_die_wait();
	preempt_enable();
	return 0;
}

/*
 * idr_for_each()'s callback faults: lib/idr.c's idr_for_each() between
 * module frames, the walk's first vmlinux ip past the first 2 MiB of
 * .text (tests/planted.test's registry-2mib plant must be seen there).
 */
static int ksample_die_idr_fn(int id, void *p, void *data)
{
	ksample_sink += ksample_read_null() + id;
	return 0;
}

static noinline void ksample_die_idr(void)
{
	DEFINE_IDR(idr);
	int id = idr_alloc(&idr, &ksample_sink, 0, 0, GFP_KERNEL);

	if (id >= 0)
		idr_for_each(&idr, ksample_die_idr_fn, NULL);
	idr_destroy(&idr);
	ksample_sink += id;
}

/* The kinds, in the order tests/harness/death-boot.sh runs "all". */
static const struct ksample_death {
	const char *kind;
	int (*run)(ksample_fn bottom);	/* where: this context or another */
	ksample_fn bottom;		/* what dies */
} ksample_deaths[] = {
	{ "kthread-null",	ksample_die_in_kthread,	ksample_die_null },
	{ "null-call",		ksample_die_here,	ksample_die_null_call },
	{ "bug",		ksample_die_here,	ksample_die_bug },
	{ "asm",		ksample_die_here,	ksample_die_asm },
	{ "noreturn",		ksample_die_here,	ksample_die_noreturn_path },
	{ "tasklet",		ksample_die_in_tasklet,	ksample_die_null },
	{ "hrtimer",		ksample_die_in_hrtimer,	ksample_die_null },
	{ "sort",		ksample_die_here,	ksample_die_sort },
	{ "idr",		ksample_die_here,	ksample_die_idr },
	{ "panic",		ksample_die_here,	ksample_die_panic },
	{ "stack-overflow",	ksample_die_here,	ksample_die_overflow },
};

static int ksample_die_set(const char *val, const struct kernel_param *kp)
{
	const struct ksample_death *d;
	int ret;

	for (d = ksample_deaths; d < ksample_deaths + ARRAY_SIZE(ksample_deaths);
	     d++) {
		if (!sysfs_streq(val, d->kind))
			continue;
		pr_emerg("die %s\n", d->kind);
		ret = d->run(d->bottom);
		barrier();	/* keeps this frame: no tail call */
		return ret;
	}
	return -EINVAL;
}

static const struct kernel_param_ops ksample_die_ops = {
	.set = ksample_die_set,
};
module_param_cb(die, &ksample_die_ops, NULL, 0200);
MODULE_PARM_DESC(die, "write a kind (sample.c): the kernel dies that way");

/*
 * The dump (the dump parameter).  Each sleeper is a kthread that goes
 * down a chain of module functions to its depth, then sleeps in a wait
 * that never ends: the panic comes first.  Distinct functions, not
 * recursion, so that every frame of a walk names its depth.
 */
struct ksample_sleeper {
	int depth;			/* 1 to 5 module frames above the wait */
	struct task_struct *task;
	bool waiting;			/* about to sleep in the wait */
};

static struct ksample_sleeper ksample_sleepers[] = {
	{ .depth = 1 }, { .depth = 3 }, { .depth = 5 },
};
static DECLARE_WAIT_QUEUE_HEAD(ksample_sleep_wq);

static noinline void ksample_sleep_wait(struct ksample_sleeper *s)
{
	WRITE_ONCE(s->waiting, true);
	/*
	 * Nothing wakes the queue and a kthread takes no signal: only
	 * kthread_stop() (rmmod after a failed start) ends the wait.
	 */
	while (!kthread_should_stop())
		wait_event_interruptible(ksample_sleep_wq,
					 kthread_should_stop());
}

static noinline void ksample_sleep5(struct ksample_sleeper *s)
{
	ksample_sleep_wait(s);
	barrier();
}

static noinline void ksample_sleep4(struct ksample_sleeper *s)
{
	ksample_sleep5(s);
	barrier();
}

static noinline void ksample_sleep3(struct ksample_sleeper *s)
{
	if (s->depth > 3)
		ksample_sleep4(s);
	else
		ksample_sleep_wait(s);
	barrier();
}

static noinline void ksample_sleep2(struct ksample_sleeper *s)
{
	ksample_sleep3(s);
	barrier();
}

static noinline void ksample_sleep1(struct ksample_sleeper *s)
{
	if (s->depth > 1)
		ksample_sleep2(s);
	else
		ksample_sleep_wait(s);
	barrier();
}

static int ksample_sleep_thread(void *data)
{
	ksample_sleep1(data);
	return 0;
}

/* Sleepers left by a dump whose start failed part way. */
static void ksample_dump_stop(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ksample_sleepers); i++) {
		if (ksample_sleepers[i].task)
			kthread_stop(ksample_sleepers[i].task);
		ksample_sleepers[i].task = NULL;
	}
}

static noinline void ksample_dump_panic(void)
{
	preempt_disable();	/* the cpu printed is the one that panics */
	pr_info("dump panic cpu %d pid %d comm %s\n", smp_processor_id(),
		task_pid_nr(current), current->comm);
	panic("kunwind-sample: dump");
}

static int ksample_dump_set(const char *val, const struct kernel_param *kp)
{
	struct ksample_sleeper *s;
	int i, ret;

	pr_info("dump begin\n");
	for (i = 0; i < ARRAY_SIZE(ksample_sleepers); i++) {
		s = &ksample_sleepers[i];
		if (s->task)
			return -EBUSY;	/* a start that failed part way */
		s->task = kthread_run(ksample_sleep_thread, s,
				      "ksample-sleep%d", s->depth);
		if (IS_ERR(s->task)) {
			ret = PTR_ERR(s->task);
			s->task = NULL;
			return ret;
		}
	}
	for (i = 0; i < ARRAY_SIZE(ksample_sleepers); i++) {
		s = &ksample_sleepers[i];
		if (!ksample_asleep(s->task) || !READ_ONCE(s->waiting))
			pr_warn("dump sleeper %d does not sleep in its wait\n",
				i + 1);
		pr_info("dump sleeper %d pid %d comm %s depth %d begin\n",
			i + 1, task_pid_nr(s->task), s->task->comm, s->depth);
		sched_show_task(s->task);
		pr_info("dump sleeper %d end\n", i + 1);
	}
	ksample_die_depth1(ksample_dump_panic);
	barrier();	/* keeps this frame: no tail call */
	return 0;
}

static const struct kernel_param_ops ksample_dump_ops = {
	.set = ksample_dump_set,
};
module_param_cb(dump, &ksample_dump_ops, NULL, 0200);
MODULE_PARM_DESC(dump, "write anything: three sleeping kthreads, then panic");

static bool ksample_points = true;
module_param_named(points, ksample_points, bool, 0444);
MODULE_PARM_DESC(points, "run the points at load and rmmod (default: yes)");

/*
 * Work for the profiler (work=1): a kthread that keeps a CPU busy in
 * this module's functions, at several depths, and in vmlinux functions
 * they call (sort(), memset()), until rmmod.  What a profile of it must
 * show: ksample_work_* frames under kthread, named with the module.
 */
static bool ksample_work;
module_param_named(work, ksample_work, bool, 0444);
MODULE_PARM_DESC(work, "run a busy kthread for the profiler (default: no)");

static struct task_struct *ksample_work_task;
static long ksample_work_buf[256];
/* Rounds of work done: the throughput make bench compares. */
static unsigned long ksample_work_loops;
module_param_named(work_loops, ksample_work_loops, ulong, 0444);
MODULE_PARM_DESC(work_loops, "rounds of work=1's kthread so far");

static int ksample_work_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static noinline long ksample_work_leaf(long seed)
{
	long x = seed;
	int i;

	for (i = 0; i < 2000; i++)
		x = x * 6364136223846793005L + 1442695040888963407L;
	return x;
}

static noinline long ksample_work_sort(long seed)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ksample_work_buf); i++)
		ksample_work_buf[i] = ksample_work_leaf(seed + i) >> 8;
	sort(ksample_work_buf, ARRAY_SIZE(ksample_work_buf), sizeof(long),
	     ksample_work_cmp, NULL);
	return ksample_work_buf[0];
}

static noinline long ksample_work_nest(int depth, long seed)
{
	long x;

	if (depth > 0)
		x = ksample_work_nest(depth - 1, seed + depth);
	else if (seed & 1)
		x = ksample_work_sort(seed);
	else
		x = ksample_work_leaf(seed);
	barrier();
	return x;
}

static int ksample_work_fn(void *unused)
{
	long seed = 1;

	while (!kthread_should_stop()) {
		seed = ksample_work_nest(seed & 7, seed) | 1;
		seed += ksample_work_leaf(seed) & 0xff;
		WRITE_ONCE(ksample_work_loops, ksample_work_loops + 1);
		cond_resched();
	}
	return 0;
}

static noinline void __init ksample_init_deep(void)
{
	ksample_depth1(P_DEEP);
	barrier();
}

static int __init ksample_init(void)
{
	hrtimer_init(&ksample_die_hrtimer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_HARD);
	ksample_die_hrtimer.function = ksample_die_hrtimer_fn;
	if (ksample_work) {
		ksample_work_task = kthread_run(ksample_work_fn, NULL,
						"ksample-work");
		if (IS_ERR(ksample_work_task))
			return PTR_ERR(ksample_work_task);
	}
	if (!ksample_points)
		return 0;

	ksample_report(P_INIT);
	ksample_init_deep();
	ksample_recurse(5, P_RECURSE);

	ksample_asm_cfi(P_ASM_CFI);
	ksample_asm_call(P_ASM_CALL);
	ksample_asm_regs(P_ASM_REGS);
	ksample_asm_iret(P_ASM_IRET);
	ksample_switch(P_ASM_SWITCH);
	ksample_asm_end(P_ASM_END);
	ksample_asm_undefined(P_ASM_UNDEFINED);

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
	hrtimer_cancel(&ksample_die_hrtimer);
	tasklet_kill(&ksample_die_tasklet);
	if (ksample_work_task)
		kthread_stop(ksample_work_task);
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
