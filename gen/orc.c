// SPDX-License-Identifier: GPL-2.0
/*
 * ORC -> rows, where DWARF CFI says nothing.
 *
 * The kernel's assembly has no DWARF CFI (the .cfi_* directives left
 * arch/x86 in 4.14): entry code, the stack bottoms of every task
 * (ret_from_fork_asm, common_startup_64), paravirt and retpoline stubs.
 * objtool describes that code in the object's own ORC tables, which
 * vmlinux and every module carry (.orc_unwind_ip: one s32 per entry, the
 * address it starts at, PC-relative; .orc_unwind: the 6-byte entries).
 * Where no CFI row and no hint covers an address, the rule ORC has there
 * is taken, if the table can say it; otherwise the gap stays a gap and
 * the kernel walks it with the ORC fallback, as before.  The walk from a
 * table then agrees with ORC by construction in that code, and needs no
 * ORC at run time to reach the end of a stack (which a dump read from
 * gdb has not got).
 *
 * Two layouts of struct orc_entry (arch/x86/include/asm/orc_types.h):
 *   before 6.3   sp_reg:4 bp_reg:4 type:2 end:1
 *                type CALL 0, REGS 1, REGS_PARTIAL 2; end of stack:
 *                sp_reg UNDEFINED with end set (without it: undefined)
 *   6.3 on       sp_reg:4 bp_reg:4 type:3 signal:1
 *                type UNDEFINED 0, END_OF_STACK 1, CALL 2, REGS 3,
 *                REGS_PARTIAL 4; signal: the next ip is exact
 * 6.4 added section .orc_header (a hash of orc_types.h); without it the
 * entries themselves decide when they can (layout_by_content()), else the
 * kernel release (vmlinux's linux_banner, a module's vermagic).
 *
 * The mapping, as unwind_next_frame() reads an entry:
 *   CALL, sp_reg SP/BP/SP_INDIRECT    CALL, same base, cfa_off = sp_offset
 *     bp_reg UNDEFINED                  rbp unchanged
 *     bp_reg PREV_SP                    rbp at CFA + bp_offset
 *     bp_reg BP, sp_reg BP              rbp at bp + bp_offset, i.e. at
 *                                       CFA + bp_offset - sp_offset
 *   CALL, sp_reg BP_INDIRECT,         CALL, BP_INDIRECT, cfa_off =
 *     bp_reg BP, bp_offset 0            sp_offset: a realigned (DRAP)
 *                                       body, CFA *(rbp + sp_offset),
 *                                       rbp at rbp
 *   REGS, sp_reg SP/BP                REGS: pt_regs at base + sp_offset
 *   REGS_PARTIAL, sp_reg SP/BP        IRET: iret frame at base + sp_offset
 *     (both only with bp_reg UNDEFINED: rbp from the pt_regs, or unchanged)
 *   END_OF_STACK                      END
 * Everything else (UNDEFINED, the DRAP registers R10/R13/DI/DX, any
 * other BP_INDIRECT, a CALL marked signal, a register frame not marked
 * signal)
 * is no row: the kernel's own ORC takes that step at run time.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "stages.h"

#define ORC_REG_UNDEFINED	0
#define ORC_REG_PREV_SP		1
#define ORC_REG_BP		4
#define ORC_REG_SP		5
#define ORC_REG_BP_INDIRECT	8
#define ORC_REG_SP_INDIRECT	9

#define ORC_ENTRY_SIZE		6

struct orc {
	unsigned int shndx;
	u64 addr;		/* section-relative, like the rows */
	size_t idx;		/* position in .orc_unwind_ip */
	struct kunwind_rule rule;
	bool ok;		/* the table can say it */
};

/* The CFA base of an ORC sp_reg, or 0 if the table has none for it. */
static unsigned int orc_base(unsigned int sp_reg, bool call)
{
	switch (sp_reg) {
	case ORC_REG_SP:
		return KUNWIND_REG_SP;
	case ORC_REG_BP:
		return KUNWIND_REG_BP;
	case ORC_REG_SP_INDIRECT:
		return call ? KUNWIND_REG_SP_INDIRECT : 0;
	}
	return 0;
}

