/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel walk (kwalk.c): struct kunwind_kstate, the core walker's
 * state plus what the kernel's ops need, started from registers, from
 * current or from a sleeping task, stepped by tables and by the ORC
 * fallback.  api.c (whose kunwind_walk() is the public walk) and the
 * profiler walk through it.  Exported GPL for the KUnit suites:
 * every function here but the lookup caches' init and exit and
 * kunwind_walk_stack_name().
 */
#ifndef _KUNWIND_KWALK_H
#define _KUNWIND_KWALK_H

#include <linux/types.h>
#include <linux/printk.h>
#include "../kunwind.h"
#include "kunwind_api.h"

struct task_struct;
struct pt_regs;
struct llist_node;

/*
 * The one warning macro for what should never happen at run time (a
 * walk finding an inconsistency that a checked table cannot cause): one
 * line, once per call site, no stack dump, no BUG().  Evaluates to cond.
 * A refused table is not this: it gets one pr_warn() per registration.
 */
#define KUNWIND_WARN_ONCE(cond, fmt, ...)				\
({									\
	bool __kw_cond = !!(cond);					\
	if (unlikely(__kw_cond))					\
		pr_warn_once(fmt "\n", ##__VA_ARGS__);		\
	unlikely(__kw_cond);						\
})

/*
 * The state of one kernel walk, as struct kunwind_state is the core's (and
 * ORC's struct unwind_state the kernel's): that state plus what the
 * kernel's ops need; the ops' ctx is the struct kunwind_kstate.
 * Use: kunwind_walk_start*(); if it returns true, w->s.ip/sp/bp is the
 * first frame (w->frame_flags its KUNWIND_FRAME_* flags); then
 * kunwind_walk_next() until it returns false, each true a new frame; then
 * always kunwind_walk_end().  The walk runs with preemption disabled (an
 * RCU read-side section), from start to end.  w->s.stop says why the
 * walk ended (KUNWIND_STOP_END: complete).
 */
struct kunwind_kstate {
	struct kunwind_state s;
	struct task_struct *task;
	struct pt_regs *regs;		/* the registers a walk started from */
	struct pt_regs *orc_regs;	/* a full register block ORC stepped to (x86) */
	unsigned int frame_flags;	/* KUNWIND_FRAME_* of the current frame */
	unsigned int nr_frames;		/* frames walked, the first included */
	struct kunwind_steps steps;	/* by tables, by the fallback */
	unsigned int fallback;		/* the ORC step's enum kunwind_fallback */
	unsigned int nr_recovered;	/* return addresses undone from tracers */
	int graph_idx;			/* ftrace_graph_ret_addr()'s cursor */
	struct llist_node *rethook_cur;	/* rethook_find_ret_addr()'s cursor */
	bool tracer_lost;		/* a trampoline ret_addr() could not undo */
	bool put_stack;			/* try_get_task_stack() succeeded */
	struct kunwind_walk_cache *cache;	/* this CPU's lookup cache, if taken */
};

/**
 * kunwind_walk_start() - Start a walk from registers.
 * @w:            the walk
 * @task:         whose stacks (NULL: current)
 * @ip:           the first frame's ip
 * @sp:           its sp
 * @bp:           its rbp
 * @first_called: @ip is a return address (looked up at ip - 1), not an
 *                interrupted or exact ip
 *
 * Another task's walk is refused (stop reason BAD_READ, counted) in NMI
 * and hardirq, where its stack reference must not be dropped, when the
 * task runs, has no stack, or its stack cannot be pinned.
 *
 * Context: Any context; disables preemption until kunwind_walk_end().
 * Return: true if @w's first frame is valid; kunwind_walk_end() either way.
 */
bool kunwind_walk_start(struct kunwind_kstate *w, struct task_struct *task,
			unsigned long ip, unsigned long sp, unsigned long bp,
			bool first_called);
/* As kunwind_walk_start() of current, from an exact ip, sp and frame
 * pointer inside the calling function: its caller, one step up, is the
 * first frame (arm64's kunwind_caller_frame(), api.c). */
bool kunwind_walk_start_here(struct kunwind_kstate *w, unsigned long ip,
			     unsigned long sp, unsigned long bp);
/**
 * kunwind_walk_start_regs() - Start a walk from a register set of current.
 * @w:    the walk
 * @regs: an interrupt's, exception's or NMI's registers
 *
 * The first frame is regs->ip (exact), as stack_trace_save_regs()
 * reports it.
 *
 * Context: Any context; disables preemption until kunwind_walk_end().
 * Return: true if @w's first frame is valid; kunwind_walk_end() either way.
 */
bool kunwind_walk_start_regs(struct kunwind_kstate *w, struct pt_regs *regs);
/**
 * kunwind_walk_start_task() - Start a walk of a sleeping task.
 * @w:    the walk
 * @task: a task, not current, not running
 *
 * Context: Process or softirq context (the task's stack is pinned);
 * disables preemption until kunwind_walk_end().
 * Return: true if @w's first frame, where @task sleeps, is valid;
 * kunwind_walk_end() either way.
 */
bool kunwind_walk_start_task(struct kunwind_kstate *w, struct task_struct *task);
/**
 * kunwind_walk_next() - Step to the caller.
 * @w: a started walk
 *
 * By a table row, else (no row describes ip, the row's step failed, or a
 * tracer's trampoline could not be undone) by one step of the kernel's
 * own unwinder (x86: ORC; arm64: frame records), flagged
 * KUNWIND_FRAME_ORC.
 *
 * Context: Between kunwind_walk_start*() and kunwind_walk_end().
 * Return: true if @w's current frame is the caller's; false when the walk
 * ended (w->s.stop says why).
 */
bool kunwind_walk_next(struct kunwind_kstate *w);

/**
 * kunwind_walk_trace() - Store the ips of a walk's frames.
 * @w:   a started walk
 * @pc:  where the ips go, the current frame's first
 * @max: room in @pc
 *
 * The frames a loop of kunwind_walk_next() gives, its ORC fallback
 * included; ordinary frames in runs (kunwind_trace_calls()), without
 * their KUNWIND_FRAME_* flags.  It stops at the last frame stored.
 *
 * Context: Between kunwind_walk_start*() and kunwind_walk_end().
 * Return: the number of ips stored.
 */
unsigned int kunwind_walk_trace(struct kunwind_kstate *w, unsigned long *pc,
				unsigned int max);

/**
 * kunwind_walk_end() - End a walk.
 * @w: a walk that kunwind_walk_start*() started, or refused
 *
 * Counts the stop reason, releases the task's stack, the lookup cache and
 * the RCU read-side section (preemption enabled again).
 */
void kunwind_walk_end(struct kunwind_kstate *w);

/* dump_stack()'s name of the stack of @w's task holding @sp ("IRQ", ...). */
const char *kunwind_walk_stack_name(struct kunwind_kstate *w, unsigned long sp);

/* The per-CPU lookup caches of walks; walks work without. */
int kunwind_walk_caches_init(void);
void kunwind_walk_caches_exit(void);

#endif /* _KUNWIND_KWALK_H */
