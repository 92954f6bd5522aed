// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: frame section bytes -> cfi_parse() -> table_build() ->
 * kunwind_table_check() -> lookups.
 *
 * The generator reads .eh_frame/.debug_frame of any file it is given, so
 * its parser must survive every byte string (ASan, UBSan), and what it
 * builds must be a table the kernel's checker accepts: a table the
 * generator writes and the checker refuses is a bug in one of them.  The
 * table must also say what the rows say: every address covered by exactly
 * one row maps to that row's rule, every address between rows to
 * KUNWIND_RULE_NONE.
 *
 * Input:
 *   u8  kind      bit 0: .debug_frame, else .eh_frame
 *   u64 addr      the section's address (pc-relative pointers use it)
 *   ...           the section's bytes
 * Seeds are real sections (objcopy --only-section), see fuzz.mk.
 */
#include "table_invariants.h"
#include "../gen/stages.h"

#define FULL_PROBE_LIMIT	1024
#define MAX_SPAN		(1ULL << 22)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static int row_cmp(const void *a, const void *b)
{
	const struct cfi_row *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return 0;
}

static void check_rule(const struct kunwind_hdr *t, uint64_t addr,
		       const struct kunwind_rule *want, const char *what)
{
	const struct kunwind_rule *got = kunwind_table_rule(t, addr);

	if (!got)
		fuzz_fail("%s: no rule at %#llx", what,
			  (unsigned long long)addr);
	if (memcmp(got, want, sizeof(*got)))
		fuzz_fail("%s at %#llx: table rule {cfa %d bp %d type %u reg "
			  "%u}, rows say {cfa %d bp %d type %u reg %u}", what,
			  (unsigned long long)addr, got->cfa_off, got->bp_off,
			  got->type, got->reg, want->cfa_off, want->bp_off,
			  want->type, want->reg);
}

/*
 * Rows sorted by start; a row is compared only where no other row
 * overlaps it (the builder keeps one of overlapping rows, which one is
 * its choice).
 */
static void check_rows(const struct kunwind_hdr *t, const struct cfi_rows *rows)
{
	static const struct kunwind_rule none = { .type = KUNWIND_TYPE_NONE };
	uint64_t max_end = 0;
	size_t i;

	for (i = 0; i < rows->nr; i++) {
		const struct cfi_row *r = &rows->row[i];
		const struct cfi_row *next = i + 1 < rows->nr ? r + 1 : NULL;
		bool alone = (!i || r->start >= max_end) &&
			     (!next || r->end <= next->start);

		if (r->end > max_end)
			max_end = r->end;
		if (!alone)
			continue;
		check_rule(t, r->start, &r->rule, "row start");
		check_rule(t, r->start + (r->end - r->start) / 2, &r->rule,
			   "row middle");
		check_rule(t, r->end - 1, &r->rule, "row end");
		if (next && r->end < next->start)
			check_rule(t, r->end, &none, "gap after row");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static FILE *devnull;
	struct fuzz_in in = { data, len };
	enum cfi_kind kind = fuzz_u8(&in) & 1 ? CFI_DEBUG_FRAME : CFI_EH_FRAME;
	uint64_t addr = fuzz_u64(&in), lo = 0, hi = 0;
	uint8_t *sec = fuzz_aligned_copy(in.p, in.n);
	struct cfi_rows rows = { 0 };
	struct cfi_stats cs = { 0 };
	struct table_stats ts;
	size_t i, tlen = 0;
	void *t;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (cfi_parse(NULL, sec, in.n, addr, NULL, kind, &rows, &cs) < 0) {
		cfi_rows_free(&rows);
		free(sec);
		return 0;
	}
	if (cs.rows != rows.nr)
		fuzz_fail("stats count %zu rows, cfi_parse returned %zu",
			  cs.rows, rows.nr);
	for (i = 0; i < rows.nr; i++) {
		const struct cfi_row *r = &rows.row[i];

		if (r->shndx != 1 || r->start >= r->end)
			fuzz_fail("row %zu: section %u [%#llx, %#llx)", i,
				  r->shndx, (unsigned long long)r->start,
				  (unsigned long long)r->end);
		lo = !i || r->start < lo ? r->start : lo;
		hi = !i || r->end > hi ? r->end : hi;
	}
	if (rows.nr)
		qsort(rows.row, rows.nr, sizeof(*rows.row), row_cmp);

	/*
	 * Spans the format holds but that take long to build (a 4 GiB
	 * segment has 16 M buckets) only slow the fuzzer down: every code
	 * path is reached with smaller ones.
	 */
	if (rows.nr && hi - lo > MAX_SPAN && hi - lo <= 0xffffffffULL) {
		cfi_rows_free(&rows);
		free(sec);
		return 0;
	}
	t = table_build(NULL, &rows, &tlen, &ts, NULL);
	/*
	 * Refusing is right only for what the format cannot hold: one
	 * segment spans at most 4 GiB, rule indexes are 16 bits.  Anything
	 * else, no rows included, must give a table.
	 */
	if (!t && hi - lo <= 0xffffffffULL && rows.nr <= 0xffff)
		fuzz_fail("table_build refused %zu rows spanning %#llx bytes",
			  rows.nr, (unsigned long long)(rows.nr ? hi - lo : 0));
	if (t) {
		enum kunwind_bad bad = kunwind_table_check(t, tlen);

		if (bad)
			fuzz_fail("the checker refuses a built table: %s",
				  kunwind_bad_str(bad));
		if (rows.nr && hi - lo <= 0xffffffffULL)
			check_rows(t, &rows);
		fuzz_check_table(t, addr ^ len, FULL_PROBE_LIMIT);
		/* Printing dominates the run time; small tables reach it all */
		if (tlen <= 4096)
			dump_table(devnull, t);
		free(t);
	}
	cfi_rows_free(&rows);
	free(sec);
	return 0;
}
