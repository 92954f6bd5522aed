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
 * without CFI (arch/arm64/lib's memset, memmove...) gets that row there:
 * a stop in its body still has none.
 *
 * A row covers the call instruction only: a walk looks a return address
 * up at ip - 1, inside the call.  Where the CFI has a row, it stays (the
 * rows here are added after the CFI's, and the table keeps the first).
 */
#include <elf.h>
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
 * (bl, blr or both); NULL for any other function.
 */
static const struct kunwind_rule *entry_rule(const char *name, bool *bl,
					     bool *blr)
{
	*bl = *blr = true;
	if (vector_handler(name)) {
		*blr = false;
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

/* Is byte off of section shndx in a row?  rows sorted (cfi_rows_sort()). */
static bool covered(const struct cfi_rows *rows, unsigned int shndx, u64 off)
{
	size_t lo = 0, hi = rows->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cfi_row *r = &rows->row[mid];

		if (r->shndx < shndx || (r->shndx == shndx && r->end <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rows->nr && rows->row[lo].shndx == shndx &&
	       rows->row[lo].start <= off;
}

/*
 * Rows for the entry pads of function s: from its first byte to the first
 * one a row covers, if every instruction before it is a pad (at most 4);
 * for a function no row covers, its first instruction.
 */
static int pad_rows(struct kelf *e, struct cfi_rows *rows, size_t nr,
		    const struct kelf_sym *s, const struct ksec *sec, u64 off,
		    struct cfi_stats *st)
{
	static const struct kunwind_rule lr = {
		.type = KUNWIND_TYPE_LR, .reg = KUNWIND_REG_SP,
	};
	struct cfi_rows cfi = { rows->row, nr, nr };
	u64 end = off;
	u32 insn;

	if (covered(&cfi, s->shndx, off))
		return 0;
	while (end - off < 4 * A64_INSN && end + A64_INSN <= sec->size &&
	       !covered(&cfi, s->shndx, end)) {
		memcpy(&insn, sec->data + end, sizeof(insn));
		if (!entry_pad(insn))
			break;
		end += A64_INSN;
	}
	/* the pads up to the CFI's first row; else the first instruction */
	if (end == off || !covered(&cfi, s->shndx, end))
		end = off + A64_INSN;
	if (cfi_rows_add(rows, s->shndx, off, end, &lr))
		return -1;
	if (st)
		st->arch_rows++;
	return 0;
}

int arm64_entry_apply(struct kelf *e, struct cfi_rows *rows,
		      struct cfi_stats *st)
{
	size_t i, nr, nr_syms = kelf_nr_syms(e);
	const struct kunwind_rule *r;
	const struct ksec *sec;
	struct kelf_sym s;
	bool bl, blr;
	u64 off, end;
	u32 insn;

	if (kelf_arch(e) != &kgen_arch_arm64)
		return 0;
	cfi_rows_sort(rows);
	nr = rows->nr;		/* the pads look at the CFI's rows only */
	for (i = 0; i < nr_syms; i++) {
		if (!kelf_sym(e, i, &s) || !s.name || s.type == STT_SECTION)
			continue;
		sec = kelf_sec(e, s.shndx);
		if (!sec || !sec->data || !(sec->flags & SHF_EXECINSTR))
			continue;
		off = s.value - (kelf_type(e) == ET_REL ? 0 : sec->addr);
		end = off + s.size;
		if (off >= sec->size || end > sec->size || off % A64_INSN)
			continue;
		if (s.type == STT_FUNC &&
		    pad_rows(e, rows, nr, &s, sec, off, st))
			return -1;
		r = entry_rule(s.name, &bl, &blr);
		if (!r)
			continue;
		for (; off < end; off += A64_INSN) {
			memcpy(&insn, sec->data + off, sizeof(insn));
			if (!(bl && A64_IS_BL(insn)) && !(blr && A64_IS_BLR(insn)))
				continue;
			if (cfi_rows_add(rows, s.shndx, off, off + A64_INSN, r))
				return -1;
			if (st)
				st->arch_rows++;
		}
	}
	return 0;
}
