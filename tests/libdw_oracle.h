/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two halves of libdw-oracle share: libdw_oracle.c reads the dump
 * and compares (and says what the tool does), libdw_view.c opens the file
 * with libdw and libdwfl and renders libdw's frame at an address in the
 * dump's words.
 */
#ifndef _KUNWIND_LIBDW_ORACLE_H
#define _KUNWIND_LIBDW_ORACLE_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct sec {
	char *name;
	uint64_t addr, size;	/* probing address space */
	bool exec;
};

struct row {
	unsigned int line, sec;
	uint64_t start, end;	/* dump's numbers */
	uint64_t lo, hi;	/* probing address space */
	char cfa[40], rbp[24], ra[24];
};

struct oracle {
	const char *path, *frame;	/* frame: "eh_frame" / "debug_frame" */
	bool rel, sample, verbose;
	int fd;
	Elf *elf;
	Dwarf *dw;
	Dwfl *dwfl;
	Dwarf_CFI *cfi;
	uint64_t bias;		/* cfi address = probe address - bias */
	struct sec *sec;
	size_t nr_sec;
	struct row *row;
	size_t nr_row;
	/* counters */
	size_t probes, rows_cmp, unsupported, gap_probes, gap_fdes, bad_gaps;
	size_t bad_addrs, bad_rows, reported, other_lines;
};

/* libdw's answer for one address, in the dump's words. */
struct view {
	int found;		/* 1 found, 0 no FDE, -1 error */
	uint64_t lo, hi;	/* libdw's row, probing address space */
	bool repr;		/* the table format can hold it */
	char cfa[80], rbp[80], ra[80];
};

/* libdw_oracle.c: exit 2 with a message; realloc() or die */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void *xrealloc(void *p, size_t n);

/* libdw_view.c */
/* Ask libdw about addr (probing address space). */
void probe(struct oracle *o, uint64_t addr, struct view *v);
/* Whether elf has a non-empty section .frame ("eh_frame", "debug_frame"). */
bool frame_present(Elf *elf, const char *frame);
/*
 * Open o->path, pick o->frame if not given, load the sections and the
 * CFI; dies on any error.
 */
void open_file(struct oracle *o);

#endif /* _KUNWIND_LIBDW_ORACLE_H */
