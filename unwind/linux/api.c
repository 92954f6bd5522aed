// SPDX-License-Identifier: GPL-2.0
/*
 * The public API (kunwind_api.h), the walk counters, and the exports of
 * the freestanding core for the KUnit suites.
 *
 * Starting from current.  Each exported entry point captures its own
 * caller's frame (kunwind_caller_frame()): the first frame is the return
 * address into the function that called kunwind_walk(), kunwind_save()
 * ..., as the first entry of stack_trace_save(store, size, 0) is.  So the
 * walk never depends on a table for kunwind.ko itself.
 */
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include "internal.h"

/* ---- counters ------------------------------------------------------ */

static DEFINE_PER_CPU(unsigned long [KUNWIND_CNT_NR], kunwind_counters);

static const char * const counter_names[KUNWIND_CNT_STOP] = {
	[KUNWIND_CNT_WALKS]	 = "walks",
	[KUNWIND_CNT_FRAMES]	 = "frames",
	[KUNWIND_CNT_ORC]	 = "orc_fallback_steps",
	[KUNWIND_CNT_ORC_FAILED] = "orc_fallback_failed",
};

/* this_cpu_add() is one instruction on x86: safe in NMI. */
void kunwind_count(enum kunwind_counter c, unsigned long n)
{
	if (c < KUNWIND_CNT_NR)
		this_cpu_add(kunwind_counters[c], n);
}
EXPORT_SYMBOL_GPL(kunwind_count);

unsigned long kunwind_counter_read(enum kunwind_counter c)
{
	unsigned long sum = 0;
	int cpu;

	if (c >= KUNWIND_CNT_NR)
		return 0;
	for_each_possible_cpu(cpu)
		sum += per_cpu(kunwind_counters, cpu)[c];
	return sum;
}
EXPORT_SYMBOL_GPL(kunwind_counter_read);

/* "walks", ..., then "stop:<reason>" for the stop counters. */
const char *kunwind_counter_name(enum kunwind_counter c)
{
	if (c < KUNWIND_CNT_STOP)
		return counter_names[c];
	if (c < KUNWIND_CNT_NR)
		return kunwind_stop_str(c - KUNWIND_CNT_STOP);
	return "?";
}
EXPORT_SYMBOL_GPL(kunwind_counter_name);

/* ---- walks --------------------------------------------------------- */

/*
 * Report the frames of a started walk to fn and end it.  Returns the stop
 * reason; KUNWIND_STOP_NONE if fn ended the walk.
 */
static int walk_frames(struct kunwind_walk *w, bool first,
		       kunwind_consume_fn fn, void *cookie)
{
	struct kunwind_frame f;
	unsigned long n = 0;
	int stop;

	if (first) {
		do {
			f.ip = w->s.ip;
			f.sp = w->s.sp;
			f.bp = w->s.bp;
			f.flags = w->frame_flags;
			n++;
			if (!fn(cookie, &f))
				break;
		} while (kunwind_walk_next(w));
	}
	stop = w->s.stop;
	kunwind_count(KUNWIND_CNT_FRAMES, n);
	kunwind_walk_end(w);
	return stop;
}

/*
 * Start w from regs, from the current task (the frame of the exported
 * function that inlines this: its caller is the first frame) or from a
 * sleeping task.
 */
static __always_inline bool start_walk(struct kunwind_walk *w,
				       struct task_struct *task,
				       struct pt_regs *regs)
{
	unsigned long ip, sp, bp;

	if (regs)
		return kunwind_walk_start_regs(w, regs);
	if (!task || task == current) {
		kunwind_caller_frame(ip, sp, bp);
		return kunwind_walk_start(w, current, ip, sp, bp, true);
	}
	return kunwind_walk_start_task(w, task);
}

noinline int kunwind_walk(struct task_struct *task, struct pt_regs *regs,
			  kunwind_consume_fn fn, void *cookie)
{
	struct kunwind_walk w;
	bool first = start_walk(&w, task, regs);

	return walk_frames(&w, first, fn, cookie);
}
EXPORT_SYMBOL_GPL(kunwind_walk);

struct save_args {
	unsigned long *store;
	unsigned int size, skip, len;
	bool nosched;
};

static bool save_frame(void *cookie, const struct kunwind_frame *f)
{
	struct save_args *a = cookie;

	if (a->nosched && kunwind_in_sched_functions(f->ip))
		return true;
	if (a->skip) {
		a->skip--;
		return true;
	}
	a->store[a->len++] = f->ip;
	return a->len < a->size;
}

noinline unsigned int kunwind_save(unsigned long *store, unsigned int size,
				   unsigned int skip)
{
	struct save_args a = { store, size, skip, 0 };
	struct kunwind_walk w;
	unsigned long ip, sp, bp;

	if (!size)
		return 0;
	kunwind_caller_frame(ip, sp, bp);
	walk_frames(&w, kunwind_walk_start(&w, current, ip, sp, bp, true),
		    save_frame, &a);
	return a.len;
}
EXPORT_SYMBOL_GPL(kunwind_save);

unsigned int kunwind_save_regs(struct pt_regs *regs, unsigned long *store,
			       unsigned int size, unsigned int skip)
{
	struct save_args a = { store, size, skip, 0 };
	struct kunwind_walk w;

	if (!size)
		return 0;
	walk_frames(&w, kunwind_walk_start_regs(&w, regs), save_frame, &a);
	return a.len;
}
EXPORT_SYMBOL_GPL(kunwind_save_regs);