/* Decode one entry (layout63: 6.3's); false if no row says it. */
static bool orc_rule(const u8 *p, bool layout63, struct kunwind_rule *r)
{
	s16 sp_off = (s16)(p[0] | p[1] << 8);
	s16 bp_off = (s16)(p[2] | p[3] << 8);
	unsigned int sp_reg = p[4] & 15, bp_reg = p[4] >> 4;
	unsigned int type, kind, base;
	bool signal;

	memset(r, 0, sizeof(*r));
	if (layout63) {
		type = p[5] & 7;
		signal = p[5] & 8;
		if (type == 1) {			/* END_OF_STACK */
			r->type = KUNWIND_TYPE_END;
			return true;
		}
		kind = type == 2 ? KUNWIND_TYPE_CALL : type == 3 ?
		       KUNWIND_TYPE_REGS : type == 4 ? KUNWIND_TYPE_IRET : 0;
	} else {
		type = p[5] & 3;
		if (sp_reg == ORC_REG_UNDEFINED) {
			if (!(p[5] & 4))		/* end */
				return false;
			r->type = KUNWIND_TYPE_END;
			return true;
		}
		kind = type == 0 ? KUNWIND_TYPE_CALL : type == 1 ?
		       KUNWIND_TYPE_REGS : type == 2 ? KUNWIND_TYPE_IRET : 0;
		signal = kind != KUNWIND_TYPE_CALL;
	}
	if (!kind)
		return false;
	/* The table's register frames are exact, its calls are not. */
	if (kind == KUNWIND_TYPE_CALL ? signal : !signal)
		return false;
	/* A realigned body: the CFA saved at rbp + sp_offset, rbp at rbp. */
	if (kind == KUNWIND_TYPE_CALL && sp_reg == ORC_REG_BP_INDIRECT) {
		if (bp_reg != ORC_REG_BP || bp_off)
			return false;
		r->type = kind;
		r->reg = KUNWIND_REG_BP_INDIRECT;
		r->cfa_off = sp_off;
		return true;
	}
	base = orc_base(sp_reg, kind == KUNWIND_TYPE_CALL);
	if (!base)
		return false;
	r->type = kind;
	r->reg = base;
	r->cfa_off = sp_off;
	if (bp_reg == ORC_REG_UNDEFINED)
		return true;
	if (kind != KUNWIND_TYPE_CALL)
		return false;
	if (bp_reg == ORC_REG_PREV_SP)
		r->bp_off = bp_off;
	else if (bp_reg == ORC_REG_BP && sp_reg == ORC_REG_BP &&
		 bp_off - sp_off == (s16)(bp_off - sp_off))
		r->bp_off = bp_off - sp_off;
	else
		return false;
	/* bp_off 0 means "unchanged": a save at the CFA itself is none. */
	return r->bp_off != 0;
}

/* "X.Y" at p: X * 100 + Y, or -1. */
static int parse_release(const char *p, const char *end)
{
	int major = 0, minor = 0;

	if (p >= end || *p < '0' || *p > '9')
		return -1;
	while (p < end && *p >= '0' && *p <= '9')
		major = major * 10 + *p++ - '0';
	if (p >= end || *p++ != '.')
		return -1;
	while (p < end && *p >= '0' && *p <= '9')
		minor = minor * 10 + *p++ - '0';
	return major * 100 + minor;
}

/*
 * The kernel release the object was built for, X * 100 + Y, or -1:
 * vmlinux's linux_banner ("Linux version X.Y..."), a module's
 * "vermagic=X.Y..." in .modinfo.
 */
static int kernel_release(const struct kelf *e)
{
	const struct ksec *mi = kelf_sec_by_name(e, ".modinfo");
	const struct ksec *text;
	struct kelf_sym sym;
	const char *p, *end;

	if (mi && mi->data) {
		p = (const char *)mi->data;
		end = p + mi->size;
		for (; p < end; p += strnlen(p, end - p) + 1)
			if (!strncmp(p, "vermagic=", end - p < 9 ? end - p : 9))
				return parse_release(p + 9, end);
	}
	if (kelf_type(e) == ET_REL || !kelf_sym_by_name(e, "linux_banner", &sym))
		return -1;
	text = kelf_sec(e, sym.shndx);
	if (!text || !text->data || sym.value < text->addr ||
	    sym.value - text->addr >= text->size)
		return -1;
	p = (const char *)text->data + (sym.value - text->addr);
	end = (const char *)text->data + text->size;
	if (end - p < 14 || strncmp(p, "Linux version ", 14))
		return -1;
	return parse_release(p + 14, end);
}

/*
 * A module object before modpost has no vermagic yet: tell the layouts
 * apart by what they hold.  Most entries are calls: type 0 before 6.3,
 * with a defined sp_reg; in 6.3's layout type 0 is UNDEFINED, whose
 * sp_reg is UNDEFINED too, and signal (bit 3) is set on every register
 * frame, a bit the old layout never sets.
 */
