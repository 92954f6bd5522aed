// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of kunwind tables: vmlinux's, kunwind.ko's own, and one
 * per module that embeds a table (scripts/kunwind.mk adds the section
 * .kunwind and the symbol __kunwind_table to the module's object; the
 * module loader relocates the segment bases like any other data).
 *
 * Lookups take no lock: they read one structure published under RCU, the
 * looked-up segments of every table sorted by run-time start plus a hash
 * index of the address blocks they cover (struct kunwind_live), so a
 * lookup may run in any context, NMI included, and costs a hash probe and
 * a search among the few segments of one block, however many tables there
 * are.  Writers hold kunwind_registry_lock and
 * rebuild it on every change (a registration, the end of a module's init,
 * an unregistration): fill a new one, rcu_assign_pointer() it, free the
 * old one after a grace period.  A registration copies out, per segment,
 * its run-time range and a state; the table itself is never written (it
 * lives in the module's read-only data, where nothing can change it after
 * it was checked).
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
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include "kunwind_api.h"
#include "registry.h"
#include "registry_lookup.h"
#include "symbols.h"
#include "vmlinux.h"

struct kunwind_registration_seg {
	unsigned long start, end;	/* run-time [start, end) */
	u16 idx;			/* its struct kunwind_seg in the table */
	u8 state;			/* enum kunwind_seg_state */
};

struct kunwind_registration {
	struct list_head list;		/* in kunwind_registered */
	struct module *mod;
	const struct kunwind_hdr *table;
	unsigned long len, bias;
	unsigned int nr_segs;
	char name[MODULE_NAME_LEN];
	/* ORC fallback steps out of its text, per enum kunwind_fallback */
	atomic_long_t fallback[KUNWIND_FALLBACK_NR];
	struct kunwind_registration_seg segs[];	/* sorted by start */
};

/* A segment as lookups see it. */
struct kunwind_live_seg {
	unsigned long start, end;	/* run-time [start, end) */
	const struct kunwind_hdr *table;
	const struct kunwind_seg *seg;
	struct kunwind_registration *entry;	/* freed after a grace period */
};

/*
 * Address blocks: the segments meeting a block are few, and consecutive
 * in the sorted array.  16 KiB: module text is allocated per module, in
 * pages, by vmalloc, which leaves a guard page after each allocation, so
 * a block meets the text of at most two modules; and the index costs 32
 * to 64 bytes per 16 KiB of text (16-byte slots, a power of two of them,
 * at most half full): 16 KiB on the test kernel (6 MiB of vmlinux text
 * and a few modules).  Measured (bench/kernel-bench.sh, TCG): the lookup
 * of a module's frame with 199 other tables registered costs 0.99-1.07
 * times what it costs alone (4 runs); 1.22-1.25 with a binary search of
 * all segments instead of the index (3 runs).
 */
#define KUNWIND_BLOCK_SHIFT	14
#define KUNWIND_BLOCK_EMPTY	(~0UL)	/* no address has this block number */

/* A slot of the hash index: segs[first, first + nr) meet block key. */
struct kunwind_live_block {
	unsigned long key;		/* addr >> KUNWIND_BLOCK_SHIFT */
	u32 first, nr;
};

/*
 * What lookups read: the live and init segments of every registration,
 * sorted by start, which never overlap (checked at registration); and,
 * for every block they meet, where they are (open addressing, linear
 * probing, at most half full).  One allocation.
 */
struct kunwind_live {
	struct rcu_head rcu;
	unsigned int nr;			/* segments */
	unsigned int bits;			/* 1 << bits slots */
	struct kunwind_live_block *blocks;
	struct kunwind_live_seg segs[];
};

static LIST_HEAD(kunwind_registered);
static DEFINE_MUTEX(kunwind_registry_lock);
static struct kunwind_registration *kunwind_vmlinux_registration;
static struct kunwind_live __rcu *kunwind_live;
/* Bumped after every change of kunwind_live: see kunwind_registry_gen(). */
static unsigned long kunwind_live_gen;

/* The registry's address and layout for debuggers (internal.h). */
__used const struct kunwind_debug_info kunwind_debug_info = {
	.magic		= KUNWIND_DEBUG_MAGIC,
	.version	= KUNWIND_DEBUG_VERSION,
	.size		= sizeof(struct kunwind_debug_info),
	.live		= (unsigned long)&kunwind_live,
	.live_nr	= offsetof(struct kunwind_live, nr),
	.live_segs	= offsetof(struct kunwind_live, segs),
	.seg_size	= sizeof(struct kunwind_live_seg),
	.seg_start	= offsetof(struct kunwind_live_seg, start),
	.seg_end	= offsetof(struct kunwind_live_seg, end),
	.seg_table	= offsetof(struct kunwind_live_seg, table),
	.seg_seg	= offsetof(struct kunwind_live_seg, seg),
};

