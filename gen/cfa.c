// SPDX-License-Identifier: GPL-2.0
/*
 * The DW_CFA_* instructions of CIEs and FDEs: cfa_step() runs one on the
 * rules of rsp, rbp and the return address (cfi.h says why only those),
 * and cfa_to_rule() says what the rules come to as a kunwind rule,
 * recognising the few DWARF expressions x86-64 code uses.  cfi.c drives
 * them over each FDE.
 */
#include <string.h>
#include "cfi.h"

/*
 * A factored offset: operand * data_align, computed modulo 2^64 so that
 * hostile input cannot overflow a signed multiplication (the result of
 * such input is rejected later, when it does not fit the table's fields).
 */
static s64 factored(u64 v, s64 align)
{
	return (s64)(v * (u64)align);
}

/* ---- the interpreter ---- */

static void set_reg(struct interp *in, unsigned int reg, struct reg_rule rule)
{
	if (reg == in->cie->arch->dw_sp)
		in->s.sp = rule;
	else if (reg == in->cie->arch->dw_fp)
		in->s.bp = rule;
	else if (reg == in->cie->ra_reg)
		in->s.ra = rule;
}

static bool restore_reg(struct interp *in, unsigned int reg)
{
	if (!in->init)
		return false;
	if (reg == in->cie->arch->dw_sp)
		in->s.sp = in->init->sp;
	else if (reg == in->cie->arch->dw_fp)
		in->s.bp = in->init->bp;
	else if (reg == in->cie->ra_reg)
		in->s.ra = in->init->ra;
	return true;
}

/*
 * One CFA instruction.  The location instructions are only decoded: what
 * a location is belongs to the FDE (fde_rows() in cfi.c).
 */
enum step cfa_step(struct interp *in, u64 *arg, u64 *field)
{
	const struct cie *cie = in->cie;
	struct rd *r = &in->r;
	struct cfi_state *s = &in->s;
	u8 op = *r->p++, low = op & 0x3f;
	struct reg_rule rr = { 0 };
	u64 reg, v;

	switch (op >> 6) {
	case 1:			/* DW_CFA_advance_loc */
		*arg = low;
		return STEP_ADVANCE;
	case 2:			/* DW_CFA_offset */
		rr.kind = R_OFFSET;
		rr.off = factored(rd_uleb(r), cie->data_align);
		set_reg(in, low, rr);
		return STEP_RULE;
	case 3:			/* DW_CFA_restore */
		return restore_reg(in, low) ? STEP_RULE : STEP_BAD;
	}

