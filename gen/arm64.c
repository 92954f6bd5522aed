// SPDX-License-Identifier: GPL-2.0
/*
 * arm64's kernel code without CFI: arch/arm64/kernel/entry.S has none, so
 * a walk out of an exception handler, off the IRQ stack or out of a new
 * thread's first function would find no row.  Its few call sites that a
 * walk returns through get their row here, from the symbols and the
 * instructions of vmlinux (as orc.c's thunks_apply() gives x86's
 * retpoline thunks theirs):
 *
 *   el<N><t|h>_<64|32>_<kind>   the vector's handler: kernel_entry saved
 *                               a struct pt_regs at sp, and "bl
 *                               el..._handler" calls the C handler with
 *                               it: that call's row is REGS sp+0 (the
 *                               interrupted pc, sp, x29 and x30; a
 *                               pt_regs saved at EL0 ends the stack)
 *   call_on_irq_stack           pushed a frame record on the task stack,
 *                               pointed x29 at it and moved sp to the IRQ
 *                               stack: its "blr" is CALL x29+16, x29 at
 *                               c-16 (back onto the task stack)
 *   __bad_stack                 a kernel stack overflow's: kernel_entry on
 *                               the overflow stack, then "bl
 *                               handle_bad_stack" with the pt_regs at sp:
 *                               REGS sp+0 too
 *   ret_from_fork               a new task's first frame: its calls end
 *                               the stack
 *   __primary_switched,         the boot CPU's and the others' first
 *   __secondary_switched        frames (head.S): their calls end it too
 *
 * And the patchable function entry (-fpatchable-function-entry=2, for
 * ftrace): GCC puts the NOPs (after a "bti c", with BTI) before the FDE's
 * first byte, so a function interrupted there would have no row.  Until
 * the FDE starts nothing has moved: the return address is in x30, sp is
 * the CFA (LR sp+0).  Patched by ftrace to "mov x9, x30; bl
 * ftrace_caller", that still holds for a stop on either instruction.
 * The same holds at the first instruction of any function, so a function
 * without CFI gets that row there, and over all of its body when none of
 * its instructions could move sp, change x29 or x30 or call
 * (keeps_frame(), decoded conservatively): arch/arm64/lib's memset,
 * memcpy, strlen... are such leaves.  Any other has no row past its
 * first instruction.
 *
 * A row covers the call instruction only: a walk looks a return address
 * up at ip - 1, inside the call.  Where the CFI has a row, it stays (the
 * rows here are added after the CFI's, and the table keeps the first).
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stages.h"

#define A64_INSN		4
#define A64_IS_BL(i)		(((i) & 0xfc000000u) == 0x94000000u)
#define A64_IS_BLR(i)		(((i) & 0xfffffc1fu) == 0xd63f0000u)

static const struct kunwind_rule regs_rule = {
	.type = KUNWIND_TYPE_REGS, .reg = KUNWIND_REG_SP,
};

static const struct kunwind_rule irq_stack_rule = {
	.type = KUNWIND_TYPE_CALL, .reg = KUNWIND_REG_BP, .cfa_off = 16,
	.bp_off = -16,
};

static const struct kunwind_rule end_rule = {
	.type = KUNWIND_TYPE_END, .reg = KUNWIND_REG_SP,
};

/* el1h_64_irq, el0t_32_sync...: the vectors' handlers (entry.S). */
static bool vector_handler(const char *name)
{
	return name[0] == 'e' && name[1] == 'l' &&
	       (name[2] == '0' || name[2] == '1') &&
	       (name[3] == 't' || name[3] == 'h') && name[4] == '_' &&
	       (!strncmp(name + 5, "64_", 3) || !strncmp(name + 5, "32_", 3)) &&
	       !strchr(name + 8, '.') && !strstr(name + 8, "handler");
}

/*
 * The rule of the calls in function name, which of its calls it is for
 * (bl, blr or both) and, for a bl, its target's name (target[0] '\0':
 * any); NULL for any other function.  A vector handler's bl is only the
 * one to <name>_handler: kernel_entry may call other code
 * (__swpan_entry_el1 with SW_TTBR0_PAN) before the pt_regs is whole.
 */