static struct kunwind_registration *
module_registration_locked(struct module *mod);

static const char * const seg_state_str[] = {
	[KUNWIND_SEG_LIVE]	= "live",
	[KUNWIND_SEG_INIT]	= "init",
	[KUNWIND_SEG_DEAD]	= "dead",
	[KUNWIND_SEG_DROPPED]	= "dropped",
};

static bool state_looked_up(u8 state)
{
	return state == KUNWIND_SEG_LIVE || state == KUNWIND_SEG_INIT;
}

/* ---- lookup -------------------------------------------------------- */

/*
 * The last of the n sorted segments s starting at or before addr, NULL if
 * none does.  Halving without a branch on the result: s[0].start <= addr
 * holds throughout, and the answer stays in s[0, n).
 */
static __kunwind_walk __always_inline const struct kunwind_live_seg *
live_floor(const struct kunwind_live_seg *s, unsigned int n,
	   unsigned long addr)
{
	unsigned int half;

	if (!n || addr < s->start)
		return NULL;
	while (n > 1) {
		half = n / 2;
		if (s[half].start <= addr)
			s += half;
		n -= half;
	}
	return s;
}

/*
 * The slot of block key, or the empty slot where it would go (there is
 * one: the index is at most half full).
 */
static __kunwind_walk __always_inline unsigned int
live_block(const struct kunwind_live *l, unsigned long key)
{
	unsigned int mask = (1u << l->bits) - 1;
	unsigned int h = hash_64(key, l->bits);

	while (l->blocks[h].key != key && l->blocks[h].key != KUNWIND_BLOCK_EMPTY)
		h = (h + 1) & mask;
	return h;
}

/*
 * The block of ip names the few segments that meet it (none: an empty
 * slot has nr 0); they are disjoint, so the one holding ip, if any, is
 * the last of them starting at or before it.  _raw: the caller is in an
 * RCU read-side section (a walk: preemption off; documented), and
 * lockdep's check would be a call out of the walk's untraceable code.
 */
static __kunwind_walk __always_inline const struct kunwind_live_seg *
live_seg(unsigned long ip)
{
	const struct kunwind_live *l = rcu_dereference_raw(kunwind_live);
	const struct kunwind_live_block *b;
	const struct kunwind_live_seg *s;

	if (!l)
		return NULL;
	b = &l->blocks[live_block(l, ip >> KUNWIND_BLOCK_SHIFT)];
	s = live_floor(l->segs + b->first, b->nr, ip);
	if (!s || ip - s->start >= s->end - s->start)
		return NULL;
	return s;
}

__kunwind_walk const struct kunwind_seg *
kunwind_registry_seg(unsigned long ip, const struct kunwind_hdr **table,
		      unsigned long *start)
{
	const struct kunwind_live_seg *s = live_seg(ip);

	if (!s)
		return NULL;
	*table = s->table;
	*start = s->start;
	return s->seg;
}
EXPORT_SYMBOL_GPL(kunwind_registry_seg);

/*
 * Count an ORC fallback step out of ip: to the registration whose table
 * covers ip, with reason why, or to none.  Only on the fallback's path.
 * The registration outlives the walk's RCU read-side section.
 */
__kunwind_walk bool kunwind_registry_fallback(unsigned long ip,
					      unsigned int why)
{
	const struct kunwind_live_seg *s = live_seg(ip);

	if (!s)
		return false;
	atomic_long_inc(&s->entry->fallback[why]);
	return true;
}

/*
 * The registry's generation: it changes after every change of what
 * lookups find (a table registered or gone, init text freed).  A lookup
 * cache (struct kunwind_cache) is valid for the generation read before
 * it was filled: a walk reads it first, clears its cache if it differs
 * from the cache's, and then looks up.  A change during the walk leaves
 * entries of either set in the cache, under the old generation: the next
 * walk clears them.
 */
__kunwind_walk unsigned long kunwind_registry_gen(void)
{
	return smp_load_acquire(&kunwind_live_gen);
}

bool kunwind_find_rule(unsigned long ip, struct kunwind_rule *rule)
{
	const struct kunwind_seg *seg;
	const struct kunwind_hdr *t;
	unsigned long start;

	rcu_read_lock();
	seg = kunwind_registry_seg(ip, &t, &start);
	if (seg)
		*rule = *kunwind_seg_rule(t, seg, ip - start);
	rcu_read_unlock();
	return seg;
}
EXPORT_SYMBOL_GPL(kunwind_find_rule);

/* ---- the lookup array: rebuilt on every change --------------------- */