	switch (op) {
	case 0x00:		/* nop */
		break;
	case 0x01:		/* set_loc */
		*field = r->p - in->data;
		*arg = rd_enc(r, cie->fde_enc);
		return STEP_SET_LOC;
	case 0x02:		/* advance_loc1 */
		*arg = rd_n(r, 1);
		return STEP_ADVANCE;
	case 0x03:		/* advance_loc2 */
		*arg = rd_n(r, 2);
		return STEP_ADVANCE;
	case 0x04:		/* advance_loc4 */
		*arg = rd_n(r, 4);
		return STEP_ADVANCE;
	case 0x05:		/* offset_extended */
	case 0x11:		/* offset_extended_sf */
	case 0x14:		/* val_offset */
	case 0x15:		/* val_offset_sf */
	case 0x2f:		/* GNU_negative_offset_extended */
		reg = rd_uleb(r);
		rr.kind = op == 0x14 || op == 0x15 ? R_VAL_OFFSET : R_OFFSET;
		v = op == 0x11 || op == 0x15 ? (u64)rd_sleb(r) : rd_uleb(r);
		rr.off = factored(op == 0x2f ? -v : v, cie->data_align);
		set_reg(in, reg, rr);
		break;
	case 0x06:		/* restore_extended */
		return restore_reg(in, rd_uleb(r)) ? STEP_RULE : STEP_BAD;
	case 0x07:		/* undefined */
		rr.kind = R_UNDEF;
		set_reg(in, rd_uleb(r), rr);
		break;
	case 0x08:		/* same_value */
		rr.kind = R_SAME;
		set_reg(in, rd_uleb(r), rr);
		break;
	case 0x09:		/* register */
		reg = rd_uleb(r);
		rr.kind = R_REG;
		rr.off = rd_uleb(r);
		set_reg(in, reg, rr);
		break;
	case 0x0a:		/* remember_state */
		if (in->depth == MAX_STATES)
			return STEP_BAD;
		in->stack[in->depth++] = *s;
		break;
	case 0x0b:		/* restore_state: the CFA too (DWARF 4+, GCC) */
		if (!in->depth)
			return STEP_BAD;
		*s = in->stack[--in->depth];
		break;
	case 0x0c:		/* def_cfa */
		s->cfa.kind = CFA_REG;
		s->cfa.reg = rd_uleb(r);
		s->cfa.off = rd_uleb(r);
		break;
	case 0x0d:		/* def_cfa_register */
		if (s->cfa.kind == CFA_EXPR)
			return STEP_BAD;
		s->cfa.kind = CFA_REG;
		s->cfa.reg = rd_uleb(r);
		break;
	case 0x0e:		/* def_cfa_offset */
		if (s->cfa.kind == CFA_EXPR)
			return STEP_BAD;
		s->cfa.off = rd_uleb(r);
		break;
	case 0x0f:		/* def_cfa_expression */
		s->cfa.kind = CFA_EXPR;
		s->cfa.len = rd_uleb(r);
		s->cfa.expr = r->p;
		if (s->cfa.len > (u64)(r->end - r->p))
			return STEP_BAD;
		r->p += s->cfa.len;
		break;
	case 0x10:		/* expression */
	case 0x16:		/* val_expression */
		reg = rd_uleb(r);
		rr.kind = op == 0x10 ? R_EXPR : R_VAL_EXPR;
		rr.len = rd_uleb(r);
		rr.expr = r->p;
		if (rr.len > (u64)(r->end - r->p))
			return STEP_BAD;
		r->p += rr.len;
		set_reg(in, reg, rr);
		break;
	case 0x12:		/* def_cfa_sf */
		s->cfa.kind = CFA_REG;
		s->cfa.reg = rd_uleb(r);
		s->cfa.off = factored(rd_sleb(r), cie->data_align);
		break;
	case 0x13:		/* def_cfa_offset_sf */
		if (s->cfa.kind == CFA_EXPR)
			return STEP_BAD;
		s->cfa.off = factored(rd_sleb(r), cie->data_align);
		break;
	case 0x2e:		/* GNU_args_size: rsp at landing pads only */
		rd_uleb(r);
		break;
	case 0x2d:
		/*
		 * AARCH64_negate_ra_state: the return address is signed from
		 * here (paciasp) or no longer (autiasp).  The walker strips
		 * every return address it reads, so the table keeps nothing
		 * of it.  On SPARC it is GNU_window_save: refused.
		 */
		if (!cie->arch->negate_ra_state)
			return STEP_BAD;
		break;
	default:		/* unknown */
		return STEP_BAD;
	}
	return STEP_RULE;
}

/*
 * The CIE's initial instructions: the state each of its FDEs starts
 * from.  They set rules only; a location instruction there is malformed.
 */
bool cfa_cie_state(const u8 *data, const struct cie *cie,
		   struct cfi_state *init)
{
	struct interp in = {
		.cie = cie, .data = data,
		.r = { cie->insn, cie->insn_end, false },
	};
	u64 arg, field;

	while (in.r.p < in.r.end && !in.r.err)
		if (cfa_step(&in, &arg, &field) != STEP_RULE)
			return false;
	*init = in.s;
	return !in.r.err;
}

/* ---- rules -> kunwind rules ---- */

static bool expr_is(const u8 *e, size_t len, const u8 *want,
		    size_t wlen)
{
	return len == wlen && !memcmp(e, want, len);
}

/* Expression "DW_OP_bregN N" (breg: its opcode) with an optional trailing op. */
static bool expr_breg(const u8 *e, size_t len, u8 breg, s64 *n,
		      int tail)
{
	struct rd r = { e, e + len, false };

	if (!len || *r.p++ != breg)
		return false;
	*n = rd_sleb(&r);
	if (tail >= 0 && (r.p == r.end || *r.p++ != tail))
		return false;
	return !r.err && r.p == r.end;
}

