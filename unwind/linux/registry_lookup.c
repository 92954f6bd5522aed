// SPDX-License-Identifier: GPL-2.0
/*
 * The registry's lookups: what walks find, and how it is published.
 *
 * Lookups take no lock: they read one structure published under RCU, the
 * looked-up segments of every table sorted by run-time start plus a hash
 * index of the address blocks they cover (struct kunwind_live), so a
 * lookup may run in any context, NMI included, and costs a hash probe and
 * a search among the few segments of one block, however many tables there
 * are.  Writers (registry.c) hold kunwind_registry_lock and have it
 * rebuilt on every change (a registration, the end of a module's init,
 * an unregistration): kunwind_live_publish() fills a new one,
 * rcu_assign_pointer()s it, and frees the old one after a grace period.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "registry_internal.h"
#include "registry_lookup.h"

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

static struct kunwind_live __rcu *kunwind_live;
/* Bumped after every change of kunwind_live: see kunwind_registry_gen(). */
static unsigned long kunwind_live_gen;

/* The registry's address and layout for debuggers (registry_lookup.h). */
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
	/* Pairs with live_changed()'s smp_store_release(). */
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

			if (kunwind_seg_looked_up(rs->state)) {
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

			if (!kunwind_seg_looked_up(rs->state))
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

/* A new kunwind_live is visible: lookup caches filled before are stale. */
static void live_changed(void)
{
	/* Pairs with kunwind_registry_gen()'s smp_load_acquire(). */
	smp_store_release(&kunwind_live_gen, kunwind_live_gen + 1);
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
int kunwind_live_publish(bool removal)
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

/* ---- for the writers, under kunwind_registry_lock ------------------ */

/*
 * The live segments are disjoint and sorted: only the last one starting
 * before end can reach into [start, end).
 */
const struct kunwind_hdr *kunwind_live_overlap(unsigned long start,
					       unsigned long end)
{
	const struct kunwind_live *l;
	const struct kunwind_live_seg *s;

	l = rcu_dereference_protected(kunwind_live,
				      lockdep_is_held(&kunwind_registry_lock));
	if (!l)
		return NULL;
	s = live_floor(l->segs, l->nr, end - 1);
	return s && s->end > start ? s->table : NULL;
}

void kunwind_live_show(struct seq_file *m)
{
	const struct kunwind_live *l;

	l = rcu_dereference_protected(kunwind_live,
				      lockdep_is_held(&kunwind_registry_lock));
	seq_printf(m, "looked-up segments: %u, index slots: %u\n",
		   l ? l->nr : 0, l ? 1u << l->bits : 0);
}

void *kunwind_live_unpublish(void)
{
	return rcu_replace_pointer(kunwind_live, NULL,
				   lockdep_is_held(&kunwind_registry_lock));
}
