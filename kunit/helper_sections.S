/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind_test_helper.ko's text sections: one function at offset 0 of
 * each of .text, .init.text, .exit.text and .text.unlikely (this object
 * is first in the module's link, so its sections start the module's).
 * The four are laid out alike, so their calls sit at the same offset of
 * their sections, but each keeps a different frame: the CFA at the call
 * is rsp + 16, 32, 48 and 64.  A registry that confused the sections,
 * which all start at 0 in the .ko, would find another one's rule.
 */
#include <linux/linkage.h>
#include <asm/dwarf2.h>

.macro KTH_SECTION_FN name, frame
SYM_FUNC_START(\name)
	CFI_STARTPROC
	subq	$\frame, %rsp
	CFI_ADJUST_CFA_OFFSET \frame
	call	kunwind_test_section_probe
	addq	$\frame, %rsp
	CFI_ADJUST_CFA_OFFSET -\frame
	RET
	CFI_ENDPROC
SYM_FUNC_END(\name)
.endm

	.section .text, "ax"
	KTH_SECTION_FN kth_sec_text, 8

	.section .init.text, "ax"
	KTH_SECTION_FN kth_sec_init, 24

	.section .exit.text, "ax"
	KTH_SECTION_FN kth_sec_exit, 40

	.section .text.unlikely, "ax"
	KTH_SECTION_FN kth_sec_unlikely, 56
