// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_sample.ko's deaths (points.c says what the module is).
 *
 * Writing a KIND to /sys/module/kunwind_sample/parameters/die
 * prints "kunwind-sample: die KIND", then kills the kernel that way, so
 * that an oops, a BUG or a panic has module frames to walk
 * (tests/harness/death-boot.sh boots one death each, with oops=panic).
 * Every NULL read is a real one, through a pointer the compiler cannot see.
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
 */
#define pr_fmt(fmt) "kunwind-sample: " fmt

#include <linux/moduleparam.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/idr.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/delay.h>

#include "sample.h"

/*
 * Deaths (the die parameter).  Each is a bottom function, what dies, run
 * in a context, where it dies: the writing process, a kthread, a tasklet
 * or a hard hrtimer.  Every context reaches the bottom function through
 * the same three-frame chain, so an oops always has module frames under
 * the faulting one.
 */
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

noinline void ksample_die_depth1(ksample_fn bottom)
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
__attribute__((__noipa__, __optimize__("align-functions=1"))) notrace
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
MODULE_PARM_DESC(die, "write a kind (deaths.c): the kernel dies that way");

void ksample_deaths_init(void)
{
	hrtimer_init(&ksample_die_hrtimer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_HARD);
	ksample_die_hrtimer.function = ksample_die_hrtimer_fn;
}

/* At rmmod: no death left pending (one that ran would have killed us). */
void ksample_deaths_exit(void)
{
	hrtimer_cancel(&ksample_die_hrtimer);
	tasklet_kill(&ksample_die_tasklet);
}
