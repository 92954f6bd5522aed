/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-written CFI for the oracle tests (tests/readelf.test): the rules a
 * compiler rarely emits, each in one function.  Built twice: into
 * .eh_frame, and with -DCFI_DEBUG_FRAME into .debug_frame.  The functions
 * are spread over .text, .text.unlikely and .init.text so that, in the
 * relocatable object, FDEs of different sections overlap at offset 0.
 * The code is never run; only its CFI matters.
 *
 * DWARF registers: rbx 3, rbp 6, rsp 7, r10 10, r13 13, rip 16.
 */
#ifdef CFI_DEBUG_FRAME
	.cfi_sections .debug_frame
#endif

#define FUNC(name, sec)					\
	.section sec, "ax", @progbits;			\
	.p2align 4;					\
	.globl name;					\
	.type name, @function;				\
name:

#define END(name)	.size name, . - name

/* The classic frame-pointer prologue and epilogue. */
FUNC(cfi_rbp_frame, .text)
	.cfi_startproc
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	sub	$32, %rsp
	mov	%rdi, -8(%rbp)
	mov	-8(%rbp), %rax
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
END(cfi_rbp_frame)

/* Three exits, each undoing the frame, through remember/restore_state. */
FUNC(cfi_remember, .text)
	.cfi_startproc
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	push	%rbx
	.cfi_offset %rbx, -24
	mov	%rdi, %rbx
	test	%rdi, %rdi
	je	1f
	.cfi_remember_state
	pop	%rbx
	.cfi_restore %rbx
	pop	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
1:
	.cfi_restore_state
	cmp	$5, %rbx
	jb	2f
	.cfi_remember_state
	mov	-8(%rbp), %rbx
	.cfi_restore %rbx
	leave
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
2:
	.cfi_restore_state
	lea	1(%rbx), %rax
	pop	%rbx
	.cfi_restore %rbx
	pop	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
END(cfi_remember)

/* Nested remember_state: two states on the stack at once. */
FUNC(cfi_nested, .text.unlikely)
	.cfi_startproc
	push	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	.cfi_remember_state
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	.cfi_remember_state
	sub	$40, %rsp
	.cfi_adjust_cfa_offset 40
	test	%rdi, %rdi
	jne	1f
	add	$40, %rsp
	.cfi_adjust_cfa_offset -40
	pop	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
1:
	.cfi_restore_state
	pop	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	nop
	.cfi_restore_state
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
	.cfi_endproc
END(cfi_nested)

/* CFA = *(rsp + 8): DW_CFA_def_cfa_expression (breg7 8; deref). */
FUNC(cfi_cfa_deref, .text)
	.cfi_startproc
	push	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	.cfi_escape 0x0f, 0x03, 0x77, 0x08, 0x06
	nop
	nop
	.cfi_def_cfa %rsp, 16
	pop	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
END(cfi_cfa_deref)

/*
 * The expression ld emits for .plt: CFA = rsp + 8 + ((rip & 15) >= 11 ?
 * 8 : 0) (breg7 8; breg16 0; lit15; and; lit11; ge; lit3; shl; plus).
 */
FUNC(cfi_plt_expr, .text)
	.cfi_startproc
	.cfi_escape 0x0f, 0x0b, 0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, \
		    0x33, 0x24, 0x22
	.fill	16, 1, 0x90
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
END(cfi_plt_expr)

/* The outermost frame: return address undefined. */
FUNC(cfi_undef_rip, .text)
	.cfi_startproc
	.cfi_undefined %rip
	xor	%ebp, %ebp
	push	%rdi
	.cfi_adjust_cfa_offset 8
	pop	%rax
	.cfi_adjust_cfa_offset -8
	hlt
	.cfi_endproc
END(cfi_undef_rip)

/* A realigned stack, CFA on the DRAP register r10 as GCC does it. */
FUNC(cfi_drap, .text.unlikely)
	.cfi_startproc
	lea	8(%rsp), %r10
	.cfi_def_cfa %r10, 0
	and	$-16, %rsp
	push	-8(%r10)
	nop
	lea	-8(%r10), %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
END(cfi_drap)

