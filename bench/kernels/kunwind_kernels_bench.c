// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_kernels_bench.ko: what one stack trace costs the kernel's own
 * unwinder, in instructions, built and loaded unchanged on the three
 * benchmark kernels (frame pointers, ORC, kunwind: bench/kernels-bench.sh).
 * It uses nothing of kunwind's: only stack_trace_save() and
 * stack_trace_save_regs(), as their every caller does.
 *
 * Under QEMU with -icount shift=0 the guest's TSC counts instructions, one
 * per tick, so rdtsc around a batch of traces counts the instructions they
 * executed: exact and the same from run to run, but instructions, not
 * cycles (no cache misses, no branch mispredictions).  The module checks
 * that first, on a loop of known length:
 *
 *   kkb: icount loop=<n> counted=<m>
 *
 * Then, at each site (the same call sites on every kernel):
 *
 *   depth4, depth16, depth32  stack_trace_save() at the bottom of a
 *                             recursion that deep, in the task's context
 *   irq16                     stack_trace_save_regs() of an interrupt's
 *                             registers, from inside an hrtimer's
 *                             handler (hardirq) that interrupted the
 *                             recursion at depth 16
 *
 * it saves one trace and prints it, frame by frame (the bench compares
 * the three kernels' traces by function), then times `rounds` batches of
 * `batch` traces with interrupts off, subtracting the same loop calling a
 * function that walks nothing:
 *
 *   kkb: frame <site> <i> <symbol>+<off>/<size>
 *   kkb: site <site> frames=<f> insns=<per trace> min=<> max=<> (...)
 *
 * and loads (the bench script reads the log), staying loaded.
 *
 * stack_trace_save_regs() is not exported: its address comes from a
 * kprobe registered on it by name and removed at once, as the profilers
 * that live in modules do (with IBT the probe sits after the function's
 * ENDBR: step back to it, or the indirect call would fault).
 */
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>
#include <asm/irq_regs.h>
#include <asm/msr.h>

static unsigned int rounds = 5;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "timed batches per site");
static unsigned int batch = 100;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "traces per batch");

#define KKB_FRAMES	64
#define KKB_ROUNDS	32

typedef unsigned int (*kkb_save_fn)(struct pt_regs *regs, unsigned long *store,
				    unsigned int size);

struct kkb_site {
	const char *name;
	int depth;
	bool irq;
	kkb_save_fn save;
	unsigned long store[KKB_FRAMES];
	unsigned int n;
	u64 insns[KKB_ROUNDS];		/* per batch, the empty loop's taken off */
	long sink;
};

static noinline unsigned int kkb_task(struct pt_regs *regs, unsigned long *store,
				      unsigned int size)
{
	unsigned int n = stack_trace_save(store, size, 0);

	asm volatile("");	/* a call, not a sibling call: this frame stays */
	return n;
}

static unsigned int (*kkb_save_regs)(struct pt_regs *regs, unsigned long *store,
				     unsigned int size, unsigned int skipnr);

static noinline unsigned int kkb_regs(struct pt_regs *regs, unsigned long *store,
				      unsigned int size)
{
	unsigned int n = kkb_save_regs(regs, store, size, 0);

	asm volatile("");
	return n;
}

/* The same call, walking nothing: the loop's own instructions. */
static noinline unsigned int kkb_none(struct pt_regs *regs, unsigned long *store,
				      unsigned int size)
{
	asm volatile("");
	return 0;
}

static noinline u64 kkb_batch(struct kkb_site *s, kkb_save_fn fn,
			      struct pt_regs *regs)
{
	unsigned long scratch[KKB_FRAMES];
	unsigned int i;
	u64 t0 = rdtsc_ordered();

	for (i = 0; i < batch; i++)
		s->sink += fn(regs, scratch, KKB_FRAMES);
	return rdtsc_ordered() - t0;
}

/* At the site, interrupts off: one trace kept, then the batches. */
static noinline void kkb_measure(struct kkb_site *s, struct pt_regs *regs)
{
	unsigned int r;

	s->n = s->save(regs, s->store, KKB_FRAMES);
	for (r = 0; r < rounds; r++) {
		u64 none = kkb_batch(s, kkb_none, regs);
		u64 all = kkb_batch(s, s->save, regs);

		s->insns[r] = all > none ? all - none : 0;
	}
}

