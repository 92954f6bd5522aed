// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: table bytes -> kunwind_table_check().
 *
 * The checker is the only thing standing between a corrupt table (a bad
 * module, a bit flip) and a lookup in NMI context that has no bounds checks
 * of its own.  So whatever it accepts must be safe to search: every lookup,
 * inside the segments and outside, and a full row iteration stay inside the
 * table (ASan proves it, the table is copied to a buffer of exactly its
 * size), and the lookup and the iterator agree on every row (fuzz.h).
 *
 * Input: the table itself; the last 8 bytes also serve as one more address
 * to look up.  Seeds are real tables (kunwind-gen build), see fuzz.mk.
 */
#include "table_invariants.h"

/* Segments up to this size are probed at every byte. */
#define FULL_PROBE_LIMIT	4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fuzz_in tail = {
		.p = data + (len > 8 ? len - 8 : 0),
		.n = len > 8 ? 8 : len,
	};
	unsigned long extra = fuzz_u64(&tail);
	void *t = fuzz_aligned_copy(data, len);
	enum kunwind_bad bad = kunwind_table_check(t, len);

	if ((unsigned int)bad >= KUNWIND_BAD_NR)
		fuzz_fail("checker returned %d", bad);
	if (!bad)
		fuzz_check_table(t, extra, FULL_PROBE_LIMIT);
	/* The checker must refuse a misaligned copy of any table. */
	if (len >= sizeof(struct kunwind_hdr)) {
		uint8_t *odd = malloc(len + 1);

		if (!odd)
			abort();
		memcpy(odd + 1, data, len);
		if (!((uintptr_t)(odd + 1) & 7) ||
		    kunwind_table_check(odd + 1, len) == KUNWIND_OK)
			fuzz_fail("misaligned table accepted");
		free(odd);
	}
	free(t);
	return 0;
}
