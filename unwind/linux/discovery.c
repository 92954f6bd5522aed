// SPDX-License-Identifier: GPL-2.0
/*
 * Which tables are registered, and when: vmlinux's (compiled in by
 * vmlinux.S, checked against the running kernel), kunwind.ko's own, and
 * every module's, through the module notifier and, at load, for the
 * modules loaded before kunwind.ko.
 *
 * Module lifecycle (module notifier):
 *   COMING  find the table (module_table_addr()), check that it lies in
 *           the module's read-only memory, check it, register it.
 *           Segments outside the module's core and init text are dropped:
 *           a section the loader did not place (.exit.text without
 *           CONFIG_MODULE_UNLOAD) was relocated to the loader's temporary
 *           copy, which is freed after loading.
 *   LIVE    init segments die: the array is rebuilt without them.  The
 *           loader frees init memory only after this notifier and a
 *           synchronize_rcu() (do_free_init()), so no lookup still using
 *           the old array sees the memory reused.
 *   GOING   unregister: the array is rebuilt without the table, then
 *           synchronize_rcu(), before the loader frees the module (and its
 *           table) after the notifier.
 * Modules loaded before kunwind.ko: kunwind_modules_before(), at load
 * (built in, at a postcore initcall, there are none: main.c).
 */
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include "registry_internal.h"
#include "symbols.h"
#include "vmlinux.h"

/* ---- modules ------------------------------------------------------- */

#define KUNWIND_SECTION		".kunwind"
#define KUNWIND_TABLE_SYM	"__kunwind_table"

/*
 * A header size below the header's own is not an extent: the header is
 * what is handed over, and kunwind_table_check() refuses it as truncated.
 */
unsigned long kunwind_module_table_len(const struct module *mod,
				       unsigned long addr, const char **why)
{
	const struct kunwind_hdr *t = (const void *)addr;
	unsigned long len;

	if (!kunwind_mod_ro_holds(mod, addr, sizeof(*t))) {
		*why = "not in the module's read-only memory";
		return 0;
	}
	len = max_t(unsigned long, t->size, sizeof(*t));
	if (!kunwind_mod_ro_holds(mod, addr, len)) {
		*why = "it extends past the module's read-only memory";
		return 0;
	}
	return len;
}
EXPORT_SYMBOL_GPL(kunwind_module_table_len);

/* __kunwind_table in mod's symbol table, 0 if it is not there. */
static unsigned long module_table_sym(struct module *mod)
{
	const Elf_Sym *syms;
	const char *strtab;
	unsigned long addr = 0;
	unsigned int i, nr;

	rcu_read_lock_sched();
	if (kunwind_mod_symtab(mod, &syms, &nr, &strtab)) {
		for (i = 0; i < nr; i++) {
			if (syms[i].st_shndx != SHN_UNDEF &&
			    !strcmp(strtab + syms[i].st_name, KUNWIND_TABLE_SYM)) {
				addr = syms[i].st_value;
				break;
			}
		}
	}
	rcu_read_unlock_sched();
	return addr;
}

/*
 * Where mod's table is, 0 if it has none.  Once the loader has published
 * the module's sections (sysfs set-up, after the COMING notifiers), the
 * address of .kunwind.  Before, at COMING, the loader's full symbol table
 * has __kunwind_table; it is gone after init, and the core symbol table
 * keeps data symbols only with CONFIG_KALLSYMS_ALL.
 */
static unsigned long module_table_addr(struct module *mod)
{
	unsigned long addr = kunwind_mod_section(mod, KUNWIND_SECTION);

	return addr ? addr : module_table_sym(mod);
}

/*
 * What kunwind remembers about a module between notifications, until it
 * goes: that its table was refused (so that it is neither tried nor
 * reported twice), or that it was coming when kunwind.ko loaded and its
 * COMING notification may have passed before the notifier was there
 * (then it is registered at LIVE).  Under kunwind_registry_lock.
 */
enum kunwind_mod_note_kind { KUNWIND_NOTE_MISSED, KUNWIND_NOTE_REFUSED };

struct kunwind_mod_note {
	struct list_head list;
	struct module *mod;
	enum kunwind_mod_note_kind kind;
};

static LIST_HEAD(kunwind_mod_notes);

