/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind-gen internals, shared by kunwind-gen, kunwind-stack, the fuzz
 * targets and the benchmarks.
 *
 *   elf.c    the ELF file: sections, relocations, symbols (reads, libelf;
 *            its API is kelf.h)
 *   rows.c   the rows the stages pass on; kgen_grow(), a growing array
 *   map.c    kgen_map: 64-bit keys -> indexes (CIE cache, rule dictionary)
 *   cfi.c    CIE/FDE parsing -> rows (cfi.h, dwarf.h: its own headers)
 *   cfa.c    the CFA interpreter, its rules -> kunwind rules
 *   arch.c   what differs between x86-64 and arm64 (arch.h)
 *   arm64.c  rows for arm64's entry code, which has no CFI
 *   hints.c  assembly hints (unwind/linux/kunwind_asm.h) -> rows
 *   orc.c    the object's ORC, where no CFI row or hint says anything
 *   table.c  rows -> binary table (struct kunwind_hdr ...)
 *   build.c  the pipeline: a file -> cfi -> hints -> orc -> table
 *   dump.c   a table -> text, one row a line
 *   embed.c  a table -> section .kunwind of a relocatable object (writes,
 *            libelf)
 *   main.c   kunwind-gen's command line
 *
 * kunwind-stack, the fuzz targets and the benchmarks use elf.c and build.c.
 * This header is the generator as they see it: a file in, a table out
 * (build.c), the table as text (dump.c) or in an object (embed.c).  What
 * the stages pass each other is in stages.h.
 */
#ifndef _KUNWIND_GEN_H
#define _KUNWIND_GEN_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "../unwind/kunwind.h"
#include "kelf.h"

/* What the stages did (kunwind-gen stats prints them) */
struct cfi_stats {
	size_t cies, fdes, rows, unsupported;
	size_t fdes_skipped;		/* outside any text section or empty */
	size_t fdes_bad;		/* malformed: parse error, reported */
	size_t hints;			/* assembly hints applied (hints.c) */
	size_t orc_entries;		/* ORC entries read (orc.c) */
	size_t orc_rows;		/* rows added from them */
	size_t thunk_rows;		/* retpoline thunks' entries (orc.c) */
	size_t arch_rows;		/* arm64's entry code (arm64.c) */
	size_t sections;		/* frame sections read */
};

/* table.c: what the table came to */
struct table_stats {
	size_t rows, rules, merged, gaps, overlaps, segs;
	size_t escaped;			/* rows whose rule is escaped */
	size_t bytes;
};

/*
 * build.c: the whole pipeline on an open file: its frame sections (frame:
 * "eh_frame" or "debug_frame" for one, NULL for both), the hints, its
 * ORC (unless flags has KGEN_NO_ORC), the table.  A file without frame
 * sections gives an empty table (cs->sections == 0).  NULL on error,
 * reported.
 */
/* CFI and hints only (the DWARF oracles' view): no ORC, no arm64 entry rows */
#define KGEN_NO_ORC	0x1
#define KGEN_ONLY_ORC	0x2	/* ORC only (objtool's view, tests/orc.test) */

void *kgen_build(struct kelf *e, const char *frame, unsigned int flags,
		 size_t *len, struct cfi_stats *cs, struct table_stats *ts,
		 unsigned int *seg_shndx);

/* The table of the file at path (kgen_build on it); NULL on error. */
void *kgen_table(const char *path, size_t *len, struct cfi_stats *cs,
		 struct table_stats *ts);

/*
 * embed.c: build the table of the relocatable object in (both frame
 * sections and the hints, as kgen_table()) and write in, with the table
 * in section .kunwind, to out (in place if out is NULL or in).  An older
 * .kunwind is replaced.  A table that would be empty is not embedded
 * (out is then a copy of in), with a message.  0 on success, else a
 * message went to stderr.
 */
int kgen_embed(const char *in, const char *out);
/*
 * asm.c: the table of the linked file in as assembler source (section
 * .kunwind_table), each segment's base a global symbol of its section
 * plus a constant, to out (stdout if NULL).  0 on success, else a message
 * went to stderr.
 */
int kgen_asm(const char *in, const char *out);
/*
 * Write len bytes to path as a new file renamed over it, never in place.
 * 0 on success, else a message went to stderr.
 */
int kgen_write_file(const char *path, const void *buf, size_t len);

/* dump.c */
void dump_rule(FILE *f, const struct kunwind_rule *r, const struct kgen_arch *a);
void dump_table(FILE *f, const struct kunwind_hdr *t);

#endif /* _KUNWIND_GEN_H */
