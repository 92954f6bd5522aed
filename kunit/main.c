// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_test.ko: the KUnit suites of kunwind.ko, built as a module with
 * its own kunwind table (the one-line opt-in, kunit/Kbuild), so that the
 * suites walk through code described the way any driver's would be.
 *
 * KUnit runs a module's suites from its MODULE_STATE_LIVE notifier, after
 * module_init() and before init memory is freed; what can only be seen
 * while this module's init text is live is recorded here, in init, and
 * checked by the registry suite.
 *
 * The registry suite also loads and unloads kunwind_test_helper.ko (and
 * kunwind_test_badtable.ko) with /bin/insmod and /bin/rmmod from
 * kt_module_dir; those modules call back into this one (the exports
 * below), never the other way, so they can come and go while this module
 * stays.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/umh.h>
#include "unwind/linux/registry.h"
#include "unwind/linux/registry_lookup.h"
#include "kunwind_test.h"
#include "main.h"
#include "oracle.h"
#include "trace.h"

char *kt_module_dir = "/lib/kunwind";
module_param_named(module_dir, kt_module_dir, charp, 0444);
MODULE_PARM_DESC(module_dir, "where kunwind_test_helper.ko and kunwind_test_badtable.ko are");

struct kt_init_record kt_init_record;
struct kt_helper_state kt_helper;

/* ---- recorded during init ---- */

static noinline void __init record_init_walk(void)
{
	kt_both_here(&kt_init_record.kun, &kt_init_record.orc);
	kt_init_record.walked = true;
	barrier();
}

static int __init kunwind_test_init(void)
{
	struct kunwind_registration *entry = kunwind_module_registration(THIS_MODULE);
	struct kunwind_rule r;

	kt_init_record.init_fn = (unsigned long)record_init_walk;
	kt_init_record.init_rule_found =
		kunwind_find_rule(kt_init_record.init_fn, &r);
	kt_init_record.init_seg_state = entry ?
		kunwind_registration_seg_state(entry, kt_init_record.init_fn) : -ENOENT;
	record_init_walk();
	return 0;
}

static void __exit kunwind_test_exit(void)
{
	kt_cover_release();
}

module_init(kunwind_test_init);
module_exit(kunwind_test_exit);

/* ---- the helper modules' rendezvous ---- */

void kunwind_test_helper_up(const struct kt_helper_info *info)
{
	struct kunwind_registration *entry = kunwind_module_registration(info->mod);
	struct kunwind_rule r;

	WRITE_ONCE(kt_helper.info.sec_fn[KT_SEC_TEXT], 0);
	barrier();
	kt_helper.info = *info;
	kt_helper.ups++;
	/* The helper's init text, seen from its own init. */
	kt_helper.init_rule_found =
		kunwind_find_rule(info->sec_fn[KT_SEC_INIT], &r);
	kt_helper.init_seg_state = entry ?
		kunwind_registration_seg_state(entry, info->sec_fn[KT_SEC_INIT]) : -ENOENT;
}
EXPORT_SYMBOL_GPL(kunwind_test_helper_up);

void kunwind_test_helper_down(const struct kt_helper_info *info)
{
	kt_helper.downs++;
}
EXPORT_SYMBOL_GPL(kunwind_test_helper_down);

/*
 * Called by the helper's assembly functions (one per text section, each
 * at offset 0 of its section) and by the bad-table module: records the
 * walk from here and what kunwind knows about the call site.
 */
noinline void kunwind_test_section_probe(int sec)
{
	struct kt_probe *p;
	const struct kunwind_hdr *t;
	const struct kunwind_seg *seg;
	unsigned long start;

	if (sec < 0 || sec > KT_SEC_NR)
		return;
	p = &kt_helper.probe[sec];
	memset(p, 0, sizeof(*p));
	p->call_ip = (unsigned long)__builtin_return_address(0);
	p->rule_found = kunwind_find_rule(p->call_ip - 1, &p->rule);
	rcu_read_lock();
	seg = kunwind_registry_seg(p->call_ip - 1, &t, &start);
	if (seg) {
		strscpy(p->seg_name, kunwind_seg_name(t, seg), sizeof(p->seg_name));
		p->seg_off = p->call_ip - start;
	}
	rcu_read_unlock();
	if (kt_helper.info.mod) {
		struct kunwind_registration *entry =
			kunwind_module_registration(kt_helper.info.mod);

		p->seg_state = entry ? kunwind_registration_seg_state(entry, p->call_ip - 1) :
				     -ENOENT;
	}
	kt_both_here(&p->kun, &p->orc);
	/* Named now: init text (and, at rmmod, all of it) goes away. */
	if (p->kun.n > 1) {
		char name[KSYM_SYMBOL_LEN];

		sprint_symbol_no_offset(name, p->kun.ip[1]);
		strscpy(p->fn1, name, sizeof(p->fn1));
	}
	p->done = true;
}
EXPORT_SYMBOL_GPL(kunwind_test_section_probe);

/* ---- running programs of the initramfs ---- */

/* Run a0 [a1 [a2]] (NULL ends the list) and wait; 0 if it exited 0. */
int kt_run(const char *a0, const char *a1, const char *a2)
{
	static const char * const envp[] = { "HOME=/", "PATH=/sbin:/bin", NULL };
	char *argv[4];

	argv[0] = (char *)a0;
	argv[1] = (char *)a1;
	argv[2] = a1 ? (char *)a2 : NULL;
	argv[3] = NULL;
	/* call_usermodehelper() only reads envp */
	return call_usermodehelper(argv[0], argv, (char **)envp, UMH_WAIT_PROC);
}

int kt_insmod(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s.ko", kt_module_dir, name);
	return kt_run("/bin/insmod", path, NULL);
}

int kt_rmmod(const char *name)
{
	return kt_run("/bin/rmmod", name, NULL);
}

MODULE_DESCRIPTION("KUnit tests of kunwind.ko");
MODULE_LICENSE("GPL");
