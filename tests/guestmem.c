// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of gdb/guestmem.c on synthetic guest RAM: a temporary
 * file, filled with random bytes, in which the test writes x86-64 page
 * tables by hand through its own writable mapping.  Every read is checked
 * against the bytes at the file offset where the test put the target
 * (known answers): physical reads and QEMU's RAM split at 4 GiB, 4- and
 * 5-level walks to 4K, 2M and 1G pages, the failures (not present at each
 * level, not canonical, tables outside RAM), reads across page
 * boundaries, and the translation cache.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../gdb/guestmem.h"

static int failed, passed;
static const char *param = "";	/* the paging mode of the running cases */

#define CHECK(name, cond, ...) do {					\
	if (cond) {							\
		printf("ok %s%s\n", name, param);			\
		passed++;						\
	} else {							\
		printf("not ok %s%s: ", name, param);			\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		failed++;						\
	}								\
} while (0)

#define GIB		(1UL << 30)
#define MIB		(1UL << 20)
#define P		(1UL << 0)
#define RW		(1UL << 1)
#define PS		(1UL << 7)
#define PAT_LARGE	(1UL << 12)	/* PAT in a 2M or 1G entry */
#define ADDR		0x000ffffffffff000UL

/*
 * The guest's RAM as the test sees it: the file and a writable mapping
 * of it, the split QEMU would use, and a bump allocator of page tables
 * (guest-physical addresses).
 */
struct ram {
	int fd;
	char path[32];		/* /proc/self/fd/N: nothing left if we crash */
	unsigned char *mem;
	unsigned long size, below_4g;
	unsigned long next_table;
};

static int ram_create(struct ram *r, unsigned long size, unsigned long below_4g)
{
	char tmp[] = "/tmp/guestmem.XXXXXX";

	r->fd = mkstemp(tmp);
	if (r->fd < 0)
		return -1;
	unlink(tmp);
	snprintf(r->path, sizeof(r->path), "/proc/self/fd/%d", r->fd);
	r->mem = MAP_FAILED;
	if (!ftruncate(r->fd, size))
		r->mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			      r->fd, 0);
	if (r->mem == MAP_FAILED) {
		close(r->fd);
		return -1;
	}
	r->size = size;
	r->below_4g = below_4g ? below_4g : size;
	r->next_table = 0x10000;	/* tables below 1 MiB, data above */
	return 0;
}

static void ram_destroy(struct ram *r)
{
	munmap(r->mem, r->size);
	close(r->fd);
}

/* Random bytes everywhere from 1 MiB on: a read from a wrong offset shows. */
static void ram_fill(struct ram *r)
{
	unsigned long i;

	srand(1);
	for (i = MIB; i < r->size; i++)
		r->mem[i] = rand();
}

/*
 * A RAM file of size bytes, below_4g of them below 4 GiB (0: all), and
 * the guest reading it; NULL, having said why as a failed case "what".
 */
static struct kunwind_guest *guest_create(struct ram *r, const char *what,
					  unsigned long size,
					  unsigned long below_4g)
{
	struct kunwind_guest *g;

	if (ram_create(r, size, below_4g)) {
		printf("not ok %s%s: cannot create RAM file: %m\n", what, param);
		failed++;
		return NULL;
	}
	g = kunwind_guest_open(r->path, below_4g);
	if (!g) {
		printf("not ok %s%s: open: %m\n", what, param);
		failed++;
		ram_destroy(r);
	}
	return g;
}

static void guest_destroy(struct kunwind_guest *g, struct ram *r)
{
	kunwind_guest_close(g);
	ram_destroy(r);
}

/* Where guest-physical pa is in the file, as QEMU lays RAM out. */
static unsigned char *at(struct ram *r, unsigned long pa)
{
	return r->mem + (pa < r->below_4g ? pa : r->below_4g + pa - 4 * GIB);
}

static unsigned long alloc_table(struct ram *r)
{
	unsigned long pa = r->next_table;

	r->next_table += 4096;
	memset(at(r, pa), 0, 4096);
	return pa;
}

/* The entry for va in the level-l table at pa (1 = page table). */
static unsigned long *slot(struct ram *r, unsigned long table,
			   unsigned long va, int level)
{
	return (unsigned long *)at(r, table) + ((va >> (3 + 9 * level)) & 511);
}

