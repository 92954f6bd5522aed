/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The walk scenarios' world (walk_cases.h, walk_cases_arm64.h): fake stack
 * memory behind struct kunwind_ops hooks with bounds, one synthetic
 * program's table, a tracer's trampoline, and the walk that reports every
 * frame it meets.  Freestanding, as scenarios.h.
 */
#ifndef _KUNWIND_TEST_WALK_FAKE_H
#define _KUNWIND_TEST_WALK_FAKE_H

#include "scenarios.h"

#define KT_STACK	0x7000ul
#define KT_STACK2	0x20000ul
#define KT_WORDS	64
#define KT_TOP		(KT_STACK + 8 * KT_WORDS)
#define KT_DEPTH	32

/* A walk and the frames it reported (state ip and sp after each step). */
struct kt_walked {
	struct kunwind_state s;
	unsigned long ip[KT_DEPTH + 8], sp[KT_DEPTH + 8];
	unsigned int n;
};

/* The world the hooks see; one per case, zeroed. */
struct kt_fake {
	unsigned long lo, hi, mem[KT_WORDS];	/* the stack */
	unsigned long lo2, hi2, mem2[KT_WORDS];	/* another, if two */
	bool two;
	bool exact_top;		/* stacks are [lo, hi), as the kernel's */
	const struct kunwind_hdr *t;
	unsigned long t_len;			/* bytes of *t */
	unsigned long bias;			/* the table's load bias */
	unsigned long text_lo, text_hi;		/* text_ok(): [lo, hi), if hi */
	unsigned long tramp, tramp_p, tramp_ip;	/* ret_addr(): one trampoline */
	struct kunwind_cache *cache;		/* given to every walk, if set */
	bool trace;				/* walk with kunwind_trace() */
	bool no_hook;				/* ops without ret_addr */
	unsigned long lr;			/* arm64: x30 of the first frame */
	struct kt_walked w;			/* the last walk */
};

static const struct kunwind_seg *kt_f_find(void *ctx, unsigned long ip,
					   const struct kunwind_hdr **table,
					   unsigned long *start)
{
	struct kt_fake *f = ctx;

	*table = f->t;
	return kunwind_table_seg(f->t, f->bias, ip, start);
}

static bool kt_f_read(void *ctx, unsigned long addr, unsigned long *val)
{
	struct kt_fake *f = ctx;

	if (addr & 7)
		return false;
	if (addr >= f->lo && addr + 8 <= f->hi) {
		*val = f->mem[(addr - f->lo) / 8];
		return true;
	}
	if (f->two && addr >= f->lo2 && addr + 8 <= f->hi2) {
		*val = f->mem2[(addr - f->lo2) / 8];
		return true;
	}
	return false;
}

static bool kt_f_stack(void *ctx, unsigned long sp, unsigned long *lo,
		       unsigned long *hi)
{
	struct kt_fake *f = ctx;

	/*
	 * An empty stack's sp may equal its top: lenient by default; with
	 * exact_top, [lo, hi) as the kernel's stacks are given (the core
	 * must then accept sp == hi itself, where the arch says so).
	 */
	if (sp >= f->lo && sp < f->hi + !f->exact_top) {
		*lo = f->lo;
		*hi = f->hi + !f->exact_top;
		return true;
	}
	if (f->two && sp >= f->lo2 && sp < f->hi2 + !f->exact_top) {
		*lo = f->lo2;
		*hi = f->hi2 + !f->exact_top;
		return true;
	}
	return false;
}

/* A tracer's trampoline at f->tramp replaced the return address at tramp_p. */
static unsigned long kt_f_ret_addr(void *ctx, unsigned long ip,
				   unsigned long addr_p)
{
	struct kt_fake *f = ctx;

	if (!f->tramp || ip != f->tramp)
		return ip;
	return addr_p == f->tramp_p ? f->tramp_ip : 0;
}

static bool kt_f_text_ok(void *ctx, unsigned long ip)
{
	struct kt_fake *f = ctx;

	return !f->text_hi || (ip >= f->text_lo && ip < f->text_hi);
}

static const struct kunwind_ops kt_fake_ops = {
	.find_seg = kt_f_find,
	.read = kt_f_read,
	.stack = kt_f_stack,
	.ret_addr = kt_f_ret_addr,
	.text_ok = kt_f_text_ok,
};

/*
 * The same without a ret_addr hook: with one, which may change any
 * return address, the walk never caches a return address's lookup, so
 * its runs of cached frames (walk.c's call_run()) need these.
 */
static const struct kunwind_ops kt_fake_ops_no_hook = {
	.find_seg = kt_f_find,
	.read = kt_f_read,
	.stack = kt_f_stack,
	.text_ok = kt_f_text_ok,
};

/* A fake world whose table is one segment at 0x1000 of nr rows. */
static struct kt_fake *kt_fake_new_rows(KT_TEST *test, const struct kt_row *rows,
					unsigned int nr, u32 size)
{
	struct kt_seg seg = { ".text", 0x1000, size, rows, nr };
	struct kt_fake *f;
	unsigned long len;

	f = KT_ZALLOC(test, sizeof(*f));
	if (!KT_EXPECT(test, f, "no memory for the fake stacks"))
		return NULL;
	f->lo = KT_STACK;
	f->hi = KT_TOP;
	f->lo2 = KT_STACK2;
	f->hi2 = KT_STACK2 + 8 * KT_WORDS;
	f->text_lo = 0x1000;
	f->text_hi = 0x2000;
	f->t = kt_table_build(test, &seg, 1, &len);
	f->t_len = len;
	if (!KT_EXPECT(test, f->t && !kunwind_table_check(f->t, len),
		       "no valid table of the synthetic program"))
		return NULL;
	return f;
}

static void kt_put(struct kt_fake *f, unsigned long addr, unsigned long val)
{
	if (addr >= f->lo2 && addr < f->hi2)
		f->mem2[(addr - f->lo2) / 8] = val;
	else
		f->mem[(addr - f->lo) / 8] = val;
}

/* Walk from (ip, sp, bp) into f->w, at most KT_DEPTH frames. */
static void kt_walk(struct kt_fake *f, unsigned long ip, unsigned long sp,
		    unsigned long bp, unsigned int flags)
{
	struct kt_walked *w = &f->w;

	kunwind_start(&w->s, f->no_hook ? &kt_fake_ops_no_hook : &kt_fake_ops,
		      f, ip, sp, bp, KT_DEPTH, flags);
#ifdef KUNWIND_ARCH_HAS_LR
	kunwind_set_lr(&w->s, f->lr);
#endif
	w->s.cache = f->cache;
	w->n = 0;
	if (f->trace) {
		/* the ips only; a walk refused at its start still has ip */
		w->n = kunwind_trace(&w->s, w->ip, KT_ARRAY_SIZE(w->ip));
		if (!w->n)
			w->ip[w->n++] = w->s.ip;
		return;
	}
	do {
		w->ip[w->n] = w->s.ip;
		w->sp[w->n] = w->s.sp;
		w->n++;
	} while (w->n < KT_ARRAY_SIZE(w->ip) && kunwind_next(&w->s));
}

/* The last walk stopped for reason why, having reported that many frames. */
#define KT_EXPECT_WALK(test, f, why, frames)				\
	KT_EXPECT(test, (f)->w.s.stop == (why) && (f)->w.n == (frames),	\
		  "expected stop \"%s\" after %u frames, got \"%s\" after %u", \
		  kunwind_stop_str(why), (unsigned int)(frames),	\
		  kunwind_stop_str((f)->w.s.stop), (f)->w.n)

#endif /* _KUNWIND_TEST_WALK_FAKE_H */
