// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_registry: the life of a module's table, seen from the
 * module and from kunwind.
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
 *   - the walk counters and the debugfs files.
 */
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <asm/ibt.h>
#include "unwind/linux/internal.h"
#include "kunwind_test.h"

#define HELPER		"kunwind_test_helper"
#define BADTABLE	"kunwind_test_badtable"

static void registry_own_table_registered_at_load(struct kunit *test)
{
	struct kunwind_reg *reg = kunwind_module_reg(THIS_MODULE);
	unsigned long text = (unsigned long)kt_both_here;
	struct kunwind_rule r;

	KUNIT_ASSERT_NOT_NULL_MSG(test, reg, "kunwind_test has no registered table");
	KUNIT_EXPECT_EQ(test, kunwind_reg_seg_state(reg, text), KUNWIND_SEG_LIVE);
	KUNIT_EXPECT_TRUE(test, kunwind_find_rule(text, &r));
	KUNIT_EXPECT_EQ(test, r.type, KUNWIND_TYPE_CALL);
	/* At a function's first byte the CFA is rsp + 8. */
	KUNIT_EXPECT_EQ(test, r.cfa_off, 8);
	KUNIT_EXPECT_EQ(test, r.reg, KUNWIND_REG_SP);
}

static void registry_vmlinux_table_registered(struct kunit *test)
{
	struct kunwind_reg *reg = kunwind_module_reg(NULL);
	unsigned long fn = (unsigned long)msleep;
	struct kunwind_rule r;

	KUNIT_ASSERT_NOT_NULL_MSG(test, reg,
				  "no vmlinux table: kunwind.ko built without KUNWIND_VMLINUX?");
	KUNIT_EXPECT_EQ(test, kunwind_reg_seg_state(reg, fn), KUNWIND_SEG_LIVE);
	KUNIT_ASSERT_TRUE(test, kunwind_find_rule(fn, &r));
	KUNIT_EXPECT_EQ(test, r.type, KUNWIND_TYPE_CALL);
	KUNIT_EXPECT_EQ(test, r.cfa_off, 8);
}

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

/* helper_sections.S: the CFA at each function's call. */
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
			       "%s: the step to %pS came from the ORC fallback",
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
	KUNIT_ASSERT_NOT_NULL(test, kunwind_module_reg(kt_helper.info.mod));
	expect_probe(test, KT_SEC_TEXT);
	expect_probe(test, KT_SEC_INIT);
	expect_probe(test, KT_SEC_UNLIKELY);
	/* The offsets really coincide: the functions are first in their sections. */
	KUNIT_EXPECT_LT(test, kt_helper.probe[KT_SEC_TEXT].seg_off, 32ul);
}

static void registry_helper_init_text_dropped_after_init(struct kunit *test)
{
	struct kt_probe *init = &kt_helper.probe[KT_SEC_INIT];
	struct kunwind_reg *reg;
	struct kunwind_rule r;

	KUNIT_ASSERT_TRUE(test, init->done);
	reg = kunwind_module_reg(kt_helper.info.mod);
	KUNIT_ASSERT_NOT_NULL(test, reg);
	/* During the helper's init. */
	KUNIT_EXPECT_TRUE(test, kt_helper.init_rule_found);
	KUNIT_EXPECT_EQ(test, kt_helper.init_seg_state, KUNWIND_SEG_INIT);
	KUNIT_EXPECT_EQ(test, init->seg_state, KUNWIND_SEG_INIT);
	/* insmod has returned: init is over, its text freed or about to be. */
	KUNIT_EXPECT_EQ(test, kunwind_reg_seg_state(reg, init->call_ip - 1),
			KUNWIND_SEG_DEAD);
	KUNIT_EXPECT_FALSE(test, kunwind_find_rule(init->call_ip - 1, &r));
	KUNIT_EXPECT_FALSE(test, kunwind_find_rule(kt_helper.info.sec_fn[KT_SEC_INIT], &r));
	/* The other sections stay. */
	KUNIT_EXPECT_TRUE(test, kunwind_find_rule(kt_helper.probe[KT_SEC_TEXT].call_ip - 1, &r));
	KUNIT_EXPECT_TRUE(test, kunwind_find_rule(kt_helper.probe[KT_SEC_UNLIKELY].call_ip - 1, &r));
}