static struct kunwind_mod_note *note_find(struct module *mod)
{
	struct kunwind_mod_note *n;

	lockdep_assert_held(&kunwind_registry_lock);
	list_for_each_entry(n, &kunwind_mod_notes, list)
		if (n->mod == mod)
			return n;
	return NULL;
}

/* Without memory, nothing is noted: at worst a second message. */
static void note_set(struct module *mod, enum kunwind_mod_note_kind kind)
{
	struct kunwind_mod_note *n = note_find(mod);

	if (!n) {
		n = kmalloc(sizeof(*n), GFP_KERNEL);
		if (!n)
			return;
		n->mod = mod;
		list_add(&n->list, &kunwind_mod_notes);
	}
	n->kind = kind;
}

static void note_drop(struct module *mod)
{
	struct kunwind_mod_note *n = note_find(mod);

	if (n) {
		list_del(&n->list);
		kfree(n);
	}
}

/*
 * Register mod's table, if it has one; true if it did.  A refusal is not
 * an error (the module is walked by the ORC fallback), and is noted.
 * with_init: the init text is still there to be looked up (COMING).
 */
static bool kunwind_module_add(struct module *mod, bool with_init)
{
	struct kunwind_text text[2] = {};
	struct kunwind_registration *entry;
	unsigned long addr, len;
	const char *why;

	addr = module_table_addr(mod);
	if (!addr)
		return false;
	len = kunwind_module_table_len(mod, addr, &why);
	if (len) {
		kunwind_mod_text(mod, false, &text[0].start, &text[0].end);
		kunwind_mod_text(mod, true, &text[1].start, &text[1].end);
		text[1].init = true;
		entry = kunwind_register_table(mod->name, mod,
					       (const void *)addr, len, 0,
					       text, with_init ? 2 : 1);
	} else {
		pr_warn("%s: table refused: %s\n", mod->name, why);
		entry = ERR_PTR(-EINVAL);
	}
	if (entry == ERR_PTR(-EINVAL)) {
		mutex_lock(&kunwind_registry_lock);
		note_set(mod, KUNWIND_NOTE_REFUSED);
		mutex_unlock(&kunwind_registry_lock);
	}
	return !IS_ERR(entry);
}

/* At LIVE: was mod's COMING missed?  Forgets it. */
static bool note_take_missed(struct module *mod)
{
	struct kunwind_mod_note *n;
	bool missed = false;

	mutex_lock(&kunwind_registry_lock);
	n = note_find(mod);
	if (n && n->kind == KUNWIND_NOTE_MISSED) {
		missed = true;
		note_drop(mod);
	}
	mutex_unlock(&kunwind_registry_lock);
	return missed;
}

static int kunwind_module_notify(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	struct module *mod = data;
	struct kunwind_registration *entry;

	switch (action) {
	case MODULE_STATE_COMING:
		/*
		 * A note, if any, is stale: of a module that was at this
		 * address before, or kunwind_modules_before()'s "maybe
		 * missed" for this one, whose COMING came after all.
		 */
		mutex_lock(&kunwind_registry_lock);
		note_drop(mod);
		mutex_unlock(&kunwind_registry_lock);
		kunwind_module_add(mod, true);
		break;
	case MODULE_STATE_LIVE:
		/* Init has run: its text is not worth registering now. */
		if (note_take_missed(mod))
			kunwind_module_add(mod, false);
		entry = kunwind_module_registration(mod);
		if (entry)
			kunwind_registration_init_done(entry);
		break;
	case MODULE_STATE_GOING:
		mutex_lock(&kunwind_registry_lock);
		note_drop(mod);
		mutex_unlock(&kunwind_registry_lock);
		entry = kunwind_module_registration(mod);
		if (entry)
			kunwind_unregister_table(entry);
		break;
	}
	/* Never fail a module load because of its table. */
	return NOTIFY_OK;
}

/*
 * Before the default-priority notifiers: a module is registered before
 * others (KUnit's LIVE handler runs the module's tests) may walk it, and
 * its init text is dead by the time they run.
 */
static struct notifier_block kunwind_module_nb = {
	.notifier_call = kunwind_module_notify,
	.priority = 1,
};

