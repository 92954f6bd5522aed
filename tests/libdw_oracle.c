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
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SMALL_ROW	64	/* rows up to this size: every byte */
#define EDGE		16	/* else: first and last EDGE bytes ... */
#define SPREAD		32	/* ... and SPREAD evenly spaced ones */
#define GAP_SMALL	16
#define GAP_EDGE	4
#define GAP_SPREAD	8
#define MAX_REPORT	20	/* mismatches printed in full */

#define DW_REG_RBP	6
#define DW_REG_RSP	7
#define DW_REG_RIP	16

/* struct ucontext offsets of rbp, rsp, rip (as in unwind/format.h) */
#define UC_BP		120
#define UC_SP		160
#define UC_IP		168

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

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("libdw-oracle: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

static const char *reg_name(unsigned int r)
{
	static const char *const names[] = {
		"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip",
	};
	static char buf[16];

	if (r < sizeof(names) / sizeof(names[0]))
		return names[r];
	snprintf(buf, sizeof(buf), "reg%u", r);
	return buf;
}

/* Raw ops, for the "not representable" diagnostics. */
static void ops_str(char *buf, size_t len, const Dwarf_Op *ops, size_t nops)
{
	size_t i, n = 0;

	n += snprintf(buf + n, len - n, "[");
	for (i = 0; i < nops && n < len; i++)
		n += snprintf(buf + n, len - n, "%s0x%x %" PRId64 " %" PRId64,
			      i ? "; " : "", ops[i].atom,
			      (int64_t)ops[i].number, (int64_t)ops[i].number2);
	if (n < len)
		snprintf(buf + n, len - n, "]");
}

/* DW_OP_bregN / DW_OP_bregx: register and offset; false otherwise. */
static bool op_breg(const Dwarf_Op *op, unsigned int *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
		return true;
	}
	if (op->atom == DW_OP_bregx) {
		*reg = op->number;
		*off = (int64_t)op->number2;
		return true;
	}
	return false;
}

static bool op_lit(const Dwarf_Op *op, uint64_t *v)
{
	if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31) {
		*v = op->atom - DW_OP_lit0;
		return true;
	}
	if (op->atom == DW_OP_const1u || op->atom == DW_OP_const1s ||
	    op->atom == DW_OP_constu || op->atom == DW_OP_consts) {
		*v = op->number;
		return true;
	}
	return false;
}

/*
 * The PLT rule of binutils' .plt FDE:
 *   breg7 N; breg16 0; lit15; and; litK; ge; lit3; shl; plus
 * i.e. CFA = rsp + N + ((rip & 15) >= K ? 8 : 0).
 */
static bool cfa_is_plt(const Dwarf_Op *o, size_t n)
{
	unsigned int r;
	int64_t off;
	uint64_t v;

	return n == 9 && op_breg(&o[0], &r, &off) && r == DW_REG_RSP &&
	       op_breg(&o[1], &r, &off) && r == DW_REG_RIP && off == 0 &&
	       op_lit(&o[2], &v) && v == 15 && o[3].atom == DW_OP_and &&
	       op_lit(&o[4], &v) && v < 16 && o[5].atom == DW_OP_ge &&
	       op_lit(&o[6], &v) && v == 3 && o[7].atom == DW_OP_shl &&
	       o[8].atom == DW_OP_plus;
}

/*
 * A register rule, in the dump's words: `u` for undefined or same value,
 * `c+N` for "saved at CFA + N" (DW_OP_call_frame_cfa, then an optional
 * plus_uconst N or consts N; plus), `exp` for rsp-relative location
 * expressions whose offset matches ucontext slot uc_off of a signal frame
 * whose ucontext is at rsp + sig_off.  Returns whether it is one of these.
 */
