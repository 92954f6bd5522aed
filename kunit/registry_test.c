// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_registry: the life of a module's table, seen from the
 * module and from kunwind (this file; the suite's other cases are in
 * registry_tables_test.c and registry_stats_test.c, registry_test.h).
 *
 *   - this module's own table is registered at load; its init text was
 *     found during init (recorded by main.c) and walked there like ORC;
 *   - kunwind_test_helper.ko, loaded here with /bin/insmod: its .text,
 *     .init.text, .text.unlikely and (at rmmod) .exit.text functions sit
 *     at the same section offsets and each resolves to its own rows; its
 *     init text is found during its init and not after; after rmmod
 *     nothing of it is found;
 *   - the helper is loaded and unloaded again and again while a kthread
 *     on the other CPU walks from its code without pause;
 *   - a module whose table is corrupt is refused and still walked (ORC);
 *   - kunwind_test_early.ko, loaded before kunwind.ko, is registered at
 *     kunwind.ko's load and its frames are walked by its table;
 *   - refusals: more than KUNWIND_MAX_SEGS segments, a module's table
 *     outside its read-only memory, overlapping text
 *     (registry_tables_test.c);
 *   - the lookup among many tables, as they come and go (the same);
 *   - the walk counters and the debugfs files (registry_stats_test.c).
 *
 * Against a built-in kunwind (CONFIG_KUNWIND=y) the vmlinux table's case
 * and the early module's cannot apply and are not built; a case proving
 * the ORC fallback for vmlinux's frames is built instead.
 */
/* kunwind_mod_section(), as kunwind.ko builds it */
#include "unwind/linux/compat.h"
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include "unwind/linux/kwalk.h"
#include "unwind/linux/registry.h"
#include "unwind/linux/registry_lookup.h"
#include "unwind/linux/symbols.h"
#include "arch.h"
#include "kunwind_test.h"
#include "main.h"
#include "registry_test.h"
#include "trace.h"

static void registry_own_table_registered_at_load(struct kunit *test)
{
	struct kunwind_registration *entry = kunwind_module_registration(THIS_MODULE);
	unsigned long text = (unsigned long)kt_both_here;
	struct kunwind_rule r;

	KUNIT_ASSERT_NOT_NULL_MSG(test, entry, "kunwind_test has no registered table");
	KUNIT_EXPECT_EQ(test, kunwind_registration_seg_state(entry, text), KUNWIND_SEG_LIVE);
	KUNIT_EXPECT_TRUE(test, kunwind_find_rule(text, &r));
	/* At a function's first byte: arch.h. */
	KUNIT_EXPECT_EQ(test, r.type, KT_ENTRY_TYPE);
	KUNIT_EXPECT_EQ(test, r.cfa_off, KT_ENTRY_CFA);
	KUNIT_EXPECT_EQ(test, r.reg, KUNWIND_REG_SP);
}

/*
 * Built in (CONFIG_KUNWIND=y) there is no vmlinux table and no module can
 * load before kunwind: the cases that need either are left out of the
 * build (tests/harness/kunit-run.sh --kernel builtin checks exactly which), and
 * one proves the fallback instead.
 */
#if !IS_BUILTIN(CONFIG_KUNWIND)
static void registry_vmlinux_table_registered(struct kunit *test)
{
	struct kunwind_registration *entry = kunwind_module_registration(NULL);
	unsigned long fn = (unsigned long)msleep;
	struct kunwind_rule r;

	KUNIT_ASSERT_NOT_NULL_MSG(test, entry,
				  "no vmlinux table: kunwind.ko built without KUNWIND_VMLINUX?");
	KUNIT_EXPECT_EQ(test, kunwind_registration_seg_state(entry, fn), KUNWIND_SEG_LIVE);
	KUNIT_ASSERT_TRUE(test, kunwind_find_rule(fn, &r));
	KUNIT_EXPECT_EQ(test, r.type, KT_ENTRY_TYPE);
	KUNIT_EXPECT_EQ(test, r.cfa_off, KT_ENTRY_CFA);
}
#else
/*
 * No table for vmlinux, kunwind's own code included: the walk from here
 * reaches vmlinux's frames by the ORC fallback, each flagged so.
 */
