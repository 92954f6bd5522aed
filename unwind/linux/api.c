// SPDX-License-Identifier: GPL-2.0
/*
 * The public API (kunwind_api.h), on the kernel walks of kwalk.c.
 *
 * Starting from current.  Each exported entry point captures its own
 * caller's frame (kunwind_caller_frame()): the first frame is the return
 * address into the function that called kunwind_walk(), kunwind_save()
 * ..., as the first entry of stack_trace_save(store, size, 0) is.  So the
 * walk never depends on a table for kunwind.ko itself.
 */
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include "kwalk.h"
#include "print.h"
#include "registry_lookup.h"
#include "symbols.h"

/* ---- walks --------------------------------------------------------- */

/*
 * The callback runs inside the walk's RCU read-side section, with
 * preemption disabled: it must not sleep.  Debug kernels check (a
 * voluntary context switch of the walking task during the callback).
 */
static __kunwind_walk bool call_fn(kunwind_consume_fn fn, void *cookie,
				   const struct kunwind_frame *f)
{
#ifdef CONFIG_DEBUG_ATOMIC_SLEEP
	unsigned long switches = current->nvcsw;
	bool go_on = fn(cookie, f);

	KUNWIND_WARN_ONCE(current->nvcsw != switches,
			  "kunwind_walk() callback %ps slept: it may not",
			  fn);
	return go_on;
#else
	return fn(cookie, f);
#endif
}

/*
 * Report the frames of a started walk to fn and end it.  Returns the stop
 * reason; KUNWIND_STOP_NONE if fn ended the walk.
 */
static __kunwind_walk int walk_frames(struct kunwind_kstate *w, bool first,
				      kunwind_consume_fn fn, void *cookie)
{
	struct kunwind_frame f;
	int stop;

	if (first) {
		do {
			f.ip = w->s.ip;
			f.sp = w->s.sp;
			f.bp = w->s.bp;
			f.flags = w->frame_flags;
			f.fallback = w->fallback;
			if (!call_fn(fn, cookie, &f))
				break;
		} while (kunwind_walk_next(w));
	}
	stop = w->s.stop;
	kunwind_walk_end(w);
	return stop;
}

/*
 * Start w from regs, from the current task (the frame of the exported
 * function that inlines this: its caller is the first frame) or from a
 * sleeping task.
 */
static __kunwind_walk __always_inline bool
start_walk(struct kunwind_kstate *w, struct task_struct *task,
	   struct pt_regs *regs)
{
	unsigned long ip, sp, bp;
	bool called;

	if (regs)
		return kunwind_walk_start_regs(w, regs);
	if (!task || task == current) {
		/* the arch header's: the caller's frame, or this one's */
		kunwind_caller_frame(ip, sp, bp, called);
		if (called)
			return kunwind_walk_start(w, current, ip, sp, bp, true);
		return kunwind_walk_start_here(w, ip, sp, bp);
	}
	return kunwind_walk_start_task(w, task);
}

__kunwind_walk noinline int
kunwind_walk(struct task_struct *task, struct pt_regs *regs,
	     kunwind_consume_fn fn, void *cookie)
{
	struct kunwind_kstate w __uninitialized;	/* walk_init() */
	bool first = start_walk(&w, task, regs);

	return walk_frames(&w, first, fn, cookie);
}
EXPORT_SYMBOL_GPL(kunwind_walk);

__kunwind_walk noinline int kunwind_save_frames(struct task_struct *task,
						struct pt_regs *regs,
						struct kunwind_frame *store,
						unsigned int size, unsigned int *nr)
{
	struct kunwind_kstate w __uninitialized;	/* walk_init() */
	unsigned int n = 0;
	bool more = start_walk(&w, task, regs);
	int stop;

	for (; more && n < size; more = kunwind_walk_next(&w)) {
		store[n].ip = w.s.ip;
		store[n].sp = w.s.sp;
		store[n].bp = w.s.bp;
		store[n].flags = w.frame_flags;
		store[n].fallback = w.fallback;
		n++;
	}
	stop = more ? KUNWIND_STOP_NONE : w.s.stop;
	kunwind_walk_end(&w);
	*nr = n;
	return stop;
}
EXPORT_SYMBOL_GPL(kunwind_save_frames);

struct save_args {
	unsigned long *store;
	unsigned int size, skip, len;
	bool nosched;
};

static __kunwind_walk bool save_frame(void *cookie, const struct kunwind_frame *f)
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

