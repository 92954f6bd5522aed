// SPDX-License-Identifier: GPL-2.0
/*
 * The generator's pipeline, one ELF file in, one table out:
 *
 *   cfi.c     .eh_frame and .debug_frame -> rows (cfa.c the rules)
 *   hints.c   the assembly hints override the rows they cover
 *   orc.c     the retpoline thunks' entries, where neither says
 *             anything; then the object's ORC fills what none says
 *   table.c   rows -> table
 *
 * The order matters: a hint wins over the CFI row it cuts, and ORC only
 * fills gaps, so it runs last (a thunk's entry wins over ORC's entry,
 * which says undefined, or before 6.3 end of stack, there).  kunwind-gen, kunwind-gen embed,
 * kunwind-stack and the benchmarks all build their tables here.
 */
#include <stdlib.h>
#include <string.h>
#include "stages.h"

void *kgen_build(struct kelf *e, const char *frame, unsigned int flags,
		 size_t *len, struct cfi_stats *cs, struct table_stats *ts,
		 unsigned int *seg_shndx)
{
	struct cfi_rows rows = { 0 };
	/* beyond the CFI and the hints: not in the DWARF oracles' view */
	bool more = !(flags & (KGEN_NO_ORC | KGEN_ONLY_ORC));
	/* ORC and retpoline thunks are x86-64's (kelf_arch()->orc) */
	bool orc = kelf_arch(e)->orc && !(flags & KGEN_NO_ORC);
	void *t = NULL;

	memset(cs, 0, sizeof(*cs));
	if (!(flags & KGEN_ONLY_ORC))
		cfi_parse_file(e, frame, &rows, cs);
	if ((!(flags & KGEN_ONLY_ORC) && hints_apply(e, &rows, cs)) ||
	    (more && arm64_entry_apply(e, &rows, cs)) ||
	    (more && orc && thunks_apply(e, &rows, cs)) ||
	    (orc && orc_apply(e, &rows, cs))) {
		fprintf(stderr, "kunwind-gen: %s: out of memory\n", kelf_path(e));
	} else {
		t = table_build(e, &rows, len, ts, seg_shndx);
		if (!t)
			fprintf(stderr, "kunwind-gen: %s: cannot build the table\n",
				kelf_path(e));
	}
	cfi_rows_free(&rows);
	return t;
}

void *kgen_table(const char *path, size_t *len, struct cfi_stats *cs,
		 struct table_stats *ts)
{
	struct cfi_stats cs0;
	struct table_stats ts0;
	struct kelf *e = kelf_open(path);
	void *t;

	if (!e)
		return NULL;
	t = kgen_build(e, NULL, 0, len, cs ? cs : &cs0, ts ? ts : &ts0, NULL);
	kelf_close(e);
	return t;
}
