// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_bench.ko: kunwind_save() against stack_trace_save() (the kernel's
 * ORC unwinder) on the same stacks, in one run (bench/kernel-bench.sh).
 * On arm64 stack_trace_save() is the kernel's frame-record walk: the one
 * comparison is "kunwind/fp" (bench/arm64-bench.sh).
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
 *                  (traces equal)
 *   kunwind-bench: ratio kunwind/orc=<x> frames=<total> ...
 *
 * but first checks at each depth that both save the same trace; where
 * they do not, it prints both, "TRACES DIFFER", and no ratio.  The same
 * against the rbp chain over this module's own frames (this file is built
 * with frame pointers, the kernel is not: the chain ends at the init
 * function's caller), "ratio kunwind/fp=<x>".
 *
 * Then the registry's cost as tables are added (table_bench()): the
 * lookup of a module frame with 1 and with 200 registered tables,
 *
 *   kunwind-bench: tables=200/1 ratio=<x> ...
 *
 * and the module stays loaded, doing nothing more.
 */
#include "unwind/linux/compat.h"	/* first, as Kbuild force-includes it */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include "unwind/linux/kunwind_api.h"
#include "unwind/linux/registry.h"
#include "unwind/linux/registry_lookup.h"

static unsigned int rounds = 100;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "batches per depth and unwinder");
static unsigned int batch = 50;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "walks per batch");

#define BENCH_FRAMES 64

typedef unsigned int (*save_fn)(unsigned long *store, unsigned int size,
				unsigned int skip, struct kunwind_steps *steps);

#define MAX_ROUNDS 400

/* kunwind against another walker (fn[1]) on the same frames. */
struct bench {
	save_fn fn[2];		/* kunwind_save, the other */
	unsigned int size;	/* frames each saves */
	u64 ns[2];
	u32 round_ratio[MAX_ROUNDS];	/* per round, kunwind/other * 1000 */
	u64 frames[2];
	unsigned int n[2];
	struct kunwind_steps steps;	/* kunwind's walk: who walked */
	bool differ;
	unsigned long store[2][BENCH_FRAMES];
	long sink;
};

/*
 * One call instruction for both walkers, reached through one call
 * instruction of bench_here(): the frames above it are the same.
 */
static noinline u64 timed_batch(struct bench *b, unsigned int which)
{
	unsigned long flags;
	unsigned int i;
	u64 t0, t;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < batch; i++)
		b->n[which] = b->fn[which](b->store[which], b->size, 0,
					   &b->steps);
	t = ktime_get_ns() - t0;
	local_irq_restore(flags);
	return t;
}

#ifndef CONFIG_ARM64	/* the rbp chain: x86-64's comparison */
/*
 * The rbp chain over this module's frames, as stack_trace_save() stores
 * them (the first: the return address into the caller).  This file is
 * built with frame pointers (kunit/Kbuild); the kernel is not, so the
 * chain ends at the first return address outside the module's text.
 * The bounds are the walking task's stack and the module's text, found
 * once at init: the chain checks each word against them, as kunwind
 * checks its reads.
 */
static unsigned long fp_stack_lo, fp_stack_hi;
static unsigned long fp_text[2][2];	/* [start, end) of core and init text */

static noinline unsigned int fp_save(unsigned long *store, unsigned int size,
				     unsigned int skip,
				     struct kunwind_steps *steps)
{
	unsigned long bp = (unsigned long)__builtin_frame_address(0), next, ret;
	unsigned int n = 0;

	while (n < size && !(bp & 7) &&
	       bp - fp_stack_lo < fp_stack_hi - fp_stack_lo - 16) {
		ret = ((unsigned long *)bp)[1];
		if (ret - fp_text[0][0] >= fp_text[0][1] - fp_text[0][0] &&
		    ret - fp_text[1][0] >= fp_text[1][1] - fp_text[1][0])
			break;
		store[n++] = ret;
		next = ((unsigned long *)bp)[0];
		if (next <= bp)
			break;
		bp = next;
	}
	return n;
}

