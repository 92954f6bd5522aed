// SPDX-License-Identifier: GPL-2.0
/*
 * One stack, walked twice: by kunwind (its public callback API) and by
 * the kernel's ORC unwinder, the oracle, driven exactly as
 * arch_stack_walk() drives it (the exported __unwind_start(),
 * unwind_next_frame() and unwind_get_return_address(): stack_trace_save_regs()
 * itself is not exported).  Then the two traces are compared frame for
 * frame.
 *
 * The comparison is exact: same return addresses, same number of frames,
 * both complete or both not.  The known DWARF/ORC differences are not
 * waived by a general tolerance; each is recognised where it happens, by
 * what kunwind reported for that frame, and counted (kt_stats):
 *
 *   - a step kunwind could not make from a table (entry assembly has no
 *     DWARF CFI; a realigned stack whose CFA DWARF gives by an expression;
 *     a runtime-patched site where the CFI no longer fits the code and
 *     the step leaves the stack) is a step of the ORC fallback, flagged
 *     KUNWIND_FRAME_ORC: it must still equal ORC's frame exactly, like
 *     every other frame.  Its reason is established from the table (no
 *     row; a row kunwind does not follow; a row whose step failed), logged
 *     with the function, and counted.
 *
 * Anything else that differs fails the test and prints both traces.
 */
#include <linux/hrtimer.h>
#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sched/task_stack.h>
#include <asm/irq_regs.h>
#include <asm/unwind.h>
#include "unwind/linux/internal.h"
#include "kunwind_test.h"

struct kt_compare_stats kt_stats;

bool kt_trace_add(void *cookie, const struct kunwind_frame *f)
{
	struct kt_trace *t = cookie;

	if (t->n >= KT_MAX_FRAMES)
		return false;
	t->ip[t->n] = f->ip;
	t->sp[t->n] = f->sp;
	t->flags[t->n++] = f->flags;
	return true;
}

static void kt_trace_reset(struct kt_trace *t)
{
	memset(t, 0, sizeof(*t));
}

/* Drop frame 0 (the frame of a function of this file). */
static void drop_first(struct kt_trace *t)
{
	unsigned int i;

	for (i = 1; i < t->n; i++) {
		t->ip[i - 1] = t->ip[i];
		t->sp[i - 1] = t->sp[i];
		t->flags[i - 1] = t->flags[i];
	}
	if (t->n)
		t->n--;
}

/*
 * kunwind_walk(NULL, NULL) starts with the return address into its
 * caller, this function: dropped, so the trace starts in our caller.
 */
noinline void kt_kunwind_here(struct kt_trace *t)
{
	kt_trace_reset(t);
	t->stop = kunwind_walk(NULL, NULL, kt_trace_add, t);
	drop_first(t);
	barrier();	/* no tail call: this frame must exist */
}

/*
 * arch_stack_walk(): unwind_start() with first_frame = our stack pointer
 * skips the frames below ours, so the first address is the return address
 * into our caller, as with stack_trace_save(..., 0).
 */
static void orc_walk(struct kt_trace *t, struct task_struct *task,
		     struct pt_regs *regs)
{
	struct unwind_state state;
	unsigned long addr;

	if (regs)
		t->ip[t->n++] = regs->ip;
	for (unwind_start(&state, task, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || t->n >= KT_MAX_FRAMES)
			break;
		t->ip[t->n++] = addr;
	}
	t->orc_error = unwind_error(&state);
}

noinline void kt_orc_here(struct kt_trace *t)
{
	struct unwind_state state;
	unsigned long addr;

	kt_trace_reset(t);
	/* Inline, not orc_walk(): first_frame must be this frame's sp. */
	for (unwind_start(&state, current, NULL, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || t->n >= KT_MAX_FRAMES)
			break;
		t->ip[t->n++] = addr;
	}
	t->orc_error = unwind_error(&state);
	barrier();
}

void kt_kunwind_regs(struct kt_trace *t, struct pt_regs *regs)
{
	kt_trace_reset(t);
	t->stop = kunwind_walk(NULL, regs, kt_trace_add, t);
}

