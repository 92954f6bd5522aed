/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly frames for the kunwind_asm suite (asm_test.c): one function per
 * way of describing a frame, each calling kt_asm_probe(p), which walks
 * from there with kunwind and with ORC.  Two unwinders read this file:
 * kunwind from the .cfi_* directives and the KUNWIND_HINT_* macros, ORC
 * from objtool's analysis and the UNWIND_HINT_* macros; every special
 * frame carries both hints side by side, so ORC is the oracle for each.
 *
 *	kt_asm_cfi		.cfi_* only, CFA on rbp
 *	kt_asm_call		no CFI at all: KUNWIND_HINT_CALL per state
 *	kt_asm_regs		a struct pt_regs: KUNWIND_HINT_REGS
 *	kt_asm_iret		an iret frame: KUNWIND_HINT_IRET
 *	kt_asm_switch		runs on another stack: KUNWIND_HINT_STACK_SWITCH
 *	kt_asm_end		the stack ends here: KUNWIND_HINT_END
 *	kt_asm_undefined	no unwinding past here: KUNWIND_HINT_UNDEFINED
 *	kt_asm_noret_caller	ends with a call to a no-return function,
 *				right before kt_asm_after_noret
 *
 * The register and iret frames describe an "interrupted" instruction
 * (kt_asm_regs_ip, kt_asm_iret_ip) at a CFI row boundary: there the CFA is
 * rsp + 24, one byte before it rsp + 16.  The walk after a register frame
 * must look the ip up exactly; with ip - 1 it would read the wrong slot.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/dwarf2.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>

#include "unwind/linux/kunwind_asm.h"

#define PT_REGS_SIZE	(21 * 8)
#define PT_BP		(4 * 8)
#define PT_IP		(16 * 8)
#define PT_CS		(17 * 8)
#define PT_FLAGS	(18 * 8)
#define PT_SP		(19 * 8)
#define PT_SS		(20 * 8)
#define IRET_SIZE	(5 * 8)

	.text

/* .cfi_* only: rbp frame, rbx saved, 40 bytes of locals. */
SYM_FUNC_START(kt_asm_cfi)
	CFI_STARTPROC
	pushq	%rbp
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET rbp, 0
	movq	%rsp, %rbp
	CFI_DEF_CFA_REGISTER rbp
	pushq	%rbx
	CFI_REL_OFFSET rbx, -8
	subq	$40, %rsp
	call	kt_asm_probe
	addq	$40, %rsp
	popq	%rbx
	CFI_RESTORE rbx
	popq	%rbp
	CFI_DEF_CFA rsp, 8
	CFI_RESTORE rbp
	RET
	CFI_ENDPROC
SYM_FUNC_END(kt_asm_cfi)

/* No .cfi_* (no FDE): the kunwind hints alone describe it. */
SYM_FUNC_START(kt_asm_call)
	KUNWIND_HINT_CALL(8)
	pushq	%rbx
	KUNWIND_HINT_CALL(16)
	pushq	%r12
	KUNWIND_HINT_CALL(24)
	subq	$32, %rsp
	KUNWIND_HINT_CALL(56)
	call	kt_asm_probe
	addq	$32, %rsp
	KUNWIND_HINT_CALL(24)
	popq	%r12
	KUNWIND_HINT_CALL(16)
	popq	%rbx
	KUNWIND_HINT_CALL(8)
	RET
SYM_FUNC_END(kt_asm_call)

/*
 * A struct pt_regs whose ip is kt_asm_regs_ip and whose sp is the rsp
 * there, as an interrupt at that instruction would have left it.
 */
SYM_FUNC_START(kt_asm_regs)
	CFI_STARTPROC
	pushq	%rbx
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET rbx, 0
	pushq	%r12
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET r12, 0
	UNWIND_HINT_SAVE
