/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.c: one stack walked by kunwind and by the kernel's own unwinder
 * (ORC on x86-64, the frame records on arm64: "ORC" in the names below),
 * the frame-for-frame comparison (checked against oracle.c where kunwind
 * took its fallback), and a kthread parked asleep to be walked; for the
 * suites that compare with the kernel's walk (orc, asm, registry, tracer,
 * nmi) and those that walk (api, hostile, oops).
 */
#ifndef _KUNWIND_KUNIT_TRACE_H
#define _KUNWIND_KUNIT_TRACE_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kallsyms.h>
#include <linux/string.h>
#include "unwind/kunwind.h"
#include "unwind/linux/kunwind_api.h"
#include "oracle.h"

#define KT_MAX_FRAMES	64

struct kt_trace {
	unsigned long ip[KT_MAX_FRAMES];
	unsigned long sp[KT_MAX_FRAMES];	/* kunwind only */
	unsigned long bp[KT_MAX_FRAMES];	/* kunwind only */
	unsigned int flags[KT_MAX_FRAMES];	/* KUNWIND_FRAME_*; ORC: 0 */
	u8 fallback[KT_MAX_FRAMES];		/* KUNWIND_FRAME_ORC: its reason */
	struct kunwind_steps steps;		/* kt_save_here(): the walk's */
	unsigned int n;
	int stop;				/* kunwind: enum kunwind_stop */
	bool orc_error;				/* ORC: unwind_error() at the end */
};

/*
 * kunwind's walk through the public callback API, and the kernel's ORC
 * walk exactly as arch_stack_walk() makes it (exported __unwind_start(),
 * unwind_next_frame(), unwind_get_return_address()).
 *
 * From current, both begin with the return address into the caller of
 * kt_*_here() (like stack_trace_save(..., 0)); from regs, with regs->ip;
 * from a sleeping task, with its saved return address.
 */
void kt_kunwind_here(struct kt_trace *t);
void kt_orc_here(struct kt_trace *t);
void kt_kunwind_regs(struct kt_trace *t, struct pt_regs *regs);
void kt_orc_regs(struct kt_trace *t, struct pt_regs *regs);
void kt_kunwind_task(struct kt_trace *t, struct task_struct *task);
void kt_orc_task(struct kt_trace *t, struct task_struct *task);
/* arm64: stack_trace_save_regs(), which kunwind.ko resolves. */
unsigned int kt_kernel_save_regs(struct pt_regs *regs, unsigned long *store,
				 unsigned int size);

/*
 * A kthread parked asleep inside this module: sleeper_fn(),
 * sleeper_recurse() depth + 1 times, sleeper_bottom(), then schedule().
 * kt_sleeper_start() returns it once it is off the CPU (its stack stays
 * still until kt_sleeper_stop()), or NULL after failing the test.
 */
struct kt_sleeper {
	struct completion parked;
	struct task_struct *task;
	int depth;
	long sink;
};

struct task_struct *kt_sleeper_start(struct kunit *test, struct kt_sleeper *s,
				     int depth);
void kt_sleeper_stop(struct kt_sleeper *s);
/* Wait up to ~2.5 s for @t to be off the CPU, asleep: its stack is still. */
bool kt_wait_asleep(struct task_struct *t);

/* A kunwind_consume_fn appending to a struct kt_trace (cookie). */
struct kunwind_frame;
bool kt_trace_add(void *cookie, const struct kunwind_frame *f);

/* kunwind_save() of current from the caller of kt_save_here(). */
void kt_save_here(struct kt_trace *t);
/* Both walks of current from the caller of kt_both_here(). */
void kt_both_here(struct kt_trace *kun, struct kt_trace *orc);

/*
 * Frame-for-frame comparison.  Frames where ORC's walk ended or kunwind
 * stopped are not compared beyond the shorter trace only when the reason
 * is one of the documented differences (see trace.c); every other
 * difference fails, with both traces printed.  first_same_fn: frame 0
 * was taken at two different call sites of one function, so only its
 * function must agree.  Returns the number of frames compared.
 */
unsigned int kt_expect_same_trace(struct kunit *test, const char *what,
				  const struct kt_trace *kun,
				  const struct kt_trace *orc,
				  bool first_same_fn);
void kt_print_trace(struct kunit *test, const char *who,
		    const struct kt_trace *t);
bool kt_trace_has(const struct kt_trace *t, unsigned long lo, unsigned long hi);
/* Is ip in the function named fn (GCC's suffixes, .isra.0, too)? */
static inline bool kt_ip_in(unsigned long ip, const char *fn)
{
	char s[KSYM_SYMBOL_LEN];
	size_t n = strlen(fn);

	sprint_symbol_no_offset(s, ip);
	/* "fn", "fn [mod]", "fn.isra.0 [mod]", "fn.cold [mod]" */
	return !strncmp(s, fn, n) &&
	       (s[n] == '\0' || s[n] == ' ' || s[n] == '.');
}

/*
 * In the callback of an hrtimer that must interrupt the function fn: the
 * interrupted registers if the interrupt hit fn in kernel mode; else NULL
 * and *ret says what to return: HRTIMER_RESTART (the timer forwarded
 * 500 us) or, after 200 tries (*tries counts them), HRTIMER_NORESTART:
 * given up.
 */
struct hrtimer;
struct pt_regs *kt_irq_regs_in(struct hrtimer *t, const char *fn, int *tries,
			       int *ret);

/*
 * How many compared frames were checked, how many came from the ORC
 * fallback, and for each of those the walk's reason (reason[]) and what
 * the oracle says of the address its step was from (cover[]; a tracer's
 * trampoline undone by ORC: orc_tracer).  A fallback step whose reason
 * the oracle does not confirm, where it finds a row kunwind follows, or
 * where it cannot tell, fails the comparison.
 */
struct kt_compare_stats {
	unsigned long frames, orc_frames, differences;
	unsigned long table_steps;	/* compared frames stepped to by tables */
	unsigned long reason[KUNWIND_FALLBACK_NR];	/* the walk's reasons */
	unsigned long cover[KT_COVER_NR];
	unsigned long orc_tracer;
};

extern struct kt_compare_stats kt_stats;

/*
 * The .init and .exit of the suites that compare with ORC: each case
 * prints the steps it compared, by tables and by the ORC fallback, and
 * the fallback's by reason.
 */
int kt_steps_init(struct kunit *test);
void kt_steps_exit(struct kunit *test);

/*
 * A kunwind_save*() of n entries (store; the first the exact ip of a
 * register frame if first_exact, else a return address) and the walk's
 * steps: checked against the oracle as far as the entries tell, printed.
 * Each fallback reason may count at most the entries whose step the
 * oracle gives that reason (the walk's steps over frames it did not
 * store, in kunwind's own text, are by its table: none), and the steps
 * must reach the last entry.
 */
void kt_expect_save_steps(struct kunit *test, const char *what,
			  const unsigned long *store, unsigned int n,
			  bool first_exact, const struct kunwind_steps *steps);

#endif /* _KUNWIND_KUNIT_TRACE_H */