static void registry_builtin_kernel_frames_use_the_orc_fallback(struct kunit *test)
{
	struct kt_trace *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int i, in_vmlinux = 0;
	struct kunwind_rule r;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_NULL(test, kunwind_module_registration(NULL));
	KUNIT_EXPECT_FALSE(test, kunwind_find_rule((unsigned long)msleep, &r));
	KUNIT_EXPECT_FALSE(test, kunwind_find_rule((unsigned long)kunwind_save, &r));
	KUNIT_ASSERT_NE(test, kunwind_sym.stext, 0ul);
	kt_kunwind_here(t);
	/* Frame i + 1 is reached by frame i's step. */
	for (i = 0; i + 1 < t->n; i++) {
		if (t->ip[i] < kunwind_sym.stext || t->ip[i] >= kunwind_sym.etext)
			continue;
		in_vmlinux++;
		KUNIT_EXPECT_TRUE_MSG(test, t->flags[i + 1] & KUNWIND_FRAME_ORC,
				      "the step out of %pS (frame %u) was not the " KT_FALLBACK " fallback's",
				      (void *)t->ip[i], i);
		KUNIT_EXPECT_EQ_MSG(test, t->fallback[i + 1], KUNWIND_FALLBACK_NO_TABLE,
				    "the step out of %pS (frame %u): %s, not no table",
				    (void *)t->ip[i], i,
				    kunwind_fallback_str(t->fallback[i + 1]));
	}
	/* kunit_try_run_case(), kunit_generic_run_threadfn_adapter(), kthread() */
	if (in_vmlinux < 3)
		kt_print_trace(test, "kunwind", t);
	KUNIT_EXPECT_GE(test, in_vmlinux, 3u);
	KUNIT_EXPECT_EQ(test, t->stop, KUNWIND_STOP_END);
}
#endif

static void registry_init_text_found_during_init(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, kt_init_record.walked);
	KUNIT_EXPECT_TRUE(test, kt_init_record.init_rule_found);
	KUNIT_EXPECT_EQ(test, kt_init_record.init_seg_state, KUNWIND_SEG_INIT);
	kt_expect_same_trace(test, "walk from __init", &kt_init_record.kun,
			     &kt_init_record.orc, false);
	/* [0] record_init_walk, [1] kunwind_test_init: both __init */
	KUNIT_ASSERT_GE(test, kt_init_record.kun.n, 2u);
	KUNIT_EXPECT_TRUE(test, kt_ip_in(kt_init_record.kun.ip[0], "record_init_walk"));
	KUNIT_EXPECT_TRUE(test, kt_ip_in(kt_init_record.kun.ip[1], "kunwind_test_init"));
	/* Each step out of them used their rows, in init text. */
	KUNIT_EXPECT_FALSE(test, kt_init_record.kun.flags[1] & KUNWIND_FRAME_ORC);
	KUNIT_EXPECT_FALSE(test, kt_init_record.kun.n > 2 &&
			   (kt_init_record.kun.flags[2] & KUNWIND_FRAME_ORC));
}

static const char *const sec_name[KT_SEC_NR] = {
	[KT_SEC_TEXT] = ".text",
	[KT_SEC_INIT] = ".init.text",
	[KT_SEC_EXIT] = ".exit.text",
	[KT_SEC_UNLIKELY] = ".text.unlikely",
};

static const char *const sec_fn_name[KT_SEC_NR] = {
	[KT_SEC_TEXT] = "kth_sec_text",
	[KT_SEC_INIT] = "kth_sec_init",
	[KT_SEC_EXIT] = "kth_sec_exit",
	[KT_SEC_UNLIKELY] = "kth_sec_unlikely",
};

/* helper_sections*.S: the CFA at each function's call. */
static const int sec_cfa[KT_SEC_NR] = { 16, 32, 48, 64 };

