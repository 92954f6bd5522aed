// SPDX-License-Identifier: GPL-2.0
/*
 * The deep stack the benchmark walks: three mutually recursive functions
 * of different shapes (a small frame, a frame with a local array and
 * callee-saved registers, a frame with a variable-length array), then a
 * bottom function that captures rip, rsp and rbp and hands them to the
 * bench.  bench.mk builds this file twice: with -fno-omit-frame-pointer,
 * so that the rbp chain is intact and the frame-pointer walk can run on
 * the very same stack as the table-driven walkers, and, as
 * bench_deep_stack_nofp() (BENCH_NOFP), with -fomit-frame-pointer, the
 * stack of code built without them, where only tables can walk.
 *
 * No call here may become a tail call (the frame would vanish), hence the
 * work after every call, and no function may be inlined into another.
 */
#include "bench.h"

#ifdef BENCH_NOFP
#define bench_deep_stack bench_deep_stack_nofp
#endif

#define noinline __attribute__((noinline))

static volatile int sink;

static int rec_a(int n, bench_bottom_fn fn, void *arg);

/*
 * Capture the registers at one instruction: the ip is the address right
 * after the lea, and rsp/rbp do not change inside the asm, so the three
 * values describe one consistent state (one table row) of this frame.
 * The bench walks from here while this frame stays live below it.
 */
static noinline int bottom(bench_bottom_fn fn, void *arg)
{
	struct bench_regs r;

	asm volatile("lea 0(%%rip), %0\n\t"
		     "mov %%rsp, %1\n\t"
		     "mov %%rbp, %2"
		     : "=r" (r.ip), "=r" (r.sp), "=r" (r.bp));
	fn(&r, arg);
	return sink;
}

/* A frame with a local array and values live across the call. */
static noinline int rec_b(int n, bench_bottom_fn fn, void *arg)
{
	volatile char buf[72];
	int x = sink + n, y = sink * 3, ret;

	buf[n % sizeof(buf)] = (char)n;
	ret = n ? rec_a(n - 1, fn, arg) : bottom(fn, arg);
	return ret + x + y + buf[n % sizeof(buf)];
}

/* A frame whose size is only known at run time. */
static noinline int rec_c(int n, bench_bottom_fn fn, void *arg)
{
	volatile char vla[16 + (n & 7) * 8];
	int ret;

	vla[0] = (char)n;
	ret = n ? rec_b(n - 1, fn, arg) : bottom(fn, arg);
	return ret + vla[0];
}

/* A small frame. */
static noinline int rec_a(int n, bench_bottom_fn fn, void *arg)
{
	int ret = n ? rec_c(n - 1, fn, arg) : bottom(fn, arg);

	return ret + sink;
}

int bench_deep_stack(int depth, bench_bottom_fn fn, void *arg)
{
	return rec_a(depth > 0 ? depth - 1 : 0, fn, arg) + sink;
}