/*
 * The interrupt site: an hrtimer armed at the recursion's bottom fires in
 * the local APIC timer's interrupt, whose handler sets the interrupted
 * registers (get_irq_regs()), as perf's cpu-clock event finds them; the
 * bottom spins until it has.  irq_work's self-IPI would be simpler but
 * sets no irq regs.
 */
static struct kkb_site *kkb_irq_site;
static struct hrtimer kkb_timer;
static bool kkb_fired;

static enum hrtimer_restart kkb_timer_fn(struct hrtimer *t)
{
	struct pt_regs *regs = get_irq_regs();

	if (kkb_irq_site && regs && !user_mode(regs))
		kkb_measure(kkb_irq_site, regs);
	WRITE_ONCE(kkb_fired, true);
	return HRTIMER_NORESTART;
}

static noinline void kkb_bottom(struct kkb_site *s)
{
	unsigned long flags;

	if (!s->irq) {
		local_irq_save(flags);
		kkb_measure(s, NULL);
		local_irq_restore(flags);
		return;
	}
	kkb_irq_site = s;
	WRITE_ONCE(kkb_fired, false);
	hrtimer_start(&kkb_timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	while (!READ_ONCE(kkb_fired))
		cpu_relax();
	kkb_irq_site = NULL;
}

static noinline void kkb_recurse(struct kkb_site *s, int depth)
{
	if (depth > 0)
		kkb_recurse(s, depth - 1);
	else
		kkb_bottom(s);
	s->sink++;
}

/* A loop of n times two instructions (dec, jnz): what rdtsc must count. */
static noinline void __init kkb_icount_check(void)
{
	unsigned long n = 1000000, flags;
	u64 t0, t;

	local_irq_save(flags);
	t0 = rdtsc_ordered();
	asm volatile("1: dec %0\n\tjnz 1b" : "+r" (n));
	t = rdtsc_ordered() - t0;
	local_irq_restore(flags);
	pr_info("kkb: icount loop=%lu counted=%llu\n", 2000000UL, t);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void __init kkb_report(struct kkb_site *s)
{
	u64 sorted[KKB_ROUNDS];
	unsigned int i;

	for (i = 0; i < s->n; i++)
		pr_info("kkb: frame %s %u %pS\n", s->name, i, (void *)s->store[i]);
	memcpy(sorted, s->insns, rounds * sizeof(u64));
	sort(sorted, rounds, sizeof(u64), cmp_u64, NULL);
	pr_info("kkb: site %s frames=%u insns=%llu min=%llu max=%llu (per trace, median of %u batches of %u)\n",
		s->name, s->n, div_u64(sorted[rounds / 2], batch),
		div_u64(sorted[0], batch), div_u64(sorted[rounds - 1], batch),
		rounds, batch);
}

static int __init kkb_init(void)
{
	static struct kkb_site sites[] = {
		{ .name = "depth4", .depth = 4, .save = kkb_task },
		{ .name = "depth16", .depth = 16, .save = kkb_task },
		{ .name = "depth32", .depth = 32, .save = kkb_task },
		{ .name = "irq16", .depth = 16, .irq = true, .save = kkb_regs },
	};
	unsigned int i;

	struct kprobe kp = { .symbol_name = "stack_trace_save_regs" };
	unsigned long addr;
	u32 insn;

	if (register_kprobe(&kp)) {
		pr_err("kkb: no stack_trace_save_regs\n");
		return -ENOENT;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	if (!copy_from_kernel_nofault(&insn, (void *)(addr - 4), sizeof(insn)) &&
	    insn == 0xfa1e0ff3)		/* endbr64 */
		addr -= 4;
	kkb_save_regs = (void *)addr;
	rounds = clamp(rounds, 1u, (unsigned int)KKB_ROUNDS);
	batch = max(batch, 1u);
	hrtimer_init(&kkb_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	kkb_timer.function = kkb_timer_fn;
	kkb_icount_check();
	for (i = 0; i < ARRAY_SIZE(sites); i++) {
		kkb_recurse(&sites[i], sites[i].depth);
		kkb_report(&sites[i]);
	}
	pr_info("kkb: done\n");
	return 0;
}

module_init(kkb_init);

MODULE_DESCRIPTION("kunwind benchmark: a stack trace's instructions on the frame-pointer, ORC and kunwind kernels");
MODULE_LICENSE("GPL");
