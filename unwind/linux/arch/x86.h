/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64's part of kunwind.ko: what the kernel side needs of the
 * architecture below the walk, included by compat.h (arch/arm64.h is
 * the other).  The walk's own hooks (which stacks there are, the first
 * frame of a sleeping task, the fallback step) are in arch/x86.c.  The
 * core's part (registers, rules, the pt_regs layout) is unwind/arch-x86.h.
 *
 *   stacks          get_stack_info(): task, IRQ, exception (#DF, NMI,
 *                   #DB, #MC, #VC) and entry stacks
 *   fallback        one step of the kernel's ORC unwinder (" (orc)")
 *   current's frame the caller's, from rbp (a forced frame pointer)
 */
#ifndef _KUNWIND_LINUX_ARCH_X86_H
#define _KUNWIND_LINUX_ARCH_X86_H

#include <asm/stacktrace.h>
#include <asm/cpu_entry_area.h>
#include <asm/cpufeature.h>
#include <asm/unwind.h>
#include <asm/processor.h>
#include <uapi/asm/vsyscall.h>

/* get_stack_info()'s stack types; 0 is STACK_TYPE_UNKNOWN. */
typedef enum stack_type kunwind_stack_t;
#define KUNWIND_STACK_TASK	STACK_TYPE_TASK
#define KUNWIND_STACK_IRQ	STACK_TYPE_IRQ

/*
 * call_on_irqstack() saves the task's rsp in the IRQ stack's top word
 * and runs the handler below it, where the compiler's CFI does not know
 * of the switch (kwalk.c's irq_stack_return()).
 */
#define KUNWIND_IRQ_STACK_TOP_SAVES_SP	1

/* The fallback step's name, and its mark in a printed trace. */
#define KUNWIND_FALLBACK_NAME	"ORC"
#define KUNWIND_FALLBACK_TAG	" (orc)"

/* The exact ip of a register frame, as show_trace_log_lvl() prints it. */
#define KUNWIND_REGS_LINE(lvl, ip, tag) \
	"%sRIP: %04x:%pS%s\n", lvl, __KERNEL_CS, (void *)(ip), tag

/* A kernel pt_regs' frame pointer; x86 has no link register. */
static __always_inline unsigned long kunwind_regs_fp(const struct pt_regs *regs)
{
	return regs->bp;
}

#define kunwind_regs_lr(regs)	0UL

/*
 * The caller's frame, for starting from current: ip is the return
 * address into the caller of the function this expands in, sp the
 * caller's sp after the return, bp its rbp.  Forces a frame pointer in
 * that function (see __builtin_frame_address()).  called: ip is a
 * return address.
 */
#define kunwind_caller_frame(ip, sp, bp, called)			\
do {									\
	unsigned long *__fp = __builtin_frame_address(0);		\
	(ip) = (unsigned long)__builtin_return_address(0);		\
	(sp) = (unsigned long)(__fp + 2);				\
	(bp) = __fp[0];							\
	(called) = true;						\
} while (0)

/* ---- indirect calls into unexported functions ---------------------- */

#define KUNWIND_ENDBR64	0xfa1e0ff3	/* f3 0f 1e fa */

/*
 * A kprobe's address of a function, as a pointer to call it: with IBT
 * the probe sits after the function's ENDBR, so step back to it.
 */
static inline unsigned long kunwind_probed_func(unsigned long addr)
{
	u32 insn;

	if (!copy_from_kernel_nofault(&insn, (void *)(addr - 4), sizeof(insn)) &&
	    insn == KUNWIND_ENDBR64)
		return addr - 4;
	return addr;
}

/*
 * With kernel IBT enabled an indirect call must land on ENDBR64, and
 * objtool seals (overwrites) the ENDBR of functions whose address is
 * never taken, such as get_stack_info(): calling one through a pointer
 * would raise #CP.  So check before calling, never crash.
 */
static inline bool kunwind_indirect_call_ok(unsigned long addr)
{
	u32 insn;

	if (!addr || copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn)))
		return false;
#ifdef CONFIG_X86_KERNEL_IBT
	if (cpu_feature_enabled(X86_FEATURE_IBT) && insn != KUNWIND_ENDBR64)
		return false;
#endif
	return true;
}

/* ---- stacks -------------------------------------------------------- */

/*
 * Addresses a non-faulting kernel load may touch: what
 * copy_from_kernel_nofault_allowed() accepts.  Not user addresses (with
 * SMAP a kernel load from one oopses before the exception table is
 * consulted) nor the guard page above them, not the vsyscall page, and
 * only canonical ones for this machine's paging (57 bits with 5-level).
 */
static __always_inline bool kunwind_kernel_addr_ok(unsigned long addr)
{
	unsigned int bits = boot_cpu_data.x86_virt_bits;

	if (addr < TASK_SIZE_MAX + PAGE_SIZE)
		return false;
	if ((addr & PAGE_MASK) == VSYSCALL_ADDR)
		return false;
	/* canonical: bits 63..bits-1 all equal (all ones, here) */
	return !bits || (long)addr >> (bits - 1) == -1L;
}

/* This CPU's IRQ stack [*lo, *hi), when known without get_stack_info(). */
static inline bool kunwind_irq_stack(unsigned long *lo, unsigned long *hi)
{
#ifdef cpu_current_top_of_stack
	/* As in_irq_stack(): the pointer is the top-most word. */
	unsigned long top = (unsigned long)this_cpu_read(pcpu_hot.hardirq_stack_ptr);

	if (!top)
		return false;
	*hi = top + sizeof(long);
	*lo = *hi - IRQ_STACK_SIZE;
	return true;
#else
	return false;
#endif
}


/* ---- the kernel's ORC unwinder, for the fallback step -------------- */

#ifdef CONFIG_UNWINDER_ORC
#define KUNWIND_HAVE_ORC 1
#else
#define KUNWIND_HAVE_ORC 0
#endif

#endif /* _KUNWIND_LINUX_ARCH_X86_H */