/*
 * save_frame() on every frame of a started walk, and end it; but where no
 * frame is filtered, the frames after the skipped ones in runs
 * (kunwind_walk_trace()).
 */
static __kunwind_walk void save_walk(struct kunwind_kstate *w, bool first,
				     struct save_args *a,
				     struct kunwind_steps *steps)
{
	if (!first || a->nosched) {
		walk_frames(w, first, save_frame, a);
		goto out;
	}
	while (a->skip) {
		a->skip--;
		if (!kunwind_walk_next(w))
			goto end;
	}
	a->len = kunwind_walk_trace(w, a->store, a->size);
end:
	kunwind_walk_end(w);
out:
	if (steps)
		*steps = w->steps;
}

/* No room: no walk, no step. */
static __kunwind_walk unsigned int save_none(struct kunwind_steps *steps)
{
	if (steps)
		memset(steps, 0, sizeof(*steps));
	return 0;
}

__kunwind_walk noinline unsigned int
kunwind_save(unsigned long *store, unsigned int size, unsigned int skip,
	     struct kunwind_steps *steps)
{
	struct save_args a = { store, size, skip, 0 };
	struct kunwind_kstate w __uninitialized;	/* walk_init() */

	if (!size)
		return save_none(steps);
	save_walk(&w, start_walk(&w, NULL, NULL), &a, steps);
	return a.len;
}
EXPORT_SYMBOL_GPL(kunwind_save);

__kunwind_walk unsigned int kunwind_save_regs(struct pt_regs *regs,
					      unsigned long *store,
					      unsigned int size,
					      unsigned int skip,
					      struct kunwind_steps *steps)
{
	struct save_args a = { store, size, skip, 0 };
	struct kunwind_kstate w __uninitialized;	/* walk_init() */

	if (!size)
		return save_none(steps);
	save_walk(&w, kunwind_walk_start_regs(&w, regs), &a, steps);
	return a.len;
}
EXPORT_SYMBOL_GPL(kunwind_save_regs);

/* Like stack_trace_save_tsk(): without scheduler and lock functions. */
__kunwind_walk noinline unsigned int
kunwind_save_tsk(struct task_struct *task, unsigned long *store,
		 unsigned int size, unsigned int skip,
		 struct kunwind_steps *steps)
{
	struct save_args a = { store, size, skip, 0, true };
	struct kunwind_kstate w __uninitialized;	/* walk_init() */

	if (!size)
		return save_none(steps);
	save_walk(&w, start_walk(&w, task, NULL), &a, steps);
	return a.len;
}
EXPORT_SYMBOL_GPL(kunwind_save_tsk);

/* ---- printing ------------------------------------------------------ */

struct show_args {
	struct kunwind_kstate *w;
	const struct kunwind_print *p;
	const char *stack;	/* name of the stack being printed */
	unsigned int skip;	/* frames still to leave out */
	unsigned int printed;
};

/*
 * printk("%s...", loglvl) as dump_stack() does: vprintk() takes the level
 * from the formatted text (and, in NMI, defers the console output).
 */
static __kunwind_walk __printf(1, 2) void show_line(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
}

/*
 * One line a frame, as show_trace_log_lvl() prints them: "? " for a
 * guess, %pB for a return address (symbolised at ip - 1), and for the ip
 * of a register or iret frame, exact, the kernel's "RIP: cs:%pS" line
 * (kernel mode: a user-mode frame ends the walk before it is reported,
 * so cs is __KERNEL_CS; arm64's is " pc : %pS").  kunwind adds "(orc)"
 * where the ORC fallback made the step (arm64: "(fp)", the frame-record
 * one), and brackets the stacks like dump_stack(): <IRQ> ... </IRQ>
 * <TASK>.
 */
static __kunwind_walk bool show_frame(void *cookie, const struct kunwind_frame *f)
{
	struct show_args *a = cookie;
	const char *lvl = a->p->loglvl;
	const char *stack;
	const char *orc = f->flags & KUNWIND_FRAME_ORC ? KUNWIND_FALLBACK_TAG : "";

	if (a->skip) {
		a->skip--;
		return true;
	}
	if (a->printed == a->p->max)
		return false;
	a->printed++;
	stack = kunwind_walk_stack_name(a->w, f->sp);
	if (stack != a->stack) {
		if (a->stack)
			show_line("%s </%s>\n", lvl, a->stack);
		show_line("%s <%s>\n", lvl, stack);
		a->stack = stack;
	}
	if (f->flags & KUNWIND_FRAME_GUESS)
		show_line("%s ? %pBb%s\n", lvl, (void *)f->ip, orc);
	else if (f->flags & KUNWIND_FRAME_REGS)
		show_line(KUNWIND_REGS_LINE(lvl, f->ip, orc));
	else
		show_line("%s %pBb%s\n", lvl, (void *)f->ip, orc);
	return true;
}

