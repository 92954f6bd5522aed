// SPDX-License-Identifier: GPL-2.0
/*
 * libdw-oracle's libdw side: open the file as libdw (linked files) or
 * libdwfl's offline reporting (relocatable ones, with .eh_frame's
 * PC-relative relocations applied here) see it, and render libdw's frame
 * at an address in the dump's words (libdw_oracle.c says which words and
 * what counts as agreement).
 */
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libdw_oracle.h"

#define DW_REG_RBP	6
#define DW_REG_RSP	7
#define DW_REG_RIP	16

/* struct ucontext offsets of rbp, rsp, rip (as in unwind/format.h) */
#define UC_BP		120
#define UC_SP		160
#define UC_IP		168

/* --- libdw's answer, in the dump's words ------------------------------ */

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

void probe(struct oracle *o, uint64_t addr, struct view *v)
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

bool frame_present(Elf *elf, const char *frame)
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

void open_file(struct oracle *o)
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