/*
 * Modules loaded before kunwind.ko, which no notification told about.
 * Called once the notifier is registered, so every notification from
 * then on reaches kunwind; it goes through the kernel's module list
 * (kunwind_sym.modules under *kunwind_sym.module_mutex, neither exported)
 * and, per module, under kunwind_registry_lock, so that no notification about
 * the module is handled between the look at its state and what is
 * decided from it:
 *   LIVE     pinned (try_module_get()) and registered after the list is
 *            left, with its core text: init is over.  Not under
 *            module_mutex, which every module load waits for, nor under
 *            kunwind_registry_lock, which registration takes.  Skipped if
 *            registered or refused already (its notifications reached
 *            kunwind after all).
 *   COMING   in its init.  Its COMING notification may have passed
 *            before the notifier was registered: noted, and registered
 *            at its LIVE notification unless its COMING one comes first.
 *            Not pinned: a failed init frees a module whatever references
 *            it has (after the GOING notification, which drops the note).
 *   UNFORMED its COMING notification is ahead.
 *   GOING    nothing to register.
 * The table is found by its section (module_table_addr()): after init the
 * symbol __kunwind_table is gone unless CONFIG_KALLSYMS_ALL.
 */
static void kunwind_modules_before(void)
{
	struct list_head *modules = kunwind_sym.modules;
	struct module *mod, **live;
	unsigned int i, nr = 0, max = 0, added = 0;

	if (!modules || !kunwind_sym.module_mutex)
		return;	/* kunwind_symbols_init() said so */
	mutex_lock(kunwind_sym.module_mutex);
	list_for_each_entry(mod, modules, list)
		max++;
	live = kmalloc_array(max, sizeof(*live), GFP_KERNEL);
	list_for_each_entry(mod, modules, list) {
		mutex_lock(&kunwind_registry_lock);
		if (kunwind_registration_locked(mod) || note_find(mod)) {
			/* known */
		} else if (READ_ONCE(mod->state) == MODULE_STATE_LIVE) {
			if (live && nr < max && try_module_get(mod))
				live[nr++] = mod;
		} else if (READ_ONCE(mod->state) == MODULE_STATE_COMING) {
			note_set(mod, KUNWIND_NOTE_MISSED);
		}
		mutex_unlock(&kunwind_registry_lock);
	}
	mutex_unlock(kunwind_sym.module_mutex);

	for (i = 0; i < nr; i++) {
		added += kunwind_module_add(live[i], false);
		module_put(live[i]);
	}
	kfree(live);
	if (added)
		pr_info("registered %u table%s of modules loaded before kunwind.ko\n",
			added, added == 1 ? "" : "s");
}

/* ---- vmlinux ------------------------------------------------------- */

/*
 * linux_banner is "Linux version RELEASE (BY@HOST) (COMPILER) VERSION":
 * the running kernel must have the same release and version strings
 * (the version holds the build number and date on distribution kernels).
 */
static bool banner_ok(const char *banner)
{
	const struct new_utsname *u = init_utsname();
	size_t rel = strlen(u->release), ver = strlen(u->version);
	size_t len = strlen(banner);
	const char *p = banner;

	if (!str_has_prefix(p, "Linux version "))
		return false;
	p += strlen("Linux version ");
	return !strncmp(p, u->release, rel) && p[rel] == ' ' &&
	       len >= ver && !strcmp(banner + len - ver, u->version);
}

/*
 * vmlinux's text in text[]: the core text [stext, PAGE_ALIGN(etext)) at
 * run time, and the init text if it was resolved.  Returns how many.
 */
static unsigned int vmlinux_text(struct kunwind_text text[2],
				 unsigned long stext, unsigned long etext)
{
	text[0].start = stext;
	text[0].end = PAGE_ALIGN(etext);
	if (!kunwind_sym.einittext)
		return 1;
	text[1].start = kunwind_sym.sinittext;
	text[1].end = kunwind_sym.einittext;
	return 2;
}

/*
 * On a kernel whose own unwinder is kunwind (compat.h), with no table
 * compiled in: the kernel's, found by name (kallsyms has the linker
 * script's symbols with CONFIG_KALLSYMS_ALL).  Its bases are run-time
 * addresses already: bias 0.  1 if that kernel's table was dealt with
 * (registered, or said to be missing: there is no ORC to fall back on),
 * 0 on any other kernel, or an error.
 */