void kt_orc_regs(struct kt_trace *t, struct pt_regs *regs)
{
	kt_trace_reset(t);
	orc_walk(t, current, regs);
}

void kt_kunwind_task(struct kt_trace *t, struct task_struct *task)
{
	kt_trace_reset(t);
	t->stop = kunwind_walk(task, NULL, kt_trace_add, t);
}

/*
 * The caller holds a reference on task and keeps it asleep, so its stack
 * stays (put_task_stack() is not exported: no try_get_task_stack() here).
 */
void kt_orc_task(struct kt_trace *t, struct task_struct *task)
{
	kt_trace_reset(t);
	orc_walk(t, task, NULL);
}

/*
 * Both traces start in this function, at two call sites: drop that frame
 * from both, so both start with the same return address into our caller.
 */
noinline void kt_both_here(struct kt_trace *kun, struct kt_trace *orc)
{
	kt_kunwind_here(kun);
	kt_orc_here(orc);
	drop_first(kun);
	drop_first(orc);
	barrier();
}

/*
 * kunwind_save() from here: it starts with the return address into this
 * function, dropped, so the trace starts in our caller (kunwind_save()
 * takes its runs of ordinary frames through kunwind_walk_trace()).
 */
noinline void kt_save_here(struct kt_trace *t)
{
	kt_trace_reset(t);
	t->n = kunwind_save(t->ip, KT_MAX_FRAMES, 0, NULL);
	drop_first(t);
	barrier();	/* no tail call: this frame must exist */
}

bool kt_trace_has(const struct kt_trace *t, unsigned long lo, unsigned long hi)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (t->ip[i] >= lo && t->ip[i] < hi)
			return true;
	return false;
}

void kt_print_trace(struct kunit *test, const char *who,
		    const struct kt_trace *t)
{
	unsigned int i;

	kunit_info(test, "%s: %u frames, %s%s\n", who, t->n,
		   t->stop ? kunwind_stop_str(t->stop) : "",
		   t->orc_error ? "ORC error" : "");
	for (i = 0; i < t->n; i++)
		kunit_info(test, "  %2u %lx %s%s%pS\n", i, t->ip[i],
			   t->flags[i] & KUNWIND_FRAME_ORC ? "[orc] " :
			   t->flags[i] & KUNWIND_FRAME_GUESS ? "[guess] " : "",
			   t->flags[i] & KUNWIND_FRAME_RECOVERED ? "[recovered] " : "",
			   (void *)t->ip[i]);
}

struct pt_regs *kt_irq_regs_in(struct hrtimer *t, const char *fn, int *tries,
			       int *ret)
{
	struct pt_regs *regs = get_irq_regs();

	if (regs && !user_mode(regs) && kt_ip_in(regs->ip, fn))
		return regs;
	if (++*tries < 200) {
		hrtimer_forward_now(t, ns_to_ktime(500 * NSEC_PER_USEC));
		*ret = HRTIMER_RESTART;
	} else {
		*ret = HRTIMER_NORESTART;
	}
	return NULL;
}

bool kt_ip_in(unsigned long ip, const char *fn)
{
	char s[KSYM_SYMBOL_LEN];
	size_t n = strlen(fn);

	sprint_symbol_no_offset(s, ip);
	/* "fn", "fn [mod]", "fn.isra.0 [mod]", "fn.cold [mod]" */
	return !strncmp(s, fn, n) &&
	       (s[n] == '\0' || s[n] == ' ' || s[n] == '.');
}

static bool same_function(unsigned long a, unsigned long b)
{
	char *sa = kmalloc(2 * KSYM_SYMBOL_LEN, GFP_KERNEL), *sb;
	bool same;

	if (!sa)
		return false;
	sb = sa + KSYM_SYMBOL_LEN;
	sprint_symbol_no_offset(sa, a);
	sprint_symbol_no_offset(sb, b);
	same = !strcmp(sa, sb);
	kfree(sa);
	return same;
}

