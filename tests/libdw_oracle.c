// SPDX-License-Identifier: GPL-2.0
/*
 * libdw-oracle: check the rows of `kunwind-gen dump` against elfutils.
 *
 *   kunwind-gen dump [--frame F] FILE |
 *	libdw-oracle [--sample] [-v] FILE [--frame F]
 *   libdw-oracle --frames FILE      print the frame sections FILE has
 *
 * For each dump row `SECTION START END CFA RBP RA` it asks libdw
 * (dwarf_cfi_addrframe) for the frame at a set of addresses in
 * [START, END) and compares the three columns, written the way the dump
 * writes them.  It also probes the bytes of every executable section that
 * no dump row covers and expects libdw to find no FDE there either.
 *
 * Which addresses.  Every byte of every row and of every uncovered range
 * of an executable section: that is cheap (libc.so.6: 1.4 M addresses in
 * 1.0 s, libstdc++: 1.0 M in 0.6 s) and leaves no row boundary unchecked.
 * --sample bounds the work for huge inputs: a row of up to 64 bytes is
 * still probed at every address, a longer one at its first 16 and last 16
 * bytes (prologue and epilogue rows are short, and a boundary off by a few
 * bytes shows up there) and at 32 evenly spaced addresses in between; an
 * uncovered range at every byte up to 16 bytes, else at its first 4, last
 * 4 and 8 evenly spaced bytes (libc.so.6: 0.34 M addresses in 0.2 s).
 *
 * Relocatable files (.o, .ko) have all their text sections at offset 0,
 * so libdw alone cannot tell an FDE of .text from one of .text.unlikely.
 * libdwfl's offline reporting lays the sections out at distinct addresses
 * (it rewrites sh_addr in its in-memory ELF) and applies the absolute
 * relocations (.debug_frame); this file applies .eh_frame's PC-relative
 * ones, which libdwfl skips.  A dump row (SECTION, OFF) is then probed at
 * sh_addr(SECTION) + OFF.  A .o with .text and .text.unlikely both at 0
 * is the self-test of this (tests/libdw.test).
 *
 * What counts as agreement.  libdw's answer is rendered in the dump's
 * vocabulary: CFA `rsp+N`/`rbp+N`, `u` when it has no CFA rule,
 * `exp:plt` for the PLT expression, `exp:signal` for a CFA loaded from
 * the stack (glibc's __restore_rt), `*(rbp+N)` for a CFA loaded from
 * rbp + N (a realigned stack's, DW_OP_breg6 N; DW_OP_deref); a register
 * is `u` (undefined or same value), `c+N` (saved at CFA + N), in a signal
 * frame `exp`, and rbp with a `*(rbp+N)` CFA `*rbp` (saved at rbp itself:
 * DW_OP_breg6 0).  Anything
 * else (CFA on r10, rbp saved in a register, an unknown expression, an
 * offset that does not fit the table format, CFI libdw rejects as
 * invalid) is "not representable", and then the dump must say
 * `unsupported`.  Conversely a dump `unsupported`
 * where libdw's rule is representable is a mismatch: the generator lost a
 * rule the table could hold.
 *
 * -v also prints libdw's view of each row the dump calls unsupported.
 *
 * Exit status: 0 all agree, 1 any mismatch, 2 usage or I/O error.
 */
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libdw_oracle.h"

