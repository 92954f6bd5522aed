// SPDX-License-Identifier: GPL-2.0
/*
 * The architectures the generator reads (arch.h).  The CFI interpreter
 * tracks each one's sp, frame pointer and return-address column, and each
 * has its own rules -> kunwind rule back end in cfa.c; everything else in
 * gen/ is the same for both.
 */
#include <elf.h>
#include "cfi.h"

#ifndef EM_AARCH64
#define EM_AARCH64	183
#endif
#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64	257
#endif

const struct kgen_arch kgen_arch_x86_64 = {
	.name = "x86-64",
	.machine = EM_X86_64,
	.table_arch = KUNWIND_ARCH_ID_X86_64,
	.dw_sp = 7, .dw_fp = 6, .dw_ra = 16,	/* rsp, rbp, rip */
	.orc = true,
	.r_abs64 = R_X86_64_64,
	.sp_name = "rsp", .fp_name = "rbp",
	.to_rule = cfa_to_rule_x86_64,
};

/*
 * GCC's arm64 kernel CFI (Documentation/arm64.rst): .debug_frame, CIE
 * code_align 4, data_align -8, RA column 30, DW_CFA_AARCH64_negate_ra_state
 * after paciasp and autiasp.
 */
const struct kgen_arch kgen_arch_arm64 = {
	.name = "arm64",
	.machine = EM_AARCH64,
	.table_arch = KUNWIND_ARCH_ID_ARM64,
	.dw_sp = 31, .dw_fp = 29, .dw_ra = 30,	/* sp, x29, x30 */
	.negate_ra_state = true,
	.r_abs64 = R_AARCH64_ABS64,
	.sp_name = "sp", .fp_name = "x29",
	.to_rule = cfa_to_rule_arm64,
};

const struct kgen_arch *kgen_arch_of(unsigned int machine)
{
	if (machine == EM_X86_64)
		return &kgen_arch_x86_64;
	if (machine == EM_AARCH64)
		return &kgen_arch_arm64;
	return NULL;
}

const struct kgen_arch *kgen_arch_of_table(unsigned int table_arch)
{
	return table_arch == KUNWIND_ARCH_ID_ARM64 ? &kgen_arch_arm64 :
						      &kgen_arch_x86_64;
}