static void expect_probe(struct kunit *test, int sec)
{
	struct kt_probe *p = &kt_helper.probe[sec];
	struct kt_probe *text = &kt_helper.probe[KT_SEC_TEXT];

	KUNIT_ASSERT_TRUE_MSG(test, p->done, "%s: no probe", sec_name[sec]);
	KUNIT_EXPECT_STREQ(test, p->seg_name, sec_name[sec]);
	KUNIT_EXPECT_EQ_MSG(test, p->seg_off, text->seg_off,
			    "%s: the call is not at the offset of .text's",
			    sec_name[sec]);
	KUNIT_EXPECT_TRUE(test, p->rule_found);
	KUNIT_EXPECT_EQ_MSG(test, p->rule.cfa_off, sec_cfa[sec],
			    "%s: another section's row", sec_name[sec]);
	kt_expect_same_trace(test, sec_name[sec], &p->kun, &p->orc, false);
	KUNIT_ASSERT_GE(test, p->kun.n, 3u);
	KUNIT_EXPECT_EQ(test, p->kun.ip[1], p->call_ip);
	KUNIT_EXPECT_TRUE_MSG(test, !strncmp(p->fn1, sec_fn_name[sec],
					     strlen(sec_fn_name[sec])),
			      "frame 1 is in %s, expected %s", p->fn1,
			      sec_fn_name[sec]);
	KUNIT_EXPECT_FALSE_MSG(test, p->kun.flags[2] & KUNWIND_FRAME_ORC,
			       "%s: the step to %pS came from the " KT_FALLBACK " fallback",
			       sec_name[sec], (void *)p->kun.ip[2]);
}

static void registry_helper_sections_at_same_offset_resolve_to_own_rows(struct kunit *test)
{
	int err;

	memset(kt_helper.probe, 0, sizeof(kt_helper.probe));
	err = kt_insmod(HELPER);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "insmod %s/%s.ko: %d", kt_module_dir,
			    HELPER, err);
	KUNIT_ASSERT_TRUE(test, kt_helper.info.mod &&
			  !strcmp(kt_helper.info.mod->name, HELPER));
	KUNIT_ASSERT_NOT_NULL(test, kunwind_module_registration(kt_helper.info.mod));
	expect_probe(test, KT_SEC_TEXT);
	expect_probe(test, KT_SEC_INIT);
	expect_probe(test, KT_SEC_UNLIKELY);
	/* The offsets really coincide: the functions are first in their sections. */
	KUNIT_EXPECT_LT(test, kt_helper.probe[KT_SEC_TEXT].seg_off, 32ul);
}

static void registry_helper_init_text_dropped_after_init(struct kunit *test)
{
	struct kt_probe *init = &kt_helper.probe[KT_SEC_INIT];
	struct kunwind_registration *entry;
	struct kunwind_rule r;

	KUNIT_ASSERT_TRUE(test, init->done);
	entry = kunwind_module_registration(kt_helper.info.mod);
	KUNIT_ASSERT_NOT_NULL(test, entry);
	/* During the helper's init. */
	KUNIT_EXPECT_TRUE(test, kt_helper.init_rule_found);
	KUNIT_EXPECT_EQ(test, kt_helper.init_seg_state, KUNWIND_SEG_INIT);
	KUNIT_EXPECT_EQ(test, init->seg_state, KUNWIND_SEG_INIT);
	/* insmod has returned: init is over, its text freed or about to be. */
	KUNIT_EXPECT_EQ(test, kunwind_registration_seg_state(entry, init->call_ip - 1),
			KUNWIND_SEG_DEAD);
	KUNIT_EXPECT_FALSE(test, kunwind_find_rule(init->call_ip - 1, &r));
	KUNIT_EXPECT_FALSE(test, kunwind_find_rule(kt_helper.info.sec_fn[KT_SEC_INIT], &r));
	/* The other sections stay. */
	KUNIT_EXPECT_TRUE(test, kunwind_find_rule(kt_helper.probe[KT_SEC_TEXT].call_ip - 1, &r));
	KUNIT_EXPECT_TRUE(test, kunwind_find_rule(kt_helper.probe[KT_SEC_UNLIKELY].call_ip - 1,
						  &r));
}

