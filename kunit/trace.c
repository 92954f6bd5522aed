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
 *     every other frame.  Whether the step was allowed to fall back is
 *     decided from the tables read without the registry the walk used
 *     (oracle.c): no table, no row, a row kunwind does not follow are
 *     allowed, logged with the function and counted; a row kunwind
 *     follows fails (orc_reason()).
 *
 * Anything else that differs fails the test and prints both traces.
 *
 * On arm64 the oracle is the kernel's frame-record walk, through
 * stack_trace_save(), _tsk() and _regs() (the #else of the ORC walk
 * below), and kunwind's fallback is a step by the frame record, flagged
 * the same (KUNWIND_FRAME_ORC): "ORC" in the names and comments of the
 * suites means the kernel's walk, or kunwind's fallback.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <asm/irq_regs.h>
#ifdef CONFIG_X86_64
#include <asm/unwind.h>
#endif
#include "unwind/linux/symbols.h"
#include "arch.h"
#include "oracle.h"
#include "trace.h"

struct kt_compare_stats kt_stats;

bool kt_trace_add(void *cookie, const struct kunwind_frame *f)
{
	struct kt_trace *t = cookie;

	if (t->n >= KT_MAX_FRAMES)
		return false;
	t->ip[t->n] = f->ip;
	t->sp[t->n] = f->sp;
	t->bp[t->n] = f->bp;
	t->fallback[t->n] = f->flags & KUNWIND_FRAME_ORC ? f->fallback : 0;
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
		t->bp[i - 1] = t->bp[i];
		t->flags[i - 1] = t->flags[i];
		t->fallback[i - 1] = t->fallback[i];
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

#ifdef CONFIG_X86_64
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

void kt_orc_regs(struct kt_trace *t, struct pt_regs *regs)
{
	kt_trace_reset(t);
	orc_walk(t, current, regs);
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

#elif defined(CONFIG_ARM64)
/*
 * arm64: the kernel's own walk is arch/arm64/kernel/stacktrace.c's, by
 * frame records, through the interfaces the kernel's users call.  It
 * reports no error (arch_stack_walk() drops its walk's), so orc_error
 * stays false and only kunwind's stop is checked for completeness: the
 * comparisons that use these (kt_expect_same_trace()) are of walks the
 * frame records get right, called frames, not an interrupted one that
 * had not saved its record (kunwind_arm64 compares those).
 *
 * stack_trace_save(..., 1) skips this function's frame: the trace starts
 * with the return address into our caller, as the ORC walk's does.
 */
noinline void kt_orc_here(struct kt_trace *t)
{
	kt_trace_reset(t);
	t->n = stack_trace_save(t->ip, KT_MAX_FRAMES, 1);
	barrier();	/* no tail call: this frame must exist */
}

/*
 * stack_trace_save_regs() is not exported: kunwind.ko resolves it by
 * name (kunwind_sym, as for the profiler's self-check), and it is called
 * through that pointer, the kernel's own function all the same.  Without
 * it the oracle has no frame, and every comparison fails.
 */
unsigned int kt_kernel_save_regs(struct pt_regs *regs, unsigned long *store,
				 unsigned int size)
{
	if (!kunwind_sym.stack_trace_save_regs)
		return 0;
	return kunwind_sym.stack_trace_save_regs(regs, store, size, 0);
}

void kt_orc_regs(struct kt_trace *t, struct pt_regs *regs)
{
	kt_trace_reset(t);
	t->n = kt_kernel_save_regs(regs, t->ip, KT_MAX_FRAMES);
}

/*
 * As on x86: the caller keeps task asleep, with a reference.  The
 * kernel's stack_trace_save_tsk() leaves out the scheduler's frames
 * (in_sched_functions()), which lead a sleeping task's stack: so does
 * kt_kunwind_task() here (kunwind_in_sched_functions()).
 */
void kt_orc_task(struct kt_trace *t, struct task_struct *task)
{
	kt_trace_reset(t);
	t->n = stack_trace_save_tsk(task, t->ip, KT_MAX_FRAMES, 0);
}
#else
#error "kunit/trace.c: no oracle for this architecture"
#endif

void kt_kunwind_regs(struct kt_trace *t, struct pt_regs *regs)
{
	kt_trace_reset(t);
	t->stop = kunwind_walk(NULL, regs, kt_trace_add, t);
}

void kt_kunwind_task(struct kt_trace *t, struct task_struct *task)
{
	kt_trace_reset(t);
	t->stop = kunwind_walk(task, NULL, kt_trace_add, t);
	/* arm64's oracle has no scheduler frames (kt_orc_task()) */
	while (IS_ENABLED(CONFIG_ARM64) && t->n &&
	       kunwind_in_sched_functions(t->ip[0]))
		drop_first(t);
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
	t->n = kunwind_save(t->ip, KT_MAX_FRAMES, 0, &t->steps);
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
		   t->orc_error ? KT_ORACLE " error" : "");
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

	if (regs && !user_mode(regs) && kt_ip_in(instruction_pointer(regs), fn))
		return regs;
	if (++*tries < 200) {
		hrtimer_forward_now(t, ns_to_ktime(500 * NSEC_PER_USEC));
		*ret = HRTIMER_RESTART;
	} else {
		*ret = HRTIMER_NORESTART;
	}
	return NULL;
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
 * The fallback reason the tables give a step out of addr, as the oracle
 * found them: no table, a gap or an undefined row (no row: the walk
 * tries no rule there), an unsupported row (a CFA expression kunwind
 * does not interpret: its step fails).  KUNWIND_FALLBACK_NR for a row
 * kunwind follows: no fallback step is due there.
 */
static unsigned int cover_reason(enum kt_cover c, const struct kt_cover_info *ci)
{
	switch (c) {
	case KT_COVER_NO_TABLE:
		return KUNWIND_FALLBACK_NO_TABLE;
	case KT_COVER_GAP:
		return KUNWIND_FALLBACK_NO_ROW;
	case KT_COVER_NOT_FOLLOWED:
		return ci->rule.type == KUNWIND_TYPE_UNSUPPORTED ?
		       KUNWIND_FALLBACK_STEP_FAILED : KUNWIND_FALLBACK_NO_ROW;
	default:
		return KUNWIND_FALLBACK_NR;
	}
}

/*
 * Frame i came from the ORC fallback, for the reason the walk gave
 * (struct kunwind_frame.fallback): is it the truth?  The oracle
 * (oracle.c) finds the table of the address that step was from (frame
 * i - 1's; a return address minus one) without the registry the walk
 * looked it up in, and must give the same reason (cover_reason()): no
 * table describes that text (BPF, ftrace's trampolines, a module without
 * the opt-in, vmlinux without its table), its table has no row there (a
 * gap: entry assembly, code without CFI; or an undefined row), its row
 * is unsupported (a DRAP prologue's CFA expression).  A tracer's
 * trampoline whose undoing was left to ORC (kunwind.unavailable=) must
 * be flagged so.  Anything else fails: a row kunwind follows (a fallback
 * there is ORC compared with ORC, proving nothing about the table), a
 * reason the tables do not give, an oracle that cannot tell.  Counted
 * and logged either way; returns false for a failure.
 */
static bool orc_reason(struct kunit *test, const char *what,
		       const struct kt_trace *kun, unsigned int i)
{
	unsigned long addr = kun->ip[i - 1];
	unsigned int why = kun->fallback[i], due;
	struct kt_cover_info ci;
	const char *detail;
	enum kt_cover c;

	if (!(kun->flags[i - 1] & KUNWIND_FRAME_REGS))
		addr--;
	c = kt_cover(addr, &ci);
	kt_stats.orc_frames++;
	kt_stats.reason[min(why, (unsigned int)KUNWIND_FALLBACK_NR - 1)]++;
	if (c == KT_COVER_UNKNOWN) {
		kt_stats.cover[c]++;
		KUNIT_FAIL(test, "%s: frame %u by the " KT_FALLBACK " fallback (%s) after %pS: the oracle cannot tell which table describes it: %s: %s",
			   what, i, kunwind_fallback_str(why),
			   (void *)kun->ip[i - 1], ci.table, ci.why);
		return false;
	}
	if (why == KUNWIND_FALLBACK_TRACER) {
		kt_stats.orc_tracer++;
		if (!(kun->flags[i] & KUNWIND_FRAME_RECOVERED)) {
			KUNIT_FAIL(test, "%s: frame %u by the " KT_FALLBACK " fallback (%s) after %pS, but no trampoline was undone",
				   what, i, kunwind_fallback_str(why),
				   (void *)kun->ip[i - 1]);
			return false;
		}
		kunit_info(test, "%s: frame %u by the " KT_FALLBACK " fallback after %pS: %s, the trampoline undone by " KT_FALLBACK " (%s: %s)\n",
			   what, i, (void *)kun->ip[i - 1],
			   kunwind_fallback_str(why), ci.table, kt_cover_str(c));
		return true;
	}
	kt_stats.cover[c]++;
	due = cover_reason(c, &ci);
	if (c == KT_COVER_ROW) {
		KUNIT_FAIL(test, "%s: frame %u by the " KT_FALLBACK " fallback (%s) after %pS, where %s's table (%s) has a row kunwind follows (type %u, reg %u, cfa %d)",
			   what, i, kunwind_fallback_str(why),
			   (void *)kun->ip[i - 1], ci.table, ci.seg,
			   ci.rule.type, ci.rule.reg, ci.rule.cfa_off);
		return false;
	}
	if (c == KT_COVER_NOT_FOLLOWED)
		detail = ci.rule.type == KUNWIND_TYPE_UNSUPPORTED ? "unsupported" :
								    "undefined";
	else
		detail = c == KT_COVER_NO_TABLE ? ci.why : ci.seg;
	if (why != due) {
		KUNIT_FAIL(test, "%s: frame %u by the " KT_FALLBACK " fallback after %pS: the walk says %s, the tables say %s (%s: %s)",
			   what, i, (void *)kun->ip[i - 1],
			   kunwind_fallback_str(why), kt_cover_str(c), ci.table,
			   detail);
		return false;
	}
	kunit_info(test, "%s: frame %u by the " KT_FALLBACK " fallback after %pS: %s (%s: %s)\n",
		   what, i, (void *)kun->ip[i - 1], kunwind_fallback_str(why),
		   ci.table, detail);
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
		if (i && !(kun->flags[i] & KUNWIND_FRAME_ORC))
			kt_stats.table_steps++;
		if (i && (kun->flags[i] & KUNWIND_FRAME_ORC) &&
		    !orc_reason(test, what, kun, i))
			bad++;
		if (!same) {
			KUNIT_FAIL(test, "%s: frame %u: kunwind %pS, " KT_ORACLE " %pS",
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
		KUNIT_FAIL(test, "%s: kunwind %u frames (%s), " KT_ORACLE " %u frames%s",
			   what, kun->n, kunwind_stop_str(kun->stop), orc->n,
			   orc->orc_error ? " (" KT_ORACLE " error)" : "");
		bad++;
	}
	if (!bad && complete_kun != complete_orc) {
		KUNIT_FAIL(test, "%s: kunwind %s, " KT_ORACLE " %s", what,
			   kunwind_stop_str(kun->stop),
			   complete_orc ? "complete" : "stopped on an error");
		bad++;
	}
	if (bad) {
		kt_stats.differences++;
		kt_print_trace(test, "kunwind", kun);
		kt_print_trace(test, KT_ORACLE, orc);
	}
	return n;
}

/* kt_stats when the current case began (cases run one at a time). */
static struct kt_compare_stats kt_case_start;

int kt_steps_init(struct kunit *test)
{
	kt_case_start = kt_stats;
	return 0;
}

void kt_steps_exit(struct kunit *test)
{
	const struct kt_compare_stats *a = &kt_case_start, *b = &kt_stats;

#define KT_D(f)	(b->f - a->f)
	if (!KT_D(frames))
		return;
	kunit_info(test, "steps compared: %lu by tables, %lu by the " KT_FALLBACK " fallback (no table %lu, no row %lu, row step failed %lu, tracer helper missing %lu); the tables, read without the registry, say: no table %lu, no row %lu, a row kunwind does not follow %lu, a row kunwind follows %lu, unknown %lu\n",
		   KT_D(table_steps), KT_D(orc_frames),
		   KT_D(reason[KUNWIND_FALLBACK_NO_TABLE]),
		   KT_D(reason[KUNWIND_FALLBACK_NO_ROW]),
		   KT_D(reason[KUNWIND_FALLBACK_STEP_FAILED]),
		   KT_D(reason[KUNWIND_FALLBACK_TRACER]),
		   KT_D(cover[KT_COVER_NO_TABLE]), KT_D(cover[KT_COVER_GAP]),
		   KT_D(cover[KT_COVER_NOT_FOLLOWED]), KT_D(cover[KT_COVER_ROW]),
		   KT_D(cover[KT_COVER_UNKNOWN]));
#undef KT_D
}

void kt_expect_save_steps(struct kunit *test, const char *what,
			  const unsigned long *store, unsigned int n,
			  bool first_exact, const struct kunwind_steps *steps)
{
	unsigned int due[KUNWIND_FALLBACK_NR + 1] = { 0 }, i, r, all;
	struct kt_cover_info ci;
	enum kt_cover c;

	/*
	 * Built in, kunwind's own code has no table (no vmlinux table): the
	 * steps out of its frames, before the first entry, are the
	 * fallback's, as many as the walk has of them.
	 */
	c = kt_cover((unsigned long)kunwind_save, &ci);
	if (c == KT_COVER_NO_TABLE)
		due[KUNWIND_FALLBACK_NO_TABLE] = KT_MAX_FRAMES;
	for (i = 0; i + 1 < n; i++) {
		c = kt_cover(store[i] - !(i == 0 && first_exact), &ci);
		if (c == KT_COVER_UNKNOWN) {
			KUNIT_FAIL(test, "%s: entry %u (%pS): the oracle cannot tell which table describes it: %s: %s",
				   what, i, (void *)store[i], ci.table, ci.why);
			return;
		}
		due[cover_reason(c, &ci)]++;
	}
	all = steps->tables + kunwind_steps_fallback(steps);
	kunit_info(test, "%s: %u entries; steps: %u by tables, %u by the " KT_FALLBACK " fallback (no table %u, no row %u, row step failed %u, tracer helper missing %u); the tables allow no table %u, no row %u, row step failed %u\n",
		   what, n, steps->tables, kunwind_steps_fallback(steps),
		   steps->fallback[KUNWIND_FALLBACK_NO_TABLE],
		   steps->fallback[KUNWIND_FALLBACK_NO_ROW],
		   steps->fallback[KUNWIND_FALLBACK_STEP_FAILED],
		   steps->fallback[KUNWIND_FALLBACK_TRACER],
		   due[KUNWIND_FALLBACK_NO_TABLE], due[KUNWIND_FALLBACK_NO_ROW],
		   due[KUNWIND_FALLBACK_STEP_FAILED]);
	KUNIT_EXPECT_GE_MSG(test, all + 1, n,
			    "%s: %u entries, but the walk took %u steps", what,
			    n, all);
	for (r = 0; r < KUNWIND_FALLBACK_NR; r++)
		KUNIT_EXPECT_LE_MSG(test, steps->fallback[r], due[r],
				    "%s: %u steps by the " KT_FALLBACK " fallback for %s, where the tables give that reason to %u of the entries",
				    what, steps->fallback[r],
				    kunwind_fallback_str(r), due[r]);
}

/* ---- a sleeping kthread ---- */

static noinline void sleeper_bottom(struct kt_sleeper *s)
{
	complete(&s->parked);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	s->sink++;
}

static noinline void sleeper_recurse(struct kt_sleeper *s, int depth)
{
	if (depth > 0)
		sleeper_recurse(s, depth - 1);
	else
		sleeper_bottom(s);
	s->sink++;
}

static int sleeper_fn(void *arg)
{
	struct kt_sleeper *s = arg;

	sleeper_recurse(s, s->depth);
	return 0;
}

bool kt_wait_asleep(struct task_struct *t)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (!task_is_running(t) && !READ_ONCE(t->on_cpu))
			return true;
		usleep_range(2000, 3000);
	}
	return false;
}

struct task_struct *kt_sleeper_start(struct kunit *test, struct kt_sleeper *s,
				     int depth)
{
	struct task_struct *t;

	init_completion(&s->parked);
	s->depth = depth;
	t = kthread_run(sleeper_fn, s, "kunwind_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	s->task = t;
	wait_for_completion(&s->parked);
	if (!kt_wait_asleep(t)) {
		kt_sleeper_stop(s);
		KUNIT_FAIL(test, "the kthread did not go to sleep");
		return NULL;
	}
	return t;
}

void kt_sleeper_stop(struct kt_sleeper *s)
{
	kthread_stop(s->task);
	put_task_struct(s->task);
	s->task = NULL;
}