#define SMALL_ROW	64	/* rows up to this size: every byte */
#define EDGE		16	/* else: first and last EDGE bytes ... */
#define SPREAD		32	/* ... and SPREAD evenly spaced ones */
#define GAP_SMALL	16
#define GAP_EDGE	4
#define GAP_SPREAD	8
#define MAX_REPORT	20	/* mismatches printed in full */

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("libdw-oracle: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

/* --- the dump ------------------------------------------------------- */

/* addr in the dump's terms: section-relative for ET_REL */
static uint64_t dump_addr(const struct oracle *o, const struct sec *s,
			  uint64_t a)
{
	return o->rel ? a - s->addr : a;
}

static int find_sec(struct oracle *o, const char *name)
{
	int found = -1;
	size_t i;

	for (i = 0; i < o->nr_sec; i++) {
		if (strcmp(o->sec[i].name, name))
			continue;
		if (found >= 0)
			die("%s: section name %s is ambiguous: the dump cannot "
			    "say which one a row is in", o->path, name);
		found = i;
	}
	return found;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * Lines whose second field starts with "0x" are rows and must parse;
 * anything else (headers, summaries) is counted and ignored.
 */
static void read_dump(struct oracle *o, FILE *f)
{
	char line[512], sname[128], f2[32];
	unsigned int lineno = 0;
	size_t alloc = 0;

	while (fgets(line, sizeof(line), f)) {
		struct row *r;
		const struct sec *s;
		int si;
		char extra[8];

		lineno++;
		if (sscanf(line, "%127s %31s", sname, f2) != 2 ||
		    strncmp(f2, "0x", 2)) {
			o->other_lines++;
			continue;
		}
		if (o->nr_row == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			o->row = xrealloc(o->row, alloc * sizeof(*o->row));
		}
		r = &o->row[o->nr_row];
		if (sscanf(line, "%127s %" SCNx64 " %" SCNx64 " %39s %23s %23s %7s",
			   sname, &r->start, &r->end, r->cfa, r->rbp, r->ra,
			   extra) != 6 || r->start >= r->end)
			die("dump line %u: cannot parse: %s", lineno, line);
		si = find_sec(o, sname);
		if (si < 0)
			die("dump line %u: no section %s in %s", lineno, sname,
			    o->path);
		s = &o->sec[si];
		r->line = lineno;
		r->sec = si;
		r->lo = o->rel ? s->addr + r->start : r->start;
		r->hi = o->rel ? s->addr + r->end : r->end;
		if (r->lo < s->addr || r->hi > s->addr + s->size) {
			/* a wrong row, not a broken dump: count, don't probe */
			o->bad_rows++;
			if (o->reported++ < MAX_REPORT)
				printf("  outside: dump line %u: %s [0x%" PRIx64
				       ", 0x%" PRIx64 ") is not inside %s "
				       "[0x%" PRIx64 ", 0x%" PRIx64 ")\n",
				       lineno, sname, r->start, r->end, sname,
				       dump_addr(o, s, s->addr),
				       dump_addr(o, s, s->addr + s->size));
			continue;
		}
		o->nr_row++;
	}
	if (ferror(f))
		die("reading the dump: %s", strerror(errno));
	qsort(o->row, o->nr_row, sizeof(*o->row), row_cmp);
}

/* --- comparing ------------------------------------------------------ */

static void report(struct oracle *o, const struct row *r, uint64_t addr,
		   const struct view *v)
{
	const struct sec *s = &o->sec[r->sec];

	if (o->reported++ >= MAX_REPORT)
		return;
	printf("  mismatch %s 0x%" PRIx64 ": dump (line %u) %s 0x%" PRIx64
	       " 0x%" PRIx64 " %s %s %s; libdw ",
	       s->name, dump_addr(o, s, addr), r->line, s->name, r->start,
	       r->end, r->cfa, r->rbp, r->ra);
	if (v->found == 1)
		printf("[0x%" PRIx64 ", 0x%" PRIx64 ") %s %s %s%s\n",
		       dump_addr(o, s, v->lo), dump_addr(o, s, v->hi),
		       v->cfa, v->rbp, v->ra,
		       v->repr ? "" : " (not representable)");
	else if (v->found == 0)
		printf("finds no FDE\n");
	else
		printf("%s\n", v->cfa);
}

static bool agrees(const struct row *r, const struct view *v)
{
	/* libdw could not read the FDE: no rule to claim either */
	if (v->found == -1)
		return !strcmp(r->cfa, "unsupported");
	if (v->found != 1)
		return false;
	if (!strcmp(r->cfa, "unsupported"))
		return !v->repr;
	return v->repr && !strcmp(r->cfa, v->cfa) &&
	       !strcmp(r->rbp, v->rbp) && !strcmp(r->ra, v->ra);
}

/* Reports the first mismatching address of each row. */
static bool check_addr(struct oracle *o, const struct row *r, uint64_t addr,
		       bool ok)
{
	struct view v;

	probe(o, addr, &v);
	o->probes++;
	if (agrees(r, &v))
		return ok;
	o->bad_addrs++;
	if (ok)
		report(o, r, addr, &v);
	return false;
}

static void check_row(struct oracle *o, const struct row *r)
{
	uint64_t len = r->hi - r->lo, a, i;
	bool ok = true;

	if (!o->sample || len <= SMALL_ROW) {
		for (a = r->lo; a < r->hi; a++)
			ok = check_addr(o, r, a, ok);
	} else {
		for (i = 0; i < EDGE; i++)
			ok = check_addr(o, r, r->lo + i, ok);
		for (i = 0; i < SPREAD; i++)
			ok = check_addr(o, r, r->lo + EDGE + (len - 2 * EDGE) *
					(2 * i + 1) / (2 * SPREAD), ok);
		for (i = 0; i < EDGE; i++)
			ok = check_addr(o, r, r->hi - EDGE + i, ok);
	}
	o->rows_cmp++;
	if (!strcmp(r->cfa, "unsupported")) {
		o->unsupported++;
		if (o->verbose) {
			struct view v;

			probe(o, r->lo, &v);
			printf("  unsupported %s 0x%" PRIx64 " 0x%" PRIx64
			       ": libdw %s %s %s\n", o->sec[r->sec].name,
			       r->start, r->end, v.cfa, v.rbp, v.ra);
		}
	}
	if (!ok)
		o->bad_rows++;
}

/* Reports the first address of each gap where libdw finds an FDE. */
static bool gap_addr(struct oracle *o, const struct sec *s, uint64_t addr,
		     uint64_t glo, uint64_t ghi, bool ok)
{
	struct view v;

	probe(o, addr, &v);
	o->gap_probes++;
	if (v.found == 0)
		return ok;
	o->gap_fdes++;
	if (!ok || o->reported++ >= MAX_REPORT)
		return false;
	printf("  coverage %s 0x%" PRIx64 ": no dump row in [0x%" PRIx64
	       ", 0x%" PRIx64 "); libdw ", s->name, dump_addr(o, s, addr),
	       dump_addr(o, s, glo), dump_addr(o, s, ghi));
	if (v.found == 1)
		printf("[0x%" PRIx64 ", 0x%" PRIx64 ") %s %s %s\n",
		       dump_addr(o, s, v.lo), dump_addr(o, s, v.hi),
		       v.cfa, v.rbp, v.ra);
	else
		printf("%s\n", v.cfa);
	return false;
}

static void check_gap(struct oracle *o, const struct sec *s, uint64_t lo,
		      uint64_t hi)
{
	uint64_t len = hi - lo, a, i;
	bool ok = true;

	if (!o->sample || len <= GAP_SMALL) {
		for (a = lo; a < hi; a++)
			ok = gap_addr(o, s, a, lo, hi, ok);
	} else {
		for (i = 0; i < GAP_EDGE; i++)
			ok = gap_addr(o, s, lo + i, lo, hi, ok);
		for (i = 0; i < GAP_SPREAD; i++)
			ok = gap_addr(o, s, lo + GAP_EDGE + (len - 2 * GAP_EDGE) *
				      (2 * i + 1) / (2 * GAP_SPREAD), lo, hi, ok);
		for (i = 0; i < GAP_EDGE; i++)
			ok = gap_addr(o, s, hi - GAP_EDGE + i, lo, hi, ok);
	}
	if (!ok)
		o->bad_gaps++;
}

/* Every executable byte no row covers, and rows that overlap. */
static void check_coverage(struct oracle *o)
{
	size_t i, j;

	for (i = 0; i < o->nr_sec; i++) {
		const struct sec *s = &o->sec[i];
		uint64_t at = s->addr;

		if (!s->exec)
			continue;
		/* rows are sorted by lo; pick this section's */
		for (j = 0; j < o->nr_row; j++) {
			const struct row *r = &o->row[j];

			if (r->sec != i)
				continue;
			if (r->lo < at) {
				o->bad_rows++;
				if (o->reported++ < MAX_REPORT)
					printf("  overlap %s: dump line %u "
					       "starts at 0x%" PRIx64 " before "
					       "the previous row ends\n",
					       s->name, r->line, r->start);
			} else if (r->lo > at) {
				check_gap(o, s, at, r->lo);
			}
			if (r->hi > at)
				at = r->hi;
		}
		if (at < s->addr + s->size)
			check_gap(o, s, at, s->addr + s->size);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: kunwind-gen dump [--frame F] FILE | "
		"libdw-oracle [--sample] [-v] FILE [--frame eh_frame|debug_frame]\n"
		"       libdw-oracle --frames FILE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct oracle o = { .fd = -1 };
	bool list = false;
	size_t i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--frame") && a + 1 < argc)
			o.frame = argv[++a];
		else if (!strcmp(argv[a], "--sample"))
			o.sample = true;
		else if (!strcmp(argv[a], "-v"))
			o.verbose = true;
		else if (!strcmp(argv[a], "--frames"))
			list = true;
		else if (argv[a][0] == '-' || o.path)
			usage();
		else
			o.path = argv[a];
	}
	if (!o.path)
		usage();
	if (o.frame && strcmp(o.frame, "eh_frame") &&
	    strcmp(o.frame, "debug_frame"))
		usage();

	if (list) {
		elf_version(EV_CURRENT);
		o.fd = open(o.path, O_RDONLY);
		o.elf = o.fd < 0 ? NULL : elf_begin(o.fd, ELF_C_READ_MMAP, NULL);
		if (!o.elf)
			die("%s: cannot open as ELF", o.path);
		if (frame_present(o.elf, "eh_frame"))
			printf("eh_frame\n");
		if (frame_present(o.elf, "debug_frame"))
			printf("debug_frame\n");
		return 0;
	}

	open_file(&o);
	read_dump(&o, stdin);
	/* no rows is fine when libdw finds no FDE either (coverage) */
	for (i = 0; i < o.nr_row; i++)
		check_row(&o, &o.row[i]);
	check_coverage(&o);

	printf("%s .%s: %zu rows compared at %zu addresses, %zu unsupported; "
	       "%zu gap addresses probed; %zu mismatching rows (%zu addresses)"
	       ", %zu gaps where libdw finds an FDE (%zu addresses)\n",
	       o.path, o.frame, o.rows_cmp, o.probes, o.unsupported,
	       o.gap_probes, o.bad_rows, o.bad_addrs, o.bad_gaps, o.gap_fdes);
	if (o.other_lines)
		printf("  (%zu non-row lines in the dump ignored)\n",
		       o.other_lines);
	if (o.reported > MAX_REPORT)
		printf("  ... %zu more not shown\n", o.reported - MAX_REPORT);

	if (o.dwfl)
		dwfl_end(o.dwfl);
	if (o.dw)
		dwarf_end(o.dw);
	elf_end(o.elf);
	close(o.fd);
	return o.bad_rows || o.gap_fdes ? 1 : 0;
}