#endif

/*
 * stack_trace_save() through save_fn: its first address is the return
 * address into this wrapper, skipped, so the trace starts, as
 * kunwind_save()'s does, with the return address into timed_batch().
 * The empty asm after the call keeps it a call (no sibling call, which
 * would take this frame away).
 */
static noinline unsigned int orc_save(unsigned long *store, unsigned int size,
				      unsigned int skip,
				      struct kunwind_steps *steps)
{
	unsigned int n = stack_trace_save(store, size, skip + 1);

	asm volatile("");
	return n;
}

/*
 * Round 0 checks the traces: a ratio of walks that report other frames
 * means nothing.  Then `rounds` rounds, which walker goes first
 * alternating (against order effects).  One loop, one call of
 * timed_batch(): a loop of two would be unrolled into two calls, whose
 * return addresses differ.
 */
static noinline void bench_here(struct bench *b)
{
	unsigned int i, r, which;
	u64 t[2] = { 0, 0 };

	for (i = 0; i < 2 * (rounds + 1); i++) {
		r = i / 2;
		which = (r & 1) ? 1 - i % 2 : i % 2;
		t[which] = timed_batch(b, which);
		if (i % 2 == 0)
			continue;
		if (!r) {
			b->differ = b->n[0] != b->n[1] || !b->n[0] ||
				    memcmp(b->store[0], b->store[1],
					   b->n[0] * sizeof(long));
			if (b->differ)
				return;
			continue;
		}
		for (which = 0; which < 2; which++) {
			b->ns[which] += t[which];
			b->frames[which] += (u64)b->n[which] * batch;
		}
		/* Same frames on both sides: the time ratio is the ns/frame one. */
		b->round_ratio[r - 1] = t[1] ? div64_u64(t[0] * 1000, t[1]) : 0;
	}
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

/* ---- the registry with 1 and with 200 tables ---- */

/*
 * The measured table is a copy of this module's own table (real rows of
 * real code), relocated to fake text; 199 more copies, each at fake text
 * of its own, are the other tables.  The fake text is the address range
 * of a vmalloc() area, which no table covers and nobody runs, with a
 * page between two copies as module text has (vmalloc's guard page after
 * each module's text allocation).  A lookup
 * is kunwind_find_rule() of NR_IPS addresses of this module's functions,
 * translated into the measured copy.
 *
 * Timing: registering 199 tables cannot alternate with every batch, so
 * phases of `rounds` rounds alternate: the measured table alone (A), and
 * registered last after the 199 (B), A B A B A B A.  Against the host's
 * speed drifting between phases, each round also times a reference batch
 * that does not depend on the registry, the same rows found by
 * kunwind_seg_rule() in the known segment, and keeps the round's ratio
 * lookup/reference.  Under TCG a whole phase is now and then much slower
 * for one of the two (seen: one phase of three 1.2 to 1.6 times the
 * others, either kind), so several phases of each kind are pooled.
 * Reported: median(B rounds) / median(A rounds), and each phase's median.
 */
#define TABLES		200
#define NR_IPS		8
#define PHASES		7	/* A B A B A B A */

struct table_bench {
	const struct kunwind_hdr *copy[TABLES];
	struct kunwind_registration *entry[TABLES];
	unsigned long span;			/* fake text per copy */
	void *fake;				/* TABLES * span of addresses */
	const struct kunwind_seg *seg;		/* measured copy, the ips' segment */
	unsigned long ip[NR_IPS];		/* in the measured copy */
	u32 off[NR_IPS];			/* in seg */
	u32 *ratio[PHASES];			/* per round, lookup/reference x 1000 */
	long sink;
};

static noinline u64 timed_lookups(struct table_bench *tb, bool reference)
{
	const struct kunwind_hdr *t = tb->copy[TABLES - 1];
	struct kunwind_rule r;
	unsigned long flags;
	unsigned int i, k;
	u64 t0, ns;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	for (i = 0; i < batch; i++) {
		for (k = 0; k < NR_IPS; k++) {
			if (reference)
				r = *kunwind_seg_rule(t, tb->seg, tb->off[k]);
			else
				kunwind_find_rule(tb->ip[k], &r);
			tb->sink += r.cfa_off;
		}
	}
	ns = ktime_get_ns() - t0;
	local_irq_restore(flags);
	return ns;
}

/* One phase: `rounds` rounds; which batch goes first alternates. */
static void table_phase(struct table_bench *tb, u32 *ratio)
{
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		u64 t[2];

		if (r & 1) {
			t[1] = timed_lookups(tb, true);
			t[0] = timed_lookups(tb, false);
		} else {
			t[0] = timed_lookups(tb, false);
			t[1] = timed_lookups(tb, true);
		}
		ratio[r] = t[1] ? div64_u64(t[0] * 1000, t[1]) : 0;
	}
	sort(ratio, rounds, sizeof(*ratio), cmp_u32, NULL);
}