static int layout_by_content(const u8 *ent, size_t n)
{
	size_t i, old_calls = 0, signals = 0;

	for (i = 0; i < n; i++, ent += ORC_ENTRY_SIZE) {
		old_calls += (ent[5] & 7) == 0 && (ent[4] & 15);
		signals += !!(ent[5] & 8);
	}
	if (signals && !old_calls)
		return 1;
	if (old_calls && !signals)
		return 0;
	return -1;		/* cannot tell */
}

/* Where entry i of .orc_unwind_ip starts: its text section and offset. */
static bool orc_ip(const struct kelf *e, const struct ksec *ips, size_t i,
		   unsigned int *shndx, u64 *addr)
{
	const struct ksec *text;
	u64 off = i * 4, at;
	s32 rel;

	if (kelf_type(e) == ET_REL) {
		/* R_X86_64_PC32: S + A is the label's section offset. */
		if (!kelf_reloc_at(e, ips, off, shndx, addr))
			return false;
		text = kelf_sec(e, *shndx);
		return text && (text->flags & SHF_EXECINSTR) &&
		       *addr <= text->size;
	}
	memcpy(&rel, ips->data + off, sizeof(rel));
	at = ips->addr + off + rel;
	text = kelf_text_at(e, at);
	if (!text)			/* e.g. the end of the last section */
		return false;
	*shndx = text->idx;
	*addr = at - text->addr;
	return true;
}