/* CFA on r13, rbp saved as a value (val_offset): neither fits a table. */
FUNC(cfi_r13, .text.unlikely)
	.cfi_startproc
	push	%r13
	.cfi_def_cfa_offset 16
	.cfi_offset %r13, -16
	lea	16(%rsp), %r13
	.cfi_def_cfa %r13, 0
	.cfi_val_offset %rbp, -16
	nop
	.cfi_restore %rbp
	.cfi_def_cfa %rsp, 16
	pop	%r13
	.cfi_def_cfa_offset 8
	.cfi_restore %r13
	ret
	.cfi_endproc
END(cfi_r13)

/*
 * CFA offsets above 32 KiB and 64 KiB, on rsp and on rbp, and gaps long
 * enough for DW_CFA_advance_loc2 and DW_CFA_advance_loc4.
 */
FUNC(cfi_big, .text.unlikely)
	.cfi_startproc
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	sub	$40000, %rsp
	.cfi_adjust_cfa_offset 40000
	.fill	300, 1, 0x90
	sub	$40000, %rsp
	.cfi_adjust_cfa_offset 40000
	.fill	70000, 1, 0x90
	lea	80000(%rsp), %rbp
	.cfi_def_cfa %rbp, 16
	nop
	lea	-40000(%rbp), %rbp
	.cfi_def_cfa %rbp, 40016
	nop
	add	$80000, %rsp
	.cfi_def_cfa %rsp, 16
	pop	%rbp
	.cfi_def_cfa_offset 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
END(cfi_big)

/* No CFI instructions at all: the FDE's row is the CIE's initial row. */
FUNC(cfi_empty, .init.text)
	.cfi_startproc
	ret
	.cfi_endproc
END(cfi_empty)

/* rbp saved, then declared "same value" (readelf: s; ours: unchanged). */
FUNC(cfi_same_value, .init.text)
	.cfi_startproc
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	nop
	pop	%rbp
	.cfi_def_cfa_offset 8
	.cfi_same_value %rbp
	ret
	.cfi_endproc
END(cfi_same_value)

/* rbp kept in rbx (DW_CFA_register): not representable. */
FUNC(cfi_rbp_in_rbx, .init.text)
	.cfi_startproc
	mov	%rbp, %rbx
	.cfi_register %rbp, %rbx
	xor	%ebp, %ebp
	mov	%rbx, %rbp
	.cfi_restore %rbp
	ret
	.cfi_endproc
END(cfi_rbp_in_rbx)

/* The return address saved at CFA - 16 instead of CFA - 8. */
FUNC(cfi_ra_moved, .init.text)
	.cfi_startproc
	push	%rax
	.cfi_def_cfa_offset 16
	.cfi_offset %rip, -16
	nop
	pop	%rax
	.cfi_def_cfa_offset 8
	.cfi_offset %rip, -8
	ret
	.cfi_endproc
END(cfi_ra_moved)

/*
 * DW_CFA_advance_loc 0 between two rules for the same address: readelf
 * prints the row twice, and only the second one holds.
 */
FUNC(cfi_dup_row, .text)
	.cfi_startproc
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_escape 0x40
	.cfi_offset %rbp, -16
	nop
	pop	%rbp
	.cfi_def_cfa_offset 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
END(cfi_dup_row)

/* A signal frame ("S" augmentation) with ordinary rules. */
FUNC(cfi_signal, .text)
	.cfi_startproc
	.cfi_signal_frame
	push	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	nop
	pop	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
END(cfi_signal)

#ifndef CFI_DEBUG_FRAME
/* A personality and an LSDA: a "zPLR" CIE and augmentation data. */
FUNC(cfi_personality, .text)
	.cfi_startproc
	.cfi_personality 0x1b, .Lpersonality
	.cfi_lsda 0x1b, .Llsda
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	nop
	pop	%rbp
	.cfi_def_cfa_offset 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
END(cfi_personality)
	.section .rodata
.Lpersonality:
.Llsda:
	.long	0
#endif

	.section .note.GNU-stack, "", @progbits

/* So that main.c links this object; the functions above are never run. */
FUNC(cfi_run, .text)
	.cfi_startproc
	mov	%rdi, %rax
	ret
	.cfi_endproc
END(cfi_run)