static void registry_helper_exit_text_walked_then_table_gone(struct kunit *test)
{
	unsigned long text = kt_helper.probe[KT_SEC_TEXT].call_ip - 1;
	unsigned long unlikely_ip = kt_helper.probe[KT_SEC_UNLIKELY].call_ip - 1;
	unsigned long downs = kt_helper.downs, start;
	const struct kunwind_hdr *t;
	struct kunwind_rule r;
	int err;

	KUNIT_ASSERT_NE(test, text, 0ul - 1);
	err = kt_rmmod(HELPER);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "rmmod %s: %d", HELPER, err);
	KUNIT_EXPECT_EQ(test, kt_helper.downs, downs + 1);
	expect_probe(test, KT_SEC_EXIT);
	/* Unregistered at GOING, before the module's memory was freed. */
	KUNIT_EXPECT_FALSE(test, kunwind_find_rule(text, &r));
	KUNIT_EXPECT_FALSE(test, kunwind_find_rule(unlikely_ip, &r));
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, kunwind_registry_seg(text, &t, &start));
	rcu_read_unlock();
}

/* ---- unload while another CPU walks ---- */

struct race {
	unsigned long walks, with_table, without_table, by_orc, bad;
	unsigned long saves, short_saves;
	unsigned long bad_ip, bad_n, bad_flags;
	int cpu;
};

static int race_worker(void *arg);

/*
 * A walk whose first frame is the helper's .text function where its frame
 * is set up (KT_SEC_FRAMED(), arch.h), with a fake return address in the
 * word that holds it: race_worker(), code of this module, as the walk
 * reports only frames that are code.  With the helper's table: at least
 * two frames, the second the fake return address, reached by the table.
 * Without it: one frame once the helper is gone (the ORC fallback knows
 * nothing there either), or, while the loader still has the module
 * without its table being registered (before COMING, after GOING), a
 * step of the ORC fallback, flagged.  A step by a table to anywhere else
 * is the failure this looks for.  Zeros follow, past any CFA of the
 * helper: an address reused by the next load gives the same shapes.
 */
static noinline void race_walk(struct race *r, unsigned long fn)
{
	unsigned long fake[16] = {};
	struct kunwind_kstate w;
	unsigned long ip1 = 1;
	unsigned int n = 1, flags1 = 0;

	fake[KT_SEC_RA] = (unsigned long)race_worker;
	if (kunwind_walk_start(&w, NULL, fn, (unsigned long)fake, 0, false)) {
		if (kunwind_walk_next(&w)) {
			n++;
			ip1 = w.s.ip;
			flags1 = w.frame_flags;
			while (kunwind_walk_next(&w))
				n++;
		}
	}
	kunwind_walk_end(&w);
	r->walks++;
	if (n >= 2 && ip1 == fake[KT_SEC_RA] && !(flags1 & KUNWIND_FRAME_ORC)) {
		r->with_table++;
	} else if (n == 1) {
		r->without_table++;
	} else if (flags1 & KUNWIND_FRAME_ORC) {
		r->by_orc++;
	} else {
		if (!r->bad++) {
			r->bad_ip = ip1;
			r->bad_n = n;
			r->bad_flags = flags1;
		}
	}
	barrier();
}

/*
 * Each round: one walk from the helper's code, and one kunwind_save() of
 * this thread's own stack (race_worker, kthread, ret_from_fork and on
 * x86-64 ret_from_fork_asm at least: KT_KTHREAD_FRAMES), whose lookups
 * run beside the registry's changes.
 */
static int race_worker(void *arg)
{
	unsigned long store[16];
	struct race *r = arg;

	while (!kthread_should_stop()) {
		unsigned long fn = READ_ONCE(kt_helper.info.sec_fn[KT_SEC_TEXT]);

		if (fn)
			race_walk(r, KT_SEC_FRAMED(fn));
		r->saves++;
		if (kunwind_save(store, ARRAY_SIZE(store), 0, NULL) <
		    KT_KTHREAD_FRAMES)
			r->short_saves++;
		cond_resched();
	}
	return 0;
}

