/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kunwind_test.ko shares with its helper modules, the only header
 * they include (tests/harness/stock-boot.sh builds early.c with this file
 * alone):
 *
 *   kunwind_test_helper.ko    helper.c, helper_sections.S: loaded and
 *                             unloaded by the registry suite
 *   kunwind_test_badtable.ko  badtable.c: the same, its table corrupt
 *   kunwind_test_early.ko     early.c: loaded before kunwind.ko
 *
 * The suites' own headers, each included by what uses it, are listed in
 * kunit/README.
 */
#ifndef _KUNWIND_TEST_H
#define _KUNWIND_TEST_H

#include <linux/types.h>

struct module;

/* Which section of the helper module a probe came from. */
enum kt_sec {
	KT_SEC_TEXT,
	KT_SEC_INIT,
	KT_SEC_EXIT,
	KT_SEC_UNLIKELY,
	KT_SEC_NR,
	KT_SEC_BAD = KT_SEC_NR,		/* the bad-table module's probe */
};

/*
 * What the helper module tells kunwind_test.ko when it comes up; kept by
 * value, so nothing points into the helper after it is gone.
 */
struct kt_helper_info {
	struct module *mod;
	unsigned long sec_fn[KT_SEC_NR];	/* the asm function at offset 0 */
	unsigned long text_fn;			/* a C function in .text */
	bool bad_table;				/* the copy whose table is corrupt */
};

/* helper_sections.S: each calls kunwind_test_section_probe(sec). */
void kth_sec_text(int sec);
void kth_sec_init(int sec);
void kth_sec_exit(int sec);
void kth_sec_unlikely(int sec);

/* Exported by kunwind_test.ko for the helper module. */
void kunwind_test_helper_up(const struct kt_helper_info *info);
void kunwind_test_helper_down(const struct kt_helper_info *info);
/* Called by the helper's assembly, one per section: walks from here. */
void kunwind_test_section_probe(int sec);

/* kunwind_test_early.ko (early.c), loaded before kunwind.ko. */
typedef long (*kt_early_fn)(void *arg);
long kt_early_chain(kt_early_fn fn, void *arg);
long kt_traced_1(kt_early_fn fn, void *arg);
long kt_traced_2(kt_early_fn fn, void *arg);
long kt_traced_3(kt_early_fn fn, void *arg);

#endif /* _KUNWIND_TEST_H */
