/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a running QEMU guest's memory from the host, through the file
 * that backs its RAM:
 *
 *	-object memory-backend-file,id=ram,size=512M,mem-path=/dev/shm/X,share=on
 *	-machine memory-backend=ram
 *
 * The file is mapped read-only and shared, so every read sees the guest's
 * memory as it is now, with no help from QEMU or gdb.  Virtual addresses
 * are translated by walking the guest's x86-64 page tables (4- or 5-level)
 * from a CR3 the caller supplies; a small translation cache keeps the
 * walker's word-by-word stack reads from walking the tables every time.
 *
 * The guest runs while we read: the cache goes stale when the guest
 * changes its page tables, so the caller flushes it (or sets a new root)
 * for each sample.  Nothing here prints, exits or keeps global state, and
 * every function is safe whatever the guest put in its page tables.
 */
#ifndef KUNWIND_GUESTMEM_H
#define KUNWIND_GUESTMEM_H

struct kunwind_guest;

/*
 * Map the RAM file at path.  below_4g: how many bytes of RAM QEMU put at
 * guest-physical 0, the rest being at 4 GiB; 0 = the pc (i440fx)
 * machine's rule for the file's size (q35 callers pass theirs).  NULL on
 * error, with errno set.
 */
struct kunwind_guest *kunwind_guest_open(const char *path,
					 unsigned long below_4g);
void kunwind_guest_close(struct kunwind_guest *g);
unsigned long kunwind_guest_ram_size(const struct kunwind_guest *g);

/*
 * The page-table root: a CR3 value (its low 12 bits, PCID or PWT/PCD, and
 * bit 63 are ignored) and CR4.LA57 (5-level paging).  Flushes the cache.
 */
void kunwind_guest_set_root(struct kunwind_guest *g, unsigned long cr3,
			    int la57);
/* Empty the translation cache (the guest may have changed its tables). */
void kunwind_guest_flush(struct kunwind_guest *g);

/*
 * Guest-virtual va to guest-physical *pa: 0, or -1 if va is not canonical,
 * not mapped, or a table on the way is outside RAM.  No permission checks:
 * this is a reader, not a CPU.
 */
int kunwind_guest_virt_to_phys(struct kunwind_guest *g, unsigned long va,
			       unsigned long *pa);

/* n bytes at guest-physical pa: how many were copied (RAM ends or a hole). */
unsigned long kunwind_guest_read_phys(struct kunwind_guest *g,
				      unsigned long pa, void *buf,
				      unsigned long n);
/* n bytes at guest-virtual va: how many were copied (up to a page not mapped). */
unsigned long kunwind_guest_read(struct kunwind_guest *g, unsigned long va,
				 void *buf, unsigned long n);
/* The walker's read: the 8-byte word at va; 1, or 0 if it is not readable. */
int kunwind_guest_read_word(struct kunwind_guest *g, unsigned long va,
			    unsigned long *val);

/* Since open: page-table walks done, and translations the cache answered. */
void kunwind_guest_stats(const struct kunwind_guest *g, unsigned long *walks,
			 unsigned long *hits);

#endif /* KUNWIND_GUESTMEM_H */
