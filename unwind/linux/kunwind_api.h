/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind.ko's API for other kernel code (all EXPORT_SYMBOL_GPL).
 *
 * What a walk guarantees (Documentation/kernel.rst, "Guarantees"):
 *
 *  - Contexts: any, task, softirq, hardirq and NMI, also inside an oops,
 *    a tracer's callback or a kprobe handler.  A walk takes no lock,
 *    allocates nothing, never sleeps; its code can be neither traced nor
 *    kprobed.  It runs with preemption disabled from start to end (an RCU
 *    read-side section), so a module unloading meanwhile keeps its table
 *    until the walk is over; it is refused where RCU is not watching.
 *  - Memory: only the stacks the kernel itself unwinds are read (the
 *    task's, and for current this CPU's IRQ, exception and entry stacks),
 *    a word at a time, with non-faulting loads that refuse user,
 *    vsyscall and non-canonical addresses.  A walk ends on any stack,
 *    however corrupt; it never faults.
 *  - Frames: every ip reported is code the kernel could return to or be
 *    interrupted at (__kernel_text_address(), as ORC's
 *    unwind_get_return_address()); a return address that is not ends
 *    the walk with KUNWIND_STOP_BAD_RA.  A return address that
 *    function_graph (return_to_handler) or a kretprobe or BPF kretprobe
 *    (the rethook trampoline) put on the stack is reported as the real
 *    caller, as ORC does; on a kernel where the kernel's helpers for that
 *    cannot be called (IBT sealed them), that one step is taken by the
 *    kernel's ORC unwinder instead and counted in debugfs.
 *  - Other tasks: walked from where they sleep, with their stack pinned;
 *    refused (no frame, KUNWIND_STOP_BAD_READ, counted) when the task
 *    runs, has no stack, its stack cannot be pinned, or the caller is in
 *    NMI or hardirq (dropping the pin may free the stack).
 */
#ifndef _KUNWIND_API_H
#define _KUNWIND_API_H

#include <linux/types.h>

struct task_struct;
struct pt_regs;

/* struct kunwind_frame.flags */
/*
 * This step came from the kernel's ORC fallback: no table row described
 * ip, a row's step failed, or a tracer's trampoline could not be undone.
 */
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

/**
 * kunwind_walk() - walk a stack, calling @fn for every frame
 * @task: NULL or current: from the caller of kunwind_walk(); another task:
 *        from where it sleeps (refused if it runs, see above)
 * @regs: if not NULL, from this interrupt, exception or NMI register set
 *        of current (its ip is the first frame, exact)
 * @fn: called for each frame, the first one included; return false to
 *      stop.  It runs inside the walk's RCU read-side section, with
 *      preemption disabled, and in
 *      the walker's context (maybe NMI): it must not sleep, nor take a
 *      lock the interrupted code may hold.  Debug kernels
 *      (CONFIG_DEBUG_ATOMIC_SLEEP) warn once if it slept.
 * @cookie: passed to @fn
 *
 * Return: the stop reason, enum kunwind_stop of unwind/kunwind.h as int:
 * KUNWIND_STOP_END for a complete walk, KUNWIND_STOP_NONE if @fn stopped
 * it, else why it ended early.
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
