// SPDX-License-Identifier: GPL-2.0
/*
 * Assembly hints -> rows.  unwind/linux/kunwind_asm.h puts one struct
 * kunwind_hint per KUNWIND_HINT_* into KUNWIND_HINT_SECTION; here they
 * override the rows the CFI gave, after cfi_parse_file() and before
 * table_build().
 *
 * A hint at address a sets its rule on [a, end), end being the first of:
 *   - the end of the CFI row that contains a (the next .cfi_* directive
 *     that moves the location, or the end of the FDE): the CFI after the
 *     hint describes the code after it again;
 *   - the next hint in the same section;
 *   - where no FDE covers a: the end of the function symbol containing a
 *     (a symbol without a size ends at the next symbol), or the start of
 *     the next row.
 * The row it cuts keeps its rule before a and after end.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "stages.h"

struct hint {
	unsigned int shndx;
	u64 addr;		/* section-relative, like the rows */
	struct kunwind_rule rule;
	unsigned int type;	/* KUNWIND_HINT_TYPE_*, for messages */
	size_t idx;		/* position in the hint section */
};

static const char *hint_name(unsigned int type)
{
	switch (type) {
	case KUNWIND_HINT_TYPE_REGS:		return "REGS";
	case KUNWIND_HINT_TYPE_IRET:		return "IRET";
	case KUNWIND_HINT_TYPE_END:		return "END";
	case KUNWIND_HINT_TYPE_UNDEFINED:	return "UNDEFINED";
	case KUNWIND_HINT_TYPE_CALL:		return "CALL";
	case KUNWIND_HINT_TYPE_STACK_SWITCH:	return "STACK_SWITCH";
	}
	return NULL;
}

/* The table rule of a hint; false for an unknown type. */
static bool hint_rule(const struct kunwind_hint *h, struct kunwind_rule *r)
{
	memset(r, 0, sizeof(*r));
	switch (h->type) {
	case KUNWIND_HINT_TYPE_REGS:
	case KUNWIND_HINT_TYPE_IRET:
	case KUNWIND_HINT_TYPE_CALL:
		r->type = h->type;
		r->reg = KUNWIND_REG_SP;
		r->cfa_off = h->off;
		return true;
	case KUNWIND_HINT_TYPE_STACK_SWITCH:
		r->type = KUNWIND_TYPE_CALL;
		r->reg = KUNWIND_REG_SP_INDIRECT;
		r->cfa_off = h->off;
		return true;
	case KUNWIND_HINT_TYPE_END:
	case KUNWIND_HINT_TYPE_UNDEFINED:
		r->type = h->type;
		return true;
	}
	return false;
}