static bool reg_str(Dwarf_Frame *fr, int regno, bool signal, int64_t sig_off,
		    int64_t uc_off, bool drap, char *buf, size_t len)
{
	Dwarf_Op mem[3], *o;
	size_t n;
	unsigned int r;
	int64_t off;

	if (dwarf_frame_register(fr, regno, mem, &o, &n) < 0) {
		snprintf(buf, len, "error(%s)", dwarf_errmsg(-1));
		return false;
	}
	if (n == 0) {
		snprintf(buf, len, "u");
		return true;
	}
	/* libdw pushes the CFA first for DW_CFA_expression rules */
	if (n >= 2 && o[0].atom == DW_OP_call_frame_cfa &&
	    op_breg(&o[1], &r, &off)) {
		o++;
		n--;
	}
	if (o[0].atom == DW_OP_call_frame_cfa) {
		off = 0;
		if (n == 2 && o[1].atom == DW_OP_plus_uconst)
			off = (int64_t)o[1].number;
		else if (n == 3 && op_lit(&o[1], (uint64_t *)&off) &&
			 o[2].atom == DW_OP_plus)
			;
		else if (n == 3 && op_lit(&o[1], (uint64_t *)&off) &&
			 o[2].atom == DW_OP_minus)
			off = -off;
		else if (n != 1)
			goto other;
		snprintf(buf, len, "c%+" PRId64, off);
		/* bp_off is an s16 and 0 means "unchanged" */
		return off != 0 && off >= INT16_MIN && off <= INT16_MAX;
	}
	if (drap && regno == DW_REG_RBP && n == 1 && op_breg(&o[0], &r, &off) &&
	    r == DW_REG_RBP && off == 0) {
		snprintf(buf, len, "*rbp");
		return true;
	}
	if (signal && n == 1 && op_breg(&o[0], &r, &off) &&
	    r == DW_REG_RSP && off == sig_off + uc_off) {
		snprintf(buf, len, "exp");
		return true;
	}
other:
	ops_str(buf, len, o, n);
	return false;
}

/* Ask libdw about addr (probing address space). */
static void probe(struct oracle *o, uint64_t addr, struct view *v)
{
	Dwarf_Frame *fr;
	Dwarf_Addr s, e;
	Dwarf_Op *ops;
	size_t n;
	unsigned int reg;
	int64_t off = 0, sig_off = 0;
	bool signal = false, drap = false, ok = true;
	int ra;

	memset(v, 0, sizeof(*v));
	if (dwarf_cfi_addrframe(o->cfi, addr - o->bias, &fr) != 0) {
		int err = dwarf_errno();

		/* DWARF_E_NO_MATCH is private to libdw: match its message */
		if (!strcmp(dwarf_errmsg(err), "no matching address range")) {
			v->found = 0;
		} else {
			v->found = -1;
			snprintf(v->cfa, sizeof(v->cfa), "error(%s)",
				 dwarf_errmsg(err));
		}
		return;
	}
	v->found = 1;
	ra = dwarf_frame_info(fr, &s, &e, NULL);
	v->lo = s + o->bias;
	v->hi = e + o->bias;

	if (dwarf_frame_cfa(fr, &ops, &n) != 0) {
		snprintf(v->cfa, sizeof(v->cfa), "error(%s)", dwarf_errmsg(-1));
		ok = false;
	} else if (n == 0) {
		snprintf(v->cfa, sizeof(v->cfa), "u");
	} else if (n == 1 && op_breg(&ops[0], &reg, &off)) {
		snprintf(v->cfa, sizeof(v->cfa), "%s%+" PRId64,
			 reg_name(reg), off);
		ok = (reg == DW_REG_RSP || reg == DW_REG_RBP) &&
		     off >= INT32_MIN && off <= INT32_MAX;
	} else if (cfa_is_plt(ops, n)) {
		snprintf(v->cfa, sizeof(v->cfa), "exp:plt");
	} else if (n == 2 && op_breg(&ops[0], &reg, &off) &&
		   reg == DW_REG_RSP && ops[1].atom == DW_OP_deref &&
		   off >= UC_SP) {
		/* CFA = *(rsp + off): the ucontext is at rsp + off - UC_SP */
		snprintf(v->cfa, sizeof(v->cfa), "exp:signal");
		signal = true;
		sig_off = off - UC_SP;
	} else if (n == 2 && op_breg(&ops[0], &reg, &off) &&
		   reg == DW_REG_RBP && ops[1].atom == DW_OP_deref &&
		   off >= INT32_MIN && off <= INT32_MAX) {
		snprintf(v->cfa, sizeof(v->cfa), "*(rbp%+" PRId64 ")", off);
		drap = true;
	} else {
		int k = snprintf(v->cfa, sizeof(v->cfa), "exp");

		ops_str(v->cfa + k, sizeof(v->cfa) - k, ops, n);
		ok = false;
	}

	ok &= reg_str(fr, DW_REG_RBP, signal, sig_off, UC_BP, drap,
		      v->rbp, sizeof(v->rbp));
	if (ra != DW_REG_RIP) {
		snprintf(v->ra, sizeof(v->ra), "ra-column-%d", ra);
		ok = false;
	} else {
		ok &= reg_str(fr, ra, signal, sig_off, UC_IP, false,
			      v->ra, sizeof(v->ra));
		/* the table knows one return-address slot: CFA - 8 */
		if (!signal && strcmp(v->ra, "u") && strcmp(v->ra, "c-8"))
			ok = false;
	}
	/* `exp` registers only come with a signal frame, and vice versa */
	if (signal && (strcmp(v->rbp, "exp") || strcmp(v->ra, "exp")))
		ok = false;
	v->repr = ok;
	free(fr);
}