/* The level-l entry on va's path from root (the path must exist). */
static unsigned long *entry_of(struct ram *r, unsigned long root, int levels,
			       unsigned long va, int level)
{
	unsigned long table = root;
	int l;

	for (l = levels; l > level; l--)
		table = *slot(r, table, va, l) & ADDR;
	return slot(r, table, va, level);
}

/* Map va to pa with a page of level leaf: 1 (4K), 2 (2M) or 3 (1G). */
static void map(struct ram *r, unsigned long root, int levels,
		unsigned long va, unsigned long pa, int leaf,
		unsigned long flags)
{
	unsigned long table = root, *e;
	int l;

	for (l = levels; l > leaf; l--) {
		e = slot(r, table, va, l);
		if (!(*e & P))
			*e = alloc_table(r) | P | RW;
		table = *e & ADDR;
	}
	*slot(r, table, va, leaf) = pa | P | RW | (leaf > 1 ? PS : 0) | flags;
}

/*
 * Whether va translates to pa and n bytes read at va are those at pa;
 * says what it got otherwise.
 */
static int reads_as(struct kunwind_guest *g, struct ram *r, unsigned long va,
		    unsigned long pa, unsigned long n)
{
	unsigned char buf[256];
	unsigned long got_pa = 0, got;

	if (kunwind_guest_virt_to_phys(g, va, &got_pa) || got_pa != pa) {
		printf("# va %#lx: expected pa %#lx, got %#lx\n", va, pa,
		       got_pa);
		return 0;
	}
	got = kunwind_guest_read(g, va, buf, n);
	if (got != n || memcmp(buf, at(r, pa), n)) {
		printf("# va %#lx: read %lu of %lu bytes, %s\n", va, got, n,
		       memcmp(buf, at(r, pa), got) ? "wrong" : "right");
		return 0;
	}
	return 1;
}

static int unmapped(struct kunwind_guest *g, unsigned long va)
{
	unsigned long pa;

	if (!kunwind_guest_virt_to_phys(g, va, &pa)) {
		printf("# va %#lx: expected no translation, got %#lx\n", va, pa);
		return 0;
	}
	return 1;
}

static unsigned long word_at(struct ram *r, unsigned long pa)
{
	unsigned long w;

	memcpy(&w, at(r, pa), 8);
	return w;
}

/* ---- guest-physical ---- */

static void test_phys(void)
{
	struct kunwind_guest *g;
	unsigned char buf[64];
	struct ram r;

	g = guest_create(&r, "open_maps_the_whole_file", 8 * MIB, 0);
	if (!g)
		return;
	ram_fill(&r);
	CHECK("open_maps_the_whole_file", kunwind_guest_ram_size(g) == 8 * MIB,
	      "size %lu", kunwind_guest_ram_size(g));
	errno = 0;
	CHECK("open_refuses_a_missing_file",
	      !kunwind_guest_open("/nonexistent/ram", 0) && errno == ENOENT,
	      "errno %d", errno);
	CHECK("read_phys_reads_at_the_file_offset",
	      kunwind_guest_read_phys(g, 0x300123, buf, 64) == 64 &&
	      !memcmp(buf, r.mem + 0x300123, 64), "wrong bytes");
	CHECK("read_phys_stops_at_the_end_of_ram",
	      kunwind_guest_read_phys(g, 8 * MIB - 5, buf, 16) == 5 &&
	      !memcmp(buf, r.mem + 8 * MIB - 5, 5) &&
	      !kunwind_guest_read_phys(g, 8 * MIB, buf, 1) &&
	      !kunwind_guest_read_phys(g, 4 * GIB, buf, 8) &&
	      !kunwind_guest_read_phys(g, ~0UL - 3, buf, 8),
	      "read past the end");
	guest_destroy(g, &r);
}