/*
 * Why frame i came from the ORC fallback: what the table says of i - 1.
 * Allowed: no row (entry assembly, code without CFI), a row kunwind does
 * not follow (undefined, unsupported), and a tracer's trampoline whose
 * undoing was left to ORC (kunwind.unavailable=); those are counted and
 * listed.  A row that exists
 * and whose step failed is not: that frame would be ORC compared with
 * ORC, proving nothing about the table.  Returns false for it.
 */
static bool orc_reason(struct kunit *test, const char *what,
		       const struct kt_trace *kun, unsigned int i)
{
	unsigned long addr = kun->ip[i - 1];
	struct kunwind_rule r;
	const char *why;

	if (!(kun->flags[i - 1] & KUNWIND_FRAME_REGS))
		addr--;
	kt_stats.orc_frames++;
	/* A gap between FDEs is a row of rule NONE (format.h). */
	if (!kunwind_find_rule(addr, &r) || r.type == KUNWIND_TYPE_NONE) {
		kt_stats.orc_no_row++;
		why = "no table row";
	} else if (kun->flags[i] & KUNWIND_FRAME_RECOVERED) {
		kt_stats.orc_tracer++;
		why = "a tracer's trampoline, undone by ORC";
	} else if (r.type == KUNWIND_TYPE_UNDEFINED ||
		   r.type == KUNWIND_TYPE_UNSUPPORTED) {
		kt_stats.orc_not_followed++;
		why = r.type == KUNWIND_TYPE_UNSUPPORTED ? "its row is unsupported" :
							    "its row is undefined";
	} else {
		kt_stats.orc_step_failed++;
		KUNIT_FAIL(test, "%s: frame %u by the ORC fallback after %pS, whose table row's step failed",
			   what, i, (void *)kun->ip[i - 1]);
		return false;
	}
	kunit_info(test, "%s: frame %u by the ORC fallback after %pS: %s\n",
		   what, i, (void *)kun->ip[i - 1], why);
	return true;
}

unsigned int kt_expect_same_trace(struct kunit *test, const char *what,
				  const struct kt_trace *kun,
				  const struct kt_trace *orc,
				  bool first_same_fn)
{
	unsigned int i, n = min(kun->n, orc->n), bad = 0;
	bool complete_kun = kun->stop == KUNWIND_STOP_END;
	bool complete_orc = !orc->orc_error;

	for (i = 0; i < n; i++) {
		bool same = kun->ip[i] == orc->ip[i] ||
			    (i == 0 && first_same_fn &&
			     same_function(kun->ip[i], orc->ip[i]));

		kt_stats.frames++;
		if (i && (kun->flags[i] & KUNWIND_FRAME_ORC) &&
		    !orc_reason(test, what, kun, i))
			bad++;
		if (!same) {
			KUNIT_FAIL(test, "%s: frame %u: kunwind %pS, ORC %pS",
				   what, i, (void *)kun->ip[i], (void *)orc->ip[i]);
			bad++;
			break;
		}
		if (kun->flags[i] & KUNWIND_FRAME_GUESS) {
			KUNIT_FAIL(test, "%s: frame %u (%pS) is an rbp guess",
				   what, i, (void *)kun->ip[i]);
			bad++;
		}
	}
	if (!bad && kun->n != orc->n) {
		KUNIT_FAIL(test, "%s: kunwind %u frames (%s), ORC %u frames%s",
			   what, kun->n, kunwind_stop_str(kun->stop), orc->n,
			   orc->orc_error ? " (ORC error)" : "");
		bad++;
	}
	if (!bad && complete_kun != complete_orc) {
		KUNIT_FAIL(test, "%s: kunwind %s, ORC %s", what,
			   kunwind_stop_str(kun->stop),
			   complete_orc ? "complete" : "stopped on an error");
		bad++;
	}
	if (bad) {
		kt_stats.differences++;
		kt_print_trace(test, "kunwind", kun);
		kt_print_trace(test, "ORC", orc);
	}
	return n;
}
