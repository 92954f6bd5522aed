/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind.ko's API for other kernel code (all EXPORT_SYMBOL_GPL).
 *
 * Every walk is lock-free and may run in any context (task, softirq,
 * hardirq, NMI): tables are found under RCU, stack memory is read with
 * copy_from_kernel_nofault() and only inside the known stacks.
 */
#ifndef _KUNWIND_API_H
#define _KUNWIND_API_H

#include <linux/types.h>

struct task_struct;
struct pt_regs;

/* struct kunwind_frame.flags */
/* This step came from the kernel's ORC fallback: no table covered ip. */
#define KUNWIND_FRAME_ORC	0x1
#define KUNWIND_FRAME_GUESS	0x2	/* from the rbp guess: unreliable */
#define KUNWIND_FRAME_REGS	0x4	/* ip came from a register frame */
/* ip was a tracer's trampoline (function_graph, kretprobe), undone. */
#define KUNWIND_FRAME_RECOVERED	0x8

struct kunwind_frame {
	unsigned long ip;	/* a return address, or the interrupted ip */
	unsigned long sp, bp;
	unsigned int flags;
};

/* Return false to stop the walk. */
typedef bool (*kunwind_consume_fn)(void *cookie, const struct kunwind_frame *f);

/*
 * Walk a stack, calling fn for every frame, the first one included.
 *   regs != NULL: from an interrupt/exception/NMI register set;
 *   task == NULL or current, no regs: from the caller of kunwind_walk();
 *   another task: from where it sleeps (the task must not run meanwhile).
 * Returns the stop reason (enum kunwind_stop from unwind/kunwind.h, as int;
 * KUNWIND_STOP_END is a complete walk).
 */
int kunwind_walk(struct task_struct *task, struct pt_regs *regs,
		 kunwind_consume_fn fn, void *cookie);

/* Like stack_trace_save() and friends: return addresses into store. */
unsigned int kunwind_save(unsigned long *store, unsigned int size,
			  unsigned int skip);
unsigned int kunwind_save_regs(struct pt_regs *regs, unsigned long *store,
			       unsigned int size, unsigned int skip);
unsigned int kunwind_save_tsk(struct task_struct *task, unsigned long *store,
			      unsigned int size, unsigned int skip);

/* Print the current stack like dump_stack(), one "%pS" line a frame. */
void kunwind_dump_stack(void);
void kunwind_show_stack(struct task_struct *task, struct pt_regs *regs,
			const char *loglvl);

#endif /* _KUNWIND_API_H */