/*
 * glibc's and binutils' PLT rule: CFA = rsp + N + ((rip & 15) >= T) * 8,
 * DW_OP_breg7 N; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and; DW_OP_litT;
 * DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus.
 */
static bool expr_plt(const u8 *e, size_t len, s64 *n, unsigned int *t)
{
	static const u8 tail[] = { 0x2a, 0x33, 0x24, 0x22 };
	struct rd r = { e, e + len, false };

	if (!len || *r.p++ != 0x77)
		return false;
	*n = rd_sleb(&r);
	if (r.err || r.end - r.p != 9 || r.p[0] != 0x80 || r.p[1] != 0 ||
	    r.p[2] != 0x3f || r.p[3] != 0x1a || r.p[4] < 0x30 || r.p[4] > 0x3f)
		return false;
	*t = r.p[4] - 0x30;
	return expr_is(r.p + 5, 4, tail, 4);
}

static struct kunwind_rule unsupported(void)
{
	struct kunwind_rule r = { .type = KUNWIND_TYPE_UNSUPPORTED };

	return r;
}

struct kunwind_rule cfa_to_rule(const struct cie *cie,
				const struct cfi_state *s)
{
	struct kunwind_rule r = { 0 };

	/* The return address in another column than the ABI's: not said. */
	if (cie->ra_reg != cie->arch->dw_ra)
		return unsupported();
	cie->arch->to_rule(s, &r);
	return r;
}

/*
 * The rules common to both architectures: the caller's sp is the CFA;
 * the CFA is sp or the frame pointer plus an offset; the frame pointer is
 * unchanged or saved at an offset of the CFA.  Sets r->reg, cfa_off and
 * bp_off; false if the state says something else (an expression CFA
 * included: the architectures' own expressions are theirs).
 */
static bool cfa_and_fp(const struct cfi_state *s, const struct kgen_arch *a,
		       struct kunwind_rule *r)
{
	/*
	 * kunwind takes the caller's sp to be the CFA, as the x86-64 and
	 * arm64 ABIs do; CFI that says otherwise for sp cannot be
	 * represented.
	 */
	if (s->sp.kind != R_SAME && s->sp.kind != R_UNDEF &&
	    !(s->sp.kind == R_VAL_OFFSET && !s->sp.off))
		return false;

	if (s->cfa.kind == CFA_EXPR)
		return false;
	if (s->cfa.kind == CFA_REG) {
		if ((s->cfa.reg != a->dw_sp && s->cfa.reg != a->dw_fp) ||
		    s->cfa.off != (s32)s->cfa.off)
			return false;
		r->reg = s->cfa.reg == a->dw_sp ? KUNWIND_REG_SP : KUNWIND_REG_BP;
		r->cfa_off = s->cfa.off;
	}

	switch (s->bp.kind) {
	case R_SAME:
	case R_UNDEF:
		return true;
	case R_OFFSET:
		if (!s->bp.off || s->bp.off != (s16)s->bp.off)
			return false;
		r->bp_off = s->bp.off;
		return true;
	}
	return false;
}

/*
 * arm64: the return address is in x30 (no rule: GCC's CIE gives x30
 * none, which is "same value") or saved with x29 as a frame record, the
 * word after it; an undefined one ends the stack.  x30 saved apart from
 * x29, or in another register (ftrace's x9), cannot be said.
 */
void cfa_to_rule_arm64(const struct cfi_state *s, struct kunwind_rule *r)
{
	if (!cfa_and_fp(s, &kgen_arch_arm64, r)) {
		*r = unsupported();
		return;
	}
	if (s->ra.kind == R_UNDEF) {
		r->type = KUNWIND_TYPE_END;
	} else if (s->cfa.kind == CFA_NONE) {
		r->type = KUNWIND_TYPE_UNDEFINED;
		r->bp_off = 0;
	} else if (s->ra.kind == R_SAME &&
		   (!r->bp_off || r->bp_off <= -KUNWIND_FRAME_RECORD_SIZE / 2)) {
		r->type = KUNWIND_TYPE_LR;
	} else if (s->ra.kind == R_OFFSET && s->bp.kind == R_OFFSET &&
		   s->ra.off == s->bp.off + 8 &&
		   s->bp.off <= -KUNWIND_FRAME_RECORD_SIZE) {
		/* a frame record wholly below the CFA (format.h) */
		r->type = KUNWIND_TYPE_CALL;
	} else {
		*r = unsupported();
	}
}