static int kernel_table_register(void)
{
	unsigned long start, stop;
	struct kunwind_text text[2] = {};
	unsigned int nr_text;
	struct kunwind_registration *entry;

	if (!KUNWIND_KERNEL_UNWINDER)
		return 0;
	start = kunwind_lookup_name("__start_kunwind_table");
	stop = kunwind_lookup_name("__stop_kunwind_table");
	if (!start || stop <= start) {
		pr_info("the kernel's unwinder is kunwind, but __start_kunwind_table was not found (kallsyms has it with CONFIG_KALLSYMS_ALL): kernel frames are not walked\n");
		return 1;
	}
	if (!kunwind_sym.etext) {
		pr_info("the kernel's unwinder is kunwind, but its text's bounds are unknown: kernel frames are not walked\n");
		return 1;
	}
	nr_text = vmlinux_text(text, kunwind_sym.stext, kunwind_sym.etext);
	entry = kunwind_register_table("vmlinux", NULL, (const void *)start,
				       stop - start, 0, text, nr_text);
	if (IS_ERR(entry))
		return PTR_ERR(entry);
	pr_info("the kernel's unwinder is kunwind: its vmlinux table (%lu bytes) registered; its oops traces are kunwind's, so kunwind.oops defaults to off\n",
		stop - start);
	return 1;
}

/*
 * The vmlinux table's bases are link-time addresses; the kernel runs at
 * link address + KASLR offset, which two exported functions measure (two,
 * so that a vmlinux with the same banner but another layout is caught).
 *
 * Its init text stays looked up after the kernel frees it, as ORC keeps
 * looking it up (orc_find(): is_kernel_inittext()): nothing else is ever
 * placed at those addresses, and the boot CPU's idle task returns into
 * start_kernel() and friends for as long as the machine runs.
 */
int kunwind_vmlinux_register(void)
{
	const struct kunwind_vmlinux_info *info = &kunwind_vmlinux_info;
	unsigned long len = kunwind_vmlinux_table_end - kunwind_vmlinux_table;
	struct kunwind_text text[2] = {};
	unsigned int nr_text;
	struct kunwind_registration *entry;
	unsigned long bias;
	int err;

	if (!len) {
		err = kernel_table_register();
		if (err)
			return err < 0 ? err : 0;
#ifdef MODULE
		pr_info("no vmlinux table (build with KUNWIND_VMLINUX=<vmlinux>): kernel frames use the ORC fallback\n");
#else
		/* Documentation/kernel.rst, "Built in": none can be had. */
		pr_info("built in, no vmlinux table: kernel frames use the ORC fallback\n");
#endif
		return 0;
	}
	if (!banner_ok(info->banner)) {
		pr_warn("vmlinux table refused: built for \"%s\", running %s %s\n",
			info->banner, init_utsname()->release,
			init_utsname()->version);
		return -EINVAL;
	}
	bias = (unsigned long)sprintf - info->sprintf;
	if ((unsigned long)kfree - info->kfree != bias) {
		pr_warn("vmlinux table refused: its layout differs from the running kernel's\n");
		return -EINVAL;
	}
	nr_text = vmlinux_text(text, info->stext + bias, info->etext + bias);
	entry = kunwind_register_table("vmlinux", NULL, kunwind_vmlinux_table,
				       len, bias, text, nr_text);
	return PTR_ERR_OR_ZERO(entry);
}

/* ---- init / exit --------------------------------------------------- */

int kunwind_registry_init(void)
{
	int err;

	kunwind_vmlinux_register();
#ifdef MODULE
	/* kunwind.ko's own table: its COMING has passed, so by hand. */
	kunwind_module_add(THIS_MODULE, true);
#endif
	/* First: from now on no module comes or goes unnoticed. */
	err = register_module_notifier(&kunwind_module_nb);
	if (err) {
		kunwind_registry_exit();
		return err;
	}
	kunwind_modules_before();
	return 0;
}

void kunwind_registry_exit(void)
{
	struct kunwind_mod_note *n, *ntmp;

	unregister_module_notifier(&kunwind_module_nb);
	mutex_lock(&kunwind_registry_lock);
	list_for_each_entry_safe(n, ntmp, &kunwind_mod_notes, list) {
		list_del(&n->list);
		kfree(n);
	}
	mutex_unlock(&kunwind_registry_lock);
	kunwind_unregister_all();
}