/*
 * The one printer: header, frames, how the walk ended, its steps.  Every
 * line but the frames starts "kunwind: ".
 */
static __kunwind_walk unsigned int show_walk(struct kunwind_kstate *w, bool first,
					     const struct kunwind_print *p)
{
	struct show_args a = { w, p, NULL, p->skip, 0 };
	struct task_struct *task = w->task;
	const char *lvl = p->loglvl;
	int stop;

	show_line("%skunwind: Call Trace%s%s (CPU: %d PID: %d Comm: %.20s):\n",
		  lvl, p->what ? " of the " : "", p->what ? p->what : "",
		  raw_smp_processor_id(), task_pid_nr(task), task->comm);
	stop = walk_frames(w, first, show_frame, &a);
	if (a.stack)
		show_line("%s </%s>\n", lvl, a.stack);
	if (stop == KUNWIND_STOP_END)
		show_line("%skunwind: walk complete\n", lvl);
	else if (stop == KUNWIND_STOP_NONE)
		show_line("%skunwind: walk stopped: %u frames printed, the most asked for\n",
			  lvl, a.printed);
	else
		show_line("%skunwind: walk stopped: %s\n", lvl,
			  kunwind_stop_str(stop));
	show_line(
		"%skunwind: steps: %u by tables, %u by the " KUNWIND_FALLBACK_NAME " fallback (no table %u, no row %u, row step failed %u, tracer helper missing %u), %u tracer return addresses undone\n",
		lvl, w->steps.tables, kunwind_steps_fallback(&w->steps),
		w->steps.fallback[KUNWIND_FALLBACK_NO_TABLE],
		w->steps.fallback[KUNWIND_FALLBACK_NO_ROW],
		w->steps.fallback[KUNWIND_FALLBACK_STEP_FAILED],
		w->steps.fallback[KUNWIND_FALLBACK_TRACER],
		w->nr_recovered);
	return a.printed;
}

/*
 * For oops.c: print current's stack from regs, or (regs NULL) from the
 * function that calls this, leaving out p->skip frames.
 */
__kunwind_walk noinline unsigned int
kunwind_print_trace(struct pt_regs *regs, const struct kunwind_print *p)
{
	struct kunwind_kstate w __uninitialized;	/* walk_init() */

	return show_walk(&w, start_walk(&w, NULL, regs), p);
}
EXPORT_SYMBOL_GPL(kunwind_print_trace);

__kunwind_walk noinline void
kunwind_show_stack(struct task_struct *task, struct pt_regs *regs,
		   const char *loglvl)
{
	struct kunwind_print p = { .loglvl = loglvl ? loglvl : KERN_DEFAULT,
				   .max = KUNWIND_MAX_DEPTH };
	struct kunwind_kstate w __uninitialized;	/* walk_init() */

	show_walk(&w, start_walk(&w, task, regs), &p);
}
EXPORT_SYMBOL_GPL(kunwind_show_stack);

__kunwind_walk noinline void kunwind_dump_stack(void)
{
	struct kunwind_print p = { .loglvl = KERN_DEFAULT,
				   .max = KUNWIND_MAX_DEPTH };
	struct kunwind_kstate w __uninitialized;	/* walk_init() */

	show_walk(&w, start_walk(&w, NULL, NULL), &p);
}
EXPORT_SYMBOL_GPL(kunwind_dump_stack);

/* ---- addresses ------------------------------------------------------ */

unsigned int kunwind_addr_info(unsigned long addr)
{
	struct kunwind_rule rule;
	unsigned int info = 0;

	if (kunwind_text_address(addr))
		info |= KUNWIND_ADDR_TEXT;
	if (kunwind_find_rule(addr, &rule)) {
		info |= KUNWIND_ADDR_TABLE;
		if (rule.type == KUNWIND_TYPE_CALL)
			info |= KUNWIND_ADDR_CALL;
	}
	if (addr && (addr == kunwind_sym.return_to_handler ||
		     addr == kunwind_sym.rethook_trampoline))
		info |= KUNWIND_ADDR_TRAMPOLINE;
	return info;
}
EXPORT_SYMBOL_GPL(kunwind_addr_info);
