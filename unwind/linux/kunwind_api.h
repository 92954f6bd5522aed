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
 *    task's, and for current this CPU's IRQ, exception and entry stacks
 *    where get_stack_info() can be called; else the task's only), a word
 *    at a time, each first checked to lie on one of them.  current's are
 *    loaded in place: they are mapped and stay while current walks them
 *    (as ORC reads them).  Another task's go through kunwind_read_nofault()
 *    (compat.h): one __get_kernel_nofault() load, not
 *    copy_from_kernel_nofault(), after the checks of 6.12's
 *    copy_from_kernel_nofault_allowed(), which refuse user addresses and
 *    the guard page above them, the vsyscall page and non-canonical
 *    addresses.  A walk ends on any stack, however corrupt; a load of
 *    another task's stack that faults is fixed up and ends it.
 *  - Frames: every ip reported is code the kernel could return to or be
 *    interrupted at (__kernel_text_address(), as ORC's
 *    unwind_get_return_address()); a return address that is not ends
 *    the walk with KUNWIND_STOP_BAD_RA.  Two kinds of first frame from a
 *    register set are reported as they are, as stack_trace_save_regs()
 *    reports them: the ip of a user-mode set (the only frame) and ip 0
 *    (a call through a NULL function pointer; ORC steps to its caller).
 *    Frames of the ORC fallback are ORC's, a guess of ORC's among them
 *    (KUNWIND_FRAME_GUESS).  A return address that
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
 * ip, a row's step failed, or a tracer's trampoline could not be undone
 * (struct kunwind_frame.fallback says which).
 */
#define KUNWIND_FRAME_ORC	0x1
#define KUNWIND_FRAME_GUESS	0x2	/* from the rbp guess: unreliable */
#define KUNWIND_FRAME_REGS	0x4	/* ip came from a register frame */
/* ip was a tracer's trampoline (function_graph, kretprobe), undone. */
#define KUNWIND_FRAME_RECOVERED	0x8

/*
 * Why a step was taken by the ORC fallback (struct kunwind_frame.fallback,
 * struct kunwind_steps).  Where a table is registered for the text, a
 * fallback step is a defect of the table or of the walk unless its reason
 * says otherwise: the tests require none there.
 */
enum kunwind_fallback {
	KUNWIND_FALLBACK_NO_TABLE,	/* no table is registered for ip's text */
	KUNWIND_FALLBACK_NO_ROW,	/* ip's table has no row describing ip */
	KUNWIND_FALLBACK_STEP_FAILED,	/* a row describes ip, its step failed */
	KUNWIND_FALLBACK_TRACER,	/* a tracer's trampoline, no helper to undo it */
	KUNWIND_FALLBACK_NR
};

struct kunwind_frame {
	unsigned long ip;	/* a return address, or the interrupted ip */
	unsigned long sp, bp;
	unsigned int flags;
	unsigned int fallback;	/* with KUNWIND_FRAME_ORC: enum kunwind_fallback */
};

/* Who walked: a walk's steps (the first frame is no step). */
struct kunwind_steps {
	unsigned int tables;				/* by kunwind's tables */
	unsigned int fallback[KUNWIND_FALLBACK_NR];	/* by ORC, per reason */
};

static __always_inline unsigned int kunwind_steps_fallback(const struct kunwind_steps *st)
{
	unsigned int i, n = 0;

	for (i = 0; i < KUNWIND_FALLBACK_NR; i++)
		n += st->fallback[i];
	return n;
}

/**
 * kunwind_fallback_str() - a fallback reason's name
 * @why: enum kunwind_fallback
 *
 * Return: "no table", "no row", "row step failed", "tracer helper
 * missing", or "?" out of range.
 */
const char *kunwind_fallback_str(unsigned int why);

/* The most frames a walk reports. */
#define KUNWIND_MAX_DEPTH	128

/* Return false to stop the walk. */
typedef bool (*kunwind_consume_fn)(void *cookie, const struct kunwind_frame *f);

/**
 * kunwind_walk() - walk a stack, calling @fn for every frame
 * @task: NULL or current: from the caller of kunwind_walk() (the first
 *        frame is the return address into it); another task: from where
 *        it sleeps (refused if it runs, see above).  Ignored with @regs.
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
 * At most KUNWIND_MAX_DEPTH frames are walked.
 *
 * Context: Any, NMI included; takes no lock, never sleeps.  A walk of
 * another task is refused in NMI and hardirq (dropping its stack's
 * reference there could free the stack).
 * Return: the stop reason, enum kunwind_stop of unwind/kunwind.h as int:
 * KUNWIND_STOP_END for a complete walk, KUNWIND_STOP_NONE if @fn stopped
 * it, else why it ended early.  A walk that cannot start calls @fn for
 * no frame: KUNWIND_STOP_BAD_READ when it is refused (RCU not watching;
 * another task that runs, has no stack or cannot be pinned),
 * KUNWIND_STOP_BAD_RA when @regs is a kernel-mode set whose ip is not
 * code.
 */
int kunwind_walk(struct task_struct *task, struct pt_regs *regs,
		 kunwind_consume_fn fn, void *cookie);

