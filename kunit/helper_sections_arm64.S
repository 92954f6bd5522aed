/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind_test_helper.ko's text sections on arm64 (helper_sections.S is
 * x86-64's): one function at offset 0 of each of .text, .init.text,
 * .exit.text and .text.unlikely (this object is first in the module's
 * link, so its sections start the module's).  The four are laid out
 * alike, so their calls sit at the same offset of their sections, but
 * each keeps a different frame: the CFA at the bl is sp + 16, 32, 48 and
 * 64.  A registry that confused the sections, which all start at 0 in
 * the .ko, would find another one's rule.
 *
 * The layout the registry suite relies on (registry_test.c, race_walk()):
 * SYM_FUNC_START's "bti c" at offset 0, the frame record pushed by the
 * stp at 4, so from offset 8 on the CFA is sp + frame and the return
 * address is at CFA - frame + 8.  The CFI goes to .debug_frame, as the
 * compiler's does (arm64 kernels build with -fno-asynchronous-unwind-tables).
 */
#include <linux/linkage.h>

	.cfi_sections .debug_frame

.macro KTH_SECTION_FN name, frame
SYM_FUNC_START(\name)
	.cfi_startproc
	stp	x29, x30, [sp, #-\frame]!
	.cfi_def_cfa_offset \frame
	.cfi_offset 29, -\frame
	.cfi_offset 30, -\frame + 8
	mov	x29, sp
	bl	kunwind_test_section_probe
	ldp	x29, x30, [sp], #\frame
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
SYM_FUNC_END(\name)
.endm

	.section .text, "ax"
	KTH_SECTION_FN kth_sec_text, 16

	.section .init.text, "ax"
	KTH_SECTION_FN kth_sec_init, 32

	.section .exit.text, "ax"
	KTH_SECTION_FN kth_sec_exit, 48

	.section .text.unlikely, "ax"
	KTH_SECTION_FN kth_sec_unlikely, 64
