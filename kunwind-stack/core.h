/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An ELF core file of an x86-64 Linux process, for kunwind-stack: its
 * threads (NT_PRSTATUS), its file mappings (NT_FILE) and its memory
 * (PT_LOAD, completed from the mapped files where the kernel did not dump
 * read-only file-backed pages).
 */
#ifndef _KUNWIND_CORE_H
#define _KUNWIND_CORE_H

#include <stddef.h>
#include <stdint.h>
#include "../unwind/env.h"	/* bool, as the rest of kunwind sees it */

struct core;

struct core_thread {
	int tid;
	/* From struct user_regs_struct, the registers an unwinder starts from. */
	uint64_t ip, sp, bp;
};

struct core_map {
	uint64_t start, end;	/* [start, end) */
	uint64_t offset;	/* file offset of start, in bytes */
	const char *path;
};

struct core *core_open(const char *path);
void core_close(struct core *c);

unsigned int core_nr_threads(const struct core *c);
const struct core_thread *core_thread(const struct core *c, unsigned int i);

/* File mappings, sorted by address. */
unsigned int core_nr_maps(const struct core *c);
const struct core_map *core_map(const struct core *c, unsigned int i);
const struct core_map *core_map_at(const struct core *c, uint64_t addr);

/* Map the main executable (the file mapping AT_ENTRY) to another path. */
int core_set_exe(struct core *c, const char *path);

/*
 * Read len bytes at addr from the dumped memory, or from the mapped file
 * where the core has only the segment's header and not its pages.  False,
 * and nothing read, if any byte is neither.
 */
bool core_read(struct core *c, uint64_t addr, void *buf, size_t len);

/*
 * The file at path, one of the mappings' (core_map()->path), opened at
 * the first call and kept open: a regular file, opened without blocking
 * (core.c says why).  -1 if it is not there or not a regular file.
 */
int core_file_fd(struct core *c, const char *path);

/* Is addr in an executable memory segment (PT_LOAD with PF_X)? */
bool core_code_at(struct core *c, uint64_t addr);

/* Bounds of the memory segment (PT_LOAD) holding addr. */
bool core_segment(struct core *c, uint64_t addr, uint64_t *lo, uint64_t *hi);

#endif /* _KUNWIND_CORE_H */
