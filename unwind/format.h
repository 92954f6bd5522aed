/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind table format, version 2.
 *
 * One table describes the text of one object (vmlinux, a module, a shared
 * library).  It is position independent: all offsets are from the start of
 * the table, and the only absolute values are the segment bases, which the
 * producer emits as relocations (R_X86_64_64 against the text section) so
 * that the kernel's module loader, or a host loader adding a load bias,
 * places them.
 *
 * This header holds no code.  It is shared by the generator (gen/), the
 * walker (unwind/), the kernel glue and the gdb helpers, which parse the
 * #defines below; keep every value a plain literal.
 *
 *   struct kunwind_hdr                    magic, version, sizes
 *   struct kunwind_seg   [nr_segs]        one per text section
 *   struct kunwind_rule  [nr_rules]       deduplicated unwind rules
 *   u32 super[]  u16 bucket[]  rows[]     per segment, see below
 *   struct kunwind_esc   [nr_esc]         per segment, see below
 *   char strings[]                        section names
 *
 * Rows.  A segment covers [base, base + size).  Its text is cut into
 * buckets of KUNWIND_BUCKET_SIZE bytes.  Each row says "from this byte on,
 * use rule R"; it is KUNWIND_ROW_SIZE bytes: the row's offset inside its
 * bucket, then R's byte.  Rows are sorted and cover the whole segment:
 * bytes that no FDE, assembly hint or ORC entry describes (gen/ takes rows
 * from all three) are covered by a row whose rule is KUNWIND_RULE_NONE, so
 * gaps stay gaps.
 *
 * Rule bytes.  A byte below KUNWIND_RULE_ESCAPE is the rule's index.  The
 * byte KUNWIND_RULE_ESCAPE says the rule is in the segment's escape list:
 * one struct kunwind_esc per such row, sorted by row index, found by a
 * binary search.  Only rules KUNWIND_RULE_ESCAPE and above are escaped, so
 * a table of at most 255 rules has no escapes.  The generator numbers
 * rules by how many rows use them, most used first: the 6.12 test
 * kernel's vmlinux has 294 rules, and the 39 escaped ones are used by one
 * row each of 95,967 (kunwind-gen stats: escaped_rows); a 16-bit index in
 * every row, format version 1, made its table 39 % bigger.
 *
 * The rows starting in bucket b are [first(b), first(b + 1)), where
 * first(b) = super[b >> 8] + bucket[b].  A 16-bit bucket entry is relative
 * to its 64 KiB super-block, so it cannot overflow (at most 255 * 256 rows
 * precede the last bucket of a super-block).  If no row starts at or
 * before the address inside its bucket, the address belongs to the row
 * before first(b), which starts in an earlier bucket.
 *
 * A lookup reads bucket[b], bucket[b + 1] (one cache line) and the few
 * rows of one bucket (one cache line); the super-blocks (4 bytes per 64
 * KiB of text) and the rule dictionary (8 bytes a rule) are small enough
 * to stay cache resident.  An escaped row costs a search of the escape
 * list on top, a few lines for a rare rule.
 *
 * The ip - 1 rule is the walker's, not the table's: a table maps exact
 * addresses.  The walker looks up ip - 1 for return addresses (a call to
 * a no-return function may be a function's last instruction, so its
 * return address is the first byte of the next function) and the exact ip
 * for the first frame and for a frame interrupted by a register or signal
 * frame.
 */
#ifndef _KUNWIND_FORMAT_H
#define _KUNWIND_FORMAT_H

#define KUNWIND_MAGIC		0x574e554b	/* "KUNW" little endian */
#define KUNWIND_VERSION		2

#define KUNWIND_BUCKET_SHIFT	8		/* 256 text bytes per bucket */
#define KUNWIND_BUCKET_SIZE	256
#define KUNWIND_SUPER_SHIFT	16		/* 64 KiB text per super-block */
#define KUNWIND_BUCKETS_PER_SUPER 256

/* Rule 0 of every table: no unwind information here (a gap). */
#define KUNWIND_RULE_NONE	0
/* A row's rule byte: the rule is in the segment's escape list. */
#define KUNWIND_RULE_ESCAPE	255
#define KUNWIND_ROW_SIZE	2		/* offset in bucket, rule byte */

