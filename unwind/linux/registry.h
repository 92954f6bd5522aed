/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registry of kunwind tables (registry.c), as its writers see it:
 * registering a table (discovery.c does it for vmlinux, kunwind.ko and
 * every module; the KUnit suites for their own), what becomes of its
 * segments, and debugfs's view.  Registration and unregistration sleep;
 * what walks look up is registry_lookup.h.  Exported GPL for the KUnit
 * suites: every function here but kunwind_registry_init(), _exit() and
 * _show().
 */
#ifndef _KUNWIND_REGISTRY_H
#define _KUNWIND_REGISTRY_H

#include <linux/types.h>

struct module;
struct seq_file;

/* Where an object's code lives, in run-time addresses: [start, end). */
struct kunwind_text {
	unsigned long start, end;
	bool init;	/* freed after init: see kunwind_registration_init_done() */
};

/*
 * The state of one segment of a registered table (debugfs shows it).
 * DROPPED: e.g. .exit.text without CONFIG_MODULE_UNLOAD, vmlinux's
 * .init.text (freed before kunwind.ko loads).
 */
enum kunwind_seg_state {
	KUNWIND_SEG_LIVE,	/* inside core text: looked up */
	KUNWIND_SEG_INIT,	/* inside init text: looked up until init is freed */
	KUNWIND_SEG_DEAD,	/* init text, freed */
	KUNWIND_SEG_DROPPED,	/* outside the object's text: not loaded */
	KUNWIND_SEG_NR
};

struct kunwind_registration;

/*
 * The most segments one table may have.  kunwind-gen makes one per text
 * section, and a kernel object has few: vmlinux 3 (.text, .init.text,
 * .exit.text on the 6.12 test kernel), a module its .text,
 * .init.text, .exit.text, .text.unlikely, .text.hot and the kernel's
 * special text sections (.noinstr.text, .sched.text, .spinlock.text and
 * the like: about 20 names exist).  Modules are not built with
 * -ffunction-sections (clang LTO's split sections are merged back by
 * scripts/module.lds).  64 leaves room for all of them; a table with more
 * is no kernel object's, and would only make every registration copy and
 * sort, and every lookup search, more entries.
 */
#define KUNWIND_MAX_SEGS	64

/**
 * kunwind_register_table() - Make a table's rows what walks find.
 * @name:    for messages and debugfs; copied
 * @mod:     the module the table describes; NULL: vmlinux
 * @table:   the relocated table, 8-byte aligned, mapped until
 *           kunwind_unregister_table() returns
 * @len:     its length
 * @bias:    run-time address minus table address (vmlinux: the KASLR
 *           offset; modules: 0)
 * @text:    the object's code: segments outside every range are dropped,
 *           segments in an init range die at
 *           kunwind_registration_init_done()
 * @nr_text: ranges in @text
 *
 * A table that kunwind_table_check() refuses, that has more than
 * KUNWIND_MAX_SEGS segments, or whose live segments overlap each other or
 * another registered table's, is refused with one pr_warn() naming @name.
 *
 * Context: Process context; sleeps.
 * Return: the registration; ERR_PTR(-EINVAL) for a refused table,
 * ERR_PTR(-ENOMEM), or ERR_PTR(-EEXIST) if @mod already has one.
 */
struct kunwind_registration *
kunwind_register_table(const char *name, struct module *mod,
		       const void *table, unsigned long len, unsigned long bias,
		       const struct kunwind_text *text, unsigned int nr_text);

/**
 * kunwind_registration_init_done() - Init text is about to be freed.
 * @entry: a registration
 *
 * Its init segments stop matching; a walk running now still sees them
 * until it ends (the registry waits for it).
 *
 * Context: Process context; sleeps.
 */
void kunwind_registration_init_done(struct kunwind_registration *entry);

/**
 * kunwind_unregister_table() - Remove a registration.
 * @entry: what kunwind_register_table() returned
 *
 * When it returns no walk uses the table any more (synchronize_rcu()), so
 * the table may be freed.
 *
 * Context: Process context; sleeps.
 */
void kunwind_unregister_table(struct kunwind_registration *entry);

/**
 * kunwind_module_registration() - The registration of a module.
 * @mod: the module; NULL: vmlinux
 *
 * Context: Process context; sleeps (takes the registry's mutex).
 * Return: its registration, or NULL if it has none.
 */
struct kunwind_registration *kunwind_module_registration(struct module *mod);

/**
 * kunwind_registration_seg_state() - What became of a segment.
 * @entry: a registration
 * @addr:  a run-time address in one of its segments
 *
 * Context: Process context; sleeps.
 * Return: the enum kunwind_seg_state of the segment holding @addr, or
 * -ENOENT if none does.
 */
int kunwind_registration_seg_state(struct kunwind_registration *entry,
				   unsigned long addr);

/**
 * kunwind_module_table_len() - Check where a module's table lies.
 * @mod:  the module
 * @addr: the table's address in it
 * @why:  set to what is wrong when it returns 0
 *
 * The table's header, then the whole size the header gives, must lie
 * inside one read-only region of the module (kunwind_mod_ro_holds()), so
 * that nothing can change the table after kunwind_table_check() has
 * proved it.  What registers modules' tables uses it.
 *
 * Context: Process context, the module's memory stable (the module
 * notifier, or the module list's lock held).
 * Return: the table's length, or 0.
 */
unsigned long kunwind_module_table_len(const struct module *mod,
				       unsigned long addr, const char **why);

/* main.c: the tables of vmlinux, kunwind.ko and every module; debugfs. */
int kunwind_registry_init(void);
void kunwind_registry_exit(void);
void kunwind_registry_show(struct seq_file *m);

#endif /* _KUNWIND_REGISTRY_H */
