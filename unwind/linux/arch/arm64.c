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
 * At ip 0 (a call through a NULL pointer, nothing moved) the step is by
 * x30 instead (kunwind_lr_step()): the caller, which the kernel loses.
 */
#include <linux/sched/task_stack.h>
#include <asm/ptrace.h>
#include <asm/stacktrace.h>
#include "walk.h"
#include "../registry_lookup.h"
#include "../symbols.h"

/* dump_stack()-style names of the stacks (arm64 prints none itself). */
__kunwind_walk const char *kunwind_stack_name(kunwind_stack_t type)
{
	switch (type) {
	case KUNWIND_STACK_TASK:
		return "TASK";
	case KUNWIND_STACK_IRQ:
		return "IRQ";
	case KUNWIND_STACK_OVERFLOW:
		return "OVERFLOW";
	case KUNWIND_STACK_SDEI_NORMAL:
		return "SDEI";
	case KUNWIND_STACK_SDEI_CRITICAL:
		return "SDEI_CRITICAL";
	default:
		return "UNKNOWN";
	}
}

/*
 * Is var, an address resolved by name, a per-CPU variable's?  A wrong
 * symbol must not become a wild dereference (in NMI too).
 */
static __kunwind_walk bool pcpu_var(unsigned long var)
{
	return var && var >= kunwind_sym.per_cpu[0] && var < kunwind_sym.per_cpu[1];
}

/* The stack a per-CPU pointer variable (resolved by name) points at. */
static __kunwind_walk bool pcpu_stack(unsigned long var, unsigned long size,
				      unsigned long *lo, unsigned long *hi)
{
	unsigned long base;

	if (!pcpu_var(var))
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
	if (!pcpu_var(var))
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
	unsigned long lo = (unsigned long)task_stack_page(task);

	*ip = ptrauth_strip_kernel_insn_pac(READ_ONCE(task->thread.cpu_context.pc));
	*sp = READ_ONCE(task->thread.cpu_context.sp);
	*bp = READ_ONCE(task->thread.cpu_context.fp);
	*called = *ip != kunwind_sym.ret_from_fork;
	/* as x86's inactive_task_frame: on the task's stack, or no walk */
	return lo && *sp - lo < THREAD_SIZE;
}

/*
 * A kernel stack overflow: __bad_stack's call of handle_bad_stack() has a
 * REGS row (gen/arm64.c) for the pt_regs kernel_entry saved on the
 * overflow stack, whose sp overflowed into the guard page below the task
 * stack, where no step may go.  As x86's double fault is taken as a first
 * frame (kwalk.c), that frame is taken on the stack above the guard
 * page: the interrupted pc (exact), its sp, x29 and x30.  Its step reads
 * only that stack.
 */
static __kunwind_walk bool overflow_regs(struct kunwind_kstate *w)
{
	struct kunwind_state *s = &w->s;
	const struct kunwind_hdr *table;
	const struct kunwind_seg *seg;
	const struct kunwind_rule *r;
	const struct pt_regs *regs;
	unsigned long addr, lo, hi, start;

	/* the REGS step's failure: its sp on no stack (walk code only here) */
	if (s->stop != KUNWIND_STOP_BAD_READ || w->task != current ||
	    s->exact_ip)
		return false;
	addr = kunwind_frame_addr(s);
	seg = kunwind_registry_seg(addr, &table, &start);
	r = seg ? kunwind_seg_rule(table, seg, addr - start) : NULL;
	if (!r || r->type != KUNWIND_TYPE_REGS || r->reg != KUNWIND_REG_SP)
		return false;
	addr = s->sp + r->cfa_off;
	if (addr < s->stack_lo || addr > s->stack_hi - sizeof(*regs))
		return false;
	regs = (const struct pt_regs *)addr;
	if (user_mode(regs) || !kunwind_text_address(regs->pc) ||
	    !kunwind_guard_page_stack(w, regs->sp, &lo, &hi, NULL) ||
	    kunwind_enter_stack(s, lo))
		return false;
	s->ip = regs->pc;
	s->sp = regs->sp;
	s->bp = regs->regs[29];
	kunwind_set_lr(s, regs->regs[30]);
	s->exact_ip = true;
	s->depth++;
	return true;
}

__kunwind_walk enum kunwind_arch_step kunwind_arch_fallback_step(struct kunwind_kstate *w)
{
	struct kunwind_state *s = &w->s;

	if (overflow_regs(w)) {
		w->frame_flags = KUNWIND_FRAME_ORC | KUNWIND_FRAME_REGS;
		return KUNWIND_ARCH_STEP_DONE;
	}

	/* A call through a NULL pointer: its caller is in x30 (the regs'). */
	if (!s->ip && s->exact_ip) {
		if (!kunwind_lr_step(s))
			return KUNWIND_ARCH_STEP_FAILED;
		w->frame_flags = KUNWIND_FRAME_ORC;
		return KUNWIND_ARCH_STEP_DONE;
	}
	/* The final frame record: the task's first pt_regs holds it. */
	if (s->bp == (unsigned long)&task_pt_regs(w->task)->stackframe)
		return KUNWIND_ARCH_STEP_END;
	if (!kunwind_fp_step(s))
		return KUNWIND_ARCH_STEP_FAILED;
	w->frame_flags = KUNWIND_FRAME_ORC;
	return KUNWIND_ARCH_STEP_DONE;
}