static int cmp_live_seg(const void *a, const void *b)
{
	const struct kunwind_live_seg *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The blocks [start, end) meets. */
static unsigned long blocks_of(unsigned long start, unsigned long end)
{
	return ((end - 1) >> KUNWIND_BLOCK_SHIFT) -
	       (start >> KUNWIND_BLOCK_SHIFT) + 1;
}

/*
 * Under kunwind_registry_lock: how many segments lookups must find, and the
 * index size for them, 1 << *bits slots: twice the blocks they meet (an
 * upper bound: neighbours may share one), at least 16.
 */
static unsigned int live_count(unsigned int *bits)
{
	unsigned long blocks = 8;
	struct kunwind_registration *entry;
	unsigned int i, n = 0;

	list_for_each_entry(entry, &kunwind_registered, list) {
		for (i = 0; i < entry->nr_segs; i++) {
			const struct kunwind_registration_seg *rs = &entry->segs[i];

			if (state_looked_up(rs->state)) {
				n++;
				blocks += blocks_of(rs->start, rs->end);
			}
		}
	}
	*bits = ilog2(roundup_pow_of_two(2 * blocks));
	return n;
}

/*
 * Index l's sorted segments: each one's blocks, in order, so a block's
 * first segment is the first to meet it, and the others follow it.
 */
static void live_index(struct kunwind_live *l)
{
	static const struct kunwind_live_block empty = { KUNWIND_BLOCK_EMPTY };
	unsigned int i, h;
	unsigned long b;

	for (h = 0; h < 1u << l->bits; h++)
		l->blocks[h] = empty;
	for (i = 0; i < l->nr; i++) {
		const struct kunwind_live_seg *s = &l->segs[i];

		for (b = s->start >> KUNWIND_BLOCK_SHIFT;
		     b <= (s->end - 1) >> KUNWIND_BLOCK_SHIFT; b++) {
			h = live_block(l, b);
			if (l->blocks[h].key == KUNWIND_BLOCK_EMPTY)
				l->blocks[h] = (struct kunwind_live_block){ b, i, 0 };
			l->blocks[h].nr++;
		}
	}
}

/*
 * Under kunwind_registry_lock: fill l (room for live_count()'s segments and
 * blocks), sort, index.
 */
static void live_fill(struct kunwind_live *l)
{
	struct kunwind_registration *entry;
	unsigned int i, n = 0;

	list_for_each_entry(entry, &kunwind_registered, list) {
		for (i = 0; i < entry->nr_segs; i++) {
			const struct kunwind_registration_seg *rs = &entry->segs[i];

			if (!state_looked_up(rs->state))
				continue;
			l->segs[n].start = rs->start;
			l->segs[n].end = rs->end;
			l->segs[n].table = entry->table;
			l->segs[n].seg = kunwind_segs(entry->table) + rs->idx;
			l->segs[n].entry = entry;
			n++;
		}
	}
	l->nr = n;
	sort(l->segs, n, sizeof(l->segs[0]), cmp_live_seg, NULL);
	live_index(l);
}

static struct kunwind_live *live_alloc(unsigned int nr, unsigned int bits)
{
	struct kunwind_live *l;
	size_t size = struct_size(l, segs, nr);

	if (bits > 31)		/* 32 TiB of text */
		return NULL;
	l = kvmalloc(size_add(size, array_size(1UL << bits, sizeof(*l->blocks))),
		     GFP_KERNEL);
	if (l) {
		l->blocks = (void *)l + size;
		l->bits = bits;
	}
	return l;
}

/*
 * Publish the array after a change, under kunwind_registry_lock.  Lookups
 * still in the old one finish with it: it is freed after a grace period.
 * A removal (init text about to be freed, a table going) must not fail:
 * without memory for a new array, lookups find nothing for one grace
 * period (walks take the ORC fallback) while the old array, which nobody
 * reads then, is refilled in place: it is large enough, as the set only
 * shrank, and so did its blocks.  An addition without memory fails with
 * -ENOMEM.
 */
/* A new kunwind_live is visible: lookup caches filled before are stale. */
static void live_changed(void)
{
	smp_store_release(&kunwind_live_gen, kunwind_live_gen + 1);
}

static int live_publish(bool removal)
{
	struct kunwind_live *old, *l;
	unsigned int bits, n = live_count(&bits);

	old = rcu_dereference_protected(kunwind_live,
					lockdep_is_held(&kunwind_registry_lock));
	l = live_alloc(n, bits);
	if (!l) {
		if (!removal || !old)
			return -ENOMEM;
		rcu_assign_pointer(kunwind_live, NULL);
		live_changed();
		synchronize_rcu();
		live_fill(old);
		rcu_assign_pointer(kunwind_live, old);
		live_changed();
		return 0;
	}
	live_fill(l);
	rcu_assign_pointer(kunwind_live, l);
	live_changed();
	if (old)
		kvfree_rcu(old, rcu);
	return 0;
}

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
		nr_live += state_looked_up(s->state);
	}
	if (!nr_live)
		return "no segment inside the object's text (not relocated?)";
	sort(entry->segs, entry->nr_segs, sizeof(entry->segs[0]), cmp_entry_seg, NULL);
	for (i = 0; i < entry->nr_segs; i++) {
		const struct kunwind_registration_seg *s = &entry->segs[i];
		bool live = state_looked_up(s->state);

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
 * find it, entry's segments would share.  Per segment, one search of the lookup array: its
 * segments are disjoint, so only the last one starting before the
 * segment's end can reach into it.
 */
static struct kunwind_registration *
entry_clash(const struct kunwind_registration *entry)
{
	const struct kunwind_live *l;
	const struct kunwind_live_seg *s = NULL;
	struct kunwind_registration *other;
	unsigned int i;

	l = rcu_dereference_protected(kunwind_live,
				      lockdep_is_held(&kunwind_registry_lock));
	for (i = 0; l && i < entry->nr_segs && !s; i++) {
		const struct kunwind_registration_seg *rs = &entry->segs[i];

		if (!state_looked_up(rs->state))
			continue;
		s = live_floor(l->segs, l->nr, rs->end - 1);
		if (s && s->end <= rs->start)
			s = NULL;
	}
	if (!s)
		return NULL;
	list_for_each_entry(other, &kunwind_registered, list)
		if (other->table == s->table)
			return other;
	return NULL;
}

struct kunwind_registration *kunwind_register_table(const char *name,
					   struct module *mod,
					   const void *table,
					   unsigned long len,
					   unsigned long bias,
					   const struct kunwind_text *text,
					   unsigned int nr_text)
{
	const struct kunwind_hdr *t = table;
	struct kunwind_registration *entry, *other;
	enum kunwind_bad bad;
	const char *why;
	int err;

	bad = kunwind_table_check(table, len);
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
	if (mod && module_registration_locked(mod)) {
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
	err = live_publish(false);
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
		live_publish(true);
	mutex_unlock(&kunwind_registry_lock);
}
EXPORT_SYMBOL_GPL(kunwind_registration_init_done);

void kunwind_unregister_table(struct kunwind_registration *entry)
{
	mutex_lock(&kunwind_registry_lock);
	list_del(&entry->list);
	if (entry == kunwind_vmlinux_registration)
		kunwind_vmlinux_registration = NULL;
	live_publish(true);
	mutex_unlock(&kunwind_registry_lock);
	/* Pairs with every walk's RCU read-side section (preemption off). */
	synchronize_rcu();
	kfree(entry);
}
EXPORT_SYMBOL_GPL(kunwind_unregister_table);

static struct kunwind_registration *
module_registration_locked(struct module *mod)
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
	entry = module_registration_locked(mod);
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
		entry = kunwind_register_table(mod->name, mod, (const void *)addr,
					     len, 0, text, with_init ? 2 : 1);
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
		if (module_registration_locked(mod) || note_find(mod)) {
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
	unsigned int nr_text = 1;
	struct kunwind_registration *entry;
	unsigned long bias;

	if (!len) {
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
	text[0].start = info->stext + bias;
	text[0].end = PAGE_ALIGN(info->etext) + bias;
	if (kunwind_sym.einittext) {
		text[1].start = kunwind_sym.sinittext;
		text[1].end = kunwind_sym.einittext;
		nr_text++;
	}
	entry = kunwind_register_table("vmlinux", NULL, kunwind_vmlinux_table,
				     len, bias, text, nr_text);
	return PTR_ERR_OR_ZERO(entry);
}

/* ---- debugfs ------------------------------------------------------- */

void kunwind_registry_show(struct seq_file *m)
{
	const struct kunwind_live *l;
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
	l = rcu_dereference_protected(kunwind_live,
				      lockdep_is_held(&kunwind_registry_lock));
	seq_printf(m, "looked-up segments: %u, index slots: %u\n",
		   l ? l->nr : 0, l ? 1u << l->bits : 0);
	mutex_unlock(&kunwind_registry_lock);
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
	struct kunwind_registration *entry, *tmp;
	struct kunwind_live *l;
	LIST_HEAD(gone);

	unregister_module_notifier(&kunwind_module_nb);
	mutex_lock(&kunwind_registry_lock);
	kunwind_vmlinux_registration = NULL;
	list_splice_init(&kunwind_registered, &gone);
	l = rcu_replace_pointer(kunwind_live, NULL,
				lockdep_is_held(&kunwind_registry_lock));
	list_for_each_entry_safe(n, ntmp, &kunwind_mod_notes, list) {
		list_del(&n->list);
		kfree(n);
	}
	mutex_unlock(&kunwind_registry_lock);
	/* No lookup uses the array or a registration after this. */
	synchronize_rcu();
	kvfree(l);
	list_for_each_entry_safe(entry, tmp, &gone, list)
		kfree(entry);
}
