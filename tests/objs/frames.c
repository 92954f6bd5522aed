// SPDX-License-Identifier: GPL-2.0
/*
 * Functions with varied stack frames, for the CFI oracle tests
 * (tests/readelf.test).  Each function exists to make the compiler emit
 * one kind of CFI; tests/readelf.mk builds this file at several -O levels,
 * with and without frame pointers, into .eh_frame and into .debug_frame.
 * Everything is global and reached from frames_run() so that no level of
 * optimisation drops a function.
 */
#include <alloca.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define noinline	__attribute__((__noinline__))
/* A cold function: GCC puts it in .text.unlikely from -O1 on. */
#define cold		__attribute__((__cold__, __noinline__))
/* Explicitly in .text.unlikely at every level: overlaps .text at offset 0. */
#define unlikely_text	__attribute__((__section__(".text.unlikely"), \
				       __noinline__))

volatile long frames_sink;

/* An opaque call: values live across it need callee-saved registers. */
noinline void frames_clobber(void)
{
	__asm__ volatile("" ::: "memory");
}

/* A noreturn call as the function's last instruction. */
noinline __attribute__((noreturn)) void frames_die(const char *why)
{
	fputs(why, stderr);
	abort();
}

/* Recursion. */
noinline long frames_fib(int n)
{
	return n < 2 ? n : frames_fib(n - 1) + frames_fib(n - 2);
}

/* alloca: the CFA moves to rbp even with -fomit-frame-pointer. */
noinline int frames_alloca(int n)
{
	char *p = alloca(n + 1);

	memset(p, n, n + 1);
	frames_clobber();
	return p[n / 2];
}

/* A variable length array. */
noinline int frames_vla(int n)
{
	int a[n + 1];
	int i, s = 0;

	for (i = 0; i <= n; i++)
		a[i] = i * 3;
	frames_clobber();
	for (i = 0; i <= n; i++)
		s += a[i];
	return s;
}

/* Frames above 32 KiB and above 64 KiB: CFA offsets beyond 16 bits. */
noinline int frames_big(int i)
{
	volatile char buf[40000];

	buf[i % sizeof(buf)] = (char)i;
	frames_clobber();
	return buf[(i / 2) % sizeof(buf)];
}

noinline int frames_huge(int i)
{
	volatile char buf[100000];

	buf[i % sizeof(buf)] = (char)i;
	frames_clobber();
	return buf[(i * 7) % sizeof(buf)];
}

/* Every callee-saved register live across a call. */
noinline long frames_many_regs(long a, long b, long c, long d, long e, long f)
{
	long x1 = a * 3, x2 = b * 5, x3 = c * 7, x4 = d * 11, x5 = e * 13;
	long x6 = f * 17, x7 = a ^ f, x8 = b ^ e;

	frames_clobber();
	frames_sink = x1;
	frames_clobber();
	return x1 + x2 * x3 + x4 * x5 + x6 * x7 + x8 + a + b + c + d + e + f;
}

/* A switch dense enough for a jump table. */
noinline int frames_switch(int x)
{
	switch (x) {
	case 0: return frames_fib(3);
	case 1: return 17;
	case 2: return frames_alloca(x);
	case 3: return 91;
	case 4: return frames_vla(x);
	case 5: return 7;
	case 6: return 1234;
	case 7: frames_clobber(); return 8;
	case 8: return x * x;
	case 9: return 3;
	default: return -1;
	}
}

/* Varargs: the register save area. */
noinline long frames_sum(int n, ...)
{
	va_list ap;
	long s = 0;

	va_start(ap, n);
	while (n-- > 0)
		s += va_arg(ap, long);
	va_end(ap);
	return s;
}

/* A tail call at -O2 (jmp, no frame change). */
noinline long frames_tail(int x)
{
	return frames_fib(x + 1);
}

/* A noreturn call in the middle: the code after it is a new block. */
noinline int frames_check(int x)
{
	if (x < 0)
		frames_die("negative\n");
	return x * 2;
}

/* An unlikely branch: GCC splits it into frames_split.cold at -O2. */
noinline int frames_split(int x)
{
	if (__builtin_expect(x == 4242, 0)) {
		fprintf(stderr, "unexpected %d\n", x);
		frames_clobber();
		abort();
	}
	return x + 1;
}

cold void frames_report(int x)
{
	fprintf(stderr, "report %d\n", x);
	frames_clobber();
}

unlikely_text long frames_slow_path(long x)
{
	long v = frames_many_regs(x, x + 1, x + 2, x + 3, x + 4, x + 5);

	frames_clobber();
	return v + x;
}

/*
 * Realignment with a variable length array: GCC keeps the CFA in the DRAP
 * register r10, then in an expression on rbp.
 */
noinline int frames_realign(int n)
{
	char buf[64] __attribute__((aligned(64)));
	char vla[n + 1];

	memset(buf, n, sizeof(buf));
	memset(vla, n, n + 1);
	frames_clobber();
	return buf[n & 63] + vla[n / 2];
}

/* Realignment with a frame pointer. */
noinline int frames_aligned_local(int x)
{
	char buf[128] __attribute__((aligned(128)));

	memset(buf, x, sizeof(buf));
	frames_clobber();
	return buf[x & 127];
}

noinline long frames_run(int x)
{
	long r = 0;

	r += frames_fib(x & 7);
	r += frames_alloca(x & 63);
	r += frames_vla(x & 63);
	r += frames_big(x);
	r += frames_huge(x);
	r += frames_many_regs(x, 2, 3, 4, 5, 6);
	r += frames_switch(x % 11);
	r += frames_sum(3, 1L, 2L, (long)x);
	r += frames_tail(x & 7);
	r += frames_check(x);
	r += frames_split(x);
	r += frames_slow_path(x);
	r += frames_realign(x & 63);
	r += frames_aligned_local(x);
	if (r == 42)
		frames_report(x);
	return r;
}
