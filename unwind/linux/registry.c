// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of kunwind tables: vmlinux's, kunwind.ko's own, and one
 * per module that embeds a table (scripts/kunwind.mk adds the section
 * .kunwind and the symbol __kunwind_table to the module's object; the
 * module loader relocates the segment bases like any other data).
 *
 * Readers walk an RCU list without locks, so a lookup may run in any
 * context, NMI included; writers hold kunwind_regs_lock and free only
 * after synchronize_rcu().  A registration copies out, per segment, its
 * run-time range and a state; the table itself is never written (it lives
 * in the module's read-only data).
 *
 * Module lifecycle (module notifier):
 *   COMING  find __kunwind_table in the module's full symbol table, check
 *           the table, register it.  Segments outside the module's core
 *           and init text are dropped: a section the loader did not place
 *           (.exit.text without CONFIG_MODULE_UNLOAD) was relocated to the
 *           loader's temporary copy, which is freed after loading.
 *   LIVE    init segments die.  The loader frees init memory only after
 *           this notifier and a synchronize_rcu() (do_free_init()), so no
 *           walk still using them sees the memory reused.
 *   GOING   unregister: list_del_rcu() + synchronize_rcu(), before the
 *           loader frees the module (and its table) after the notifier.
 * Modules loaded before kunwind.ko are not covered: there is no exported
 * way to list them, and their full symbol table is gone after their init.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include "internal.h"

struct kunwind_reg_seg {
	unsigned long start, end;	/* run-time [start, end) */
	u8 state;			/* enum kunwind_seg_state */
};

struct kunwind_reg {
	struct list_head list;		/* in kunwind_regs, RCU */
	struct module *mod;
	const struct kunwind_hdr *table;
	unsigned long len, bias;
	unsigned long lo, hi;		/* hull of the live and init segments */
	unsigned int nr_segs;
	char name[MODULE_NAME_LEN];
	struct kunwind_reg_seg segs[];
};

static LIST_HEAD(kunwind_regs);
static DEFINE_MUTEX(kunwind_regs_lock);
static struct kunwind_reg *kunwind_vmlinux_reg;

static struct kunwind_reg *kunwind_module_reg_locked(struct module *mod);

static const char * const seg_state_str[] = {
	[KUNWIND_SEG_LIVE]	= "live",
	[KUNWIND_SEG_INIT]	= "init",
	[KUNWIND_SEG_DEAD]	= "dead",
	[KUNWIND_SEG_DROPPED]	= "dropped",
};

/*
 * A segment's state changes only from INIT to DEAD, by one WRITE_ONCE();
 * readers see the old or the new state, both safe (see LIVE above).
 */
static bool seg_live(const struct kunwind_reg_seg *seg)
{
	u8 state = READ_ONCE(seg->state);

	return state == KUNWIND_SEG_LIVE || state == KUNWIND_SEG_INIT;
}

static bool in_seg(const struct kunwind_reg_seg *seg, unsigned long addr)
{
	return addr - seg->start < seg->end - seg->start;
}

static bool segs_overlap(const struct kunwind_reg_seg *a,
			 const struct kunwind_reg_seg *b)
{
	return a->start < b->end && b->start < a->end;
}

/*
 * The lookup.  vmlinux is first in the list, so most lookups test one
 * hull and one or two segments.  Segments of one table never overlap
 * where either is looked up (checked at registration), so the core's
 * kunwind_find(), which takes the first segment holding the address,
 * lands in the live segment found here.
 */
const struct kunwind_hdr *kunwind_find_table(unsigned long ip,
					     unsigned long *bias)
{
	struct kunwind_reg *reg;
	unsigned int i;

	list_for_each_entry_rcu(reg, &kunwind_regs, list) {
		if (ip - reg->lo >= reg->hi - reg->lo)
			continue;
		for (i = 0; i < reg->nr_segs; i++) {
			if (in_seg(&reg->segs[i], ip) && seg_live(&reg->segs[i])) {
				*bias = reg->bias;
				return reg->table;
			}
		}
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(kunwind_find_table);

bool kunwind_find_rule(unsigned long ip, struct kunwind_rule *rule)
{
	const struct kunwind_hdr *t;
	const struct kunwind_rule *r = NULL;
	unsigned long bias;

	rcu_read_lock();
	t = kunwind_find_table(ip, &bias);
	if (t)
		r = kunwind_find(t, ip - bias);
	if (r)
		*rule = *r;
	rcu_read_unlock();
	return r;
}
EXPORT_SYMBOL_GPL(kunwind_find_rule);

static enum kunwind_seg_state seg_place(unsigned long start, unsigned long end,
					const struct kunwind_text *text,
					unsigned int nr_text)
{
	unsigned int i;

	for (i = 0; i < nr_text; i++)
		if (start >= text[i].start && end <= text[i].end && start < end)
			return text[i].init ? KUNWIND_SEG_INIT : KUNWIND_SEG_LIVE;
	return KUNWIND_SEG_DROPPED;
}

/* Place every segment; NULL if the live ones overlap each other. */
static const char *reg_place(struct kunwind_reg *reg,
			     const struct kunwind_text *text,
			     unsigned int nr_text)
{
	const struct kunwind_seg *seg = kunwind_segs(reg->table);
	unsigned int i, j, nr_live = 0;

	reg->lo = ULONG_MAX;
	reg->hi = 0;
	for (i = 0; i < reg->nr_segs; i++) {
		struct kunwind_reg_seg *s = &reg->segs[i];

		s->start = seg[i].base + reg->bias;
		s->end = s->start + seg[i].size;
		s->state = seg_place(s->start, s->end, text, nr_text);
		if (!seg_live(s))
			continue;
		nr_live++;
		reg->lo = min(reg->lo, s->start);
		reg->hi = max(reg->hi, s->end);
	}
	if (!nr_live) {
		reg->lo = reg->hi = 0;
		return "no segment inside the object's text (not relocated?)";
	}
	/* A looked-up segment must not share a byte with any other. */
	for (i = 0; i < reg->nr_segs; i++)
		for (j = i + 1; j < reg->nr_segs; j++)
			if ((seg_live(&reg->segs[i]) || seg_live(&reg->segs[j])) &&
			    segs_overlap(&reg->segs[i], &reg->segs[j]))
				return "segments overlap";
	return NULL;
}

/* Under kunwind_regs_lock: a registered table sharing live text with reg. */
static struct kunwind_reg *reg_clash(const struct kunwind_reg *reg)
{
	struct kunwind_reg *other;
	unsigned int i, j;

	list_for_each_entry(other, &kunwind_regs, list)
		for (i = 0; i < reg->nr_segs; i++)
			for (j = 0; j < other->nr_segs; j++)
				if (seg_live(&reg->segs[i]) &&
				    seg_live(&other->segs[j]) &&
				    segs_overlap(&reg->segs[i], &other->segs[j]))
					return other;
	return NULL;
}

struct kunwind_reg *kunwind_register_table(const char *name,
					   struct module *mod,
					   const void *table,
					   unsigned long len,
					   unsigned long bias,
					   const struct kunwind_text *text,
					   unsigned int nr_text)
{
	const struct kunwind_hdr *t = table;
	struct kunwind_reg *reg, *other;
	enum kunwind_bad bad;
	const char *why;

	bad = kunwind_table_check(table, len);
	if (bad) {
		pr_warn("%s: table refused: %s\n", name, kunwind_bad_str(bad));
		return ERR_PTR(-EINVAL);
	}
	reg = kzalloc(struct_size(reg, segs, t->nr_segs), GFP_KERNEL);
	if (!reg)
		return ERR_PTR(-ENOMEM);
	reg->mod = mod;
	reg->table = t;
	reg->len = len;
	reg->bias = bias;
	reg->nr_segs = t->nr_segs;
	strscpy(reg->name, name, sizeof(reg->name));

	why = reg_place(reg, text, nr_text);
	if (why) {
		pr_warn("%s: table refused: %s\n", name, why);
		kfree(reg);
		return ERR_PTR(-EINVAL);
	}

	mutex_lock(&kunwind_regs_lock);
	if (mod && kunwind_module_reg_locked(mod)) {
		mutex_unlock(&kunwind_regs_lock);
		kfree(reg);
		return ERR_PTR(-EEXIST);
	}
	other = reg_clash(reg);
	if (other) {
		pr_warn("%s: table refused: its text overlaps table %s\n",
			name, other->name);
		mutex_unlock(&kunwind_regs_lock);
		kfree(reg);
		return ERR_PTR(-EINVAL);
	}
	/* Publishes the filled-in reg (list_add_rcu() orders the stores). */
	if (!mod && !kunwind_vmlinux_reg && !strcmp(name, "vmlinux")) {
		kunwind_vmlinux_reg = reg;
		list_add_rcu(&reg->list, &kunwind_regs);
	} else {
		list_add_tail_rcu(&reg->list, &kunwind_regs);
	}
	mutex_unlock(&kunwind_regs_lock);
	return reg;
}
EXPORT_SYMBOL_GPL(kunwind_register_table);

void kunwind_reg_init_done(struct kunwind_reg *reg)
{
	unsigned int i;

	mutex_lock(&kunwind_regs_lock);
	for (i = 0; i < reg->nr_segs; i++)
		if (reg->segs[i].state == KUNWIND_SEG_INIT)
			WRITE_ONCE(reg->segs[i].state, KUNWIND_SEG_DEAD);
	mutex_unlock(&kunwind_regs_lock);
}
EXPORT_SYMBOL_GPL(kunwind_reg_init_done);

void kunwind_unregister_table(struct kunwind_reg *reg)
{
	mutex_lock(&kunwind_regs_lock);
	list_del_rcu(&reg->list);
	if (reg == kunwind_vmlinux_reg)
		kunwind_vmlinux_reg = NULL;
	mutex_unlock(&kunwind_regs_lock);
	/* Pairs with the rcu_read_lock() around every walk and lookup. */
	synchronize_rcu();
	kfree(reg);
}
EXPORT_SYMBOL_GPL(kunwind_unregister_table);

static struct kunwind_reg *kunwind_module_reg_locked(struct module *mod)
{
	struct kunwind_reg *reg;

	lockdep_assert_held(&kunwind_regs_lock);
	if (!mod)
		return kunwind_vmlinux_reg;
	list_for_each_entry(reg, &kunwind_regs, list)
		if (reg->mod == mod)
			return reg;
	return NULL;
}

struct kunwind_reg *kunwind_module_reg(struct module *mod)
{
	struct kunwind_reg *reg;

	mutex_lock(&kunwind_regs_lock);
	reg = kunwind_module_reg_locked(mod);
	mutex_unlock(&kunwind_regs_lock);
	return reg;
}
EXPORT_SYMBOL_GPL(kunwind_module_reg);

int kunwind_reg_seg_state(struct kunwind_reg *reg, unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < reg->nr_segs; i++)
		if (in_seg(&reg->segs[i], addr))
			return READ_ONCE(reg->segs[i].state);
	return -ENOENT;
}
EXPORT_SYMBOL_GPL(kunwind_reg_seg_state);

/* ---- modules ------------------------------------------------------- */

#define KUNWIND_TABLE_SYM "__kunwind_table"

/* The address and size of mod's __kunwind_table; false if it has none. */
static bool module_table(struct module *mod, unsigned long *addr,
			 unsigned long *size)
{
	const Elf_Sym *syms;
	const char *strtab;
	unsigned int i, nr;
	bool found = false;

	rcu_read_lock_sched();
	if (kunwind_mod_symtab(mod, &syms, &nr, &strtab)) {
		for (i = 0; i < nr; i++) {
			if (syms[i].st_shndx == SHN_UNDEF ||
			    strcmp(strtab + syms[i].st_name, KUNWIND_TABLE_SYM))
				continue;
			*addr = syms[i].st_value;
			*size = syms[i].st_size;
			found = true;
			break;
		}
	}
	rcu_read_unlock_sched();
	return found;
}

/* Register mod's table, if it has one; a refusal is not an error. */
static void kunwind_module_coming(struct module *mod)
{
	struct kunwind_text text[2] = {};
	unsigned long addr, size;

	if (!module_table(mod, &addr, &size))
		return;
	/* The table must lie in the module's own (read-only) core memory. */
	if (!size || !within_module_core(addr, mod) ||
	    !within_module_core(addr + size - 1, mod)) {
		pr_warn("%s: table refused: %s outside the module\n",
			mod->name, KUNWIND_TABLE_SYM);
		return;
	}
	kunwind_mod_text(mod, false, &text[0].start, &text[0].end);
	kunwind_mod_text(mod, true, &text[1].start, &text[1].end);
	text[1].init = true;
	kunwind_register_table(mod->name, mod, (const void *)addr, size, 0,
			       text, ARRAY_SIZE(text));
}

static int kunwind_module_notify(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	struct module *mod = data;
	struct kunwind_reg *reg;

	switch (action) {
	case MODULE_STATE_COMING:
		kunwind_module_coming(mod);
		break;
	case MODULE_STATE_LIVE:
		reg = kunwind_module_reg(mod);
		if (reg)
			kunwind_reg_init_done(reg);
		break;
	case MODULE_STATE_GOING:
		reg = kunwind_module_reg(mod);
		if (reg)
			kunwind_unregister_table(reg);
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
 * The vmlinux table's bases are link-time addresses; the kernel runs at
 * link address + KASLR offset, which two exported functions measure (two,
 * so that a vmlinux with the same banner but another layout is caught).
 */
int kunwind_vmlinux_register(void)
{
	const struct kunwind_vmlinux_info *info = &kunwind_vmlinux_info;
	unsigned long len = kunwind_vmlinux_table_end - kunwind_vmlinux_table;
	struct kunwind_text text = {};
	struct kunwind_reg *reg;
	unsigned long bias;

	if (!len) {
		pr_info("no vmlinux table (build with KUNWIND_VMLINUX=<vmlinux>): kernel frames use the ORC fallback\n");
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
	text.start = info->stext + bias;
	text.end = PAGE_ALIGN(info->etext) + bias;
	reg = kunwind_register_table("vmlinux", NULL, kunwind_vmlinux_table,
				     len, bias, &text, 1);
	return PTR_ERR_OR_ZERO(reg);
}

/* ---- debugfs ------------------------------------------------------- */

void kunwind_registry_show(struct seq_file *m)
{
	const struct kunwind_seg *seg;
	struct kunwind_reg *reg;
	unsigned int i;

	mutex_lock(&kunwind_regs_lock);
	list_for_each_entry(reg, &kunwind_regs, list) {
		seq_printf(m, "%s bytes=%u rules=%u segments=%u bias=0x%lx\n",
			   reg->name, reg->table->size, reg->table->nr_rules,
			   reg->nr_segs, reg->bias);
		seg = kunwind_segs(reg->table);
		for (i = 0; i < reg->nr_segs; i++)
			seq_printf(m, "  %-20s 0x%lx size=0x%x rows=%u %s\n",
				   kunwind_seg_name(reg->table, &seg[i]),
				   reg->segs[i].start, seg[i].size,
				   seg[i].nr_rows,
				   seg_state_str[reg->segs[i].state]);
	}
	mutex_unlock(&kunwind_regs_lock);
}

/* ---- init / exit --------------------------------------------------- */

int kunwind_registry_init(void)
{
	int err;

	kunwind_vmlinux_register();
#ifdef MODULE
	/* kunwind.ko's own table: its COMING has passed, so by hand. */
	kunwind_module_coming(THIS_MODULE);
#endif
	err = register_module_notifier(&kunwind_module_nb);
	if (err)
		kunwind_registry_exit();
	return err;
}

void kunwind_registry_exit(void)
{
	struct kunwind_reg *reg, *tmp;
	LIST_HEAD(gone);

	unregister_module_notifier(&kunwind_module_nb);
	mutex_lock(&kunwind_regs_lock);
	kunwind_vmlinux_reg = NULL;
	/* Empties the RCU list, waits for its readers, then moves it. */
	list_splice_init_rcu(&kunwind_regs, &gone, synchronize_rcu);
	mutex_unlock(&kunwind_regs_lock);
	list_for_each_entry_safe(reg, tmp, &gone, list)
		kfree(reg);
}