static bool table_register(struct table_bench *tb, unsigned int c)
{
	struct kunwind_text text = {
		.start = (unsigned long)tb->fake + c * tb->span,
		.end = (unsigned long)tb->fake + (c + 1) * tb->span,
	};

	tb->entry[c] = kunwind_register_table("kunwind_bench_copy", NULL,
					    tb->copy[c], tb->copy[c]->size, 0,
					    &text, 1);
	if (IS_ERR(tb->entry[c])) {
		pr_info("kunwind-bench: copy %u refused: %ld\n", c,
			PTR_ERR(tb->entry[c]));
		tb->entry[c] = NULL;
		return false;
	}
	return true;
}

static void table_unregister(struct table_bench *tb, unsigned int c)
{
	if (tb->entry[c])
		kunwind_unregister_table(tb->entry[c]);
	tb->entry[c] = NULL;
}

/*
 * Copy this module's table TABLES times, each copy's segments packed one
 * after the other from its own fake text; find the ips' segment.
 */
static bool table_copies(struct table_bench *tb)
{
	static const void *const fns[NR_IPS] = {
		bench_here, timed_batch, bench_at_depth, cmp_u32, milli,
		timed_lookups, table_phase, table_register,
	};
	const struct kunwind_hdr *own;
	const struct kunwind_seg *seg, *s;
	unsigned long start, off, base;
	unsigned int c, i, idx;

	rcu_read_lock();
	seg = kunwind_registry_seg((unsigned long)bench_here, &own, &start);
	rcu_read_unlock();
	if (!seg)
		return false;
	/* This module's table stays registered: fine to read. */
	idx = seg - kunwind_segs(own);
	for (i = 0, off = 0; i < own->nr_segs; i++)
		off += ALIGN(kunwind_segs(own)[i].size, 64);
	tb->span = PAGE_ALIGN(off) + PAGE_SIZE;
	tb->fake = vmalloc(TABLES * tb->span);
	if (!tb->fake)
		return false;
	for (c = 0; c < TABLES; c++) {
		struct kunwind_hdr *t = kmemdup(own, own->size, GFP_KERNEL);

		if (!t)
			return false;
		base = (unsigned long)tb->fake + c * tb->span;
		for (i = 0, off = 0; i < t->nr_segs; i++) {
			struct kunwind_seg *cs = (struct kunwind_seg *)kunwind_segs(t) + i;

			cs->base = base + off;
			off += ALIGN(cs->size, 64);
		}
		tb->copy[c] = t;
	}
	tb->seg = kunwind_segs(tb->copy[TABLES - 1]) + idx;
	for (i = 0; i < NR_IPS; i++) {
		unsigned long ip = (unsigned long)fns[i];

		s = NULL;
		rcu_read_lock();
		if (kunwind_registry_seg(ip, &own, &start) == seg)
			s = seg;
		rcu_read_unlock();
		if (!s)
			return false;
		tb->off[i] = ip - start;
		tb->ip[i] = tb->seg->base + tb->off[i];
	}
	return true;
}

