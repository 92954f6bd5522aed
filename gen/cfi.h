/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to cfi.c and cfa.c: what a parsed CIE holds, the rules the
 * interpreter tracks, and the interpreter's interface.
 *
 *   cfi.c  the records: walks a frame section, parses CIEs and FDEs, runs
 *          each FDE's instructions (cfa_step()) over its address range
 *          and adds a row for each stretch between location instructions
 *   cfa.c  the instructions: one DW_CFA_* at a time on a cfi_state, the
 *          CIE's initial state, and a cfi_state as a kunwind rule
 *
 * kunwind recovers three registers, like ORC: sp (through the CFA), the
 * frame pointer (x86: rbp, arm64: x29) and the return address.  The
 * interpreter therefore tracks the CFA rule and the rules of the frame
 * pointer and of the CIE's return-address column, by the object's
 * architecture's numbers (arch.h), and parses (but ignores) the rules of
 * every other register.  What the table cannot represent becomes an
 * UNSUPPORTED row, never an approximation.
 */
#ifndef _KUNWIND_GEN_CFI_H
#define _KUNWIND_GEN_CFI_H

#include "stages.h"
#include "dwarf.h"
#include "arch.h"

#define MAX_STATES	64	/* remember_state depth; GCC uses 1-2 */

/* A parsed CIE. */
struct cie {
	const struct kgen_arch *arch;	/* the object's */
	u64 off;
	u64 code_align;
	s64 data_align;
	unsigned int ra_reg;
	u8 fde_enc;
	bool z, ok;
	const u8 *insn, *insn_end;
};

/* Rules of one register. */
enum { R_SAME, R_UNDEF, R_OFFSET, R_VAL_OFFSET, R_REG, R_EXPR, R_VAL_EXPR };

struct reg_rule {
	u8 kind;
	s64 off;
	const u8 *expr;
	size_t len;
};

enum { CFA_NONE, CFA_REG, CFA_EXPR };

struct cfa_rule {
	u8 kind;
	unsigned int reg;
	s64 off;
	const u8 *expr;
	size_t len;
};

struct cfi_state {
	struct cfa_rule cfa;
	struct reg_rule sp, bp, ra;	/* sp: the caller's sp is the CFA; bp: the FP */
};

/*
 * The interpreter's state while it runs one instruction list: the rules,
 * the remember_state stack, and the state to restore registers to (NULL
 * in the CIE's own instructions, which have none).
 */
struct interp {
	const struct cie *cie;
	const u8 *data;			/* the frame section (set_loc's offset) */
	struct rd r;
	struct cfi_state s;
	const struct cfi_state *init;
	struct cfi_state stack[MAX_STATES];
	unsigned int depth;
};

/* What one instruction did. */
enum step {
	STEP_RULE,		/* changed the rules (or nothing: nop) */
	STEP_ADVANCE,		/* advance the location by *arg code units */
	STEP_SET_LOC,		/* set_loc: *arg as encoded, at offset *field */
	STEP_BAD,		/* malformed, or invalid where it is */
};

/*
 * Decode and run the instruction at in->r.p.  Rule changes are done
 * there; a location instruction is only decoded (STEP_ADVANCE,
 * STEP_SET_LOC): what a location is belongs to the FDE (cfi.c).
 */
enum step cfa_step(struct interp *in, u64 *arg, u64 *field);
/*
 * The CIE's initial instructions: the state each of its FDEs starts
 * from.  data is the frame section.  False if they are malformed.
 */
bool cfa_cie_state(const u8 *data, const struct cie *cie,
		   struct cfi_state *init);
/*
 * The kunwind rule of a state, by the CIE's architecture; UNSUPPORTED
 * where the table cannot say it.  The back ends are arch.c's to_rule.
 */
struct kunwind_rule cfa_to_rule(const struct cie *cie,
				const struct cfi_state *s);
void cfa_to_rule_x86_64(const struct cfi_state *s, struct kunwind_rule *r);
void cfa_to_rule_arm64(const struct cfi_state *s, struct kunwind_rule *r);

#endif /* _KUNWIND_GEN_CFI_H */
