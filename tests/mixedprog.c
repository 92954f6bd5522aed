// SPDX-License-Identifier: GPL-2.0
/*
 * mixedprog: stacks that mix code with frame pointers and no CFI (all of
 * this file) with code that has CFI (libc), then dump core, so that
 * kunwind-stack's frame-pointer fallback can be compared with eu-stack's
 * (tests/kunwind-stack-mixed.test).  Built -O2 -fno-omit-frame-pointer
 * -fno-asynchronous-unwind-tables -fno-unwind-tables
 * -fno-optimize-sibling-calls: every function here keeps an rbp frame and
 * has no FDE, and every call returns.  Built twice, dynamic (with
 * MIXED_LIB, against libmixedlib.so) and -static.
 *
 *   fp_libc   fp_libc_a -> fp_libc_b -> pause() in libc: a CFI step,
 *             then no row (the fallback after a CFI step)
 *   fp_leaf   fp_leaf_a -> fp_leaf_b, which makes the pause system call
 *             itself: frame 0 has no row
 *   callback  fp_sort -> qsort (libc, CFI) -> fp_cmp -> pause(): CFI,
 *             no row, CFI again, no row again
 *   main      main -> fp_fault (static) or lib_fault in libmixedlib.so
 *             (dynamic; the test removes the library before it reads the
 *             core): a store through NULL, SIGSEGV, and the kernel dumps
 *             core; frame 0 is in code with no row, or in no known file
 *
 * main faults only after it has seen, in /proc/self/task/TID/syscall,
 * every other thread sleeping in pause() (park.h).  The test runs it with
 * core_pattern "core" and ulimit -c raised, or under gdb (which stops at
 * the SIGSEGV) and writes the core with gcore.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "park.h"

#ifdef MIXED_LIB
void lib_fault(void);		/* libmixedlib.so (tests/mixedlib.c) */
#endif

#define NR_SORT		16

enum slot { S_FP_LIBC, S_FP_LEAF, S_CALLBACK, NR_SLOTS };

static const char *const slot_name[NR_SLOTS] = {
	"fp_libc", "fp_leaf", "callback",
};

static volatile pid_t parked[NR_SLOTS];
volatile long sink;		/* defeats folding */
int *volatile fault_at;		/* NULL: the store that dumps core */

static __attribute__((noinline)) void fp_libc_b(void)
{
	parked[S_FP_LIBC] = gettid();
	for (;;)
		pause();
}

static __attribute__((noinline)) void fp_libc_a(void)
{
	fp_libc_b();
	sink++;
}

static void *fp_libc_thread(void *arg)
{
	fp_libc_a();
	return arg;
}

/* pause(2) by our own syscall instruction: no libc frame, no row. */
static __attribute__((noinline)) void fp_leaf_b(void)
{
	long ret;

	parked[S_FP_LEAF] = gettid();
	for (;;)
		asm volatile("syscall" : "=a"(ret) : "0"((long)SYS_pause)
			     : "rcx", "r11", "memory");
}

static __attribute__((noinline)) void fp_leaf_a(void)
{
	fp_leaf_b();
	sink++;
}

static void *fp_leaf_thread(void *arg)
{
	fp_leaf_a();
	return arg;
}

static __attribute__((noinline)) int fp_cmp(const void *a, const void *b)
{
	static int once;

	if (!once++) {
		parked[S_CALLBACK] = gettid();
		for (;;)
			pause();
	}
	return *(const int *)a - *(const int *)b;
}

static __attribute__((noinline)) void fp_sort(void)
{
	int v[NR_SORT], i;

	for (i = 0; i < NR_SORT; i++)
		v[i] = (i * 7) % NR_SORT;
	qsort(v, NR_SORT, sizeof(v[0]), fp_cmp);
	sink += v[0];
}

static void *callback_thread(void *arg)
{
	fp_sort();
	return arg;
}

#ifndef MIXED_LIB
/* A local on the stack: GCC 12 sets up no frame for a leaf without one. */
static __attribute__((noinline)) void fp_fault(void)
{
	volatile int one = 1;

	*fault_at = one;
}
#endif

int main(void)
{
	void *(*const fn[NR_SLOTS])(void *) = {
		fp_libc_thread, fp_leaf_thread, callback_thread,
	};
	pthread_t th;
	int i;

	for (i = 0; i < NR_SLOTS; i++) {
		if (pthread_create(&th, NULL, fn[i], NULL)) {
			fprintf(stderr, "mixedprog: pthread_create failed\n");
			return 1;
		}
	}
	if (wait_parked("mixedprog", parked, slot_name, NR_SLOTS))
		return 1;
#ifdef MIXED_LIB
	lib_fault();
#else
	fp_fault();
#endif
	sink++;
	return 0;
}