static void table_bench_free(struct table_bench *tb)
{
	unsigned int c;

	for (c = 0; c < TABLES; c++) {
		table_unregister(tb, c);
		kfree(tb->copy[c]);
	}
	vfree(tb->fake);
	for (c = 0; c < PHASES; c++)
		kfree(tb->ratio[c]);
	kfree(tb);
}

/* The median of the rounds of every other phase from first, x 1000. */
static u32 pooled_median(struct table_bench *tb, unsigned int first, u32 *all)
{
	unsigned int p, n = 0;

	for (p = first; p < PHASES; p += 2, n += rounds)
		memcpy(all + n, tb->ratio[p], rounds * sizeof(u32));
	sort(all, n, sizeof(u32), cmp_u32, NULL);
	return all[n / 2];
}

static void __init table_bench(void)
{
	struct table_bench *tb = kzalloc(sizeof(*tb), GFP_KERNEL);
	char phases[PHASES * 8] = "", *end = phases;
	unsigned int c, p;
	u32 *all = NULL, a, b;

	if (!tb)
		return;
	for (p = 0; p < PHASES; p++) {
		tb->ratio[p] = kcalloc(rounds, sizeof(u32), GFP_KERNEL);
		if (!tb->ratio[p])
			goto fail;
	}
	all = kcalloc((PHASES + 1) / 2 * rounds, sizeof(u32), GFP_KERNEL);
	if (!all || !table_copies(tb))
		goto fail;
	for (p = 0; p < PHASES; p++) {
		if (p & 1) {	/* B: the 199, then the measured one, last */
			for (c = 0; c < TABLES; c++)
				if (!table_register(tb, c))
					goto fail;
		} else if (!table_register(tb, TABLES - 1)) {
			goto fail;
		}
		table_phase(tb, tb->ratio[p]);
		for (c = 0; c < TABLES; c++)
			table_unregister(tb, c);
		end += scnprintf(end, phases + sizeof(phases) - end, " %u.%03u",
				 tb->ratio[p][rounds / 2] / 1000,
				 tb->ratio[p][rounds / 2] % 1000);
	}
	a = pooled_median(tb, 0, all);
	b = pooled_median(tb, 1, all);
	pr_info("kunwind-bench: tables=200/1 ratio=%llu.%03llu (kunwind_find_rule() of %u frames of a module registered last, lookup/reference per round, medians: 1 table %u.%03u, 200 tables %u.%03u; per phase, A B A B A B A:%s; %u rounds of %u x %u lookups a phase)\n",
		milli(b, a) / 1000, milli(b, a) % 1000, NR_IPS,
		a / 1000, a % 1000, b / 1000, b % 1000, phases, rounds, batch,
		NR_IPS);
	goto out;
fail:
	pr_info("kunwind-bench: tables: could not set up\n");
out:
	kfree(all);
	table_bench_free(tb);
}

static void print_traces(const char *other, const struct bench *b)
{
	unsigned int i;

	for (i = 0; i < max(b->n[0], b->n[1]); i++)
		pr_info("kunwind-bench:   #%-2u %pS | %pS\n", i,
			i < b->n[0] ? (void *)b->store[0][i] : NULL,
			i < b->n[1] ? (void *)b->store[1][i] : NULL);
	pr_info("kunwind-bench:   (kunwind | %s)\n", other);
}

/*
 * kunwind_save() against fn at three depths: per depth its ns/frame,
 * then the median over all rounds of the per-round ratio.  size: frames
 * each saves at a depth (0: BENCH_FRAMES).  Nothing is timed at a depth
 * where the traces differ, and then there is no ratio: "TRACES DIFFER".
 */
