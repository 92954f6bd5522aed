/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly of kunwind_sample.ko on arm64 (sample_asm.S is x86-64's).
 * kunwind has no assembly hints for arm64 (kunwind_asm.h is x86-64's;
 * gen/arm64.c finds the kernel's own entry frames by their
 * instructions), so only the .cfi_* cases are here:
 *
 *	ksample_asm_cfi		.cfi_* only: a frame record, x19 saved, locals
 *
 * and the asm death (die=asm): ksample_asm_die (.cfi_*, a frame record)
 * calling ksample_asm_die_read, a leaf that saves x19 below sp and reads
 * address 0 with its return address still in x30: the register frame's
 * lr is the only way to ksample_asm_die, which arm64's frame-record walk
 * (x29 still ksample_asm_die's record) skips.
 *
 * The CFI goes to .debug_frame, as the compiler's does for the C files
 * (arm64 kernels build with -fno-asynchronous-unwind-tables).
 */
#include <linux/linkage.h>

	.cfi_sections .debug_frame
	.text

/* .cfi_* only: a frame record, x19 saved, 16 bytes of locals. */
SYM_FUNC_START(ksample_asm_cfi)
	.cfi_startproc
	stp	x29, x30, [sp, #-48]!
	.cfi_def_cfa_offset 48
	.cfi_offset 29, -48
	.cfi_offset 30, -40
	mov	x29, sp
	str	x19, [sp, #16]
	.cfi_offset 19, -32
	mov	w19, w0
	str	x19, [sp, #32]
	bl	ksample_from_asm
	ldr	x19, [sp, #16]
	.cfi_restore 19
	ldp	x29, x30, [sp], #48
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
SYM_FUNC_END(ksample_asm_cfi)

SYM_FUNC_START(ksample_asm_die)
	.cfi_startproc
	stp	x29, x30, [sp, #-32]!
	.cfi_def_cfa_offset 32
	.cfi_offset 29, -32
	.cfi_offset 30, -24
	mov	x29, sp
	bl	ksample_asm_die_read
	ldp	x29, x30, [sp], #32
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
SYM_FUNC_END(ksample_asm_die)

SYM_FUNC_START(ksample_asm_die_read)
	.cfi_startproc
	str	x19, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 19, -16
	mov	x19, xzr
	ldr	x0, [x19]		/* the fault: a read of 0 */
	ldr	x19, [sp], #16
	.cfi_restore 19
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
SYM_FUNC_END(ksample_asm_die_read)