/* Like stack_trace_save_tsk(): without scheduler and lock functions. */
noinline unsigned int kunwind_save_tsk(struct task_struct *task,
				       unsigned long *store,
				       unsigned int size, unsigned int skip)
{
	struct save_args a = { store, size, skip, 0, true };
	struct kunwind_walk w;
	unsigned long ip, sp, bp;
	bool first;

	if (!size)
		return 0;
	if (!task || task == current) {
		kunwind_caller_frame(ip, sp, bp);
		first = kunwind_walk_start(&w, current, ip, sp, bp, true);
	} else {
		first = kunwind_walk_start_task(&w, task);
	}
	walk_frames(&w, first, save_frame, &a);
	return a.len;
}
EXPORT_SYMBOL_GPL(kunwind_save_tsk);

/* ---- printing ------------------------------------------------------ */

struct show_args {
	struct kunwind_walk *w;
	const char *loglvl;
	const char *stack;	/* name of the stack being printed */
};

/*
 * printk("%s...", loglvl) as dump_stack() does: vprintk() takes the level
 * from the formatted text (and, in NMI, defers the console output).
 */
static __printf(1, 2) void show_line(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
}

/*
 * One line a frame, as show_trace_log_lvl() prints them: "? " for a
 * guess, %pB for a return address (symbolised at ip - 1), %pS for an
 * exact ip; kunwind adds "(orc)" where the ORC fallback made the step,
 * and brackets the stacks like dump_stack(): <IRQ> ... </IRQ> <TASK>.
 */
static bool show_frame(void *cookie, const struct kunwind_frame *f)
{
	struct show_args *a = cookie;
	const char *stack = kunwind_walk_stack_name(a->w, f->sp);
	const char *orc = f->flags & KUNWIND_FRAME_ORC ? " (orc)" : "";
	const char *guess = f->flags & KUNWIND_FRAME_GUESS ? "? " : "";

	if (stack != a->stack) {
		if (a->stack)
			show_line("%s </%s>\n", a->loglvl, a->stack);
		show_line("%s <%s>\n", a->loglvl, stack);
		a->stack = stack;
	}
	if (f->flags & KUNWIND_FRAME_REGS)
		show_line("%s %s%pSb%s\n", a->loglvl, guess, (void *)f->ip, orc);
	else
		show_line("%s %s%pBb%s\n", a->loglvl, guess, (void *)f->ip, orc);
	return true;
}

static void show_walk(struct kunwind_walk *w, bool first, const char *loglvl)
{
	struct show_args a = { w, loglvl, NULL };
	struct task_struct *task = w->task;
	int stop;

	show_line("%skunwind: Call Trace (CPU: %d PID: %d Comm: %.20s):\n",
	       loglvl, raw_smp_processor_id(), task_pid_nr(task), task->comm);
	stop = walk_frames(w, first, show_frame, &a);
	if (a.stack)
		show_line("%s </%s>\n", loglvl, a.stack);
	if (stop != KUNWIND_STOP_END)
		show_line("%skunwind: walk stopped: %s\n", loglvl,
		       kunwind_stop_str(stop));
}

noinline void kunwind_show_stack(struct task_struct *task,
				 struct pt_regs *regs, const char *loglvl)
{
	struct kunwind_walk w;
	bool first = start_walk(&w, task, regs);

	show_walk(&w, first, loglvl ? loglvl : KERN_DEFAULT);
}
EXPORT_SYMBOL_GPL(kunwind_show_stack);

noinline void kunwind_dump_stack(void)
{
	struct kunwind_walk w;
	unsigned long ip, sp, bp;

	kunwind_caller_frame(ip, sp, bp);
	show_walk(&w, kunwind_walk_start(&w, current, ip, sp, bp, true),
		  KERN_DEFAULT);
}
EXPORT_SYMBOL_GPL(kunwind_dump_stack);

/* ---- the freestanding core, for kunit/ ----------------------------- */

/*
 * lookup.c and walk.c include no kernel header, so their exports are
 * here; each is redeclared on the line before (typeof keeps it the
 * declaration of unwind/kunwind.h) so the export follows a declaration.
 */
typeof(kunwind_table_check) kunwind_table_check;
EXPORT_SYMBOL_GPL(kunwind_table_check);
typeof(kunwind_bad_str) kunwind_bad_str;
EXPORT_SYMBOL_GPL(kunwind_bad_str);
typeof(kunwind_find_seg) kunwind_find_seg;
EXPORT_SYMBOL_GPL(kunwind_find_seg);
typeof(__kunwind_find) __kunwind_find;
EXPORT_SYMBOL_GPL(__kunwind_find);
typeof(kunwind_find) kunwind_find;
EXPORT_SYMBOL_GPL(kunwind_find);
typeof(kunwind_row_iter_init) kunwind_row_iter_init;
EXPORT_SYMBOL_GPL(kunwind_row_iter_init);
typeof(kunwind_row_next) kunwind_row_next;
EXPORT_SYMBOL_GPL(kunwind_row_next);
typeof(kunwind_stop_str) kunwind_stop_str;
EXPORT_SYMBOL_GPL(kunwind_stop_str);
typeof(kunwind_start) kunwind_start;
EXPORT_SYMBOL_GPL(kunwind_start);
typeof(kunwind_next) kunwind_next;
EXPORT_SYMBOL_GPL(kunwind_next);
typeof(kunwind_enter_stack) kunwind_enter_stack;
EXPORT_SYMBOL_GPL(kunwind_enter_stack);
