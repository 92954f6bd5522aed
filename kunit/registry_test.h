/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Suite kunwind_registry, one suite in three files; its case array, in
 * registry_test.c, lists the cases of the other two, declared here:
 *
 *   registry_test.c         the life of a module's table: this module's,
 *                           the helper modules' loads and unloads, a
 *                           corrupt table, a module loaded before kunwind
 *   registry_tables_test.c  synthetic tables: the registry's refusals and
 *                           the lookup among many tables
 *   registry_stats_test.c   the walk counters and the debugfs files
 */
#ifndef _KUNWIND_KUNIT_REGISTRY_TEST_H
#define _KUNWIND_KUNIT_REGISTRY_TEST_H

struct kunit;

/* The modules the suite loads from kt_module_dir. */
#define HELPER		"kunwind_test_helper"
#define BADTABLE	"kunwind_test_badtable"

/* registry_tables_test.c */
void registry_table_over_segment_cap_refused(struct kunit *test);
void registry_module_table_outside_read_only_memory_refused(struct kunit *test);
void registry_overlapping_text_refused(struct kunit *test);
void registry_find_picks_the_segment_among_many_tables(struct kunit *test);

/* registry_stats_test.c */
void registry_stats_count_walks_and_stop_reasons(struct kunit *test);
void registry_debugfs_tables_lists_registrations(struct kunit *test);

#endif /* _KUNWIND_KUNIT_REGISTRY_TEST_H */
