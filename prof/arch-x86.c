// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's x86-64 part (arch-arm64.c is arm64's): the kernel's own
 * unwinder for the self-check and the "orc" handler, ORC, and the
 * retpoline thunks a sample can interrupt.
 */
#include <linux/uaccess.h>
#include <asm/nospec-branch.h>
#include <asm/ptrace.h>
#include <asm/unwind.h>
#include "prof.h"
#include "selfcheck.h"

/*
 * The retpoline thunks (__x86_indirect_thunk_rax ... _r15, one
 * RETPOLINE_THUNK_SIZE apart): ORC's entry for them is
 * UNWIND_HINT_UNDEFINED (before 6.3, an end of stack).  At a thunk's
 * first instruction (a "call" nothing has pushed before) the frame is a
 * plain call frame (CFA = sp + 8, the return address at sp), which the
 * vmlinux table describes (gen/orc.c): the walk goes on, and such samples
 * are counted apart (stats "retpoline_thunk_entry").  Past it nothing
 * describes the thunk, and a walk from there stops, the sample one frame
 * deep (retpoline_thunk_stopped).
 */
#if defined(CONFIG_MITIGATION_RETPOLINE) || defined(CONFIG_RETPOLINE)
bool prof_in_thunk(unsigned long ip, bool *entry)
{
	unsigned long lo = (unsigned long)__x86_indirect_thunk_rax;
	unsigned long hi = (unsigned long)__x86_indirect_thunk_r15 +
			   RETPOLINE_THUNK_SIZE;

	*entry = !((ip - lo) % RETPOLINE_THUNK_SIZE);
	return ip >= lo && ip < hi;
}
#else
bool prof_in_thunk(unsigned long ip, bool *entry)
{
	*entry = false;
	return false;
}
#endif

/*
 * ORC from regs, as arch_stack_walk() drives it; false on an ORC error.
 * At a retpoline thunk's first instruction ORC stops (its entry is
 * UNWIND_HINT_UNDEFINED, before 6.3 an end of stack), where the frame is
 * a plain call frame that kunwind's table describes (gen/orc.c's thunk
 * rows): the oracle for the rest of the stack is then ORC from the
 * thunk's caller, the return address on top of the stack, looked up at
 * ip - 1 (the call itself) as the interrupted ip ORC takes a regs' ip for.
 */
bool prof_orc(struct pt_regs *regs, unsigned long *ip, unsigned int *n)
{
	struct unwind_state state;
	struct pt_regs caller;
	unsigned long addr;
	bool entry;

	*n = 0;
	ip[(*n)++] = regs->ip;
	/*
	 * Only where kunwind's table has the thunk's row (without the
	 * vmlinux table kunwind takes ORC's step there, and ORC is its own
	 * oracle); a tracer's trampoline there: ORC from regs, which undoes
	 * it.
	 */
	if (prof_in_thunk(regs->ip, &entry) && entry &&
	    (kunwind_addr_info(regs->ip) & KUNWIND_ADDR_CALL) &&
	    !get_kernel_nofault(addr, (unsigned long *)regs->sp) &&
	    (kunwind_addr_info(addr) &
	     (KUNWIND_ADDR_TEXT | KUNWIND_ADDR_TRAMPOLINE)) == KUNWIND_ADDR_TEXT) {
		ip[(*n)++] = addr;
		caller = *regs;
		caller.ip = addr - 1;
		caller.sp = regs->sp + sizeof(long);
		regs = &caller;
	}
	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || *n == PROF_DEPTH)
			break;
		ip[(*n)++] = addr;
	}
	return !unwind_error(&state);
}

/* ORC never loses a caller kunwind gives: every sample is equal or not. */
bool prof_oracle_gained(struct pt_regs *regs, const struct prof_sample *s,
			const unsigned long *orc, unsigned int no)
{
	return false;
}