static int orc_cmp(const void *a, const void *b)
{
	const struct orc *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Add rule r on [start, end) of shndx where none of the first nr rows
 * (sorted) covers it.  *cur is the first of those rows that may still
 * meet [start, ...): the ranges come in ascending order.
 */
static int fill(struct cfi_rows *rows, size_t nr, size_t *cur,
		unsigned int shndx, u64 start, u64 end,
		const struct kunwind_rule *r, size_t *added)
{
	size_t i = *cur;

	while (i < nr && (rows->row[i].shndx < shndx ||
			  (rows->row[i].shndx == shndx &&
			   rows->row[i].end <= start)))
		i++;
	*cur = i;
	for (; i < nr && rows->row[i].shndx == shndx && start < end; i++) {
		/* Copies: cfi_rows_add() may move rows->row. */
		u64 c_start = rows->row[i].start, c_end = rows->row[i].end;

		if (c_end <= start)
			continue;
		if (c_start >= end)
			break;
		if (c_start > start) {
			if (cfi_rows_add(rows, shndx, start, c_start, r))
				return -1;
			(*added)++;
		}
		start = c_end;
	}
	if (start < end) {
		if (cfi_rows_add(rows, shndx, start, end, r))
			return -1;
		(*added)++;
	}
	return 0;
}

/* Sections whose code never runs where it is (alternatives' sources). */
static bool orc_section_ok(const struct ksec *s)
{
	return (s->flags & SHF_EXECINSTR) &&
	       strncmp(s->name, ".altinstr_replacement", 21);
}

int orc_apply(struct kelf *e, struct cfi_rows *rows, struct cfi_stats *st)
{
	const struct ksec *ips = kelf_sec_by_name(e, ".orc_unwind_ip");
	const struct ksec *ent = kelf_sec_by_name(e, ".orc_unwind");
	size_t i, n, nr = 0, nr_rows, cur = 0, added = 0;
	struct orc *o;
	bool layout63;
	int rel, by_release, by_content;

	if (!ips || !ent || !ips->data || !ent->data || !ips->size)
		return 0;
	n = ips->size / 4;
	if (ips->size % 4 || ent->size != n * ORC_ENTRY_SIZE) {
		fprintf(stderr,
			"kunwind-gen: %s: .orc_unwind_ip (%llu bytes) and .orc_unwind (%llu) disagree: ORC not used\n",
			kelf_path(e), (unsigned long long)ips->size,
			(unsigned long long)ent->size);
		return 0;
	}
	/*
	 * The header is proof; the entries, when they tell, come before the
	 * release (a vendor kernel may carry the other layout's patch).
	 */
	rel = kernel_release(e);
	by_release = rel < 0 ? -1 : rel >= 603;
	by_content = layout_by_content(ent->data, n);
	if (kelf_sec_by_name(e, ".orc_header"))
		layout63 = true;
	else if (by_content >= 0)
		layout63 = by_content;
	else if (by_release >= 0)
		layout63 = by_release;
	else
		layout63 = true;
	if (by_release >= 0 && by_content >= 0 && by_content != by_release)
		fprintf(stderr,
			"kunwind-gen: %s: its ORC entries have the %s layout, its release %d.%d the other: the entries win\n",
			kelf_path(e), by_content ? "6.3" : "pre-6.3", rel / 100,
			rel % 100);
	o = calloc(n, sizeof(*o));
	if (!o)
		return -1;
	for (i = 0; i < n; i++) {
		const struct ksec *text;

		if (!orc_ip(e, ips, i, &o[nr].shndx, &o[nr].addr))
			continue;
		text = kelf_sec(e, o[nr].shndx);
		if (!orc_section_ok(text))
			continue;
		o[nr].idx = i;
		o[nr].ok = orc_rule(ent->data + i * ORC_ENTRY_SIZE, layout63,
				    &o[nr].rule);
		nr++;
	}
	/* Of two entries at one address the kernel's orc_find() takes the later. */
	qsort(o, nr, sizeof(*o), orc_cmp);
	cfi_rows_sort(rows);
	nr_rows = rows->nr;
	for (i = 0; i < nr; i++) {
		const struct ksec *text = kelf_sec(e, o[i].shndx);
		u64 end = text->size;

		if (i + 1 < nr && o[i + 1].shndx == o[i].shndx) {
			if (o[i + 1].addr == o[i].addr)
				continue;
			end = o[i + 1].addr;
		}
		if (!o[i].ok || o[i].addr >= end)
			continue;
		if (fill(rows, nr_rows, &cur, o[i].shndx, o[i].addr, end,
			 &o[i].rule, &added)) {
			free(o);
			return -1;
		}
	}
	free(o);
	if (st) {
		st->orc_entries += n;
		st->orc_rows += added;
	}
	return 0;
}

/*
 * The retpoline thunks' entries.  __x86_indirect_thunk_<reg> (and the
 * call-depth-tracking, jump and ITS variants) are reached by a call, or by a
 * jump in a tail call, from C code, so at their first instruction the
 * state is the ABI's at any function entry: CFA = rsp + 8, the return
 * address at rsp.  objtool marks the thunks UNWIND_HINT_UNDEFINED (6.3
 * on) or UNWIND_HINT_EMPTY (before: an end of stack!), as the speculation
 * trap inside them is not walkable, so ORC, and a table filled from it,
 * stops at the entry, or before 6.3 even calls the one-frame walk
 * complete; a sampling profiler lands there often (under QEMU TCG,
 * interrupts come at translation-block starts, and a call target starts
 * one).  One row of one byte, at the entry only: past it the thunk's own
 * call changes the stack and nothing describes it.  Only where no CFI
 * row or hint covers the entry; it runs before orc_apply(), so ORC's
 * entry does not fill it.  Not in the DWARF or ORC oracles' views
 * (KGEN_NO_ORC, KGEN_ONLY_ORC).
 */
static const char *const thunk_prefixes[] = {
	"__x86_indirect_thunk_",
	"__x86_indirect_call_thunk_",
	"__x86_indirect_jump_thunk_",
	"__x86_indirect_its_thunk_",
};

static bool thunk_name(const char *name)
{
	size_t i, n;

	for (i = 0; i < sizeof(thunk_prefixes) / sizeof(*thunk_prefixes); i++) {
		n = strlen(thunk_prefixes[i]);
		/* the entries, not __x86_indirect_thunk_array */
		if (!strncmp(name, thunk_prefixes[i], n) && name[n] &&
		    strcmp(name + n, "array"))
			return true;
	}
	return false;
}

int thunks_apply(struct kelf *e, struct cfi_rows *rows, struct cfi_stats *st)
{
	const struct kunwind_rule call = {
		.type = KUNWIND_TYPE_CALL, .reg = KUNWIND_REG_SP, .cfa_off = 8,
	};
	size_t i, nr_syms = kelf_nr_syms(e), cur, added = 0;
	const struct ksec *sec;
	struct kelf_sym s;
	u64 off;

	cfi_rows_sort(rows);
	for (i = 0; i < nr_syms; i++) {
		if (!kelf_sym(e, i, &s) || !s.name || !thunk_name(s.name))
			continue;
		sec = kelf_sec(e, s.shndx);
		if (!sec || !orc_section_ok(sec))
			continue;
		off = s.value - (kelf_type(e) == ET_REL ? 0 : sec->addr);
		if (off >= sec->size)
			continue;
		cur = 0;
		if (fill(rows, rows->nr, &cur, s.shndx, off, off + 1, &call,
			 &added))
			return -1;
	}
	if (st)
		st->thunk_rows += added;
	return 0;
}
