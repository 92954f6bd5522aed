/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64's part of kunwind.ko: what the kernel side needs of the
 * architecture below the walk, included by compat.h (arch/x86.h is the
 * other).  The walk's own hooks are in arch/arm64.c; the core's part
 * (registers, rules, pt_regs offsets, PAC stripping) is unwind/arch-arm64.h.
 *
 *   stacks          the task's, and current's per-CPU IRQ, overflow and
 *                   SDEI stacks (irq_stack_ptr and the others are not
 *                   exported: resolved by name, symbols.c)
 *   fallback        one step by the frame record at x29, as the kernel's
 *                   own unwinder takes every step (" (fp)")
 *   current's frame x29 does not give the caller's sp (the record is at
 *                   the bottom of the frame): the walk starts in the
 *                   calling function itself, exact, and steps once
 *
 * Name clash: arch/arm64/kernel/stacktrace.c has a static struct
 * kunwind_state, kunwind_next() and kunwind_init() of its own (its
 * frame-record walker).  They are that file's alone; kunwind's headers
 * are never included there (Documentation/arm64.rst).
 */
#ifndef _KUNWIND_LINUX_ARCH_ARM64_H
#define _KUNWIND_LINUX_ARCH_ARM64_H

#include <asm/memory.h>
#include <asm/pointer_auth.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/stacktrace.h>

/* The stacks a walk of current may cross, as arm64's unwinder's list. */
typedef enum {
	KUNWIND_STACK_UNKNOWN,
	KUNWIND_STACK_TASK,
	KUNWIND_STACK_IRQ,
	KUNWIND_STACK_OVERFLOW,
	KUNWIND_STACK_SDEI_NORMAL,
	KUNWIND_STACK_SDEI_CRITICAL,
} kunwind_stack_t;

/* call_on_irq_stack() leaves a frame record; its row says so (gen). */
#define KUNWIND_IRQ_STACK_TOP_SAVES_SP	0

/* The fallback step's name, and its mark in a printed trace. */
#define KUNWIND_FALLBACK_NAME	"frame-record"
#define KUNWIND_FALLBACK_TAG	" (fp)"

/* The exact pc of a register frame, as show_regs() names it. */
#define KUNWIND_REGS_LINE(lvl, ip, tag) \
	"%s pc : %pS%s\n", lvl, (void *)(ip), tag

static __always_inline unsigned long kunwind_regs_fp(const struct pt_regs *regs)
{
	return regs->regs[29];
}

static __always_inline unsigned long kunwind_regs_lr(const struct pt_regs *regs)
{
	return regs->regs[30];
}

/*
 * The frame of the function this expands in, at this point: its pc (adr
 * of the asm itself), sp and x29, exact (called false).  The walk steps
 * from it to the caller by the function's own row
 * (kunwind_walk_start_here()).
 */
#define kunwind_caller_frame(ip, sp, bp, called)			\
do {									\
	asm volatile("adr %0, .\n\tmov %1, sp\n\tmov %2, x29"		\
		     : "=r" (ip), "=r" (sp), "=r" (bp));			\
	(called) = false;						\
} while (0)

/* A kprobe's address of a function is the function's. */
static inline unsigned long kunwind_probed_func(unsigned long addr)
{
	return addr;
}

/*
 * A function resolved by name may be called through a pointer: no BTI
 * kernel here (6.12 refuses BTI_KERNEL with GCC), no kCFI with GCC.
 */
static inline bool kunwind_indirect_call_ok(unsigned long addr)
{
	u32 insn;

	return addr && !copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn));
}

/*
 * Addresses a non-faulting kernel load may touch: the kernel's half
 * (TTBR1), from the linear map's start up: PAGE_OFFSET is the lowest
 * kernel address for the configured VA_BITS (with 52 configured and 48
 * in use the range is only larger, and the load faults, fixed up).
 */
static __always_inline bool kunwind_kernel_addr_ok(unsigned long addr)
{
	return addr >= PAGE_OFFSET;
}

#endif /* _KUNWIND_LINUX_ARCH_ARM64_H */