/*
 * Rule types.  For CALL the CFA (the caller's sp) is reg + cfa_off, the
 * caller's frame pointer (x86: rbp, arm64: x29) is at CFA + bp_off
 * (bp_off 0: unchanged) and the return address is where a call leaves
 * it: x86, at CFA - 8; arm64, in the frame record after the saved x29, at
 * CFA + bp_off + 8 (bp_off is never 0).  For REGS, IRET and SIGNAL,
 * reg + cfa_off is the address of a saved register block whose ip, sp and
 * bp are read at the ABI's fixed offsets (KUNWIND_PT_REGS_*,
 * KUNWIND_IRET_*, KUNWIND_UC_* in arch-x86.h, arch-arm64.h); the next
 * frame's ip is then exact.  LR (arm64): CFA = reg + cfa_off, the return
 * address still in the link register x30, which the walk knows only for
 * a frame whose registers it was given (the first, or one a register
 * block restored).
 *
 * Which types and registers a table may use depends on its architecture
 * (hdr.flags): x86-64 has no LR, arm64 only NONE, CALL (on SP or BP),
 * REGS, END, UNDEFINED, UNSUPPORTED and LR.
 */
#define KUNWIND_TYPE_NONE	0	/* no information (gap) */
#define KUNWIND_TYPE_CALL	1	/* ordinary frame */
#define KUNWIND_TYPE_REGS	2	/* kernel struct pt_regs at base */
#define KUNWIND_TYPE_IRET	3	/* hardware iret frame at base */
#define KUNWIND_TYPE_SIGNAL	4	/* user struct ucontext at base (__restore_rt) */
#define KUNWIND_TYPE_END	5	/* end of stack: the walk is complete */
#define KUNWIND_TYPE_UNDEFINED	6	/* described, but no CFA rule (or an UNDEFINED hint) */
#define KUNWIND_TYPE_UNSUPPORTED 7	/* CFI the table cannot represent */
#define KUNWIND_TYPE_PLT	8	/* CFA = rsp + cfa_off + ((ip & 15) >= reg ? 8 : 0) */
#define KUNWIND_TYPE_LR		9	/* arm64: return address in x30 */
#define KUNWIND_TYPE_MAX	9

/*
 * CFA base registers: x86-64's DWARF numbers, which name the same roles
 * on arm64 (BP: x29, the frame pointer; SP: sp).
 */
#define KUNWIND_REG_BP		6
#define KUNWIND_REG_SP		7
/*
 * A stack switch (ORC's SP_INDIRECT): the previous stack pointer was saved
 * at [rsp], so CFA = *(rsp) + cfa_off.  CALL rules only: from
 * KUNWIND_HINT_STACK_SWITCH, or from an ORC CALL entry on SP_INDIRECT.
 */
#define KUNWIND_REG_SP_INDIRECT	0x87
/*
 * A realigned stack (GCC's DRAP frame: lea 8(%rsp),%r10 or %r13; and
 * $-16,%rsp; push -8(%r10); push %rbp; mov %rsp,%rbp; push %r10): in its
 * body the CFA was saved on the stack, CFA = *(rbp + cfa_off) (DWARF:
 * DW_CFA_def_cfa_expression DW_OP_breg6 cfa_off; DW_OP_deref), and the
 * caller's rbp is at rbp itself (DW_CFA_expression rbp: DW_OP_breg6 0),
 * not at an offset of the CFA: bp_off is 0 and means that.  ORC says the
 * same with BP_INDIRECT.  CALL rules only.
 */
#define KUNWIND_REG_BP_INDIRECT	0x86

/*
 * Assembly hints (unwind/linux/kunwind_asm.h) for what DWARF CFI cannot say
 * well.  Each is a struct kunwind_hint in section KUNWIND_HINT_SECTION of
 * the object; the generator reads them and the module link discards the
 * section.  A hint sets the rule from its address up to the next CFI row
 * boundary, the next hint or the end of the FDE, whichever comes first (or
 * up to the end of its symbol if no FDE covers it).
 */