static const struct kunwind_rule *entry_rule(const char *name, bool *bl,
					     bool *blr, char *target,
					     size_t size)
{
	*bl = *blr = true;
	target[0] = '\0';
	if (vector_handler(name)) {
		*blr = false;
		if (snprintf(target, size, "%s_handler", name) >= (int)size)
			return NULL;
		return &regs_rule;
	}
	/* a stack overflow's: kernel_entry on the overflow stack */
	if (!strcmp(name, "__bad_stack")) {
		*blr = false;
		snprintf(target, size, "handle_bad_stack");
		return &regs_rule;
	}
	if (!strcmp(name, "call_on_irq_stack")) {
		*bl = false;
		return &irq_stack_rule;
	}
	if (!strcmp(name, "ret_from_fork") ||
	    !strcmp(name, "__primary_switched") ||
	    !strcmp(name, "__secondary_switched"))
		return &end_rule;
	return NULL;
}

/* nop, or a "bti"/"paciasp" hint: an instruction that moves nothing. */
static bool entry_pad(u32 insn)
{
	return insn == 0xd503201fu ||			/* nop */
	       (insn & 0xffffff3fu) == 0xd503241fu ||	/* bti, bti c/j/jc */
	       insn == 0xd503233fu;			/* paciasp */
}

/* The bytes rows cover, per section: sorted, disjoint, merged. */
struct span {
	unsigned int shndx;
	u64 start, end;
};

static struct span *spans_of(const struct cfi_rows *rows, size_t *nr)
{
	struct span *sp = malloc((rows->nr ? rows->nr : 1) * sizeof(*sp));
	size_t i, n = 0;

	if (!sp)
		return NULL;
	for (i = 0; i < rows->nr; i++) {	/* sorted by section, start */
		const struct cfi_row *r = &rows->row[i];

		if (n && sp[n - 1].shndx == r->shndx && r->start <= sp[n - 1].end) {
			if (r->end > sp[n - 1].end)
				sp[n - 1].end = r->end;
			continue;
		}
		sp[n++] = (struct span){ r->shndx, r->start, r->end };
	}
	*nr = n;
	return sp;
}