/* 8 MiB with 4 MiB below 4 GiB: physical 4 GiB + x is file offset 4 MiB + x. */
static void test_split(void)
{
	unsigned long root, va = 0xffffc90000123000UL, *e;
	struct kunwind_guest *g;
	unsigned char buf[64];
	struct ram r;

	g = guest_create(&r, "split", 8 * MIB, 4 * MIB);
	if (!g)
		return;
	ram_fill(&r);
	CHECK("split_puts_the_rest_of_ram_at_4g",
	      kunwind_guest_read_phys(g, 4 * GIB + 0x1234, buf, 64) == 64 &&
	      !memcmp(buf, r.mem + 4 * MIB + 0x1234, 64) &&
	      kunwind_guest_read_phys(g, 0x301234, buf, 64) == 64 &&
	      !memcmp(buf, r.mem + 0x301234, 64), "wrong bytes");
	CHECK("split_hole_and_past_the_end_are_not_ram",
	      kunwind_guest_read_phys(g, 4 * MIB - 4, buf, 16) == 4 &&
	      !kunwind_guest_read_phys(g, 4 * MIB, buf, 8) &&
	      !kunwind_guest_read_phys(g, 4 * GIB - 8, buf, 8) &&
	      kunwind_guest_read_phys(g, 4 * GIB + 4 * MIB - 8, buf, 16) == 8 &&
	      !kunwind_guest_read_phys(g, 4 * GIB + 4 * MIB, buf, 8) &&
	      !kunwind_guest_read_phys(g, 4 * GIB + 64 * MIB, buf, 8) &&
	      !kunwind_guest_read_phys(g, ~0UL - 3, buf, 8),
	      "read in the hole or past the end");

	/* Every table above 4 GiB, so that the walk needs the split too. */
	r.next_table = 4 * GIB + 0x10000;
	root = alloc_table(&r);
	map(&r, root, 4, va, 4 * GIB + 0x300000, 1, 0);
	kunwind_guest_set_root(g, root, 0);
	CHECK("split_walk_reads_tables_above_4g",
	      reads_as(g, &r, va + 0x40, 4 * GIB + 0x300040, 64), "see above");

	e = entry_of(&r, root, 4, va, 3);
	*e = 0x80000000UL | P;		/* a PD in the hole */
	kunwind_guest_flush(g);
	CHECK("walk_fails_on_a_table_in_the_hole", unmapped(g, va),
	      "translated through the hole");
	guest_destroy(g, &r);
}

/* A sparse 3.5 GiB file: the pc machine keeps 3 GiB below 4 GiB. */
static void test_pc_rule(void)
{
	unsigned long w = 0x1122334455667788UL, got = 0;
	struct kunwind_guest *g;
	struct ram r;

	if (ram_create(&r, 0xe0000000UL, 0xc0000000UL)) {
		printf("ok open_default_split_is_the_pc_machine_rule # SKIP no 3.5 GiB sparse file: %m\n");
		return;
	}
	memcpy(at(&r, 4 * GIB), &w, 8);
	g = kunwind_guest_open(r.path, 0);
	CHECK("open_default_split_is_the_pc_machine_rule",
	      g && kunwind_guest_read_phys(g, 4 * GIB, &got, 8) == 8 &&
	      got == w && !kunwind_guest_read_phys(g, 0xc0000000UL, &got, 8),
	      "%s, read %#lx at 4 GiB", g ? "opened" : "open failed", got);
	kunwind_guest_close(g);
	ram_destroy(&r);
}

/* ---- walks, in both paging modes ---- */

#define VA_4K		0xffffc90000123000UL	/* -> 0x200000, next page unmapped */
#define VA_2M		0xffff888000200000UL	/* -> 0x400000 */
#define VA_2M_PAT	0xffff888000400000UL	/* -> 0x600000, PAT set */
#define VA_1G		0xffff880040000000UL	/* -> 0 */
#define VA_1G_PAT	0xffff880080000000UL	/* -> 0, PAT set */
#define VA_SPLIT	0xffffc90000200000UL	/* -> 0x210000, then 0x205000 */
#define VA_ALIAS4	0xffff800000000000UL	/* 0x0000800000000000's slots in 4-level */
#define VA_ALIAS5	0xff00000000000000UL	/* 0x0100000000000000's slots in 5-level */
#define RECURSIVE	300	/* a root slot no other address uses */

/* va made canonical: its top translated bit copied into the bits above. */
static unsigned long canonical(unsigned long va, int levels)
{
	int bits = 12 + 9 * levels;

	return (unsigned long)((long)(va << (64 - bits)) >> (64 - bits));
}

/* The address whose index is idx at every level. */
static unsigned long recursive_va(int levels, unsigned long idx)
{
	unsigned long va = 0;
	int l;

	for (l = 1; l <= levels; l++)
		va |= idx << (3 + 9 * l);
	return canonical(va, levels);
}

/*
 * For each level from top down to bottom in turn, replace VA_4K's entry
 * there with (entry & keep) | set: at how many levels VA_4K still
 * translated (it should not).  The entries are put back after.
 */