/* --- opening the file ------------------------------------------------ */

static bool frame_present(Elf *elf, const char *frame)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr;
	char want[32];

	snprintf(want, sizeof(want), ".%s", frame);
	if (elf_getshdrstrndx(elf, &shstr) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstr, sh.sh_name);
		if (name && !strcmp(name, want) && sh.sh_type != SHT_NOBITS &&
		    sh.sh_size)
			return true;
	}
	return false;
}

/* The sections of elf, at sh_addr + bias. */
static void load_sections(struct oracle *o, Elf *elf, uint64_t bias)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr;

	if (elf_getshdrstrndx(elf, &shstr) != 0)
		die("%s: %s", o->path, elf_errmsg(-1));
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		struct sec *s;

		if (!gelf_getshdr(scn, &sh))
			die("%s: %s", o->path, elf_errmsg(-1));
		if (!(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		name = elf_strptr(elf, shstr, sh.sh_name);
		o->sec = xrealloc(o->sec, (o->nr_sec + 1) * sizeof(*o->sec));
		s = &o->sec[o->nr_sec++];
		s->name = strdup(name ? name : "?");
		s->addr = sh.sh_addr + bias;
		s->size = sh.sh_size;
		s->exec = sh.sh_flags & SHF_EXECINSTR;
	}
}

static char *debuginfo_path;
static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/*
 * libdwfl applies only "simple" (absolute) relocations: .debug_frame's
 * R_X86_64_64 ones, not the R_X86_64_PC32 ones of .eh_frame, whose FDEs
 * would all start at their own pc_begin field.  Apply those here, with
 * the addresses libdwfl assigned: the field becomes S + A - P, exactly as
 * a linker would write it.  This is relocation only; every CFI byte is
 * still read and interpreted by libdw.
 */
static void relocate_eh_frame(struct oracle *o, Elf *elf)
{
	Elf_Scn *scn = NULL, *eh = NULL, *rela = NULL, *symscn;
	GElf_Shdr sh, ehsh, rsh;
	Elf_Data *data, *rdata, *sdata;
	size_t shstr, i, n;

	if (elf_getshdrstrndx(elf, &shstr) != 0)
		die("%s: %s", o->path, elf_errmsg(-1));
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstr, sh.sh_name);
		if (name && !strcmp(name, ".eh_frame"))
			eh = scn;
	}
	if (!eh || !gelf_getshdr(eh, &ehsh))
		return;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA &&
		    sh.sh_info == elf_ndxscn(eh))
			rela = scn;
	if (!rela)
		return;
	gelf_getshdr(rela, &rsh);
	symscn = elf_getscn(elf, rsh.sh_link);
	data = elf_getdata(eh, NULL);
	rdata = elf_getdata(rela, NULL);
	sdata = symscn ? elf_getdata(symscn, NULL) : NULL;
	if (!data || !rdata || !sdata)
		die("%s: cannot read .eh_frame relocations: %s", o->path,
		    elf_errmsg(-1));
	n = rsh.sh_size / rsh.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		GElf_Shdr tsh;
		uint64_t S, P;
		int64_t v;
		int32_t v32;
		unsigned int type;

		if (!gelf_getrela(rdata, i, &r) ||
		    !gelf_getsym(sdata, GELF_R_SYM(r.r_info), &sym))
			die("%s: bad .rela.eh_frame entry %zu", o->path, i);
		type = GELF_R_TYPE(r.r_info);
		if (type != R_X86_64_PC32)
			continue;	/* absolute ones: libdwfl's job */
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
		    !gelf_getshdr(elf_getscn(elf, sym.st_shndx), &tsh))
			die("%s: .rela.eh_frame entry %zu: symbol not in a "
			    "section", o->path, i);
		S = tsh.sh_addr + sym.st_value;
		P = ehsh.sh_addr + r.r_offset;
		v = (int64_t)(S + r.r_addend - P);
		if (v != (int32_t)v || r.r_offset + 4 > data->d_size)
			die("%s: .rela.eh_frame entry %zu does not fit",
			    o->path, i);
		v32 = v;
		memcpy((char *)data->d_buf + r.r_offset, &v32, 4);
	}
}

