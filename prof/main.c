// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_prof.ko: a sampling profiler on kunwind's walk, its user as
 * perf is ORC's (prof.h lists its files; Documentation/kernel.rst, "The
 * profiler").  Its files are debugfs kunwind/profile/, under kunwind's
 * own directory: kunwind.ko is loaded first (modprobe does it: this
 * module uses its symbols), and stays while this one is.
 *
 * Modules.  Frames are return addresses; a module's frames are named
 * before its code goes: at MODULE_STATE_GOING (its exit has run) the
 * session is drained and every frame inside the module is replaced by
 * the index of its name ("func [module]"), kept for the session; at
 * MODULE_STATE_LIVE, those in its init text, which is freed next.  The
 * same is done in every snapshot a reader holds open (folded, modules),
 * so that a file opened before an unload and read after it still names
 * the module's frames.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "prof.h"

/*
 * Names of frames of modules gone, [0] for any that could not get one.
 * Only added to (a reader may use one without prof_mutex), freed at
 * this module's exit.
 */
char *prof_names[PROF_NAMES] = { "[unnamed module frame]" };
unsigned int prof_nr_names = 1;

static unsigned long prof_name_of(unsigned long ip, bool exact)
{
	char buf[KSYM_SYMBOL_LEN];
	unsigned int i;

	snprintf(buf, sizeof(buf), "%ps", (void *)(exact ? ip : ip - 1));
	for (i = 0; i < prof_nr_names; i++)
		if (!strcmp(prof_names[i], buf))
			return i;
	if (prof_nr_names == PROF_NAMES)
		return 0;
	prof_names[prof_nr_names] = kstrdup(buf, GFP_KERNEL);
	if (!prof_names[prof_nr_names])
		return 0;
	/* the name before the count: readers take names below the count */
	smp_store_release(&prof_nr_names, prof_nr_names + 1);
	return prof_nr_names - 1;
}

/*
 * LIVE: its init text is about to be freed (samples of its init function
 * are named then); GOING: the whole module (its exit function has run).
 */
static bool prof_in_module(unsigned long addr, struct module *mod, bool going)
{
	return going ? within_module(addr, mod) : within_module_init(addr, mod);
}

/* Name the frames of mod in one entry (words w). */
static void prof_name_entry(const struct prof_entry *e, unsigned long *w,
			    struct module *mod, bool going)
{
	unsigned int j;

	if (e->flags & PROF_USER)
		return;
	for (j = 0; j < e->depth; j++)
		if (w[j] >= PROF_NAMES && prof_in_module(w[j], mod, going))
			w[j] = prof_name_of(w[j], e->regs & (1ULL << j));
}

static int prof_module_notify(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	struct module *mod = data;
	bool going = val == MODULE_STATE_GOING;
	struct prof_snap *snap;
	unsigned int i;

	if (val != MODULE_STATE_GOING && val != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	mutex_lock(&prof_mutex);
	if (prof_cpus) {
		prof_drain();
		for (i = 0; i < prof_agg.nr_slots; i++) {
			struct prof_entry *e = &prof_agg.slot[i];

			if (e->hash)
				prof_name_entry(e, prof_agg.words + e->off,
						mod, going);
		}
	}
	list_for_each_entry(snap, &prof_snaps, node)
		for (i = 0; i < snap->nr; i++)
			prof_name_entry(&snap->ent[i],
					snap->words + snap->ent[i].off,
					mod, going);
	mutex_unlock(&prof_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block prof_module_nb = {
	.notifier_call = prof_module_notify,
};

/* ---- init ------------------------------------------------------------ */

static struct dentry *prof_dir;

static int __init prof_init(void)
{
	struct dentry *kunwind_dir = debugfs_lookup("kunwind", NULL);
	int err;

	if (IS_ERR_OR_NULL(kunwind_dir)) {
		pr_err("no debugfs directory kunwind/ (kunwind.ko's): no files to profile with\n");
		return -ENOENT;
	}
	err = register_module_notifier(&prof_module_nb);
	if (!err)
		prof_dir = prof_debugfs_create(kunwind_dir);
	dput(kunwind_dir);
	return err;
}

/* debugfs first: nobody can start a session any more. */
static void __exit prof_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(prof_dir);
	mutex_lock(&prof_mutex);
	prof_stop();
	prof_tables_free();
	mutex_unlock(&prof_mutex);
	unregister_module_notifier(&prof_module_nb);
	for (i = 1; i < prof_nr_names; i++)
		kfree(prof_names[i]);
}

module_init(prof_init);
module_exit(prof_exit);

MODULE_DESCRIPTION("kunwind's sampling profiler (debugfs kunwind/profile/)");
MODULE_LICENSE("GPL");