static int still_translates(struct kunwind_guest *g, struct ram *r,
			    unsigned long root, int levels, int top,
			    int bottom, unsigned long keep, unsigned long set)
{
	unsigned long *e, saved;
	int l, bad = 0;

	for (l = top; l >= bottom; l--) {
		e = entry_of(r, root, levels, VA_4K, l);
		saved = *e;
		*e = (saved & keep) | set;
		kunwind_guest_flush(g);
		if (!unmapped(g, VA_4K)) {
			printf("# level %d entry %#lx\n", l, *e);
			bad++;
		}
		*e = saved;
	}
	kunwind_guest_flush(g);
	return bad;
}

static void test_bad_tables(struct kunwind_guest *g, struct ram *r,
			    unsigned long root, int levels, int la57)
{
	unsigned long *e, saved, buf;
	int bad;

	bad = still_translates(g, r, root, levels, levels, 1, ~P, 0);
	CHECK("walk_fails_when_an_entry_is_not_present",
	      !bad && reads_as(g, r, VA_4K, 0x200000, 8),
	      "%d levels translated", bad);
	/* PS is reserved in PML4 and PML5 entries: a CPU faults. */
	bad = still_translates(g, r, root, levels, levels, 4, ~0UL, PS);
	CHECK("walk_fails_on_ps_in_a_pml4_or_pml5_entry", !bad,
	      "%d levels translated", bad);
	/* A page table far past RAM, then just past its end. */
	bad = still_translates(g, r, root, levels, 2, 2, 0,
			       0x7ff000000000UL | P);
	bad += still_translates(g, r, root, levels, 2, 2, 0, r->size | P);
	CHECK("walk_fails_on_a_table_outside_ram", !bad,
	      "translated through a table outside RAM");

	kunwind_guest_set_root(g, 0x7ff000000000UL, la57);
	CHECK("walk_fails_on_a_root_outside_ram", unmapped(g, VA_4K),
	      "translated through a root outside RAM");
	kunwind_guest_set_root(g, root, la57);

	e = entry_of(r, root, levels, VA_4K, 1);
	saved = *e;
	*e = 0xfee00000UL | P;		/* the local APIC: not RAM */
	kunwind_guest_flush(g);
	CHECK("read_fails_on_a_page_outside_ram",
	      !kunwind_guest_read(g, VA_4K, &buf, 8) &&
	      !kunwind_guest_read_word(g, VA_4K, &buf), "read it");
	*e = saved;
	kunwind_guest_flush(g);
}

static void test_canonical(struct kunwind_guest *g, struct ram *r,
			   unsigned long root, int levels)
{
	if (levels == 4) {
		map(r, root, levels, VA_ALIAS4, 0x201000, 1, 0);
		CHECK("walk_refuses_noncanonical_addresses",
		      reads_as(g, r, VA_ALIAS4, 0x201000, 8) &&
		      unmapped(g, 0x0000800000000000UL), "see above");
		return;
	}
	map(r, root, levels, 0x0000800000000000UL, 0x202000, 1, 0);
	map(r, root, levels, VA_ALIAS5, 0x203000, 1, 0);
	CHECK("walk5_translates_57_bit_addresses",
	      reads_as(g, r, 0x0000800000000000UL, 0x202000, 8), "see above");
	CHECK("walk_refuses_noncanonical_addresses",
	      reads_as(g, r, VA_ALIAS5, 0x203000, 8) &&
	      unmapped(g, 0x0100000000000000UL), "see above");
}

