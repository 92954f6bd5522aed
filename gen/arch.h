/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch.c: what the generator knows of each architecture it reads: the one
 * place where x86-64 and arm64 differ for gen/.  An object's e_machine
 * picks one (kelf_arch()); a bare CFI buffer (the fuzz target) is x86-64.
 */
#ifndef _KUNWIND_GEN_ARCH_H
#define _KUNWIND_GEN_ARCH_H

#include "../unwind/env.h"

struct cfi_state;
struct kunwind_rule;

struct kgen_arch {
	const char *name;		/* "x86-64", "arm64" */
	u16 machine;			/* EM_X86_64, EM_AARCH64 */
	u8 table_arch;			/* KUNWIND_ARCH_ID_*: the table's flags */
	/* DWARF register numbers: sp, the frame pointer, the default RA column */
	unsigned int dw_sp, dw_fp, dw_ra;
	/* DW_CFA 0x2d is DW_CFA_AARCH64_negate_ra_state (else SPARC's, refused) */
	bool negate_ra_state;
	/* The ORC and retpoline-thunk stages apply (orc.c) */
	bool orc;
	/* embed.c's relocation of a 64-bit segment base (S + A) */
	unsigned int r_abs64;
	/* dump.c: the names of KUNWIND_REG_SP and KUNWIND_REG_BP */
	const char *sp_name, *fp_name;
	/* The kunwind rule of an interpreted CFI state (cfa.c) */
	void (*to_rule)(const struct cfi_state *s, struct kunwind_rule *r);
};

extern const struct kgen_arch kgen_arch_x86_64, kgen_arch_arm64;

/* The architecture of ELF machine @machine; NULL if kunwind has none. */
const struct kgen_arch *kgen_arch_of(unsigned int machine);
/* The architecture of a table's flags (kunwind_table_arch()); never NULL. */
const struct kgen_arch *kgen_arch_of_table(unsigned int table_arch);

#endif /* _KUNWIND_GEN_ARCH_H */