SYM_INNER_LABEL(kt_asm_regs_ip, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	movq	%rsp, %rax
	subq	$PT_REGS_SIZE, %rsp
	CFI_ADJUST_CFA_OFFSET PT_REGS_SIZE
	movq	%rbp, PT_BP(%rsp)
	leaq	kt_asm_regs_ip(%rip), %rcx
	movq	%rcx, PT_IP(%rsp)
	movq	$__KERNEL_CS, PT_CS(%rsp)
	pushfq
	CFI_ADJUST_CFA_OFFSET 8
	popq	PT_FLAGS(%rsp)
	CFI_ADJUST_CFA_OFFSET -8
	movq	%rax, PT_SP(%rsp)
	movq	$__KERNEL_DS, PT_SS(%rsp)
	UNWIND_HINT_REGS
	KUNWIND_HINT_REGS(0)
	call	kt_asm_probe
	addq	$PT_REGS_SIZE, %rsp
	CFI_ADJUST_CFA_OFFSET -PT_REGS_SIZE
	UNWIND_HINT_RESTORE
	popq	%r12
	CFI_ADJUST_CFA_OFFSET -8
	CFI_RESTORE r12
	popq	%rbx
	CFI_ADJUST_CFA_OFFSET -8
	CFI_RESTORE rbx
	RET
	CFI_ENDPROC
SYM_FUNC_END(kt_asm_regs)

/* The same with a hardware iret frame only: ip, cs, flags, sp, ss. */
SYM_FUNC_START(kt_asm_iret)
	CFI_STARTPROC
	pushq	%rbx
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET rbx, 0
	pushq	%r12
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET r12, 0
	UNWIND_HINT_SAVE
SYM_INNER_LABEL(kt_asm_iret_ip, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	movq	%rsp, %rax
	subq	$IRET_SIZE, %rsp
	CFI_ADJUST_CFA_OFFSET IRET_SIZE
	leaq	kt_asm_iret_ip(%rip), %rcx
	movq	%rcx, 0(%rsp)
	movq	$__KERNEL_CS, 8(%rsp)
	pushfq
	CFI_ADJUST_CFA_OFFSET 8
	popq	16(%rsp)
	CFI_ADJUST_CFA_OFFSET -8
	movq	%rax, 24(%rsp)
	movq	$__KERNEL_DS, 32(%rsp)
	UNWIND_HINT_IRET_REGS
	KUNWIND_HINT_IRET(0)
	call	kt_asm_probe
	addq	$IRET_SIZE, %rsp
	CFI_ADJUST_CFA_OFFSET -IRET_SIZE
	UNWIND_HINT_RESTORE
	popq	%r12
	CFI_ADJUST_CFA_OFFSET -8
	CFI_RESTORE r12
	popq	%rbx
	CFI_ADJUST_CFA_OFFSET -8
	CFI_RESTORE rbx
	RET
	CFI_ENDPROC
SYM_FUNC_END(kt_asm_iret)

/*
 * kt_asm_switch(p, tos): call kt_asm_probe(p) on the stack whose top word
 * is tos, as the kernel's call_on_stack() does: the old rsp is stored at
 * the new top, so there CFA = *(rsp) + 16 (rbx was pushed first).  DWARF
 * can only say that with an expression (DW_OP_breg7 0; DW_OP_deref;
 * DW_OP_plus_uconst 16), which kunwind-gen does not interpret: the hint is
 * what kunwind reads; objtool recognises the pattern for ORC.
 */
SYM_FUNC_START(kt_asm_switch)
	CFI_STARTPROC
	pushq	%rbx
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET rbx, 0
	movq	%rsp, (%rsi)
	movq	%rsi, %rsp
	CFI_ESCAPE 0x0f, 0x05, 0x77, 0x00, 0x06, 0x23, 0x10
	KUNWIND_HINT_STACK_SWITCH(16)
	call	kt_asm_probe
	popq	%rsp
	CFI_DEF_CFA rsp, 16
	popq	%rbx
	CFI_ADJUST_CFA_OFFSET -8
	CFI_RESTORE rbx
	RET
	CFI_ENDPROC
SYM_FUNC_END(kt_asm_switch)

/* The stack ends in this function: both walks stop, complete, after it. */
SYM_FUNC_START(kt_asm_end)
	CFI_STARTPROC
	UNWIND_HINT_END_OF_STACK
	KUNWIND_HINT_END
	call	kt_asm_probe
	UNWIND_HINT_FUNC
	RET
	CFI_ENDPROC
SYM_FUNC_END(kt_asm_end)

/* Nothing is known past this function: both walks stop, incomplete. */
SYM_FUNC_START(kt_asm_undefined)
	CFI_STARTPROC
	UNWIND_HINT_UNDEFINED
	KUNWIND_HINT_UNDEFINED
	call	kt_asm_probe
	UNWIND_HINT_FUNC
	RET
	CFI_ENDPROC
SYM_FUNC_END(kt_asm_undefined)

/*
 * kt_asm_noret_caller(n): its last instruction calls the no-return
 * kt_noreturn_probe(n), so its return address is the first byte of
 * kt_asm_after_noret, placed right after it (no alignment).  There the
 * CFA is rsp + 8; inside the call it is rsp + 24.  The FDE of
 * kt_asm_after_noret starts before its ENDBR, so that first byte has a
 * row: a walker that looked the return address up as is would take it.
 */
SYM_FUNC_START(kt_asm_noret_caller)
	CFI_STARTPROC
	pushq	%rbx
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET rbx, 0
	pushq	%r12
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET r12, 0
	call	kt_noreturn_probe
	CFI_ENDPROC
SYM_FUNC_END(kt_asm_noret_caller)

	.globl	kt_asm_after_noret
	.type	kt_asm_after_noret, @function
kt_asm_after_noret:
	CFI_STARTPROC
	ENDBR
	subq	$40, %rsp
	CFI_ADJUST_CFA_OFFSET 40
	movq	%rdi, (%rsp)
	movq	(%rsp), %rax
	addq	$40, %rsp
	CFI_ADJUST_CFA_OFFSET -40
	RET
	CFI_ENDPROC
SYM_FUNC_END(kt_asm_after_noret)