/*
 * ET_REL: libdwfl assigns every SHF_ALLOC section a distinct address (it
 * rewrites sh_addr in its in-memory ELF), and dwfl_module_getelf applies
 * the absolute relocations; relocate_eh_frame() does the PC-relative ones.
 */
static void open_rel(struct oracle *o)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias, cbias;
	Elf *elf;

	o->dwfl = dwfl_begin(&offline_callbacks);
	if (!o->dwfl)
		die("dwfl_begin: %s", dwfl_errmsg(-1));
	mod = dwfl_report_offline(o->dwfl, o->path, o->path, -1);
	if (!mod)
		die("%s: dwfl_report_offline: %s", o->path, dwfl_errmsg(-1));
	if (dwfl_report_end(o->dwfl, NULL, NULL) != 0)
		die("%s: dwfl_report_end: %s", o->path, dwfl_errmsg(-1));
	elf = dwfl_module_getelf(mod, &bias);
	if (!elf)
		die("%s: dwfl_module_getelf: %s", o->path, dwfl_errmsg(-1));
	load_sections(o, elf, bias);
	if (!strcmp(o->frame, "eh_frame")) {
		relocate_eh_frame(o, elf);
		o->cfi = dwfl_module_eh_cfi(mod, &cbias);
	} else {
		o->cfi = dwfl_module_dwarf_cfi(mod, &cbias);
		if (!o->cfi) {
			/* no .debug_info: read .debug_frame of the relocated elf */
			o->dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
			o->cfi = o->dw ? dwarf_getcfi(o->dw) : NULL;
			cbias = bias;
		}
	}
	if (!o->cfi)
		die("%s: no CFI in .%s: %s", o->path, o->frame,
		    dwfl_errmsg(-1));
	o->bias = cbias;
}

static void open_file(struct oracle *o)
{
	GElf_Ehdr eh;

	elf_version(EV_CURRENT);
	o->fd = open(o->path, O_RDONLY);
	if (o->fd < 0)
		die("%s: %s", o->path, strerror(errno));
	o->elf = elf_begin(o->fd, ELF_C_READ_MMAP, NULL);
	if (!o->elf || !gelf_getehdr(o->elf, &eh))
		die("%s: not an ELF file: %s", o->path, elf_errmsg(-1));
	if (!o->frame)
		o->frame = frame_present(o->elf, "eh_frame") ? "eh_frame" :
			   "debug_frame";
	if (!frame_present(o->elf, o->frame))
		die("%s: no .%s section", o->path, o->frame);
	o->rel = eh.e_type == ET_REL;
	if (o->rel) {
		open_rel(o);
		return;
	}
	load_sections(o, o->elf, 0);
	if (!strcmp(o->frame, "eh_frame")) {
		o->cfi = dwarf_getcfi_elf(o->elf);
	} else {
		o->dw = dwarf_begin_elf(o->elf, DWARF_C_READ, NULL);
		o->cfi = o->dw ? dwarf_getcfi(o->dw) : NULL;
	}
	if (!o->cfi)
		die("%s: no CFI in .%s: %s", o->path, o->frame,
		    dwarf_errmsg(-1));
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