static void registry_helper_exit_text_walked_then_table_gone(struct kunit *test)
{
	unsigned long text = kt_helper.probe[KT_SEC_TEXT].call_ip - 1;
	unsigned long unlikely_ip = kt_helper.probe[KT_SEC_UNLIKELY].call_ip - 1;
	unsigned long downs = kt_helper.downs, bias;
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
	KUNIT_EXPECT_NULL(test, kunwind_find_table(text, &bias));
	rcu_read_unlock();
}

/* ---- unload while another CPU walks ---- */

struct race {
	unsigned long walks, with_table, without_table, bad, saves, short_saves;
	unsigned long bad_ip, bad_n, bad_flags;
	int cpu;
};

/*
 * A walk whose first frame is the helper's .text function, past its ENDBR
 * (which no FDE covers) where the CFA is rsp + 8, with a fake return
 * address 0 on this stack: with the helper's table, two frames (the
 * second, ip 0, from the table); without it, one frame (the ORC fallback
 * knows nothing there either).  The zeros go on past any CFA of the
 * helper: an address reused by the next load gives the same shapes.
 */
static noinline void race_walk(struct race *r, unsigned long fn)
{
	unsigned long fake[16] = { 0 };
	struct kunwind_walk w;
	unsigned long ip1 = 1;
	unsigned int n = 1, flags1 = 0;

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
	if (n == 2 && ip1 == 0 && !(flags1 & KUNWIND_FRAME_ORC)) {
		r->with_table++;
	} else if (n == 1) {
		r->without_table++;
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
 * this thread's own stack (race_worker, kthread, ret_from_fork,
 * ret_from_fork_asm at least), whose lookups run beside the registry's
 * changes.
 */
static int race_worker(void *arg)
{
	unsigned long store[16];
	struct race *r = arg;

	while (!kthread_should_stop()) {
		unsigned long fn = READ_ONCE(kt_helper.info.sec_fn[KT_SEC_TEXT]);

		if (fn)
			race_walk(r, fn + ENDBR_INSN_SIZE);
		r->saves++;
		if (kunwind_save(store, ARRAY_SIZE(store), 0) < 4)
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
	kunit_info(test, "%lu walks on CPU %d: %lu with the helper's table, %lu without\n",
		   r->walks, r->cpu, r->with_table, r->without_table);
	KUNIT_EXPECT_EQ_MSG(test, r->bad, 0ul,
			    "%lu walks neither shape, first: %lu frames, ip[1] %lx flags %lx",
			    r->bad, r->bad_n, r->bad_ip, r->bad_flags);
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
	KUNIT_EXPECT_NULL_MSG(test, kunwind_module_reg(kt_helper.info.mod),
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

/* ---- counters and debugfs ---- */

/*
 * debugfs files are seq_files without read_iter, which kernel_read()
 * refuses: a shell copies the file to the initramfs (ramfs), read from
 * there.  Nothing walks meanwhile, so the copy is of this instant.
 */
static char *read_debugfs(struct kunit *test, const char *name)
{
	char cmd[128], path[64];
	struct file *f;
	char *buf;
	loff_t pos = 0;
	ssize_t n, len = 0;
	int err;

	snprintf(path, sizeof(path), "/tmp/kunwind-%s", name);
	snprintf(cmd, sizeof(cmd), "cat /sys/kernel/debug/kunwind/%s > %s",
		 name, path);
	err = kt_run("/bin/sh", "-c", cmd);
	if (err) {
		KUNIT_FAIL(test, "%s: exit %d", cmd, err);
		return NULL;
	}
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f)) {
		KUNIT_FAIL(test, "open %s: %ld", path, PTR_ERR(f));
		return NULL;
	}
	buf = kunit_kzalloc(test, 16384, GFP_KERNEL);
	while (buf && len < 16383 &&
	       (n = kernel_read(f, buf + len, 16383 - len, &pos)) > 0)
		len += n;
	filp_close(f, NULL);
	return buf;
}

/* The number on the line of counter name, as debugfs prints it. */
static bool stats_value(const char *buf, const char *line_start,
			unsigned long *val)
{
	size_t n = strlen(line_start), len;
	const char *p = buf;
	char num[24];

	while (p && *p) {
		if (!strncmp(p, line_start, n) && p[n] == ' ') {
			p += n;
			while (*p == ' ')
				p++;
			len = strcspn(p, "\n");
			if (len >= sizeof(num))
				return false;
			memcpy(num, p, len);
			num[len] = '\0';
			return !kstrtoul(num, 10, val);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

static noinline void walk_to_no_row(void)
{
	unsigned long fake[2] = { 0, 0 };
	struct kunwind_walk w;

	/* ip: data, no table, no ORC entry: the fallback fails too. */
	kunwind_walk_start(&w, NULL, (unsigned long)fake, (unsigned long)fake,
			   0, false);
	while (kunwind_walk_next(&w))
		;
	kunwind_walk_end(&w);
}

static void registry_stats_count_walks_and_stop_reasons(struct kunit *test)
{
	enum kunwind_counter end = KUNWIND_CNT_STOP + KUNWIND_STOP_END;
	enum kunwind_counter no_row = KUNWIND_CNT_STOP + KUNWIND_STOP_NO_ROW;
	unsigned long walks = kunwind_counter_read(KUNWIND_CNT_WALKS);
	unsigned long ends = kunwind_counter_read(end);
	unsigned long no_rows = kunwind_counter_read(no_row);
	unsigned long failed = kunwind_counter_read(KUNWIND_CNT_ORC_FAILED);
	unsigned long frames = kunwind_counter_read(KUNWIND_CNT_FRAMES);
	unsigned long store[KT_MAX_FRAMES], v;
	unsigned int n;
	char line[40];
	char *buf;

	n = kunwind_save(store, KT_MAX_FRAMES, 0);
	walk_to_no_row();
	KUNIT_EXPECT_EQ(test, kunwind_counter_read(KUNWIND_CNT_WALKS), walks + 2);
	KUNIT_EXPECT_EQ(test, kunwind_counter_read(end), ends + 1);
	KUNIT_EXPECT_EQ(test, kunwind_counter_read(no_row), no_rows + 1);
	KUNIT_EXPECT_EQ(test, kunwind_counter_read(KUNWIND_CNT_ORC_FAILED), failed + 1);
	KUNIT_EXPECT_GE(test, kunwind_counter_read(KUNWIND_CNT_FRAMES), frames + n);

	buf = read_debugfs(test, "stats");
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_TRUE_MSG(test, stats_value(buf, "walks", &v) &&
			      v == kunwind_counter_read(KUNWIND_CNT_WALKS),
			      "stats file:\n%s", buf);
	snprintf(line, sizeof(line), "stop: %s", kunwind_stop_str(KUNWIND_STOP_END));
	KUNIT_EXPECT_TRUE_MSG(test, stats_value(buf, line, &v) &&
			      v == kunwind_counter_read(end),
			      "no \"%s\" line matching the counter in:\n%s", line, buf);
	snprintf(line, sizeof(line), "stop: %s", kunwind_stop_str(KUNWIND_STOP_NO_ROW));
	KUNIT_EXPECT_TRUE_MSG(test, stats_value(buf, line, &v) &&
			      v == kunwind_counter_read(no_row),
			      "no \"%s\" line matching the counter in:\n%s", line, buf);
}

static void registry_debugfs_tables_lists_registrations(struct kunit *test)
{
	char *buf = read_debugfs(test, "tables");

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "kunwind_test "),
				  "kunwind_test missing in:\n%s", buf);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "vmlinux"),
				  "vmlinux missing in:\n%s", buf);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, ".text"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "live"));
	KUNIT_EXPECT_NULL_MSG(test, strstr(buf, HELPER),
			      "the unloaded helper is still listed:\n%s", buf);
	KUNIT_EXPECT_NULL(test, strstr(buf, BADTABLE));
}

static struct kunit_case registry_test_cases[] = {
	KUNIT_CASE(registry_own_table_registered_at_load),
	KUNIT_CASE(registry_vmlinux_table_registered),
	KUNIT_CASE(registry_init_text_found_during_init),
	KUNIT_CASE(registry_helper_sections_at_same_offset_resolve_to_own_rows),
	KUNIT_CASE(registry_helper_init_text_dropped_after_init),
	KUNIT_CASE(registry_helper_exit_text_walked_then_table_gone),
	KUNIT_CASE_SLOW(registry_unload_while_walks_run_on_another_cpu),
	KUNIT_CASE(registry_bad_table_refused_module_still_walked),
	KUNIT_CASE(registry_stats_count_walks_and_stop_reasons),
	KUNIT_CASE(registry_debugfs_tables_lists_registrations),
	{}
};

static struct kunit_suite registry_test_suite = {
	.name = "kunwind_registry",
	.test_cases = registry_test_cases,
};

kunit_test_suite(registry_test_suite);