#define KUNWIND_HINT_SECTION	".discard.kunwind_hints"
#define KUNWIND_HINT_TYPE_REGS	KUNWIND_TYPE_REGS	/* pt_regs at rsp + off */
#define KUNWIND_HINT_TYPE_IRET	KUNWIND_TYPE_IRET	/* iret frame at rsp + off */
#define KUNWIND_HINT_TYPE_END	KUNWIND_TYPE_END	/* end of stack */
#define KUNWIND_HINT_TYPE_UNDEFINED KUNWIND_TYPE_UNDEFINED /* not unwindable */
#define KUNWIND_HINT_TYPE_CALL	KUNWIND_TYPE_CALL	/* CFA = rsp + off, bp unchanged */
#define KUNWIND_HINT_TYPE_STACK_SWITCH 16		/* CFA = *(rsp) + off */
#define KUNWIND_HINT_SIZE	8

/*
 * hdr.flags: the architecture of the code the table describes, in its low
 * four bits (x86-64 is 0, so tables from before arm64 keep their meaning);
 * the other bits are 0.  A walker walks its own architecture's tables
 * only (KUNWIND_BAD_ARCH).
 */
#define KUNWIND_FLAG_ARCH_MASK	0xf
/*
 * arm64's frame record, {x29, x30}: a CALL rule's lies wholly below its
 * CFA (bp_off <= -16), an LR rule's saved x29 below it (bp_off <= -8),
 * as in any frame GCC makes; the walker's bounds rely on it.
 */
#define KUNWIND_FRAME_RECORD_SIZE 16
#define KUNWIND_ARCH_ID_X86_64	0
#define KUNWIND_ARCH_ID_ARM64	1

#define KUNWIND_HDR_SIZE	24
#define KUNWIND_SEG_SIZE	40
#define KUNWIND_RULE_SIZE	8
#define KUNWIND_ESC_SIZE	8

/*
 * The structs use the fixed-width names the includer provides (u8 ... s32,
 * from unwind/env.h or <linux/types.h>) and are naturally aligned, so they
 * need no packing.  All fields are little endian.
 */
#ifndef KUNWIND_FORMAT_DEFINES_ONLY

struct kunwind_hdr {
	u32 magic;		/* KUNWIND_MAGIC */
	u16 version;		/* KUNWIND_VERSION */
	u16 flags;		/* KUNWIND_FLAG_*: the architecture */
	u32 size;		/* bytes of the whole table */
	u16 nr_segs;
	u16 nr_rules;
	u32 rules;		/* offset of struct kunwind_rule[nr_rules] */
	u32 strings;		/* offset of the NUL-terminated section names */
};

struct kunwind_seg {
	u64 base;		/* address of the segment's first byte (relocated) */
	u32 size;		/* text bytes covered */
	u32 name;		/* section name, offset into strings */
	u32 super;		/* offset of u32[(nr_buckets >> 8) + 1] */
	u32 bucket;		/* offset of u16[nr_buckets + 1] */
	u32 rows;		/* offset of the rows, KUNWIND_ROW_SIZE bytes each */
	u32 nr_rows;
	u32 esc;		/* offset of struct kunwind_esc[nr_esc] */
	u32 nr_esc;		/* rows whose rule byte is KUNWIND_RULE_ESCAPE */
};

struct kunwind_rule {
	s32 cfa_off;		/* CFA (or register block) = reg + cfa_off */
	s16 bp_off;		/* caller's rbp at CFA + bp_off; 0: unchanged */
	u8 type;		/* KUNWIND_TYPE_* */
	u8 reg;			/* KUNWIND_REG_*; PLT: the (ip & 15) threshold */
};

/*
 * The rule of an escaped row: one for each row of the segment whose rule
 * byte is KUNWIND_RULE_ESCAPE, sorted by row, rule at least
 * KUNWIND_RULE_ESCAPE.
 */
struct kunwind_esc {
	u32 row;		/* index in the segment's rows */
	u32 rule;		/* index in the rule dictionary */
};

/* In KUNWIND_HINT_SECTION; ip is PC-relative (.long 1b - .). */
struct kunwind_hint {
	s32 ip;
	s16 off;		/* the rule's offset, see KUNWIND_HINT_TYPE_* */
	u8 type;		/* KUNWIND_HINT_TYPE_* */
	u8 reserved;
};

#endif /* KUNWIND_FORMAT_DEFINES_ONLY */
#endif /* _KUNWIND_FORMAT_H */
