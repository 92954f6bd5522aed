// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64's hooks of a kernel walk (kwalk.h, "what a walk needs of the
 * architecture"): its stacks through get_stack_info(), a sleeping task's
 * inactive_task_frame, and the fallback step by the kernel's ORC
 * unwinder.  arch/arm64.c is the other architecture's.
 */
#include <linux/sched/task_stack.h>
#include <asm/ptrace.h>
#include <asm/switch_to.h>
#include "walk.h"
#include "../symbols.h"

/* The names dump_stack() prints for stack types (stack_type_name()). */
__kunwind_walk const char *kunwind_stack_name(enum stack_type type)
{
	static const char * const exc[] = {
		[ESTACK_DF] = "#DF", [ESTACK_NMI] = "NMI", [ESTACK_DB] = "#DB",
		[ESTACK_MCE] = "#MC", [ESTACK_VC] = "#VC", [ESTACK_VC2] = "#VC2",
	};

	if (type == STACK_TYPE_TASK)
		return "TASK";
	if (type == STACK_TYPE_IRQ)
		return "IRQ";
	if (type == STACK_TYPE_SOFTIRQ)
		return "SOFTIRQ";
	if (type == STACK_TYPE_ENTRY)
		return "ENTRY_TRAMPOLINE";
	if (type >= STACK_TYPE_EXCEPTION && type <= STACK_TYPE_EXCEPTION_LAST &&
	    type - STACK_TYPE_EXCEPTION < ARRAY_SIZE(exc))
		return exc[type - STACK_TYPE_EXCEPTION];
	return "UNKNOWN";
}

/*
 * The stack of w's task holding addr, past current's task stack (kwalk.c
 * tried it): get_stack_info() knows them all and their order (IRQ ->
 * task, exception -> IRQ or task, entry -> task).  Without it the task
 * stack, and current's IRQ stack where the kernel exports its pointer.
 */
__kunwind_walk bool kunwind_arch_stack(struct kunwind_kstate *w,
				       unsigned long addr, unsigned long *lo,
				       unsigned long *hi, kunwind_stack_t *type)
{
	struct stack_info info __uninitialized;	/* get_stack_info() fills it */

	if (kunwind_sym.get_stack_info) {
		if (kunwind_sym.get_stack_info((unsigned long *)addr, w->task,
					       &info, NULL))
			return false;
		*lo = (unsigned long)info.begin;
		*hi = (unsigned long)info.end;
		if (type)
			*type = info.type;
		return true;
	}
	*lo = (unsigned long)task_stack_page(w->task);
	*hi = *lo + THREAD_SIZE;
	if (type)
		*type = STACK_TYPE_TASK;
	if (*lo && kunwind_word_in(addr, *lo, *hi))
		return true;
	if (type)
		*type = STACK_TYPE_IRQ;
	return w->task == current && kunwind_irq_stack(lo, hi) &&
	       kunwind_word_in(addr, *lo, *hi);
}

/*
 * A sleeping task stopped in __switch_to_asm(), which left a struct
 * inactive_task_frame at thread.sp: its return address (into __schedule(),
 * a called frame) and its rbp; the caller's sp is above the struct.  A
 * new task that has never run returns to ret_from_fork instead, whose
 * first instruction is exact.  (As ORC's __unwind_start().)
 */
__kunwind_walk bool kunwind_arch_task_frame(struct task_struct *task,
					    unsigned long *ip,
					    unsigned long *sp,
					    unsigned long *bp, bool *called)
{
	const size_t size = sizeof(struct inactive_task_frame);
	unsigned long lo = (unsigned long)task_stack_page(task);
	unsigned long frame = READ_ONCE(task->thread.sp);

	if (frame < lo || frame + size > lo + THREAD_SIZE ||
	    !kunwind_read_nofault(frame + offsetof(struct inactive_task_frame, ret_addr), ip) ||
	    !kunwind_read_nofault(frame + offsetof(struct inactive_task_frame, bp), bp))
		return false;
	*sp = frame + size;
	*called = *ip != kunwind_sym.ret_from_fork;
	return true;
}

#if KUNWIND_HAVE_ORC
/*
 * The full register block the current frame came from, if ORC stepped to
 * it (a frame interrupted in a realigned prologue needs r10 or r13), or
 * the walk started from it.
 */
static __kunwind_walk struct pt_regs *frame_regs(struct kunwind_kstate *w)
{
	struct kunwind_state *s = &w->s;
	struct pt_regs *r = s->depth ? w->orc_regs : w->regs;

	if (r && s->exact_ip && r->ip == s->ip && kernel_stack_pointer(r) == s->sp)
		return r;
	return NULL;
}

/*
 * One step of the kernel's ORC unwinder from the current frame.  From a
 * frame that came from a full register block, ORC gets the real
 * registers; otherwise only ip, sp and bp are known, which is all an ORC
 * entry uses outside of realigned prologues.  ORC looks the
 * regs' ip up exactly, so a return address is given as ip - 1.  ORC
 * undoes tracers' trampolines itself, and checks that the address is
 * text (unwind_get_return_address()).
 */
__kunwind_walk enum kunwind_arch_step kunwind_arch_fallback_step(struct kunwind_kstate *w)
{
	struct kunwind_state *s = &w->s;
	struct pt_regs regs, *full = frame_regs(w);
	struct unwind_state st;
	unsigned long ip;

	if (full) {
		regs = *full;
	} else {
		memset(&regs, 0, sizeof(regs));
		regs.ip = kunwind_frame_addr(s);
		regs.sp = s->sp;
		regs.bp = s->bp;
		regs.cs = __KERNEL_CS;
		regs.ss = __KERNEL_DS;
	}
	/* With regs, __unwind_start() steps over the regs' frame. */
	__unwind_start(&st, w->task, &regs, NULL);
	if (unwind_done(&st))	/* the_end: with an error or at the end */
		return unwind_error(&st) ? KUNWIND_ARCH_STEP_FAILED : KUNWIND_ARCH_STEP_END;
	if (st.regs && user_mode(st.regs))
		return KUNWIND_ARCH_STEP_END;
	ip = unwind_get_return_address(&st);
	if (!ip || kunwind_step_to(s, ip, st.sp, st.bp, st.signal))
		return KUNWIND_ARCH_STEP_FAILED;
	w->orc_regs = st.regs && st.full_regs ? st.regs : NULL;
	w->frame_flags = KUNWIND_FRAME_ORC |
			 (st.signal ? KUNWIND_FRAME_REGS : 0) |
			 (st.error ? KUNWIND_FRAME_GUESS : 0);
	if (st.error)
		s->unreliable = true;
	return KUNWIND_ARCH_STEP_DONE;
}
#else
__kunwind_walk enum kunwind_arch_step kunwind_arch_fallback_step(struct kunwind_kstate *w)
{
	return KUNWIND_ARCH_STEP_FAILED;
}
#endif

