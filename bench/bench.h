/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind-bench internals.
 *
 *   deep_stack.c  the deep stack the walks run on, built twice: with frame
 *                 pointers and without (bench_deep_stack_nofp())
 *   peers.c       the walkers kunwind is compared with: rbp chain,
 *                 libunwind, libdw; kept apart from bench.c because
 *                 <elfutils/libdwfl.h> and unwind/env.h both define bool
 *   bench.c       the harness: timing, the walk benchmark's checks and
 *                 report, main
 *   tables.c      the objects on the stack, their kunwind tables, kunwind's
 *                 walk over them
 *   lookup.c      lookups alone, and the cache lines a lookup reads
 *
 * Plain C types only here, so that every file can include it; what
 * bench.c, tables.c and lookup.c share besides is in kunwind_bench.h.
 */
#ifndef _KUNWIND_BENCH_H
#define _KUNWIND_BENCH_H

/* Registers captured at the bottom of the deep stack. */
struct bench_regs {
	unsigned long ip, sp, bp;
};

/*
 * The stack every walk runs on: regs as captured, and the readable span
 * [regs.sp, hi) up to the top of the main thread's stack.  Every walker
 * checks its reads against that span.
 */
struct bench_stack {
	struct bench_regs regs;
	unsigned long hi;
};

/* A walker: fills pc[0 .. n) from the captured state, returns n. */
typedef int (*bench_walk_fn)(void *ctx, unsigned long *pc, int max);

/* deep_stack.c: recurse depth frames deep, capture registers, call fn there. */
typedef void (*bench_bottom_fn)(const struct bench_regs *regs, void *arg);
int bench_deep_stack(int depth, bench_bottom_fn fn, void *arg);
/* deep_stack.c built -fomit-frame-pointer (bench.mk) */
int bench_deep_stack_nofp(int depth, bench_bottom_fn fn, void *arg);

/* peers.c; each walk takes a struct bench_stack * as ctx */
int fp_walk(void *stack, unsigned long *pc, int max);
int libunwind_setup(int per_thread);
int libunwind_walk(void *stack, unsigned long *pc, int max);
int libunwind_fast_walk(void *stack, unsigned long *pc, int max);
int libdw_setup(const struct bench_stack *stack, char *err, int len);
int libdw_walk(void *stack, unsigned long *pc, int max);
int libdw_last_error(char *err, int len);

#endif /* _KUNWIND_BENCH_H */