static void test_cache(struct kunwind_guest *g, struct ram *r,
		       unsigned long root, int levels, int la57)
{
	unsigned long other, w0, h0, w1, h1, val = 0, *e, saved;
	int i, ok = 1;

	kunwind_guest_flush(g);
	kunwind_guest_stats(g, &w0, &h0);
	for (i = 0; i < 100; i++)
		ok &= kunwind_guest_read_word(g, VA_4K + 8 * i, &val) &&
		      val == word_at(r, 0x200000 + 8 * i);
	kunwind_guest_stats(g, &w1, &h1);
	CHECK("cache_hits_on_repeated_reads",
	      ok && w1 - w0 == 1 && h1 - h0 == 99,
	      "%s, %lu walks and %lu hits for 100 reads of one page",
	      ok ? "right words" : "wrong words", w1 - w0, h1 - h0);

	other = alloc_table(r);
	map(r, other, levels, VA_4K, 0x220000, 1, 0);
	kunwind_guest_read_word(g, VA_4K, &val);	/* cached */
	kunwind_guest_set_root(g, other, la57);
	CHECK("set_root_drops_old_translations",
	      kunwind_guest_read_word(g, VA_4K, &val) &&
	      val == word_at(r, 0x220000), "read %#lx, old root's %#lx", val,
	      word_at(r, 0x200000));
	kunwind_guest_set_root(g, root, la57);

	/* The guest remaps a page: stale until the caller flushes. */
	e = entry_of(r, root, levels, VA_4K, 1);
	saved = *e;
	kunwind_guest_read_word(g, VA_4K, &val);
	*e = 0x230000 | P;
	kunwind_guest_read_word(g, VA_4K, &w0);
	kunwind_guest_flush(g);
	CHECK("flush_drops_old_translations",
	      w0 == word_at(r, 0x200000) &&
	      kunwind_guest_read_word(g, VA_4K, &val) &&
	      val == word_at(r, 0x230000),
	      "before flush %#lx (cached %#lx), after %#lx (new %#lx)", w0,
	      word_at(r, 0x200000), val, word_at(r, 0x230000));
	*e = saved;
	kunwind_guest_flush(g);
}

static void test_walks(int levels)
{
	int la57 = levels == 5;
	unsigned long root, val = 0, want, rec;
	unsigned char buf[64];
	struct kunwind_guest *g;
	struct ram r;

	g = guest_create(&r, "walks", 8 * MIB, 0);
	if (!g)
		return;
	ram_fill(&r);
	root = alloc_table(&r);
	map(&r, root, levels, VA_4K, 0x200000, 1, 0);
	map(&r, root, levels, VA_2M, 0x400000, 2, 0);
	map(&r, root, levels, VA_2M_PAT, 0x600000, 2, PAT_LARGE);
	map(&r, root, levels, VA_1G, 0, 3, 0);
	map(&r, root, levels, VA_1G_PAT, 0, 3, PAT_LARGE);
	map(&r, root, levels, VA_SPLIT, 0x210000, 1, 0);
	map(&r, root, levels, VA_SPLIT + 0x1000, 0x205000, 1, 0);
	*slot(&r, root, recursive_va(levels, RECURSIVE), levels) = root | P | RW;

	kunwind_guest_set_root(g, root, la57);

	CHECK("walk_maps_a_4k_page", reads_as(g, &r, VA_4K + 0x10, 0x200010, 64),
	      "see above");
	CHECK("walk_maps_a_2m_page",
	      reads_as(g, &r, VA_2M + 0x12345, 0x412345, 64), "see above");
	CHECK("walk_maps_a_1g_page",
	      reads_as(g, &r, VA_1G + 0x500123, 0x500123, 64), "see above");
	CHECK("walk_large_page_pat_bit_does_not_shift_the_frame",
	      reads_as(g, &r, VA_2M_PAT + 0x345, 0x600345, 64) &&
	      reads_as(g, &r, VA_1G_PAT + 0x700000, 0x700000, 64), "see above");
	test_canonical(g, &r, root, levels);

	kunwind_guest_set_root(g, root | 0xabc | 1UL << 63, la57);
	CHECK("set_root_ignores_pcid_and_flag_bits",
	      reads_as(g, &r, VA_4K, 0x200000, 64), "see above");
	kunwind_guest_set_root(g, root, la57);

	CHECK("read_stops_at_the_first_unmapped_page",
	      kunwind_guest_read(g, VA_4K + 0xff0, buf, 64) == 16 &&
	      !memcmp(buf, r.mem + 0x200ff0, 16), "wrong length or bytes");
	memcpy(&want, r.mem + 0x210ffc, 4);
	memcpy((char *)&want + 4, r.mem + 0x205000, 4);
	CHECK("read_word_crosses_into_a_non_adjacent_page",
	      kunwind_guest_read_word(g, VA_SPLIT + 0xffc, &val) && val == want,
	      "read %#lx, expected %#lx", val, want);
	CHECK("read_word_fails_when_the_second_page_is_unmapped",
	      kunwind_guest_read_word(g, VA_4K + 0xff8, &val) &&
	      !kunwind_guest_read_word(g, VA_4K + 0xffc, &val),
	      "last word or straddling word wrong");

	/*
	 * A root entry pointing at the root: every level reads the root
	 * again, and the page reached is the root itself.  The walk stops
	 * after its levels, whatever the tables say.
	 */
	rec = recursive_va(levels, RECURSIVE);
	CHECK("walk_follows_a_self_referencing_table_level_by_level",
	      reads_as(g, &r, rec, root, 64) &&
	      kunwind_guest_read_word(g, rec + 8 * RECURSIVE, &val) &&
	      val == (root | P | RW), "read %#lx", val);

	test_bad_tables(g, &r, root, levels, la57);
	test_cache(g, &r, root, levels, la57);
	guest_destroy(g, &r);
}