/**
 * kunwind_save_frames() - store a walk's frames, each as kunwind_walk()
 * reports it
 * @task: as for kunwind_walk(); ignored with @regs
 * @regs: as for kunwind_walk()
 * @store: where the frames go, the first one first
 * @size: room in @store
 * @nr: set to the number of frames stored, at most @size
 *
 * kunwind_walk() without a callback: the frames it would pass to @fn,
 * with their flags and fallback reasons, for a caller that keeps them
 * all (a sampling profiler's handler: no indirect call a frame).
 *
 * Context: As kunwind_walk(): any, NMI included; takes no lock, never
 * sleeps.
 * Return: as kunwind_walk()'s: KUNWIND_STOP_END for a complete walk,
 * KUNWIND_STOP_NONE if @store was full and the walk had a frame more,
 * else why it ended early (no frame stored if it could not start).
 */
int kunwind_save_frames(struct task_struct *task, struct pt_regs *regs,
			struct kunwind_frame *store, unsigned int size,
			unsigned int *nr);

/* kunwind_addr_info(): what kunwind knows of an address */
#define KUNWIND_ADDR_TEXT	0x1	/* a kernel frame could be there */
#define KUNWIND_ADDR_TABLE	0x2	/* a registered table has its row */
#define KUNWIND_ADDR_CALL	0x4	/* ... an ordinary frame's row */
#define KUNWIND_ADDR_TRAMPOLINE	0x8	/* a tracer's return trampoline */

/**
 * kunwind_addr_info() - what kunwind knows of an address
 * @addr: a run-time address, looked up as is: an interrupted ip (for a
 *        return address, the call is at @addr - 1)
 *
 * TEXT: kernel or module text, where kunwind_walk() accepts a frame
 * (__kernel_text_address()).  TABLE: a table registered with kunwind
 * describes @addr; CALL: as an ordinary frame (CFA = a register plus an
 * offset, the return address below it), not a register frame.
 * TRAMPOLINE: function_graph's return_to_handler or the kretprobes'
 * rethook trampoline, which walks report as the real caller.  For a user
 * that checks walks against another unwinder (ORC), or explains where a
 * walk stopped.
 *
 * Context: Any, NMI included; takes no lock, never sleeps.
 * Return: KUNWIND_ADDR_* flags; 0 if kunwind knows nothing of @addr.
 */
unsigned int kunwind_addr_info(unsigned long addr);

/**
 * kunwind_save() - store the return addresses of current's stack
 * @store: where the addresses go
 * @size: room in @store; 0 stores nothing
 * @skip: frames to leave out first
 *
 * @steps: if not NULL, the walk's steps by tables and by the ORC fallback
 *
 * Like stack_trace_save(): the first address (with @skip 0) is the return
 * address into the function that called kunwind_save().  @steps counts
 * every step the walk made, the skipped frames' included.
 *
 * Context: Any, NMI included; takes no lock, never sleeps.
 * Return: the number of addresses stored, at most @size.
 */
unsigned int kunwind_save(unsigned long *store, unsigned int size,
			  unsigned int skip, struct kunwind_steps *steps);

/**
 * kunwind_save_regs() - store the frames of an interrupted context
 * @regs: an interrupt, exception or NMI register set of current
 * @store: where the addresses go
 * @size: room in @store; 0 stores nothing
 * @skip: frames to leave out first
 * @steps: if not NULL, the walk's steps by tables and by the ORC fallback
 *
 * Like stack_trace_save_regs(): the first address is @regs' ip, then the
 * return addresses of its callers; a user-mode @regs gives its ip only.
 *
 * Context: Any, NMI included; takes no lock, never sleeps.
 * Return: the number of addresses stored, at most @size.
 */
unsigned int kunwind_save_regs(struct pt_regs *regs, unsigned long *store,
			       unsigned int size, unsigned int skip,
			       struct kunwind_steps *steps);

/**
 * kunwind_save_tsk() - store the return addresses of a task's stack
 * @task: NULL or current: from the caller of kunwind_save_tsk(); another
 *        task: from where it sleeps
 * @store: where the addresses go
 * @size: room in @store; 0 stores nothing
 * @skip: frames to leave out first (scheduler and lock frames not counted)
 * @steps: if not NULL, the walk's steps by tables and by the ORC fallback
 *
 * Like stack_trace_save_tsk(): the scheduler's and the locks' functions
 * (in_sched_functions()) are left out, where their text is known.
 *
 * Context: Any for current.  Another task: not in NMI or hardirq, and it
 * must not run; otherwise the walk is refused and nothing is stored.
 * Return: the number of addresses stored, at most @size.
 */
unsigned int kunwind_save_tsk(struct task_struct *task, unsigned long *store,
			      unsigned int size, unsigned int skip,
			      struct kunwind_steps *steps);

/**
 * kunwind_dump_stack() - print current's stack like dump_stack()
 *
 * Prints at KERN_DEFAULT, from the caller of kunwind_dump_stack(), in the
 * format of Documentation/kernel.rst: a "kunwind: Call Trace" header, a
 * "%pS" line a frame with the stacks bracketed, how the walk ended and
 * its steps.
 *
 * Context: Any, NMI included (printk defers the console output there);
 * takes no lock of its own, never sleeps.
 */
void kunwind_dump_stack(void);

/**
 * kunwind_show_stack() - print a stack like show_stack()
 * @task: as for kunwind_walk(); ignored with @regs
 * @regs: if not NULL, print from this register set of current
 * @loglvl: printk level of every line; NULL: KERN_DEFAULT
 *
 * The format is kunwind_dump_stack()'s.
 *
 * Context: As kunwind_walk(): any for current or @regs; another task not
 * in NMI or hardirq (refused: the header and "walk stopped" only).
 */
void kunwind_show_stack(struct task_struct *task, struct pt_regs *regs,
			const char *loglvl);

#endif /* _KUNWIND_API_H */
