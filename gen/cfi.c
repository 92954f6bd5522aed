// SPDX-License-Identifier: GPL-2.0
/*
 * CIE/FDE parsing and the CFA interpreter: .eh_frame or .debug_frame in,
 * rows of kunwind rules out.
 *
 * kunwind recovers three registers, like ORC: rsp (through the CFA), rbp
 * and the return address.  The interpreter therefore tracks the CFA rule
 * and the rules of rbp and of the CIE's return-address column, and parses
 * (but ignores) the rules of every other register.  What the table cannot
 * represent becomes an UNSUPPORTED row, never an approximation.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"

#define DW_REG_RBP	6
#define DW_REG_RSP	7
#define DW_REG_RIP	16
#define MAX_STATES	64	/* remember_state depth; GCC uses 1-2 */

/* DW_EH_PE_* pointer encodings */
#define PE_OMIT		0xff
#define PE_FORMAT	0x0f
#define PE_APP		0x70
#define PE_PCREL	0x10
#define PE_INDIRECT	0x80

struct rd {
	const uint8_t *p, *end;
	bool err;
};

static uint64_t rd_n(struct rd *r, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	if ((size_t)(r->end - r->p) < n) {
		r->err = true;
		r->p = r->end;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (r->p < r->end) {
		uint8_t b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->err = true;
	return 0;
}

static int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	uint8_t b = 0;

	while (r->p < r->end) {
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~0ULL << shift;
			return (int64_t)v;
		}
	}
	r->err = true;
	return 0;
}

/* Read a DW_EH_PE-encoded value (no application: see rd_ptr). */
static uint64_t rd_enc(struct rd *r, uint8_t enc)
{
	switch (enc & PE_FORMAT) {
	case 0x00: return rd_n(r, 8);			/* absptr */
	case 0x01: return rd_uleb(r);
	case 0x02: return rd_n(r, 2);
	case 0x03: return rd_n(r, 4);
	case 0x04: return rd_n(r, 8);
	case 0x09: return rd_sleb(r);
	case 0x0a: return (int16_t)rd_n(r, 2);
	case 0x0b: return (int32_t)rd_n(r, 4);
	case 0x0c: return rd_n(r, 8);
	}
	r->err = true;
	return 0;
}

/*
 * A factored offset: operand * data_align, computed modulo 2^64 so that
 * hostile input cannot overflow a signed multiplication (the result of
 * such input is rejected later, when it does not fit the table's fields).
 */
static int64_t factored(uint64_t v, int64_t align)
{
	return (int64_t)(v * (uint64_t)align);
}

/* A parsed CIE. */
struct cie {
	uint64_t off;
	uint64_t code_align;
	int64_t data_align;
	unsigned int ra_reg;
	uint8_t fde_enc;
	bool z, ok;
	const uint8_t *insn, *insn_end;
};

/* Rules of one register. */
enum { R_SAME, R_UNDEF, R_OFFSET, R_VAL_OFFSET, R_REG, R_EXPR, R_VAL_EXPR };

struct reg_rule {
	uint8_t kind;
	int64_t off;
	const uint8_t *expr;
	size_t len;
};

enum { CFA_NONE, CFA_REG, CFA_EXPR };

struct cfa_rule {
	uint8_t kind;
	unsigned int reg;
	int64_t off;
	const uint8_t *expr;
	size_t len;
};

struct cfi_state {
	struct cfa_rule cfa;
	struct reg_rule sp, bp, ra;	/* sp: the caller's sp is the CFA */
};

struct ctx {
	struct kelf *e;
	const struct ksec *sec;		/* the frame section, NULL when fuzzing */
	const uint8_t *data;
	size_t len;
	uint64_t addr;			/* the frame section's address */
	enum cfi_kind kind;
	struct cfi_rows *out;
	struct cfi_stats *st;
	struct cie *cies;		/* the CIEs met so far, good or bad */
	size_t nr_cies, cies_alloc;
	struct kgen_map cie_index;	/* offset -> cies[] */
};

static bool is_rel(const struct ctx *c)
{
	return c->e && kelf_type(c->e) == ET_REL;
}