static noinline void __init compare(const char *other, save_fn fn,
				    unsigned int (*size)(int depth))
{
	static const int depths[] = { 4, 12, 28 };
	u64 ns[2] = { 0, 0 }, frames[2] = { 0, 0 }, ratio, total;
	unsigned int i, nr = 0;
	u32 *all;

	all = kcalloc(ARRAY_SIZE(depths) * rounds, sizeof(*all), GFP_KERNEL);
	if (!all)
		return;
	for (i = 0; i < ARRAY_SIZE(depths); i++) {
		struct bench *b = kzalloc(sizeof(*b), GFP_KERNEL);
		u64 pk, po;

		if (!b)
			goto out;
		b->fn[0] = kunwind_save;
		b->fn[1] = fn;
		b->size = size ? size(depths[i]) : BENCH_FRAMES;
		bench_at_depth(b, depths[i]);
		if (b->differ) {
			pr_info("kunwind-bench: depth %d: kunwind and %s TRACES DIFFER: %u and %u frames\n",
				depths[i], other, b->n[0], b->n[1]);
			print_traces(other, b);
			pr_info("kunwind-bench: ratio kunwind/%s: none, the traces differ\n",
				other);
			kfree(b);
			goto out;
		}
		pk = milli(b->ns[0], b->frames[0]);
		po = milli(b->ns[1], b->frames[1]);
		pr_info("kunwind-bench: depth %d frames %u kunwind %llu.%03llu ns/frame %s %llu.%03llu ns/frame (traces equal; kunwind's steps: %u by tables, %u by the fallback)\n",
			depths[i], b->n[0], pk / 1000, pk % 1000, other,
			po / 1000, po % 1000, b->steps.tables,
			kunwind_steps_fallback(&b->steps));
		ns[0] += b->ns[0];
		ns[1] += b->ns[1];
		frames[0] += b->frames[0];
		frames[1] += b->frames[1];
		memcpy(all + nr, b->round_ratio, rounds * sizeof(*all));
		nr += rounds;
		kfree(b);
	}
	sort(all, nr, sizeof(*all), cmp_u32, NULL);
	ratio = all[nr / 2];
	/* and the ratio of the totals' ns per frame, for comparison */
	total = milli(milli(ns[0], frames[0]), milli(ns[1], frames[1]));
	pr_info("kunwind-bench: ratio kunwind/%s=%llu.%03llu (median of %u rounds; of the totals %llu.%03llu) frames=%llu kunwind_ns=%llu %s_ns=%llu\n",
		other, ratio / 1000, ratio % 1000, nr, total / 1000,
		total % 1000, frames[0], ns[0], other, ns[1]);
out:
	kfree(all);
}

#ifndef CONFIG_ARM64
/*
 * The module's frames at a depth: timed_batch, bench_here, depth + 1 of
 * bench_at_depth, compare and the init function, whose caller is the
 * kernel's (the rbp chain ends there).
 */
static unsigned int __init module_frames(int depth)
{
	return depth + 5;
}
#endif

static int __init kunwind_bench_init(void)
{
	rounds = clamp(rounds, 1u, (unsigned int)MAX_ROUNDS);
#ifdef CONFIG_ARM64
	/*
	 * arm64's own unwinder is the frame-record walk, over the whole
	 * stack (the kernel is built with frame records): that is "fp".
	 */
	compare("fp", orc_save, NULL);
#else
	compare("orc", orc_save, NULL);

	fp_stack_lo = (unsigned long)task_stack_page(current);
	fp_stack_hi = fp_stack_lo + THREAD_SIZE;
	kunwind_mod_text(THIS_MODULE, false, &fp_text[0][0], &fp_text[0][1]);
	kunwind_mod_text(THIS_MODULE, true, &fp_text[1][0], &fp_text[1][1]);
	compare("fp", fp_save, module_frames);
#endif

	table_bench();
	return 0;
}

module_init(kunwind_bench_init);

MODULE_DESCRIPTION("kunwind benchmark: kunwind_save() vs stack_trace_save() and the rbp chain");
MODULE_LICENSE("GPL");
