// SPDX-License-Identifier: GPL-2.0
/*
 * arm64's hooks of a kernel walk (kwalk.h, "what a walk needs of the
 * architecture"): its stacks, a sleeping task's cpu_context, and the
 * fallback step by frame records.  arch/x86.c is the other
 * architecture's.
 *
 * Stacks.  As arch/arm64/kernel/stacktrace.c lists them: the task's; for
 * current, with preemption off (a walk's), this CPU's IRQ stack and
 * overflow stack (VMAP_STACK); in NMI, the SDEI stacks.  Their per-CPU
 * variables are not exported, so their __percpu addresses are resolved
 * by name (symbols.c); one not found is a stack the walk cannot enter.
 *
 * Fallback.  Where no row serves (code without CFI that gen/arm64.c has
 * no hint for: arch/arm64/lib's assembly, ftrace and BPF trampolines, a
 * module built without the opt-in), one step by the frame record at x29
 * (kunwind_fp_step()), as the kernel's own unwinder takes every step: in
 * a function that has saved its record the caller; in one that has not
 * (a leaf, a prologue) the caller's caller, the caller lost, as the
 * kernel loses it.  The walk is unreliable from there.  It ends where
 * the kernel's ends: at the final frame record, in the task's pt_regs.
 */
#include <linux/sched/task_stack.h>
#include <asm/ptrace.h>
#include <asm/stacktrace.h>
#include "../kwalk.h"
#include "../symbols.h"

/* The stack a per-CPU pointer variable (resolved by name) points at. */
static __kunwind_walk bool pcpu_stack(unsigned long var, unsigned long size,
				      unsigned long *lo, unsigned long *hi)
{
	unsigned long base;

	if (!var)
		return false;
	base = (unsigned long)*raw_cpu_ptr((unsigned long * __percpu *)var);
	if (!base)
		return false;
	*lo = base;
	*hi = base + size;
	return true;
}

/* The same for a per-CPU array that is the stack itself. */
static __kunwind_walk bool pcpu_array(unsigned long var, unsigned long size,
				      unsigned long *lo, unsigned long *hi)
{
	if (!var)
		return false;
	*lo = (unsigned long)raw_cpu_ptr((unsigned long __percpu *)var);
	*hi = *lo + size;
	return true;
}

__kunwind_walk bool kunwind_arch_stack(struct kunwind_kstate *w,
				       unsigned long addr, unsigned long *lo,
				       unsigned long *hi, kunwind_stack_t *type)
{
	kunwind_stack_t t = KUNWIND_STACK_TASK;

	*lo = (unsigned long)task_stack_page(w->task);
	*hi = *lo + THREAD_SIZE;
	if (*lo && kunwind_word_in(addr, *lo, *hi))
		goto found;
	if (w->task != current)
		return false;
	t = KUNWIND_STACK_IRQ;
	if (pcpu_stack(kunwind_sym.irq_stack_ptr, IRQ_STACK_SIZE, lo, hi) &&
	    kunwind_word_in(addr, *lo, *hi))
		goto found;
#ifdef CONFIG_VMAP_STACK
	t = KUNWIND_STACK_OVERFLOW;
	if (pcpu_array(kunwind_sym.overflow_stack, OVERFLOW_STACK_SIZE, lo, hi) &&
	    kunwind_word_in(addr, *lo, *hi))
		goto found;
#endif
#if defined(CONFIG_ARM_SDE_INTERFACE) && defined(CONFIG_VMAP_STACK)
	if (in_nmi()) {
		t = KUNWIND_STACK_SDEI_NORMAL;
		if (pcpu_stack(kunwind_sym.sdei_stack_ptr[0], SDEI_STACK_SIZE,
			       lo, hi) && kunwind_word_in(addr, *lo, *hi))
			goto found;
		t = KUNWIND_STACK_SDEI_CRITICAL;
		if (pcpu_stack(kunwind_sym.sdei_stack_ptr[1], SDEI_STACK_SIZE,
			       lo, hi) && kunwind_word_in(addr, *lo, *hi))
			goto found;
	}
#endif
	return false;
found:
	if (type)
		*type = t;
	return true;
}

/*
 * A sleeping task stopped in cpu_switch_to(), which saved its callee-
 * saved registers, sp and lr in thread.cpu_context: pc is the return
 * address into __switch_to() (a called frame), sp and fp are
 * __switch_to()'s at that call.  A new task that has never run starts at
 * ret_from_fork, exact.  (As arm64's kunwind_init_from_task().)
 */
__kunwind_walk bool kunwind_arch_task_frame(struct task_struct *task,
					    unsigned long *ip,
					    unsigned long *sp,
					    unsigned long *bp, bool *called)
{
	*ip = ptrauth_strip_kernel_insn_pac(READ_ONCE(task->thread.cpu_context.pc));
	*sp = READ_ONCE(task->thread.cpu_context.sp);
	*bp = READ_ONCE(task->thread.cpu_context.fp);
	*called = *ip != kunwind_sym.ret_from_fork;
	return true;
}

__kunwind_walk enum kunwind_arch_step kunwind_arch_fallback_step(struct kunwind_kstate *w)
{
	struct kunwind_state *s = &w->s;

	/* The final frame record: the task's first pt_regs holds it. */
	if (s->bp == (unsigned long)task_pt_regs(w->task)->stackframe)
		return KUNWIND_ARCH_STEP_END;
	if (!kunwind_fp_step(s))
		return KUNWIND_ARCH_STEP_FAILED;
	w->frame_flags = KUNWIND_FRAME_ORC;
	return KUNWIND_ARCH_STEP_DONE;
}