static int hint_cmp(const void *a, const void *b)
{
	const struct hint *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Where a hint outside every FDE ends: the end of the function symbol that
 * contains addr (labels and other symbols of sec bound the ones without a
 * size).  0 if no symbol of sec is at or below addr.
 */
static u64 symbol_end(const struct kelf *e, const struct ksec *sec, u64 addr)
{
	u64 base = kelf_type(e) == ET_REL ? 0 : sec->addr;
	u64 sized = 0, next = sec->size;
	struct kelf_sym s;
	bool any = false;
	size_t i;

	for (i = 1; i < kelf_nr_syms(e); i++) {
		u64 v;

		if (!kelf_sym(e, i, &s) || s.shndx != sec->idx ||
		    s.type == STT_SECTION || s.type == STT_FILE)
			continue;
		v = s.value - base;
		if (v > addr) {
			if (v < next)
				next = v;
			continue;
		}
		any = true;
		if (s.size && addr - v < s.size &&
		    (!sized || v + s.size < sized))
			sized = v + s.size;
	}
	if (sized)
		return sized;
	return any ? next : 0;
}

/* The start of the first row of shndx after addr, or the section's end. */
static u64 next_row(const struct cfi_rows *rows, const struct ksec *sec,
		    u64 addr)
{
	u64 next = sec->size;
	size_t i;

	for (i = 0; i < rows->nr; i++)
		if (rows->row[i].shndx == sec->idx &&
		    rows->row[i].start > addr && rows->row[i].start < next)
			next = rows->row[i].start;
	return next;
}

/*
 * Apply one hint, up to limit (the next hint).  Both .eh_frame and
 * .debug_frame rows may cover the address: each is cut.  Hints are few
 * (a handful per assembly file), so a linear scan per hint is enough.
 * Returns 0 when applied, 1 when ignored, -1 when out of memory.
 */
static int apply(const struct kelf *e, struct cfi_rows *rows,
		 const struct hint *h, u64 limit)
{
	const struct ksec *sec = kelf_sec(e, h->shndx);
	size_t i, nr = rows->nr;
	bool covered = false;
	u64 end;

	for (i = 0; i < nr; i++) {
		struct cfi_row old = rows->row[i];

		if (old.shndx != h->shndx || h->addr < old.start ||
		    h->addr >= old.end)
			continue;
		covered = true;
		end = old.end < limit ? old.end : limit;
		rows->row[i].start = h->addr;
		rows->row[i].end = end;
		rows->row[i].rule = h->rule;
		if (cfi_rows_add(rows, old.shndx, old.start, h->addr, &old.rule) ||
		    cfi_rows_add(rows, old.shndx, end, old.end, &old.rule))
			return -1;
	}
	if (covered)
		return 0;

	end = symbol_end(e, sec, h->addr);
	if (!end) {
		fprintf(stderr,
			"kunwind-gen: %s: %s hint at %s+0x%llx is in no FDE and no symbol: ignored\n",
			kelf_path(e), hint_name(h->type), sec->name,
			(unsigned long long)h->addr);
		return 1;
	}
	if (end > limit)
		end = limit;
	if (end > next_row(rows, sec, h->addr))
		end = next_row(rows, sec, h->addr);
	return cfi_rows_add(rows, h->shndx, h->addr, end, &h->rule);
}

/* Resolve the ip of hint i: the text section and the offset in it. */
static bool hint_ip(const struct kelf *e, const struct ksec *hs, size_t i,
		    s32 ip, unsigned int *shndx, u64 *addr)
{
	u64 off = i * KUNWIND_HINT_SIZE;
	const struct ksec *text;

	if (kelf_type(e) == ET_REL) {
		/* R_X86_64_PC32: S + A is the label's section offset. */
		if (!kelf_reloc_at(e, hs, off, shndx, addr))
			return false;
		text = kelf_sec(e, *shndx);
		return text && (text->flags & SHF_EXECINSTR) &&
		       *addr < text->size;
	}
	/* A linked file that kept the section: ip is relative to itself. */
	text = kelf_text_at(e, hs->addr + off + ip);
	if (!text)
		return false;
	*shndx = text->idx;
	*addr = hs->addr + off + ip - text->addr;
	return true;
}

int hints_apply(struct kelf *e, struct cfi_rows *rows, struct cfi_stats *st)
{
	const struct ksec *hs = kelf_sec_by_name(e, KUNWIND_HINT_SECTION);
	struct hint *h;
	size_t i, n, nr = 0;
	int ret = 0;

	if (!hs || !hs->size)
		return 0;
	if (!hs->data || hs->size % KUNWIND_HINT_SIZE) {
		fprintf(stderr,
			"kunwind-gen: %s: %s: size %llu is not a multiple of %d: hints ignored\n",
			kelf_path(e), hs->name, (unsigned long long)hs->size,
			KUNWIND_HINT_SIZE);
		return 0;
	}
	n = hs->size / KUNWIND_HINT_SIZE;
	h = calloc(n, sizeof(*h));
	if (!h)
		return -1;
	for (i = 0; i < n; i++) {
		struct kunwind_hint raw;

		memcpy(&raw, hs->data + i * KUNWIND_HINT_SIZE, sizeof(raw));
		if (!hint_rule(&raw, &h[nr].rule)) {
			fprintf(stderr, "kunwind-gen: %s: hint %zu: unknown type %u: ignored\n",
				kelf_path(e), i, raw.type);
			continue;
		}
		if (!hint_ip(e, hs, i, raw.ip, &h[nr].shndx, &h[nr].addr)) {
			fprintf(stderr,
				"kunwind-gen: %s: %s hint %zu: ip is not in a text section: ignored\n",
				kelf_path(e), hint_name(raw.type), i);
			continue;
		}
		h[nr].type = raw.type;
		h[nr].idx = i;
		nr++;
	}
	qsort(h, nr, sizeof(*h), hint_cmp);
	for (i = 0; i < nr && !ret; i++) {
		u64 limit = UINT64_MAX;

		/* Two hints at one address: the later one in the source wins. */
		if (i + 1 < nr && h[i + 1].shndx == h[i].shndx) {
			if (h[i + 1].addr == h[i].addr)
				continue;
			limit = h[i + 1].addr;
		}
		ret = apply(e, rows, &h[i], limit);
		if (st && !ret)
			st->hints++;
		if (ret > 0)
			ret = 0;
	}
	free(h);
	return ret;
}
