/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suites take of the architecture, x86-64's or arm64's, in one
 * place (as unwind/linux/arch/ is kunwind.ko's):
 *
 *   KT_ORACLE, KT_FALLBACK      the names of the kernel's own walk
 *                               (trace.c's oracle) and of kunwind's
 *                               fallback step, for messages
 *   KT_ENTRY_TYPE, _CFA         the row at a C function's first byte
 *   KT_SEC_FRAMED(fn), KT_SEC_RA  an ip in the helper's .text function
 *                               (helper_sections*.S) past its frame's
 *                               set-up, and the stack word there that
 *                               holds the return address
 *   KT_KTHREAD_FRAMES           a kthread's frames from its function on
 *   KT_ZERO_RA_STOP             why a walk stops at a first instruction
 *                               whose return address is 0 (arm64: no
 *                               x30 at all, the LR row unfollowable)
 *   KT_RA_SLOT(sp, bp, i)       the stack word frame i's return address
 *                               was read from: below its sp, or in
 *                               frame i - 1's record (arm64)
 *   kt_strip_ra()               a return address read from the stack,
 *                               its PAC stripped (arm64)
 *   kt_regs_init()              a register set: ip, sp, kernel or user
 *   kt_regs_entry_ra()          its return address at a function's
 *                               first instruction: at sp, or x30
 *   KT_NOFAULT_BAD_ADDRS        addresses a nofault read must refuse,
 *   kt_nofault_bites()          and what makes such a read fault here
 */
#ifndef _KUNWIND_KUNIT_ARCH_H
#define _KUNWIND_KUNIT_ARCH_H

#include <kunit/test.h>
#include <asm/ptrace.h>
#include "unwind/kunwind.h"

#ifdef CONFIG_X86_64
#include <asm/ibt.h>
#include <asm/segment.h>
#include <asm/vsyscall.h>

#define KT_ORACLE	"ORC"
#define KT_FALLBACK	"ORC"
#define KT_ENTRY_TYPE	KUNWIND_TYPE_CALL
#define KT_ENTRY_CFA	8
/* Past its ENDBR, which no FDE covers: CFA rsp + 8. */
#define KT_SEC_FRAMED(fn)	((fn) + ENDBR_INSN_SIZE)
#define KT_SEC_RA		0
#define KT_KTHREAD_FRAMES	4
#define KT_RA_SLOT(sp, bp, i)	((sp)[i] - sizeof(long))
#define KT_ZERO_RA_STOP		KUNWIND_STOP_BAD_RA

static inline unsigned long kt_strip_ra(unsigned long ra)
{
	return ra;
}

static inline void kt_regs_init(struct pt_regs *regs, unsigned long ip,
				unsigned long sp, bool user)
{
	regs->ip = ip;
	regs->sp = sp;
	regs->cs = user ? __USER_CS : __KERNEL_CS;
	regs->ss = user ? __USER_DS : __KERNEL_DS;
}

static inline void kt_regs_entry_ra(struct pt_regs *regs, unsigned long *stack,
				    unsigned long ra)
{
	stack[0] = ra;
}

#define KT_NOFAULT_BAD_ADDRS {						\
	/* with SMAP any kernel load from these oopses */		\
	0x1000, 0x7fffffff0000UL,					\
	TASK_SIZE_MAX,			/* the guard page */		\
	VSYSCALL_ADDR,							\
	/* non-canonical with 4- and 5-level paging */			\
	0x8000000000000000UL, 0x0100000000000000UL,			\
	1UL << (boot_cpu_data.x86_virt_bits - 1),			\
}

/* What makes the checks bite: expected, the QEMU run has both. */
static inline void kt_nofault_bites(struct kunit *test)
{
	kunit_info(test, "x86_virt_bits %u, SMAP %s\n",
		   boot_cpu_data.x86_virt_bits,
		   boot_cpu_has(X86_FEATURE_SMAP) ? "on" : "off");
	KUNIT_EXPECT_TRUE_MSG(test, boot_cpu_has(X86_FEATURE_SMAP),
			      "no SMAP: a user-address load would not oops here");
	KUNIT_EXPECT_TRUE_MSG(test, pgtable_l5_enabled(),
			      "no 5-level paging: canonical means 48 bits here");
}
#elif defined(CONFIG_ARM64)
#include <asm/cpufeature.h>
#include <asm/memory.h>
#include <asm/pointer_auth.h>

#define KT_ORACLE	"frame records"
#define KT_FALLBACK	"frame-record"
#define KT_ENTRY_TYPE	KUNWIND_TYPE_LR
#define KT_ENTRY_CFA	0
/* Past "bti c" and "stp x29, x30, [sp, #-16]!": CFA sp + 16, x30 at sp + 8. */
#define KT_SEC_FRAMED(fn)	((fn) + 8)
#define KT_SEC_RA		1
#define KT_KTHREAD_FRAMES	3
#define KT_RA_SLOT(sp, bp, i)	((i) ? (bp)[(i) - 1] + sizeof(long) : 0)
#define KT_ZERO_RA_STOP		KUNWIND_STOP_UNSUPPORTED

static inline unsigned long kt_strip_ra(unsigned long ra)
{
	return ptrauth_strip_kernel_insn_pac(ra);
}

static inline void kt_regs_init(struct pt_regs *regs, unsigned long ip,
				unsigned long sp, bool user)
{
	regs->pc = ip;
	regs->sp = sp;
	regs->pstate = user ? PSR_MODE_EL0t : PSR_MODE_EL1h;
}

static inline void kt_regs_entry_ra(struct pt_regs *regs, unsigned long *stack,
				    unsigned long ra)
{
	regs->regs[30] = ra;
}

/*
 * User addresses (with PAN a kernel load from them faults: a kthread
 * borrows the last user mm's TTBR0, whose mappings are readable
 * without it), the first byte past the user range, a tagged user
 * address (top-byte ignore: still user), the top half of the user range,
 * and addresses in neither half of the address space.  kunwind refuses
 * all of them before a load (below PAGE_OFFSET).
 */
#define KT_NOFAULT_BAD_ADDRS {						\
	0x1000, 0x7fffffff0000UL, TASK_SIZE_MAX,			\
	0x0100000000001000UL, 1UL << (vabits_actual - 1),		\
	0x8000000000000000UL, PAGE_OFFSET - PAGE_SIZE,			\
}

/* What makes the checks bite: expected, the test kernel has PAN. */
static inline void kt_nofault_bites(struct kunit *test)
{
	kunit_info(test, "vabits_actual %llu, PAN %s\n", (u64)vabits_actual,
		   system_uses_hw_pan() ? "on" : "off");
	KUNIT_EXPECT_TRUE_MSG(test, system_uses_hw_pan(),
			      "no PAN: a user-address load could read, not fault, here");
}
#else
#error "kunit/arch.h: an architecture the suites do not know"
#endif

#endif /* _KUNWIND_KUNIT_ARCH_H */