static void registry_unload_while_walks_run_on_another_cpu(struct kunit *test)
{
	struct task_struct *t;
	struct race *r;
	int i, err = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	t = kthread_create(race_worker, r, "kunwind_race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, r->cpu);
	get_task_struct(t);
	wake_up_process(t);

	for (i = 0; i < 6 && !err; i++) {
		err = kt_insmod(HELPER);
		if (err)
			break;
		msleep(30);
		err = kt_rmmod(HELPER);
		msleep(30);
	}
	kthread_stop(t);
	put_task_struct(t);

	KUNIT_EXPECT_EQ_MSG(test, err, 0, "insmod/rmmod failed in round %d: %d",
			    i, err);
	kunit_info(test, "%lu walks on CPU %d: %lu with the helper's table, %lu without, %lu by the " KT_FALLBACK " fallback\n",
		   r->walks, r->cpu, r->with_table, r->without_table, r->by_orc);
	KUNIT_EXPECT_EQ_MSG(test, r->bad, 0ul,
			    "%lu walks of no known shape, first: %lu frames, ip[1] %pS flags %lx",
			    r->bad, r->bad_n, (void *)r->bad_ip, r->bad_flags);
	KUNIT_EXPECT_GT(test, r->with_table, 0ul);
	KUNIT_EXPECT_GT(test, r->without_table, 0ul);
	KUNIT_EXPECT_EQ_MSG(test, r->short_saves, 0ul,
			    "%lu of %lu kunwind_save() of the worker's stack were short",
			    r->short_saves, r->saves);
}

/* ---- a corrupt table ---- */

static void registry_bad_table_refused_module_still_walked(struct kunit *test)
{
	struct kt_probe *p = &kt_helper.probe[KT_SEC_BAD];
	int err;

	memset(p, 0, sizeof(*p));
	err = kt_insmod(BADTABLE);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "insmod %s/%s.ko: %d", kt_module_dir,
			    BADTABLE, err);
	KUNIT_EXPECT_TRUE(test, kt_helper.info.bad_table);
	KUNIT_EXPECT_NULL_MSG(test, kunwind_module_registration(kt_helper.info.mod),
			      "the corrupt table was registered");
	KUNIT_ASSERT_TRUE(test, p->done);
	KUNIT_EXPECT_FALSE(test, p->rule_found);
	/* [0] the probe, [1] kbad_walk, [2] kbad_init: by the ORC fallback. */
	kt_expect_same_trace(test, "through the refused module", &p->kun,
			     &p->orc, false);
	KUNIT_ASSERT_GE(test, p->kun.n, 3u);
	KUNIT_EXPECT_TRUE_MSG(test, !strncmp(p->fn1, "kbad_walk", 9),
			      "frame 1 is in %s", p->fn1);
	KUNIT_EXPECT_TRUE(test, p->kun.flags[2] & KUNWIND_FRAME_ORC);
	err = kt_rmmod(BADTABLE);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, kt_helper.ups, kt_helper.downs);
}

/* ---- a module loaded before kunwind.ko ---- */

#if !IS_BUILTIN(CONFIG_KUNWIND)

/* The module named name, from the kernel's list (not exported). */
static struct module *find_module_named(struct kunit *test, const char *name)
{
	struct module *mod, *found = NULL;

	KUNIT_ASSERT_TRUE_MSG(test, kunwind_sym.modules && kunwind_sym.module_mutex,
			      "the module list was not resolved (CONFIG_KALLSYMS_ALL?)");
	mutex_lock(kunwind_sym.module_mutex);
	list_for_each_entry(mod, kunwind_sym.modules, list)
		if (!strcmp(mod->name, name))
			found = mod;
	mutex_unlock(kunwind_sym.module_mutex);
	return found;
}

static noinline long early_probe(void *arg)
{
	kt_kunwind_here(arg);
	barrier();	/* no tail call: this frame must exist */
	return 0;
}

/*
 * tests/harness/kunit-run.sh loads kunwind_test_early.ko before kunwind.ko, so
 * only kunwind.ko's look at the module list can have registered it.  The
 * ORC fallback would give the same frames; the flags tell which made the
 * steps out of the module's two frames: frame k + 1 is reached by the row
 * of frame k.
 */