/*
 * x86-64: the return address at CFA - 8, and the expressions x86-64 code
 * uses: the PLT's, __restore_rt's and a realigned stack's.
 */
static struct kunwind_rule x86_64_rule(const struct cfi_state *s)
{
	struct kunwind_rule r = { 0 };
	s64 n, bp, ra;
	unsigned int t;

	if (s->cfa.kind == CFA_EXPR) {
		if (expr_plt(s->cfa.expr, s->cfa.len, &n, &t) &&
		    s->ra.kind == R_OFFSET && s->ra.off == -8 &&
		    (s->bp.kind == R_SAME || s->bp.kind == R_UNDEF) &&
		    n == (s32)n) {
			r.type = KUNWIND_TYPE_PLT;
			r.cfa_off = n;
			r.reg = t;
			return r;
		}
		/* __restore_rt: every register is loaded from the ucontext. */
		if (expr_breg(s->cfa.expr, s->cfa.len, 0x77, &n, 0x06) &&
		    n == KUNWIND_UC_SP && s->bp.kind == R_EXPR &&
		    expr_breg(s->bp.expr, s->bp.len, 0x77, &bp, -1) &&
		    bp == KUNWIND_UC_BP && s->ra.kind == R_EXPR &&
		    expr_breg(s->ra.expr, s->ra.len, 0x77, &ra, -1) &&
		    ra == KUNWIND_UC_IP) {
			r.type = KUNWIND_TYPE_SIGNAL;
			r.reg = KUNWIND_REG_SP;
			return r;
		}
		/* A realigned stack (DRAP): see KUNWIND_REG_BP_INDIRECT. */
		if (expr_breg(s->cfa.expr, s->cfa.len, 0x76, &n, 0x06) &&
		    n == (s32)n && s->bp.kind == R_EXPR &&
		    expr_breg(s->bp.expr, s->bp.len, 0x76, &bp, -1) && !bp &&
		    s->ra.kind == R_OFFSET && s->ra.off == -8 &&
		    (s->sp.kind == R_SAME || s->sp.kind == R_UNDEF)) {
			r.type = KUNWIND_TYPE_CALL;
			r.reg = KUNWIND_REG_BP_INDIRECT;
			r.cfa_off = n;
			return r;
		}
		return unsupported();
	}

	/*
	 * kunwind takes the caller's rsp to be the CFA, as the x86-64 ABI
	 * does; CFI that says otherwise for rsp cannot be represented.
	 */
	if (s->sp.kind != R_SAME && s->sp.kind != R_UNDEF &&
	    !(s->sp.kind == R_VAL_OFFSET && !s->sp.off))
		return unsupported();

	if (s->cfa.kind == CFA_REG) {
		if ((s->cfa.reg != kgen_arch_x86_64.dw_sp &&
		     s->cfa.reg != kgen_arch_x86_64.dw_fp) ||
		    s->cfa.off != (s32)s->cfa.off)
			return unsupported();
		r.reg = s->cfa.reg == kgen_arch_x86_64.dw_sp ? KUNWIND_REG_SP :
							   KUNWIND_REG_BP;
		r.cfa_off = s->cfa.off;
	}

	switch (s->bp.kind) {
	case R_SAME:
	case R_UNDEF:
		break;
	case R_OFFSET:
		if (!s->bp.off || s->bp.off != (s16)s->bp.off)
			return unsupported();
		r.bp_off = s->bp.off;
		break;
	default:
		return unsupported();
	}

	/* An undefined return address marks the outermost frame. */
	if (s->ra.kind == R_UNDEF) {
		r.type = KUNWIND_TYPE_END;
		return r;
	}
	if (s->cfa.kind == CFA_NONE) {
		r.type = KUNWIND_TYPE_UNDEFINED;
		r.bp_off = 0;
		return r;
	}
	if (s->ra.kind != R_OFFSET || s->ra.off != -8)
		return unsupported();
	r.type = KUNWIND_TYPE_CALL;
	return r;
}

void cfa_to_rule_x86_64(const struct cfi_state *s, struct kunwind_rule *r)
{
	*r = x86_64_rule(s);
}