/* Is byte off of section shndx covered by one of the nr spans? */
static bool covered(const struct span *sp, size_t nr, unsigned int shndx,
		    u64 off)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {		/* the first span ending after off */
		size_t mid = lo + (hi - lo) / 2;

		if (sp[mid].shndx < shndx ||
		    (sp[mid].shndx == shndx && sp[mid].end <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && sp[lo].shndx == shndx && sp[lo].start <= off;
}

/* A general register field naming x29 or x30 (and with sp: also 31). */
static bool frame_reg(unsigned int r, bool sp)
{
	return r == 29 || r == 30 || (sp && r == 31);
}

/*
 * Could insn move sp, change x29 or x30, or call?  Conservatively yes
 * for:
 * - a call: bl, blr and the pointer-authenticated blraa/blrab(z);
 * - a hint but nop, the wait and barrier-like ones and bti (the pointer
 *   authentication hints sign or strip x30);
 * - a general register destination (bits 4:0) of x29 or x30, stores too;
 * - a load or store naming x29 or x30 in a register field it writes
 *   (Rt; a pair's and an exclusive's Rt2; an exclusive's, an atomic's or
 *   a memory copy's Rs) or as its base (writeback), or based on sp;
 *   SIMD&FP ones (bit 26) only by their base;
 * - add/sub (immediate, with tags, extended register) without S, a
 *   logical immediate but ANDS, IRG and an SVE/SME instruction whose Rd is
 *   31, which is sp there (with S, and for ANDS, the zero register: cmp,
 *   tst); msr to SPSel.
 */
static bool keeps_frame(u32 i)
{
	unsigned int rd = i & 0x1f, rn = (i >> 5) & 0x1f;

	if (A64_IS_BL(i) || A64_IS_BLR(i) ||
	    (i & 0xfefff800u) == 0xd63f0800u)		/* blraa/blrab(z) */
		return false;
	if ((i & 0xfffffc1fu) == 0xd65f0000u)		/* ret Xn */
		return true;
	if ((i & 0xfffff01fu) == 0xd503201fu) {		/* hint #imm */
		unsigned int crm_op2 = (i >> 5) & 0x7f;

		return crm_op2 <= 5 ||			/* nop yield wfe wfi sev sevl */
		       (crm_op2 >> 3) == 2 ||		/* esb psb tsb csdb */
		       (crm_op2 >> 3) == 4;		/* bti */
	}
	if ((i & 0x0a000000u) == 0x08000000u) {		/* loads and stores */
		/* exclusives and cas; pairs; ldadd, swp...; cpy, set (mops) */
		bool excl = (i & 0x3f000000u) == 0x08000000u;
		bool pair = (i & 0x3a000000u) == 0x28000000u;
		bool atomic = (i & 0x3b200c00u) == 0x38200000u;
		bool mops = (i & 0x3b200c00u) == 0x19000400u;

		if (frame_reg(rn, true))		/* the base */
			return false;
		if ((i & 0x04000000u) && !excl && !mops)	/* SIMD&FP */
			return true;
		return !frame_reg(rd, false) &&
		       !((pair || excl) && frame_reg((i >> 10) & 0x1f, false)) &&
		       !((excl || atomic || mops) && frame_reg((i >> 16) & 0x1f, false));
	}
	if (frame_reg(rd, false))
		return false;
	if ((i & 0x1f000000u) == 0x11000000u ||		/* add/sub (tags) imm */
	    (i & 0x1f200000u) == 0x0b200000u)		/* ... extended reg */
		return !(rd == 31 && !(i & 0x20000000u));
	if ((i & 0x1f800000u) == 0x12000000u)		/* logical immediate */
		return !(rd == 31 && ((i >> 29) & 3) != 3);
	if ((i & 0xffe0fc00u) == 0x9ac01000u ||		/* irg */
	    (i & 0xff000000u) == 0x04000000u)		/* sve: addvl, addpl */
		return rd != 31;
	if ((i & 0xffffffe0u) == 0xd5184200u ||		/* msr spsel, xN */
	    (i & 0xfffff0ffu) == 0xd50040bfu)		/* msr spsel, #imm */
		return false;
	return true;
}

/*
 * A function without CFI that saves a frame record, in straight-line
 * code from its entry (call_on_irq_stack()): what is known of sp, x29
 * and the return address at each instruction, by simulating the few
 * instructions that move them; the first one not modelled, or any branch
 * but a call (after which the state is the same) and ret, ends it.
 */
struct a64_frame {
	bool sp_known, fp_known, saved;	/* saved: the record at CFA - rec */
	s64 sp_cfa, fp_cfa, rec;	/* CFA - sp, CFA - x29 */
};

#define A64_STP_FP_LR_PRE	0xa9807bfdu	/* stp x29, x30, [sp, #i]! */
#define A64_LDP_FP_LR_POST	0xa8c07bfdu	/* ldp x29, x30, [sp], #i */
#define A64_PAIR_MASK		0xffc07fffu
#define A64_MOV_FP_SP		0x910003fdu	/* mov x29, sp */
#define A64_MOV_SP_FP		0x910003bfu	/* mov sp, x29 */

/*
 * The rule of state f; false if none can say it, or if an offset is out
 * of the format's range (cfa_off s32, bp_off s16) or the CFA below sp.
 */
static bool frame_rule(const struct a64_frame *f, struct kunwind_rule *r)
{
	memset(r, 0, sizeof(*r));
	if ((f->sp_known && (f->sp_cfa < 0 || f->sp_cfa > INT32_MAX)) ||
	    (f->fp_known && (f->fp_cfa < 0 || f->fp_cfa > INT32_MAX)) ||
	    (f->saved && (f->rec < 16 || f->rec > INT16_MAX)))
		return false;
	if (f->saved && f->fp_known) {
		*r = (struct kunwind_rule){ .type = KUNWIND_TYPE_CALL,
			.reg = KUNWIND_REG_BP, .cfa_off = f->fp_cfa,
			.bp_off = -f->rec };
	} else if (f->saved && f->sp_known) {
		*r = (struct kunwind_rule){ .type = KUNWIND_TYPE_CALL,
			.reg = KUNWIND_REG_SP, .cfa_off = f->sp_cfa,
			.bp_off = -f->rec };
	} else if (!f->saved && f->sp_known) {
		*r = (struct kunwind_rule){ .type = KUNWIND_TYPE_LR,
			.reg = KUNWIND_REG_SP, .cfa_off = f->sp_cfa };
	} else {
		return false;
	}
	return true;
}

/* f after insn i; false where the simulation must end. */
static bool frame_step(struct a64_frame *f, u32 i)
{
	s64 imm = (s64)((u64)((i >> 15) & 0x7f) << 57) >> 54;	/* imm7 * 8 */

	if ((i & A64_PAIR_MASK) == A64_STP_FP_LR_PRE) {
		if (!f->sp_known || f->saved || imm >= 0)
			return false;
		f->sp_cfa -= imm;
		f->saved = true;
		f->rec = f->sp_cfa;
		return true;
	}
	if ((i & A64_PAIR_MASK) == A64_LDP_FP_LR_POST) {
		if (!f->sp_known || !f->saved || f->sp_cfa != f->rec || imm <= 0)
			return false;
		f->sp_cfa -= imm;
		f->saved = false;
		f->fp_known = false;
		return true;
	}
	if (i == A64_MOV_FP_SP) {
		f->fp_known = f->sp_known;
		f->fp_cfa = f->sp_cfa;
		return f->sp_known;
	}
	if (i == A64_MOV_SP_FP) {
		f->sp_known = f->fp_known;
		f->sp_cfa = f->fp_cfa;
		return true;
	}
	/* add/sub immediate, no S, into sp: from sp, or sp unknown after */
	if ((i & 0x1f80001fu) == 0x1100001fu && !(i & 0x20000000u)) {
		u64 v = ((i >> 10) & 0xfff) << ((i >> 22) & 1 ? 12 : 0);

		if (((i >> 5) & 0x1f) != 31) {
			f->sp_known = false;
			return true;
		}
		f->sp_cfa += (i & 0x40000000u) ? (s64)v : -(s64)v;
		return true;
	}
	if (A64_IS_BL(i) || A64_IS_BLR(i))	/* x30 clobbered: saved? */
		return f->saved;
	/* other branches: b, b.cond, cbz, tbz, br, ret... end it */
	if ((i & 0x7c000000u) == 0x14000000u || (i & 0xff000010u) == 0x54000000u ||
	    (i & 0x7e000000u) == 0x34000000u || (i & 0x7e000000u) == 0x36000000u ||
	    (i & 0xfe000000u) == 0xd6000000u)
		return false;
	return keeps_frame(i);
}

/*
 * Rows over function s from off, if all of it is straight-line code: no
 * branch but calls, its state known (frame_step()) at every instruction
 * up to its ret; one row an instruction, where no row is yet.  Only
 * then is every instruction reached from the entry alone, in the state
 * simulated.  Returns how many rows, 0 for none, or -1.
 */
static int frame_rows(struct cfi_rows *rows, const struct span *sp, size_t nr,
		      const struct kelf_sym *s, const struct ksec *sec, u64 off,
		      u64 fn_end)
{
	struct a64_frame f;
	struct kunwind_rule r;
	int pass, n = 0;
	u64 at;
	u32 insn;

	for (pass = 0; pass < 2; pass++) {	/* check, then add */
		f = (struct a64_frame){ .sp_known = true };
		for (at = off;; at += A64_INSN) {
			if (at >= fn_end || at + A64_INSN > sec->size ||
			    !frame_rule(&f, &r))
				return 0;
			if (pass && !covered(sp, nr, s->shndx, at)) {
				if (cfi_rows_add(rows, s->shndx, at,
						 at + A64_INSN, &r))
					return -1;
				n++;
			}
			memcpy(&insn, sec->data + at, sizeof(insn));
			if (insn == 0xd65f03c0u)	/* ret: the end */
				break;
			if (!frame_step(&f, insn))
				return 0;
		}
		if (at + A64_INSN != fn_end)	/* code past the ret */
			return 0;
	}
	return n;
}

/*
 * Rows for the entry pads of function s: from its first byte to the first
 * one a row covers, if every instruction before it is a pad (at most 4);
 * for a function no row covers, its first instruction, or all of it
 * where none of its instructions moves sp, changes x29 or x30 or calls
 * (keeps_frame(): arch/arm64/lib's memcpy, memset, strlen...): a leaf
 * whose return address is in x30 throughout.
 */
static int pad_rows(struct cfi_rows *rows, const struct span *sp, size_t nr,
		    const struct kelf_sym *s, const struct ksec *sec, u64 off,
		    u64 fn_end, struct cfi_stats *st)
{
	static const struct kunwind_rule lr = {
		.type = KUNWIND_TYPE_LR, .reg = KUNWIND_REG_SP,
	};
	u64 end;
	u32 insn;
	int n;

	if (covered(sp, nr, s->shndx, off))
		return 0;
	for (end = off; end < fn_end && end + A64_INSN <= sec->size; end += A64_INSN) {
		memcpy(&insn, sec->data + end, sizeof(insn));
		if (covered(sp, nr, s->shndx, end) || !keeps_frame(insn))
			break;
	}
	if (end > off && end == fn_end) {		/* a whole leaf */
		if (cfi_rows_add(rows, s->shndx, off, end, &lr))
			return -1;
		if (st)
			st->arch_rows++;
		return 0;
	}
	/*
	 * A frame record saved in straight-line code: its rows.  Not where
	 * the scan above met a row (the CFI of a function after its entry
	 * pads: the pads' rows below).
	 */
	n = covered(sp, nr, s->shndx, end) ? 0 :
	    frame_rows(rows, sp, nr, s, sec, off, fn_end);
	if (n < 0)
		return -1;
	if (n) {
		if (st)
			st->arch_rows += n;
		return 0;
	}
	end = off;
	while (end - off < 4 * A64_INSN && end + A64_INSN <= sec->size &&
	       !covered(sp, nr, s->shndx, end)) {
		memcpy(&insn, sec->data + end, sizeof(insn));
		if (!entry_pad(insn))
			break;
		end += A64_INSN;
	}
	/* the pads up to the CFI's first row; else the first instruction */
	if (end == off || !covered(sp, nr, s->shndx, end))
		end = off + A64_INSN;
	if (cfi_rows_add(rows, s->shndx, off, end, &lr))
		return -1;
	if (st)
		st->arch_rows++;
	return 0;
}

/* Symbol i as a function in text: its section and offset range there. */
static bool text_sym(struct kelf *e, size_t i, struct kelf_sym *s,
		     const struct ksec **sec, u64 *off, u64 *end)
{
	if (!kelf_sym(e, i, s) || !s->name || s->type == STT_SECTION)
		return false;
	*sec = kelf_sec(e, s->shndx);
	if (!*sec || !(*sec)->data || !((*sec)->flags & SHF_EXECINSTR))
		return false;
	*off = s->value - (kelf_type(e) == ET_REL ? 0 : (*sec)->addr);
	*end = *off + s->size;
	return *off < (*sec)->size && *end <= (*sec)->size && !(*off % A64_INSN);
}

/* The rows of function s's calls (entry_rule()); vmlinux only. */
static int call_rows(struct kelf *e, struct cfi_rows *rows,
		     const struct kelf_sym *s, const struct ksec *sec,
		     u64 off, u64 end, struct cfi_stats *st)
{
	const struct kunwind_rule *r;
	struct kelf_sym h;
	char name[128];
	bool bl, blr, to_handler;
	u64 handler = 0, target;
	u32 insn;

	r = entry_rule(s->name, &bl, &blr, name, sizeof(name));
	if (!r || kelf_type(e) == ET_REL)
		return 0;
	to_handler = name[0];
	if (to_handler) {
		if (!kelf_sym_by_name(e, name, &h))
			return 0;
		handler = h.value;
	}
	for (; off < end; off += A64_INSN) {
		memcpy(&insn, sec->data + off, sizeof(insn));
		if (!(bl && A64_IS_BL(insn)) && !(blr && A64_IS_BLR(insn)))
			continue;
		/* bl's target: pc + imm26 * 4, imm26 signed */
		target = sec->addr + off +
			 (u64)((s64)((u64)(insn & 0x3ffffffu) << 38) >> 36);
		if (to_handler && target != handler)
			continue;
		if (cfi_rows_add(rows, s->shndx, off, off + A64_INSN, r))
			return -1;
		if (st)
			st->arch_rows++;
	}
	return 0;
}

/*
 * The call rows first, then the pads: where a function's first
 * instruction is a call (ret_from_fork's bl), its rule is the call's (the
 * table keeps the first of two rows at one address).  The pads look at
 * the rows before them, CFI and calls.
 */
int arm64_entry_apply(struct kelf *e, struct cfi_rows *rows,
		      struct cfi_stats *st)
{
	size_t i, nr, nr_syms = kelf_nr_syms(e);
	const struct ksec *sec;
	struct kelf_sym s;
	struct span *sp;
	u64 off, end;
	int err = 0;

	if (kelf_arch(e) != &kgen_arch_arm64)
		return 0;
	for (i = 0; i < nr_syms && !err; i++)
		if (text_sym(e, i, &s, &sec, &off, &end))
			err = call_rows(e, rows, &s, sec, off, end, st);
	if (err)
		return -1;
	cfi_rows_sort(rows);
	sp = spans_of(rows, &nr);
	if (!sp)
		return -1;
	for (i = 0; i < nr_syms && !err; i++)
		if (text_sym(e, i, &s, &sec, &off, &end) && s.type == STT_FUNC)
			err = pad_rows(rows, sp, nr, &s, sec, off, end, st);
	free(sp);
	return err;
}
