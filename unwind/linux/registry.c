// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of kunwind tables: vmlinux's, kunwind.ko's own, and one
 * per module that embeds a table (discovery.c finds them; scripts/
 * kunwind.mk adds the section .kunwind and the symbol __kunwind_table to
 * the module's object; the module loader relocates the segment bases like
 * any other data).
 *
 * A registration checks the table, copies out, per segment, its run-time
 * range and a state, and refuses a table whose text overlaps another's;
 * the table itself is never written (it lives in the module's read-only
 * data, where nothing can change it after it was checked).  Every change
 * (a registration, the end of a module's init, an unregistration) is
 * made under kunwind_registry_lock and published to lookups by
 * kunwind_live_publish() (registry_lookup.c) before the lock is dropped.
 */
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include "registry_internal.h"

LIST_HEAD(kunwind_registered);
/* Serialises the writers: registry.c, discovery.c (registry_internal.h). */
DEFINE_MUTEX(kunwind_registry_lock);
static struct kunwind_registration *kunwind_vmlinux_registration;

static const char * const seg_state_str[] = {
	[KUNWIND_SEG_LIVE]	= "live",
	[KUNWIND_SEG_INIT]	= "init",
	[KUNWIND_SEG_DEAD]	= "dead",
	[KUNWIND_SEG_DROPPED]	= "dropped",
};

static_assert(ARRAY_SIZE(seg_state_str) == KUNWIND_SEG_NR);

/* ---- registration -------------------------------------------------- */

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

static int cmp_entry_seg(const void *a, const void *b)
{
	const struct kunwind_registration_seg *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Place every segment and sort them by start; an error if none is looked
 * up, or if a looked-up one shares a byte with any other (an address
 * must name one segment: the lookup's sorted array, and kunwind_table_rule()
 * in host tools and tests, take the one holding it).  Sorted,
 * two intervals overlap iff the later starts before the earlier ends:
 * one pass, keeping the furthest end of all segments so far and of the
 * looked-up ones.  A dropped segment that wraps around holds nothing.
 */
static const char *entry_place(struct kunwind_registration *entry,
			       const struct kunwind_text *text,
			       unsigned int nr_text)
{
	const struct kunwind_seg *seg = kunwind_segs(entry->table);
	unsigned long end_all = 0, end_live = 0;
	unsigned int i, nr_live = 0;

	for (i = 0; i < entry->nr_segs; i++) {
		struct kunwind_registration_seg *s = &entry->segs[i];

		s->start = seg[i].base + entry->bias;
		s->end = s->start + seg[i].size;
		s->idx = i;
		s->state = seg_place(s->start, s->end, text, nr_text);
		nr_live += kunwind_seg_looked_up(s->state);
	}
	if (!nr_live)
		return "no segment inside the object's text (not relocated?)";
	sort(entry->segs, entry->nr_segs, sizeof(entry->segs[0]), cmp_entry_seg, NULL);
	for (i = 0; i < entry->nr_segs; i++) {
		const struct kunwind_registration_seg *s = &entry->segs[i];
		bool live = kunwind_seg_looked_up(s->state);

		if (s->end <= s->start)
			continue;
		if (s->start < end_live || (live && s->start < end_all))
			return "segments overlap";
		end_all = max(end_all, s->end);
		if (live)
			end_live = max(end_live, s->end);
	}
	return NULL;
}

/*
 * Under kunwind_registry_lock: the registration whose text, as lookups
 * find it, entry's segments would share: per looked-up segment, one
 * search of the lookup array (kunwind_live_overlap()).
 */
static struct kunwind_registration *
entry_clash(const struct kunwind_registration *entry)
{
	const struct kunwind_hdr *t = NULL;
	struct kunwind_registration *other;
	unsigned int i;

	for (i = 0; i < entry->nr_segs && !t; i++) {
		const struct kunwind_registration_seg *rs = &entry->segs[i];

		if (kunwind_seg_looked_up(rs->state))
			t = kunwind_live_overlap(rs->start, rs->end);
	}
	if (!t)
		return NULL;
	list_for_each_entry(other, &kunwind_registered, list)
		if (other->table == t)
			return other;
	return NULL;
}

struct kunwind_registration *
kunwind_register_table(const char *name, struct module *mod,
		       const void *table, unsigned long len, unsigned long bias,
		       const struct kunwind_text *text, unsigned int nr_text)
{
	const struct kunwind_hdr *t = table;
	struct kunwind_registration *entry, *other;
	enum kunwind_bad bad;
	const char *why;
	int err;

	bad = kunwind_table_check_own(table, len);
	if (bad) {
		pr_warn("%s: table refused: %s\n", name, kunwind_bad_str(bad));
		return ERR_PTR(-EINVAL);
	}
	if (t->nr_segs > KUNWIND_MAX_SEGS) {
		pr_warn("%s: table refused: %u segments, more than %u\n",
			name, t->nr_segs, KUNWIND_MAX_SEGS);
		return ERR_PTR(-EINVAL);
	}
	entry = kzalloc(struct_size(entry, segs, t->nr_segs), GFP_KERNEL);
	if (!entry)
		return ERR_PTR(-ENOMEM);
	entry->mod = mod;
	entry->table = t;
	entry->len = len;
	entry->bias = bias;
	entry->nr_segs = t->nr_segs;
	strscpy(entry->name, name, sizeof(entry->name));

	why = entry_place(entry, text, nr_text);
	if (why) {
		pr_warn("%s: table refused: %s\n", name, why);
		kfree(entry);
		return ERR_PTR(-EINVAL);
	}

	mutex_lock(&kunwind_registry_lock);
	if (mod && kunwind_registration_locked(mod)) {
		err = -EEXIST;
		goto out;
	}
	other = entry_clash(entry);
	if (other) {
		pr_warn("%s: table refused: its text overlaps table %s\n",
			name, other->name);
		err = -EINVAL;
		goto out;
	}
	list_add_tail(&entry->list, &kunwind_registered);
	/* Publishes the filled-in entry (rcu_assign_pointer() orders the stores). */
	err = kunwind_live_publish(false);
	if (err) {
		list_del(&entry->list);
		goto out;
	}
	if (!mod && !kunwind_vmlinux_registration && !strcmp(name, "vmlinux"))
		kunwind_vmlinux_registration = entry;
	mutex_unlock(&kunwind_registry_lock);
	return entry;
out:
	mutex_unlock(&kunwind_registry_lock);
	kfree(entry);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(kunwind_register_table);

/*
 * The array is rebuilt without the init segments; lookups that still hold
 * the old one may find them until the grace period the loader waits for
 * before it frees init memory.  The state changes by WRITE_ONCE() for
 * kunwind_registration_seg_state(), which reads without the lock.
 */
void kunwind_registration_init_done(struct kunwind_registration *entry)
{
	bool changed = false;
	unsigned int i;

	mutex_lock(&kunwind_registry_lock);
	for (i = 0; i < entry->nr_segs; i++) {
		if (entry->segs[i].state == KUNWIND_SEG_INIT) {
			WRITE_ONCE(entry->segs[i].state, KUNWIND_SEG_DEAD);
			changed = true;
		}
	}
	if (changed)
		kunwind_live_publish(true);
	mutex_unlock(&kunwind_registry_lock);
}
EXPORT_SYMBOL_GPL(kunwind_registration_init_done);

void kunwind_unregister_table(struct kunwind_registration *entry)
{
	mutex_lock(&kunwind_registry_lock);
	list_del(&entry->list);
	if (entry == kunwind_vmlinux_registration)
		kunwind_vmlinux_registration = NULL;
	kunwind_live_publish(true);
	mutex_unlock(&kunwind_registry_lock);
	/* Pairs with every walk's RCU read-side section (preemption off). */
	synchronize_rcu();
	kfree(entry);
}
EXPORT_SYMBOL_GPL(kunwind_unregister_table);

struct kunwind_registration *kunwind_registration_locked(struct module *mod)
{
	struct kunwind_registration *entry;

	lockdep_assert_held(&kunwind_registry_lock);
	if (!mod)
		return kunwind_vmlinux_registration;
	list_for_each_entry(entry, &kunwind_registered, list)
		if (entry->mod == mod)
			return entry;
	return NULL;
}

struct kunwind_registration *kunwind_module_registration(struct module *mod)
{
	struct kunwind_registration *entry;

	mutex_lock(&kunwind_registry_lock);
	entry = kunwind_registration_locked(mod);
	mutex_unlock(&kunwind_registry_lock);
	return entry;
}
EXPORT_SYMBOL_GPL(kunwind_module_registration);

int kunwind_registration_seg_state(struct kunwind_registration *entry,
				   unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < entry->nr_segs; i++)
		if (addr - entry->segs[i].start < entry->segs[i].end - entry->segs[i].start)
			return READ_ONCE(entry->segs[i].state);
	return -ENOENT;
}
EXPORT_SYMBOL_GPL(kunwind_registration_seg_state);

/* ---- debugfs ------------------------------------------------------- */

void kunwind_registry_show(struct seq_file *m)
{
	const struct kunwind_seg *seg;
	struct kunwind_registration *entry;
	unsigned int i;

	mutex_lock(&kunwind_registry_lock);
	list_for_each_entry(entry, &kunwind_registered, list) {
		seq_printf(m, "%s bytes=%u rules=%u segments=%u bias=0x%lx\n",
			   entry->name, entry->table->size, entry->table->nr_rules,
			   entry->nr_segs, entry->bias);
		seq_printf(m, "  fallback steps out of its text: no row %ld, row step failed %ld, tracer helper missing %ld\n",
			   atomic_long_read(&entry->fallback[KUNWIND_FALLBACK_NO_ROW]),
			   atomic_long_read(&entry->fallback[KUNWIND_FALLBACK_STEP_FAILED]),
			   atomic_long_read(&entry->fallback[KUNWIND_FALLBACK_TRACER]));
		for (i = 0; i < entry->nr_segs; i++) {
			seg = kunwind_segs(entry->table) + entry->segs[i].idx;
			seq_printf(m, "  %-20s 0x%lx size=0x%x rows=%u %s\n",
				   kunwind_seg_name(entry->table, seg),
				   entry->segs[i].start, seg->size, seg->nr_rows,
				   seg_state_str[entry->segs[i].state]);
		}
	}
	kunwind_live_show(m);
	mutex_unlock(&kunwind_registry_lock);
}

/* ---- exit ---------------------------------------------------------- */

void kunwind_unregister_all(void)
{
	struct kunwind_registration *entry, *tmp;
	LIST_HEAD(gone);
	void *l;

	mutex_lock(&kunwind_registry_lock);
	kunwind_vmlinux_registration = NULL;
	list_splice_init(&kunwind_registered, &gone);
	l = kunwind_live_unpublish();
	mutex_unlock(&kunwind_registry_lock);
	/* No lookup uses the array or a registration after this. */
	synchronize_rcu();
	kvfree(l);
	list_for_each_entry_safe(entry, tmp, &gone, list)
		kfree(entry);
}