/*
 * The SDM's walk, written out again as plainly as possible, over RAM
 * that starts at physical 0: the reference test_garbage() holds
 * guestmem.c's walk to.  0 and *pa, or -1.
 */
static int ref_walk(const struct ram *r, unsigned long root, int levels,
		    unsigned long va, unsigned long *pa)
{
	unsigned long table = root & ADDR, e = 0, size = 0;
	int level;

	for (level = levels; level >= 1; level--) {
		unsigned long idx = va >> (12 + 9 * (level - 1)) & 511;

		if (table + idx * 8 + 8 > r->size)
			return -1;
		memcpy(&e, r->mem + table + idx * 8, 8);
		if (!(e & P))
			return -1;
		if (e & PS && level == 3) {
			size = 1UL << 30;
			break;
		}
		if (e & PS && level == 2) {
			size = 1UL << 21;
			break;
		}
		if (e & PS && level > 3)
			return -1;		/* reserved: no large pages there */
		table = e & ADDR;
		size = 4096;
	}
	*pa = (e & ADDR & ~(size - 1)) | (va & (size - 1));
	return 0;
}

/*
 * Tables of random entries pointing anywhere in RAM, many of them
 * present, some large: walks must end, agree with the reference walk,
 * give the same answer from the cache, and read what RAM holds there.
 */
static void test_garbage(int levels)
{
	unsigned long i, va, pa, again, buf[4], n = 0, bad = 0;
	int la57 = levels == 5;
	struct kunwind_guest *g;
	struct ram r;

	g = guest_create(&r, "garbage", 8 * MIB, 0);
	if (!g)
		return;
	srand(2);
	for (i = 0; i < r.size / 8; i++)
		((unsigned long *)r.mem)[i] = ((unsigned long)rand() << 12 &
			(8 * MIB - 1) & ADDR) | (rand() & (P | PS)) |
			(rand() % 64 ? 0 : 0x7ff000000000UL);
	kunwind_guest_set_root(g, 0x1000, la57);
	for (i = 0; i < 100000; i++) {
		unsigned long ref, want = 0, got = 0;
		int ok, ref_ok;

		va = canonical((unsigned long)rand() << 40 ^
			       (unsigned long)rand() << 20 ^ rand(), levels);
		kunwind_guest_flush(g);
		ok = !kunwind_guest_virt_to_phys(g, va, &pa);
		ref_ok = !ref_walk(&r, 0x1000, levels, va, &ref);
		if (ok != ref_ok || (ok && pa != ref)) {
			if (!bad)
				printf("# %#lx: walk %d %#lx, reference %d %#lx\n",
				       va, ok, ok ? pa : 0, ref_ok,
				       ref_ok ? ref : 0);
			bad++;
			continue;
		}
		if (!ok)
			continue;
		n++;
		/* from the cache now */
		if (kunwind_guest_virt_to_phys(g, va, &again) || again != pa)
			bad++;
		if ((va & 4095) <= 4096 - sizeof(got) &&
		    pa + sizeof(got) <= r.size) {
			memcpy(&want, r.mem + pa, sizeof(want));
			if (!kunwind_guest_read_word(g, va, &got) || got != want)
				bad++;
		}
		kunwind_guest_read(g, va, buf, sizeof(buf));
	}
	CHECK("walk_of_random_tables_agrees_with_the_reference_and_the_cache",
	      !bad && n, "%lu of %lu translations differ", bad, n);
	guest_destroy(g, &r);
}

int main(void)
{
	int levels;

	setvbuf(stdout, NULL, _IOLBF, 0);	/* a crash still shows the last case */
	test_phys();
	test_split();
	test_pc_rule();
	for (levels = 4; levels <= 5; levels++) {
		param = levels == 5 ? " [5-level]" : " [4-level]";
		test_walks(levels);
		test_garbage(levels);
	}
	param = "";
	printf("# guestmem: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
