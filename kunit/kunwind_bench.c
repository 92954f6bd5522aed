// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_bench.ko: kunwind_save() against stack_trace_save() (the kernel's
 * ORC unwinder) on the same stacks, in one run (bench/kernel-bench.sh).
 *
 * At load, for each depth, the module recurses to that depth and, there,
 * alternates batches of kunwind_save() and stack_trace_save() through one
 * call instruction (so both walk exactly the same frames), timing each
 * batch with ktime_get_ns() with interrupts off (a timer interrupt inside
 * one batch and not the other is noise).  Under QEMU TCG only the ratio
 * means anything; the reported ratio is the median over all rounds of
 * (kunwind's time / ORC's time) for the same round, which the host's
 * load moves much less than the totals (measured: totals gave 0.67 to
 * 1.06 over five runs).  It prints
 *
 *   kunwind-bench: depth D frames F kunwind N ns/frame orc M ns/frame
 *   kunwind-bench: ratio kunwind/orc=<x> frames=<total> ...
 *
 * and stays loaded, doing nothing more.
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include "unwind/linux/kunwind_api.h"

static unsigned int rounds = 100;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "batches per depth and unwinder");
static unsigned int batch = 50;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "walks per batch");

#define BENCH_FRAMES 64

typedef unsigned int (*save_fn)(unsigned long *store, unsigned int size,
				unsigned int skip);

#define MAX_ROUNDS 400

struct bench {
	u64 ns[2];		/* kunwind, orc */
	u32 round_ratio[MAX_ROUNDS];	/* per round, kunwind/orc * 1000 */
	u64 frames[2];
	unsigned int n[2];
	bool differ;
	unsigned long store[2][BENCH_FRAMES];
	long sink;
};

/* One call instruction for both unwinders. */
static noinline u64 timed_batch(save_fn fn, unsigned long *store,
				unsigned int *n)
{
	unsigned long flags;
	unsigned int i;
	u64 t0, t;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < batch; i++)
		*n = fn(store, BENCH_FRAMES, 0);
	t = ktime_get_ns() - t0;
	local_irq_restore(flags);
	return t;
}

static noinline void bench_here(struct bench *b)
{
	static const save_fn fns[2] = { kunwind_save, stack_trace_save };
	unsigned int r, k;

	for (r = 0; r < rounds; r++) {
		u64 t[2];

		for (k = 0; k < 2; k++) {
			/* Alternate which goes first, against order effects. */
			unsigned int which = (r & 1) ? 1 - k : k;

			t[which] = timed_batch(fns[which], b->store[which],
					       &b->n[which]);
			b->ns[which] += t[which];
			b->frames[which] += (u64)b->n[which] * batch;
		}
		/* Same frames on both sides: the time ratio is the ns/frame one. */
		b->round_ratio[r] = t[1] ? div64_u64(t[0] * 1000, t[1]) : 0;
	}
	b->differ = b->n[0] != b->n[1] ||
		    memcmp(b->store[0], b->store[1], b->n[0] * sizeof(long));
}

static noinline void bench_at_depth(struct bench *b, int depth)
{
	if (depth > 0)
		bench_at_depth(b, depth - 1);
	else
		bench_here(b);
	b->sink++;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Fixed-point: value * 1000, printed as x.yyy */
static u64 milli(u64 a, u64 b)
{
	return b ? div64_u64(a * 1000, b) : 0;
}

static int __init kunwind_bench_init(void)
{
	static const int depths[] = { 4, 12, 28 };
	u64 ns[2] = { 0, 0 }, frames[2] = { 0, 0 }, ratio, total;
	unsigned int i, differ = 0, nr = 0;
	u32 *all;

	rounds = clamp(rounds, 1u, (unsigned int)MAX_ROUNDS);
	all = kcalloc(ARRAY_SIZE(depths) * rounds, sizeof(*all), GFP_KERNEL);
	if (!all)
		return -ENOMEM;

	for (i = 0; i < ARRAY_SIZE(depths); i++) {
		struct bench *b = kzalloc(sizeof(*b), GFP_KERNEL);
		u64 pk, po;

		if (!b) {
			kfree(all);
			return -ENOMEM;
		}
		bench_at_depth(b, depths[i]);
		pk = milli(b->ns[0], b->frames[0]);
		po = milli(b->ns[1], b->frames[1]);
		pr_info("kunwind-bench: depth %d frames %u kunwind %llu.%03llu ns/frame orc %llu.%03llu ns/frame%s\n",
			depths[i], b->n[0], pk / 1000, pk % 1000, po / 1000,
			po % 1000, b->differ ? " TRACES DIFFER" : "");
		ns[0] += b->ns[0];
		ns[1] += b->ns[1];
		frames[0] += b->frames[0];
		frames[1] += b->frames[1];
		differ += b->differ;
		memcpy(all + nr, b->round_ratio, rounds * sizeof(*all));
		nr += rounds;
		kfree(b);
	}
	sort(all, nr, sizeof(*all), cmp_u32, NULL);
	ratio = all[nr / 2];
	kfree(all);
	/* and the ratio of the totals' ns per frame, for comparison */
	total = milli(milli(ns[0], frames[0]), milli(ns[1], frames[1]));
	pr_info("kunwind-bench: ratio kunwind/orc=%llu.%03llu (median of %u rounds; of the totals %llu.%03llu) frames=%llu kunwind_ns=%llu orc_ns=%llu differing_depths=%u\n",
		ratio / 1000, ratio % 1000, nr, total / 1000, total % 1000,
		frames[0], ns[0], ns[1], differ);
	return 0;
}

module_init(kunwind_bench_init);

MODULE_DESCRIPTION("kunwind benchmark: kunwind_save() vs stack_trace_save()");
MODULE_LICENSE("GPL");
