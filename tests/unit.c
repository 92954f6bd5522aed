// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the freestanding core (unwind/lookup.c, walk.c): the
 * scenarios of unwind/test/, the same ones the KUnit suites kunwind_lookup
 * and kunwind_walk run in the kernel, here on tables the generator builds
 * (gen/table.c's table_build(), where the kernel uses kunit/table.c).
 * Built twice: tests/unit, the core for this machine (x86-64), and
 * tests/unit-arm64, the core built for arm64 tables
 * (-DKUNWIND_TARGET_ARM64) with the arm64 walk scenarios.
 * One line a case, as KUnit names it without "kunit_":
 *	ok kunwind_walk.walk_scenario.walk_follows_rbp_based_cfa
 * and a "# " line for each expectation that failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "../gen/stages.h"

/*
 * The host's side of unwind/test/scenarios.h's contract: a case, what it
 * allocated (freed when it ends), and how many of its expectations failed.
 */
struct unit_case {
	char name[160];
	unsigned int failed;
	void *mem[8];
	unsigned int nr_mem;
};

#define KT_TEST struct unit_case
#include "../unwind/test/scenarios.h"

static __attribute__((format(printf, 5, 6)))
void unit_fail(struct unit_case *c, const char *file, int line,
	       const char *cond, const char *fmt, ...)
{
	va_list ap;

	printf("# %s: %s:%d: failed: %s: ", c->name, file, line, cond);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	c->failed++;
}

#define KT_EXPECT(test, cond, fmt, ...) ({				\
	bool ok_ = (cond);						\
	if (!ok_)							\
		unit_fail(test, __FILE__, __LINE__, #cond, fmt, ##__VA_ARGS__); \
	ok_;								\
})

#define KT_NOTE(test, fmt, ...)	printf("# %s: " fmt "\n", (test)->name, ##__VA_ARGS__)

static void *unit_keep(struct unit_case *c, void *p)
{
	if (p && c->nr_mem < sizeof(c->mem) / sizeof(c->mem[0]))
		return c->mem[c->nr_mem++] = p;
	free(p);
	return NULL;
}

#define KT_ZALLOC(test, size)	unit_keep(test, calloc(1, size))

/*
 * The table of the segments by the generator: segment i is section i + 1,
 * based at its first row; NONE rows before the first row and after the
 * last make it start at the segment's base and end at its size.  Every
 * segment is called ".text".  A row past the segment's size gives no
 * table, as the kernel's builder (kunit/table.c) gives none valid.
 */
static struct kunwind_hdr *kt_table_build(struct unit_case *c,
					  const struct kt_seg *segs,
					  unsigned int nr, unsigned long *len)
{
	static const struct kunwind_rule none = { 0 };
	struct cfi_rows rows = { 0 };
	struct table_stats st;
	unsigned int i, j;
	int err = 0;
	size_t sz;
	void *t;

	for (i = 0; i < nr; i++) {
		const struct kt_seg *s = &segs[i];
		u32 first = s->nr_rows ? s->rows[0].start : s->size;
		u32 last = s->nr_rows ? s->rows[s->nr_rows - 1].end : s->size;

		/* No table, as kunit/table.c gives none: rows past the size. */
		if (last > s->size)
			err = 1;
		err |= cfi_rows_add(&rows, i + 1, s->base, s->base + first, &none);
		for (j = 0; j < s->nr_rows; j++)
			err |= cfi_rows_add(&rows, i + 1, s->base + s->rows[j].start,
					    s->base + s->rows[j].end,
					    &s->rows[j].rule);
		err |= cfi_rows_add(&rows, i + 1, s->base + last,
				    s->base + s->size, &none);
	}
	t = err ? NULL : table_build_arch(kgen_arch_of_table(KUNWIND_ARCH_ID),
					  NULL, &rows, &sz, &st, NULL);
	cfi_rows_free(&rows);
	*len = t ? sz : 0;
	return unit_keep(c, t);
}

#include "../unwind/test/lookup_cases.h"
#ifdef KUNWIND_ARCH_HAS_LR
#include "../unwind/test/walk_cases_arm64.h"
#else
#include "../unwind/test/walk_cases.h"
#endif

static unsigned int passed, failed;

static void unit_begin(struct unit_case *c, const char *group,
		       const char *name)
{
	snprintf(c->name, sizeof(c->name), "%s.%s", group, name);
	c->failed = 0;
	c->nr_mem = 0;
}

static void unit_end(struct unit_case *c)
{
	printf("%s %s\n", c->failed ? "not ok" : "ok", c->name);
	if (c->failed)
		failed++;
	else
		passed++;
	while (c->nr_mem)
		free(c->mem[--c->nr_mem]);
}

/* Each entry of a parameter table, passed to fn: "group.<entry's name>". */
#define RUN_PARAMS(c, group, table, fn) do {				\
	for (unsigned int i_ = 0; i_ < KT_ARRAY_SIZE(table); i_++) {	\
		unit_begin(c, group, (table)[i_].name);			\
		fn(c, &(table)[i_]);					\
		unit_end(c);						\
	}								\
} while (0)

/* Each scenario of a table: "group.<scenario's name>". */
#define RUN_SCENARIOS(c, group, table) do {				\
	for (unsigned int i_ = 0; i_ < KT_ARRAY_SIZE(table); i_++) {	\
		unit_begin(c, group, (table)[i_].name);			\
		(table)[i_].run(c);					\
		unit_end(c);						\
	}								\
} while (0)

int main(void)
{
	struct unit_case c;

	/*
	 * As kunit/lookup_test.c's and kunit/walk_test.c's case arrays; in
	 * tests/unit-arm64, the core built for arm64, the lookup's (its
	 * tables of arm64's rules: kt_frame()) and the arm64 walk's.
	 */
	RUN_PARAMS(&c, "kunwind_lookup.lookup_every_byte_finds_its_row",
		   kt_lookup_sizes, kt_lookup_every_byte_finds_its_row);
	RUN_PARAMS(&c, "kunwind_lookup.check_table", kt_corruptions,
		   kt_check_table);
	RUN_SCENARIOS(&c, "kunwind_lookup.lookup_scenario", kt_lookup_scenarios);
#ifdef KUNWIND_ARCH_HAS_LR
	RUN_SCENARIOS(&c, "kunwind_walk.walk_arm64_scenario",
		      kt_walk_arm64_scenarios);
#else
	RUN_PARAMS(&c, "kunwind_walk.walk_reaches_stop_reason", kt_stop_cases,
		   kt_walk_reaches_stop_reason);
	RUN_SCENARIOS(&c, "kunwind_walk.walk_scenario", kt_walk_scenarios);
#endif
	printf("# unit: %u passed, %u failed\n", passed, failed);
	return failed != 0;
}
