/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generator's stages and what they pass each other (gen.h lists the
 * files): the rows cfi.c makes, hints.c overrides, orc.c fills in and
 * table.c turns into a table; the growing array and the map they are
 * kept in.  build.c runs the stages in order; the unit tests and the
 * cfi fuzz target call cfi_parse() and table_build() directly.
 */
#ifndef _KUNWIND_GEN_STAGES_H
#define _KUNWIND_GEN_STAGES_H

#include "gen.h"

/*
 * rows.c: room for one more element in the array p of *alloc elements of
 * size bytes, nr of them used: p itself, or p moved to twice the room
 * (first elements the first time).  NULL when out of memory, p is then
 * untouched.  Pointers into the array do not survive a move.
 */
void *kgen_grow(void *p, size_t *alloc, size_t nr, size_t size, size_t first);

/* map.c: 64-bit keys -> array indexes; zero-initialise, kgen_map_free(). */
struct kgen_map {
	u64 *key;
	u32 *val;			/* index + 1, 0: free slot */
	size_t slots, nr;
};

/* The index of key, -1 if it is not there. */
long kgen_map_get(const struct kgen_map *m, u64 key);
/* Add key (not there yet) -> index; -1: no memory. */
int kgen_map_put(struct kgen_map *m, u64 key, u32 index);
void kgen_map_free(struct kgen_map *m);

/* rows.c: what the stages pass on (cfi.c makes rows, hints.c, orc.c) */
struct cfi_row {
	unsigned int shndx;		/* text section (ET_REL) or containing section */
	u64 start, end;			/* section-relative, end exclusive */
	struct kunwind_rule rule;
	size_t seq;			/* order of addition (cfi_rows_add()) */
};

struct cfi_rows {
	struct cfi_row *row;
	size_t nr, alloc;
};

/*
 * Append the row [start, end) of shndx (nothing if empty); -1: no memory.
 * The rows may move (kgen_grow()): keep copies, not pointers, across it.
 */
int cfi_rows_add(struct cfi_rows *r, unsigned int shndx, u64 start,
		 u64 end, const struct kunwind_rule *rule);
/*
 * By section, then start; rows that start together stay in the order they
 * were added (so of two overlapping rows the table keeps the first read).
 */
void cfi_rows_sort(struct cfi_rows *r);
void cfi_rows_free(struct cfi_rows *r);

/* cfi.c: CFI -> rows */
enum cfi_kind { CFI_EH_FRAME, CFI_DEBUG_FRAME };

/*
 * Interpret the CFI of one frame section into rows.  Malformed CIEs and
 * FDEs are skipped and counted; returns -1 only if the section cannot be
 * walked at all.  Works on an ELF (kelf) or on a bare buffer (fuzzing):
 * with e == NULL, addresses are taken as is in section index 1.
 */
int cfi_parse(struct kelf *e, const u8 *data, size_t len, u64 addr,
	      const struct ksec *sec, enum cfi_kind kind, struct cfi_rows *out,
	      struct cfi_stats *st);
/*
 * The rows of a file's .eh_frame and .debug_frame (want: "eh_frame" or
 * "debug_frame" for one of them, NULL for both).  -1 if it has neither.
 */
int cfi_parse_file(struct kelf *e, const char *want, struct cfi_rows *out,
		   struct cfi_stats *st);

/*
 * hints.c: override rows with the assembly hints of KUNWIND_HINT_SECTION
 * (after cfi_parse_file(), before table_build()).  Bad hints are reported
 * and ignored; -1 only when out of memory.  Counts into st->hints.
 */
int hints_apply(struct kelf *e, struct cfi_rows *rows, struct cfi_stats *st);

/*
 * orc.c: where no row covers an address of an executable section, add the
 * rule of the object's ORC entry there (.orc_unwind_ip, .orc_unwind), if
 * the table can say it (after hints_apply(), before table_build()).  An
 * object without ORC is left alone; -1 only when out of memory.  Counts
 * into st->orc_entries and st->orc_rows.
 */
int orc_apply(struct kelf *e, struct cfi_rows *rows, struct cfi_stats *st);
/*
 * orc.c: a call frame's row at each retpoline thunk's entry that no row
 * covers (after hints_apply(), before orc_apply(): it wins over ORC's
 * entry there).  -1 only when out of memory.  Counts into st->thunk_rows.
 */
int thunks_apply(struct kelf *e, struct cfi_rows *rows, struct cfi_stats *st);

/*
 * arm64.c: rows for the call sites of arm64's CFI-less entry code (after
 * the CFI and the hints, which win); nothing for another architecture.
 * -1 only when out of memory.  Counts into st->arch_rows.
 */
int arm64_entry_apply(struct kelf *e, struct cfi_rows *rows,
		      struct cfi_stats *st);

/* table.c: rows -> table */
/*
 * Build a table from rows (any order).  Segments are the text sections the
 * rows name, based at their sh_addr (0 in ET_REL) and sized by sh_size;
 * with e == NULL, one segment spans the rows.  Returns a malloc'ed table
 * (8-byte aligned) and its size in *len, or NULL on error.  seg_shndx, if
 * not NULL, has room for one entry per section and receives the section
 * of each segment (embed.c relocates the bases against them).
 */
void *table_build(const struct kelf *e, struct cfi_rows *rows, size_t *len,
		  struct table_stats *st, unsigned int *seg_shndx);
/* The same for architecture arch (table_build(): e's, or x86-64 without e). */
void *table_build_arch(const struct kgen_arch *arch, const struct kelf *e,
		       struct cfi_rows *rows, size_t *len,
		       struct table_stats *st, unsigned int *seg_shndx);

#endif /* _KUNWIND_GEN_STAGES_H */