static void registry_module_loaded_before_kunwind_walked_by_its_table(struct kunit *test)
{
	struct kt_trace *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned long chain = (unsigned long)kt_early_chain, start;
	const struct kunwind_hdr *hdr, *table;
	struct kunwind_registration *entry;
	struct module *mod;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	mod = find_module_named(test, "kunwind_test_early");
	KUNIT_ASSERT_NOT_NULL_MSG(test, mod, "kunwind_test_early.ko is not loaded");
	entry = kunwind_module_registration(mod);
	KUNIT_ASSERT_NOT_NULL_MSG(test, entry,
				  "kunwind_test_early.ko, loaded before kunwind.ko, has no registered table");
	KUNIT_EXPECT_EQ(test, kunwind_registration_seg_state(entry, chain), KUNWIND_SEG_LIVE);
	/*
	 * Found through the module's own section list, which must give the
	 * registered table (the symbol table would too, with KALLSYMS_ALL).
	 */
	rcu_read_lock();
	table = kunwind_registry_seg(chain, &hdr, &start) ? hdr : NULL;
	rcu_read_unlock();
	KUNIT_EXPECT_NOT_NULL(test, table);
	KUNIT_EXPECT_EQ_MSG(test, kunwind_mod_section(mod, ".kunwind"),
			    (unsigned long)table,
			    "the .kunwind section in mod->sect_attrs is not the registered table");

	kt_early_chain(early_probe, t);
	/* [0] early_probe, [1] kt_early_inner, [2] kt_early_chain, [3] here */
	for (i = 0; i + 2 < t->n && !kt_ip_in(t->ip[i], "kt_early_inner"); i++)
		;
	if (i + 2 >= t->n) {
		kt_print_trace(test, "kunwind", t);
		KUNIT_FAIL(test, "no kt_early_inner frame followed by two more");
		return;
	}
	KUNIT_EXPECT_TRUE(test, kt_ip_in(t->ip[i + 1], "kt_early_chain"));
	KUNIT_EXPECT_TRUE(test, kt_ip_in(t->ip[i + 2], __func__));
	KUNIT_EXPECT_FALSE_MSG(test, t->flags[i + 1] & KUNWIND_FRAME_ORC,
			       "the step out of kt_early_inner came from the " KT_FALLBACK " fallback");
	KUNIT_EXPECT_FALSE_MSG(test, t->flags[i + 2] & KUNWIND_FRAME_ORC,
			       "the step out of kt_early_chain came from the " KT_FALLBACK " fallback");
	KUNIT_EXPECT_EQ(test, t->stop, KUNWIND_STOP_END);
}
#endif

static struct kunit_case registry_test_cases[] = {
	KUNIT_CASE(registry_own_table_registered_at_load),
#if !IS_BUILTIN(CONFIG_KUNWIND)
	KUNIT_CASE(registry_vmlinux_table_registered),
#else
	KUNIT_CASE(registry_builtin_kernel_frames_use_the_orc_fallback),
#endif
	KUNIT_CASE(registry_init_text_found_during_init),
	KUNIT_CASE(registry_helper_sections_at_same_offset_resolve_to_own_rows),
	KUNIT_CASE(registry_helper_init_text_dropped_after_init),
	KUNIT_CASE(registry_helper_exit_text_walked_then_table_gone),
	KUNIT_CASE_SLOW(registry_unload_while_walks_run_on_another_cpu),
	KUNIT_CASE(registry_bad_table_refused_module_still_walked),
#if !IS_BUILTIN(CONFIG_KUNWIND)
	KUNIT_CASE(registry_module_loaded_before_kunwind_walked_by_its_table),
#endif
	KUNIT_CASE(registry_table_over_segment_cap_refused),
	KUNIT_CASE(registry_module_table_outside_read_only_memory_refused),
	KUNIT_CASE(registry_overlapping_text_refused),
	KUNIT_CASE(registry_find_picks_the_segment_among_many_tables),
	KUNIT_CASE(registry_stats_count_walks_and_stop_reasons),
	KUNIT_CASE(registry_debugfs_tables_lists_registrations),
	{}
};

static struct kunit_suite registry_test_suite = {
	.name = "kunwind_registry",
	.init = kt_steps_init,
	.exit = kt_steps_exit,
	.test_cases = registry_test_cases,
};

kunit_test_suite(registry_test_suite);
