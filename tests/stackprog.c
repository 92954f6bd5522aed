// SPDX-License-Identifier: GPL-2.0
/*
 * stackprog: park threads in situations that are hard for an unwinder, then
 * dump core, so that kunwind-stack, eu-stack and gdb can be compared on the
 * same stacks (tests/kunwind-stack.test).  Built -O2 -fomit-frame-pointer -g.
 *
 *   recurse   60 frames of three mutually recursive functions; one of them
 *             has a variable-length array, so its CFA is rbp-based even
 *             without frame pointers, the others are rsp-based
 *   qsort     a comparison function called back from libc's qsort, under
 *             libc's static (debug-file-only) merge sort functions
 *   noreturn  a function whose last instruction is a call to a noreturn
 *             function: its return address is the first byte after it
 *   signal    a SIGUSR1 handler, sent to the thread itself: the walk has to
 *             cross __restore_rt's signal frame back to pthread_kill
 *   fault     a SIGSEGV handler, the fault at the first instruction of a
 *             function placed right after the noreturn call: the frame
 *             under the signal frame must be looked up at ip, not ip - 1
 *   main      abort() once everything is parked: raise -> pthread_kill
 *
 * How the core is made.  By default main calls abort() and the kernel dumps
 * core (core_pattern "core", ulimit -c raised by the test): the core is the
 * kernel's own, with no debugger involved in its making, and nothing is
 * racing, because main aborts only after it has seen, in
 * /proc/self/task/TID/syscall, every other thread sleeping in pause().
 * With --stop, main raises SIGSTOP instead: for systems whose core_pattern
 * pipes cores away, the test then runs the program under gdb and writes
 * the core with gcore.
 *
 * Every thread blocks in pause(): a plain syscall wrapper with exact CFI in
 * libc, so frame 0 is well described for every unwinder.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "park.h"

#define DEPTH		60
#define NR_SORT		64

enum slot { S_RECURSE, S_QSORT, S_NORETURN, S_SIGNAL, S_FAULT, NR_SLOTS };

static const char *const slot_name[NR_SLOTS] = {
	"recurse", "qsort", "noreturn", "signal", "fault",
};

static volatile pid_t parked[NR_SLOTS];
static volatile int release;	/* never set: keeps park() returning */
volatile long sink;		/* defeats tail calls and folding */

/* Publish the tid, then sleep; the main thread waits for the sleep. */
static __attribute__((noinline)) int park(enum slot slot)
{
	parked[slot] = gettid();
	while (!release)
		pause();
	return slot;
}

/* recurse: a -> b -> c -> a ..., none of them a tail call. */
static int rec_b(int n);
static int rec_c(int n);

static __attribute__((noinline)) int rec_a(int n)
{
	int r = n ? rec_b(n - 1) : park(S_RECURSE);

	sink += r;
	return r + 1;
}

/* The VLA makes GCC keep rbp as the CFA base here. */
static __attribute__((noinline)) int rec_b(int n)
{
	volatile char buf[16 + (n & 7) * 8];
	int r;

	buf[0] = n;
	r = n ? rec_c(n - 1) : park(S_RECURSE);
	sink += buf[0];
	return r + 1;
}

/* Enough live values to spill callee-saved registers. */
static __attribute__((noinline)) int rec_c(int n)
{
	long a = sink, b = sink * 3, c = sink ^ n, d = sink + n;
	int r = n ? rec_a(n - 1) : park(S_RECURSE);

	sink += a + b * c - d + r;
	return r + 1;
}

static void *recurse_thread(void *arg)
{
	sink += rec_a(DEPTH);
	return NULL;
}

/* qsort: block in the first comparison. */
static __attribute__((noinline)) int cmp_int(const void *a, const void *b)
{
	static int once;

	if (!once++)
		park(S_QSORT);
	return *(const int *)a - *(const int *)b;
}

static void *qsort_thread(void *arg)
{
	int v[NR_SORT];
	unsigned int i;

	for (i = 0; i < NR_SORT; i++)
		v[i] = (i * 37) % NR_SORT;
	qsort(v, NR_SORT, sizeof(v[0]), cmp_int);
	sink += v[0];
	return NULL;
}

/*
 * noreturn: call_noreturn() ends with "call die_parked"; its return
 * address is outside it (the next function, or padding).  An unwinder
 * that looks the return address up as is gets the wrong row.  The test
 * checks with nm that this layout really happened.
 */
static __attribute__((noinline, noreturn)) void die_parked(void)
{
	park(S_NORETURN);
	abort();
}

__attribute__((noinline)) void call_noreturn(long x)
{
	sink += x;
	die_parked();
}

/*
 * Defined right after call_noreturn(), unaligned so that no padding
 * separates them: call_noreturn's return address is first_insn_faults's
 * first byte, described by its FDE (CFA rsp + 8), while the byte before
 * is call_noreturn's (CFA rsp + 16).  The fault thread calls it with NULL:
 * its first instruction faults, and the SIGSEGV handler's frame holds an
 * ip that must be looked up as is, not as ip - 1.
 */
__attribute__((noinline, optimize("align-functions=1")))
long first_insn_faults(const long *p)
{
	return *p + 1;
}

static void *noreturn_thread(void *arg)
{
	static const long two = 2;

	call_noreturn(first_insn_faults(&two));
	return NULL;
}

/* signal: the handler blocks; SIGUSR1 is sent by the thread to itself. */
static void on_usr1(int sig)
{
	park(S_SIGNAL);
}

static void *signal_thread(void *arg)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pthread_kill(pthread_self(), SIGUSR1);
	return NULL;
}

/* fault: SIGSEGV at a function's first instruction; the handler blocks. */
static void on_segv(int sig)
{
	park(S_FAULT);
}

static void *fault_thread(void *arg)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sink += first_insn_faults(NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*const fn[NR_SLOTS])(void *) = {
		recurse_thread, qsort_thread, noreturn_thread, signal_thread,
		fault_thread,
	};
	int stop = argc > 1 && !strcmp(argv[1], "--stop");
	pthread_t th;
	int i;

	for (i = 0; i < NR_SLOTS; i++) {
		if (pthread_create(&th, NULL, fn[i], NULL)) {
			fprintf(stderr, "stackprog: pthread_create failed\n");
			return 1;
		}
	}
	if (wait_parked("stackprog", parked, slot_name, NR_SLOTS))
		return 1;
	if (stop)
		raise(SIGSTOP);
	abort();
}
