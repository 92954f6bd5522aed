// SPDX-License-Identifier: GPL-2.0
/*
 * CIE/FDE parsing: .eh_frame or .debug_frame in, rows of kunwind rules
 * out.  Walks the section's records, parses each CIE once, and runs each
 * FDE's instructions (cfa.c) over its address range, resolving its
 * locations (relocations in ET_REL, pc-relative pointers in linked
 * files) and adding a row for each stretch between them.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "cfi.h"

struct ctx {
	struct kelf *e;
	const struct ksec *sec;		/* the frame section, NULL when fuzzing */
	const u8 *data;
	size_t len;
	u64 addr;			/* the frame section's address */
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
static bool rd_length(struct rd *r, u64 *len, bool *is64)
{
	u64 l = rd_n(r, 4);

	*is64 = l == 0xffffffff;
	if (*is64)
		l = rd_n(r, 8);
	*len = l;
	return !r->err;
}

static bool skip_ptr(struct rd *r, u8 enc)
{
	if (enc != PE_OMIT)
		rd_enc(r, enc);
	return !r->err;
}

static void parse_cie(struct ctx *c, u64 off, struct cie *cie)
{
	struct rd r = { c->data + off, c->data + c->len, false };
	u64 len, id;
	const char *aug;
	const u8 *aug_end = NULL;
	bool is64;
	int version;

	memset(cie, 0, sizeof(*cie));
	cie->off = off;
	cie->fde_enc = 0;	/* absptr */
	cie->arch = c->e ? kelf_arch(c->e) : &kgen_arch_x86_64;
	cie->ra_reg = cie->arch->dw_ra;
	if (!rd_length(&r, &len, &is64) || !len || len > (u64)(r.end - r.p))
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
		u64 alen = rd_uleb(&r);

		if (r.err || alen > (u64)(r.end - r.p))
			return;
		aug_end = r.p + alen;
		cie->z = true;
		aug++;
	}
	for (; *aug; aug++) {
		u8 enc;

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
static const struct cie *get_cie(struct ctx *c, u64 off)
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

/* The FDE being interpreted: where its rows go. */
struct fde {
	const struct cie *cie;
	unsigned int shndx;		/* its text section */
	u64 loc, end;			/* section-relative: next row, range end */
	u64 section_base;		/* the section's address (linked files) */
	struct cfi_state init;		/* after the CIE's instructions */
};

/* A set_loc operand as a section-relative location; false if it is none. */
static bool set_loc(struct ctx *c, const struct fde *f, u64 field,
		    u64 *loc)
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
static bool fde_rows(struct ctx *c, struct fde *f, const u8 *p,
		     const u8 *end, struct cfi_state *last)
{
	struct interp in = {
		.cie = f->cie, .data = c->data, .r = { p, end, false },
		.s = f->init, .init = &f->init,
	};
	u64 arg, field, loc;

	while (in.r.p < in.r.end && !in.r.err) {
		switch (cfa_step(&in, &arg, &field)) {
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
			struct kunwind_rule rule = cfa_to_rule(f->cie, &in.s);

			if (cfi_rows_add(c->out, f->shndx, f->loc, loc, &rule))
				return false;
			f->loc = loc;
		}
	}
	*last = in.s;
	return !in.r.err;
}

static void parse_fde(struct ctx *c, u64 off, struct rd *r, bool is64,
		      u64 id_field)
{
	const struct cie *cie;
	u64 cie_off, pc_field, start, range, section_base = 0;
	unsigned int shndx = 1, sh;
	struct cfi_state last;
	struct fde f;
	u64 id = rd_n(r, is64 ? 8 : 4);

	c->st->fdes++;
	/* .debug_frame CIE pointers are relocated in ET_REL */
	if (c->kind == CFI_EH_FRAME)
		cie_off = id_field - id;
	else if (!is_rel(c) ||
		 !kelf_reloc_at(c->e, c->sec, id_field, &sh, &cie_off))
		cie_off = id;
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
		text = kelf_reloc_at(c->e, c->sec, pc_field, &shndx, &start) ?
		       kelf_sec(c->e, shndx) : NULL;
		if (!text || !(text->flags & SHF_EXECINSTR)) {
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
		u64 alen = rd_uleb(r);

		if (r->err || alen > (u64)(r->end - r->p)) {
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
	if (!cfa_cie_state(c->data, cie, &f.init)) {
		c->st->fdes_bad++;
		return;
	}
	if (fde_rows(c, &f, r->p, r->end, &last)) {
		struct kunwind_rule rule = cfa_to_rule(cie, &last);

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

int cfi_parse(struct kelf *e, const u8 *data, size_t len, u64 addr,
	      const struct ksec *sec, enum cfi_kind kind, struct cfi_rows *out,
	      struct cfi_stats *st)
{
	struct ctx c = {
		.e = e, .sec = sec, .data = data, .len = len, .addr = addr,
		.kind = kind, .out = out, .st = st,
	};
	u64 off = 0;
	size_t i, first = out->nr;

	while (off + 4 <= len) {
		struct rd r = { data + off, data + len, false };
		u64 elen, id_field, id;
		bool is64;

		if (!rd_length(&r, &elen, &is64))
			break;
		if (!elen) {
			if (kind == CFI_EH_FRAME)
				break;		/* the .eh_frame terminator */
			off = r.p - data;
			continue;
		}
		if (elen > (u64)(r.end - r.p)) {
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
