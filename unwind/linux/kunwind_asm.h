/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind hints for assembly: what DWARF CFI cannot say well.
 *
 *	#include "kunwind_asm.h"	(from a .S file, or from C for inline asm)
 *
 *	KUNWIND_HINT_REGS(off)		a struct pt_regs is at rsp + off
 *	KUNWIND_HINT_IRET(off)		a hardware iret frame is at rsp + off
 *	KUNWIND_HINT_END		end of stack: the walk is complete
 *	KUNWIND_HINT_UNDEFINED		no unwind information here
 *	KUNWIND_HINT_CALL(off)		ordinary frame: CFA = rsp + off,
 *					return address at CFA - 8, rbp unchanged
 *	KUNWIND_HINT_STACK_SWITCH(off)	the previous rsp was saved at [rsp]:
 *					CFA = *(rsp) + off
 *
 * A hint describes the instruction that follows it and every one after,
 * up to the next CFI row boundary (the next .cfi_* directive that moves
 * the location), the next hint or the end of the FDE; where no FDE covers
 * the hint, up to the end of the function symbol that contains it.  So
 * put a hint right after the instruction that builds the frame it
 * describes, as with the kernel's UNWIND_HINT_* for objtool.
 *
 * Each hint is one struct kunwind_hint (unwind/format.h) in the non-alloc
 * section KUNWIND_HINT_SECTION: kunwind-gen reads it from the module's .o,
 * and the module link (scripts/module.lds: /DISCARD/ *(.discard.*))
 * drops it, so nothing reaches the loaded module.  The ip is PC-relative
 * (R_X86_64_PC32 in the object), as objtool's .discard.unwind_hints.
 *
 * In C, the same names expand to strings for asm():
 *	asm volatile(KUNWIND_HINT_END);
 *
 * The .cfi_* directives of module assembly are read too.  Put them in
 * .debug_frame (`.cfi_sections .debug_frame`, as <asm/dwarf2.h> does):
 * gas's default .eh_frame would be loaded with the module, and objtool
 * warns about its references to functions past their ENDBR.
 */
#ifndef _KUNWIND_ASM_H
#define _KUNWIND_ASM_H

#ifdef __ASSEMBLY__
#define KUNWIND_FORMAT_DEFINES_ONLY
#include "../format.h"
#undef KUNWIND_FORMAT_DEFINES_ONLY

/* .Lkunwind_hint_\@ is unique per expansion: no clash with user labels. */
.macro __kunwind_hint type:req, off:req
.Lkunwind_hint_\@:
	.pushsection KUNWIND_HINT_SECTION, "", @progbits
	.long .Lkunwind_hint_\@ - .
	.short \off
	.byte \type
	.byte 0
	.popsection
.endm

#define __KUNWIND_HINT(type, off)	__kunwind_hint type, off

#else /* !__ASSEMBLY__ */

#ifdef __KERNEL__
#include <linux/types.h>
#endif
#include "../format.h"

#define __KUNWIND_STR(x)	#x
#define __KUNWIND_XSTR(x)	__KUNWIND_STR(x)

/* 986: as objtool's 987: in <linux/objtool.h>; local to this asm(). */
#define __KUNWIND_HINT(type, off)					\
	"986:\n\t"							\
	".pushsection " __KUNWIND_XSTR(KUNWIND_HINT_SECTION)		\
		", \"\", @progbits\n\t"					\
	".long 986b - .\n\t"						\
	".short " __KUNWIND_XSTR(off) "\n\t"				\
	".byte " __KUNWIND_XSTR(type) "\n\t"				\
	".byte 0\n\t"							\
	".popsection\n\t"

#endif /* __ASSEMBLY__ */

#define KUNWIND_HINT_REGS(off)	__KUNWIND_HINT(KUNWIND_HINT_TYPE_REGS, off)
#define KUNWIND_HINT_IRET(off)	__KUNWIND_HINT(KUNWIND_HINT_TYPE_IRET, off)
#define KUNWIND_HINT_END	__KUNWIND_HINT(KUNWIND_HINT_TYPE_END, 0)
#define KUNWIND_HINT_UNDEFINED	__KUNWIND_HINT(KUNWIND_HINT_TYPE_UNDEFINED, 0)
#define KUNWIND_HINT_CALL(off)	__KUNWIND_HINT(KUNWIND_HINT_TYPE_CALL, off)
#define KUNWIND_HINT_STACK_SWITCH(off) \
	__KUNWIND_HINT(KUNWIND_HINT_TYPE_STACK_SWITCH, off)

#endif /* _KUNWIND_ASM_H */