/* Read an entry's length; sets *is64.  Returns false at a terminator. */
static bool rd_length(struct rd *r, uint64_t *len, bool *is64)
{
	uint64_t l = rd_n(r, 4);

	*is64 = l == 0xffffffff;
	if (*is64)
		l = rd_n(r, 8);
	*len = l;
	return !r->err;
}

static bool skip_ptr(struct rd *r, uint8_t enc)
{
	if (enc != PE_OMIT)
		rd_enc(r, enc);
	return !r->err;
}

static void parse_cie(struct ctx *c, uint64_t off, struct cie *cie)
{
	struct rd r = { c->data + off, c->data + c->len, false };
	uint64_t len, id;
	const char *aug;
	const uint8_t *aug_end = NULL;
	bool is64;
	int version;

	memset(cie, 0, sizeof(*cie));
	cie->off = off;
	cie->fde_enc = 0;	/* absptr */
	cie->ra_reg = DW_REG_RIP;
	if (!rd_length(&r, &len, &is64) || !len || len > (uint64_t)(r.end - r.p))
		return;
	r.end = r.p + len;
	id = rd_n(&r, is64 ? 8 : 4);
	if (c->kind == CFI_EH_FRAME ? id != 0 :
	    id != (is64 ? ~0ULL : 0xffffffffULL))
		return;
	version = rd_n(&r, 1);
	if (version != 1 && version != 3 && version != 4)
		return;
	aug = (const char *)r.p;
	while (r.p < r.end && *r.p)
		r.p++;
	if (r.p++ >= r.end)
		return;
	if (version == 4) {
		if (rd_n(&r, 1) != 8 || rd_n(&r, 1) != 0)	/* address, segment size */
			return;
	}
	cie->code_align = rd_uleb(&r);
	cie->data_align = rd_sleb(&r);
	cie->ra_reg = version == 1 ? rd_n(&r, 1) : rd_uleb(&r);
	if (*aug == 'z') {
		uint64_t alen = rd_uleb(&r);

		if (r.err || alen > (uint64_t)(r.end - r.p))
			return;
		aug_end = r.p + alen;
		cie->z = true;
		aug++;
	}
	for (; *aug; aug++) {
		uint8_t enc;

		switch (*aug) {
		case 'R':
			/*
			 * Absolute or PC-relative: what x86-64 toolchains
			 * use.  An indirect pointer is the address of a cell
			 * holding the address, which only the loaded image
			 * has: its FDEs are refused (and counted as
			 * malformed), never read as direct.
			 */
			cie->fde_enc = rd_n(&r, 1);
			if (((cie->fde_enc & PE_APP) != 0 &&
			     (cie->fde_enc & PE_APP) != PE_PCREL) ||
			    (cie->fde_enc & PE_INDIRECT))
				return;
			break;
		case 'P':
			enc = rd_n(&r, 1);
			if (!skip_ptr(&r, enc & ~PE_INDIRECT))
				return;
			break;
		case 'L':
			rd_n(&r, 1);
			break;
		case 'S':	/* signal frame: the walker's exact-ip rule covers it */
		case 'B':
			break;
		default:
			if (!aug_end)
				return;		/* unknown, and we cannot skip it */
			r.p = aug_end;
			goto done;
		}
	}
done:
	if (aug_end)
		r.p = aug_end;
	if (r.err || !cie->code_align)
		return;
	cie->insn = r.p;
	cie->insn_end = r.end;
	cie->ok = true;
}

/*
 * The CIE at off, parsed once (an .eh_frame has a handful, shared by
 * thousands of FDEs); NULL if it is malformed.  The pointer lasts until
 * the next call.
 */
static const struct cie *get_cie(struct ctx *c, uint64_t off)
{
	long i;

	if (off >= c->len)
		return NULL;
	i = kgen_map_get(&c->cie_index, off);
	if (i < 0) {
		struct cie *p = kgen_grow(c->cies, &c->cies_alloc, c->nr_cies,
					  sizeof(*p), 16);

		if (!p)
			return NULL;
		c->cies = p;
		i = c->nr_cies;
		parse_cie(c, off, &c->cies[i]);
		if (kgen_map_put(&c->cie_index, off, i))
			return NULL;
		c->nr_cies++;
		if (c->cies[i].ok)
			c->st->cies++;
	}
	return c->cies[i].ok ? &c->cies[i] : NULL;
}

/* ---- rules -> kunwind rules ---- */

static bool expr_is(const uint8_t *e, size_t len, const uint8_t *want,
		    size_t wlen)
{
	return len == wlen && !memcmp(e, want, len);
}

/* Expression "DW_OP_bregN N" (breg: its opcode) with an optional trailing op. */
static bool expr_breg(const uint8_t *e, size_t len, uint8_t breg, int64_t *n,
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
static bool expr_plt(const uint8_t *e, size_t len, int64_t *n, unsigned int *t)
{
	static const uint8_t tail[] = { 0x2a, 0x33, 0x24, 0x22 };
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

static struct kunwind_rule to_rule(const struct cfi_state *s)
{
	struct kunwind_rule r = { 0 };
	int64_t n, bp, ra;
	unsigned int t;

	if (s->cfa.kind == CFA_EXPR) {
		if (expr_plt(s->cfa.expr, s->cfa.len, &n, &t) &&
		    s->ra.kind == R_OFFSET && s->ra.off == -8 &&
		    (s->bp.kind == R_SAME || s->bp.kind == R_UNDEF) &&
		    n == (int32_t)n) {
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
		    n == (int32_t)n && s->bp.kind == R_EXPR &&
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
		if ((s->cfa.reg != DW_REG_RSP && s->cfa.reg != DW_REG_RBP) ||
		    s->cfa.off != (int32_t)s->cfa.off)
			return unsupported();
		r.reg = s->cfa.reg == DW_REG_RSP ? KUNWIND_REG_SP : KUNWIND_REG_BP;
		r.cfa_off = s->cfa.off;
	}

	switch (s->bp.kind) {
	case R_SAME:
	case R_UNDEF:
		break;
	case R_OFFSET:
		if (!s->bp.off || s->bp.off != (int16_t)s->bp.off)
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

/* ---- the interpreter ---- */

/*
 * The interpreter's state while it runs one instruction list: the rules,
 * the remember_state stack, and the state to restore registers to (NULL
 * in the CIE's own instructions, which have none).
 */
struct interp {
	const struct cie *cie;
	const uint8_t *data;		/* the frame section (set_loc's offset) */
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

static void set_reg(struct interp *in, unsigned int reg, struct reg_rule rule)
{
	if (reg == DW_REG_RSP)
		in->s.sp = rule;
	else if (reg == DW_REG_RBP)
		in->s.bp = rule;
	else if (reg == in->cie->ra_reg)
		in->s.ra = rule;
}

static bool restore_reg(struct interp *in, unsigned int reg)
{
	if (!in->init)
		return false;
	if (reg == DW_REG_RSP)
		in->s.sp = in->init->sp;
	else if (reg == DW_REG_RBP)
		in->s.bp = in->init->bp;
	else if (reg == in->cie->ra_reg)
		in->s.ra = in->init->ra;
	return true;
}

/*
 * Decode and run one CFA instruction.  Rule changes are done here; the
 * location instructions are only decoded: what a location is belongs to
 * the FDE (fde_rows()).
 */
static enum step step(struct interp *in, uint64_t *arg, uint64_t *field)
{
	const struct cie *cie = in->cie;
	struct rd *r = &in->r;
	struct cfi_state *s = &in->s;
	uint8_t op = *r->p++, low = op & 0x3f;
	struct reg_rule rr = { 0 };
	uint64_t reg, v;

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
		v = op == 0x11 || op == 0x15 ? (uint64_t)rd_sleb(r) : rd_uleb(r);
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
		if (s->cfa.len > (uint64_t)(r->end - r->p))
			return STEP_BAD;
		r->p += s->cfa.len;
		break;
	case 0x10:		/* expression */
	case 0x16:		/* val_expression */
		reg = rd_uleb(r);
		rr.kind = op == 0x10 ? R_EXPR : R_VAL_EXPR;
		rr.len = rd_uleb(r);
		rr.expr = r->p;
		if (rr.len > (uint64_t)(r->end - r->p))
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
	default:		/* GNU_window_save (SPARC) and unknown */
		return STEP_BAD;
	}
	return STEP_RULE;
}

/*
 * The CIE's initial instructions: the state each of its FDEs starts
 * from.  They set rules only; a location instruction there is malformed.
 */
static bool cie_state(const struct ctx *c, const struct cie *cie,
		      struct cfi_state *init)
{
	struct interp in = {
		.cie = cie, .data = c->data,
		.r = { cie->insn, cie->insn_end, false },
	};
	uint64_t arg, field;

	while (in.r.p < in.r.end && !in.r.err)
		if (step(&in, &arg, &field) != STEP_RULE)
			return false;
	*init = in.s;
	return !in.r.err;
}

/* The FDE being interpreted: where its rows go. */
struct fde {
	const struct cie *cie;
	unsigned int shndx;		/* its text section */
	uint64_t loc, end;		/* section-relative: next row, range end */
	uint64_t section_base;		/* the section's address (linked files) */
	struct cfi_state init;		/* after the CIE's instructions */
};

/* A set_loc operand as a section-relative location; false if it is none. */
static bool set_loc(struct ctx *c, const struct fde *f, uint64_t field,
		    uint64_t *loc)
{
	unsigned int sh;

	if (is_rel(c)) {
		if (!kelf_reloc_at(c->e, c->sec, field, &sh, loc) ||
		    sh != f->shndx)
			return false;
	} else if ((f->cie->fde_enc & PE_APP) == PE_PCREL) {
		*loc += c->addr + field;
	}
	*loc -= f->section_base;
	return *loc >= f->loc;
}

/*
 * The FDE's instructions [p, end): a row for each stretch of [f->loc,
 * f->end) between location instructions, with the rules in force there;
 * *last gets the rules for the stretch after the last one.  False on
 * malformed input: f->loc is then where the rows stop.
 */
static bool fde_rows(struct ctx *c, struct fde *f, const uint8_t *p,
		     const uint8_t *end, struct cfi_state *last)
{
	struct interp in = {
		.cie = f->cie, .data = c->data, .r = { p, end, false },
		.s = f->init, .init = &f->init,
	};
	uint64_t arg, field, loc;

	while (in.r.p < in.r.end && !in.r.err) {
		switch (step(&in, &arg, &field)) {
		case STEP_RULE:
			continue;
		case STEP_ADVANCE:
			loc = f->loc + arg * f->cie->code_align;
			if (loc < f->loc)	/* wrapped: hostile input */
				return false;
			break;
		case STEP_SET_LOC:
			loc = arg;
			if (in.r.err || !set_loc(c, f, field, &loc))
				return false;
			break;
		default:
			return false;
		}
		if (loc > f->end)
			loc = f->end;
		if (loc > f->loc) {
			struct kunwind_rule rule = to_rule(&in.s);

			if (cfi_rows_add(c->out, f->shndx, f->loc, loc, &rule))
				return false;
			f->loc = loc;
		}
	}
	*last = in.s;
	return !in.r.err;
}

static void parse_fde(struct ctx *c, uint64_t off, struct rd *r, bool is64,
		      uint64_t id_field)
{
	const struct cie *cie;
	uint64_t cie_off, pc_field, start, range, section_base = 0;
	unsigned int shndx = 1, sh;
	struct cfi_state last;
	struct fde f;
	uint64_t id = rd_n(r, is64 ? 8 : 4);

	c->st->fdes++;
	if (c->kind == CFI_EH_FRAME) {
		cie_off = id_field - id;
	} else if (is_rel(c) && kelf_reloc_at(c->e, c->sec, id_field, &sh, &cie_off)) {
		/* .debug_frame CIE pointers are relocated in ET_REL */
	} else {
		cie_off = id;
	}
	cie = get_cie(c, cie_off);
	if (!cie) {
		c->st->fdes_bad++;
		return;
	}

	pc_field = r->p - c->data;
	start = rd_enc(r, cie->fde_enc);
	range = rd_enc(r, cie->fde_enc & PE_FORMAT);
	if (r->err) {
		c->st->fdes_bad++;
		return;
	}
	if (is_rel(c)) {
		const struct ksec *text;

		/* Against a discarded section, or one that holds no code. */
		if (!kelf_reloc_at(c->e, c->sec, pc_field, &shndx, &start) ||
		    !(text = kelf_sec(c->e, shndx)) ||
		    !(text->flags & SHF_EXECINSTR)) {
			c->st->fdes_skipped++;
			return;
		}
	} else {
		const struct ksec *text;

		if ((cie->fde_enc & PE_APP) == PE_PCREL)
			start += c->addr + pc_field;
		if (c->e) {
			text = kelf_text_at(c->e, start);
			if (!text) {
				c->st->fdes_skipped++;
				return;
			}
			shndx = text->idx;
			section_base = text->addr;
		}
	}
	if (!range) {
		c->st->fdes_skipped++;
		return;
	}
	if (cie->z) {
		uint64_t alen = rd_uleb(r);

		if (r->err || alen > (uint64_t)(r->end - r->p)) {
			c->st->fdes_bad++;
			return;
		}
		r->p += alen;
	}

	f.cie = cie;
	f.shndx = shndx;
	f.section_base = section_base;
	f.loc = start - section_base;
	f.end = f.loc + range;
	if (!cie_state(c, cie, &f.init)) {
		c->st->fdes_bad++;
		return;
	}
	if (fde_rows(c, &f, r->p, r->end, &last)) {
		struct kunwind_rule rule = to_rule(&last);

		if (!cfi_rows_add(c->out, shndx, f.loc, f.end, &rule))
			return;
	}
	/*
	 * A malformed instruction (or one DWARF calls invalid, such as
	 * def_cfa_register after def_cfa_expression): the rows before it
	 * stand, the rest of the FDE is unsupported rather than guessed.
	 */
	c->st->fdes_bad++;
	cfi_rows_add(c->out, shndx, f.loc, f.end,
		     &(struct kunwind_rule){ .type = KUNWIND_TYPE_UNSUPPORTED });
}

int cfi_parse(struct kelf *e, const uint8_t *data, size_t len, uint64_t addr,
	      const struct ksec *sec, enum cfi_kind kind, struct cfi_rows *out,
	      struct cfi_stats *st)
{
	struct ctx c = {
		.e = e, .sec = sec, .data = data, .len = len, .addr = addr,
		.kind = kind, .out = out, .st = st,
	};
	uint64_t off = 0;
	size_t i, first = out->nr;

	while (off + 4 <= len) {
		struct rd r = { data + off, data + len, false };
		uint64_t elen, id_field, id;
		bool is64;

		if (!rd_length(&r, &elen, &is64))
			break;
		if (!elen) {
			if (kind == CFI_EH_FRAME)
				break;		/* the .eh_frame terminator */
			off = r.p - data;
			continue;
		}
		if (elen > (uint64_t)(r.end - r.p)) {
			st->fdes_bad++;
			break;
		}
		r.end = r.p + elen;
		id_field = r.p - data;
		id = rd_n(&r, is64 ? 8 : 4);
		r.p -= is64 ? 8 : 4;
		if (kind == CFI_EH_FRAME ? id != 0 :
		    id != (is64 ? ~0ULL : 0xffffffffULL))
			parse_fde(&c, off, &r, is64, id_field);
		off = r.end - data;
	}
	free(c.cies);
	kgen_map_free(&c.cie_index);
	for (i = first; i < out->nr; i++) {
		st->rows++;
		if (out->row[i].rule.type == KUNWIND_TYPE_UNSUPPORTED)
			st->unsupported++;
	}
	return 0;
}

static int parse_sec(struct kelf *e, const char *name, enum cfi_kind kind,
		     struct cfi_rows *out, struct cfi_stats *st)
{
	const struct ksec *s = kelf_sec_by_name(e, name);

	if (!s || !s->data || !s->size)
		return 0;
	cfi_parse(e, s->data, s->size, s->addr, s, kind, out, st);
	st->sections++;
	return 1;
}

/*
 * Both sections by default: a module may carry .debug_frame from C and
 * .eh_frame from assembly (gas defaults to .eh_frame), and a function is
 * described in only one of them.  Where both describe a byte, the table
 * keeps the first row (counted as an overlap).
 */
int cfi_parse_file(struct kelf *e, const char *want, struct cfi_rows *out,
		   struct cfi_stats *st)
{
	int found = 0;

	if (!want || !strcmp(want, "eh_frame"))
		found += parse_sec(e, ".eh_frame", CFI_EH_FRAME, out, st);
	if (!want || !strcmp(want, "debug_frame"))
		found += parse_sec(e, ".debug_frame", CFI_DEBUG_FRAME, out, st);
	return found ? 0 : -1;
}
