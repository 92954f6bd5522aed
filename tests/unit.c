// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the freestanding core on synthetic tables and stacks:
 * the lookup (every byte of a segment against the rows it was built from),
 * the table checker (corrupt tables refused), and the walker (every stop
 * reason, the ip - 1 rule, register and signal frames, the rbp fallback).
 */
#include <stdlib.h>
#include <string.h>
#include "../gen/gen.h"

static int failed, passed;

#define CHECK(name, cond, ...) do {					\
	if (cond) {							\
		printf("ok %s\n", name);				\
		passed++;						\
	} else {							\
		printf("not ok %s: ", name);				\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		failed++;						\
	}								\
} while (0)

static struct kunwind_rule call(int reg, int cfa, int bp)
{
	return (struct kunwind_rule){ .type = KUNWIND_TYPE_CALL, .reg = reg,
				      .cfa_off = cfa, .bp_off = bp };
}

static struct kunwind_rule typed(int type, int reg, int cfa)
{
	return (struct kunwind_rule){ .type = type, .reg = reg, .cfa_off = cfa };
}

static void add(struct cfi_rows *r, uint64_t start, uint64_t end,
		struct kunwind_rule rule)
{
	r->row = realloc(r->row, (r->nr + 1) * sizeof(*r->row));
	r->row[r->nr++] = (struct cfi_row){ 1, start, end, rule };
}

/* ---- lookup ---- */

static void test_lookup_matches_rows(void)
{
	struct cfi_rows rows = { 0 };
	struct table_stats st;
	size_t len, i;
	uint64_t a;
	struct kunwind_hdr *t;
	unsigned int bad = 0, n = 0;
	uint64_t bad_at = 0;

	/*
	 * Rows of many lengths, including runs longer than a bucket, a
	 * bucket with no row start, 300 distinct rules (wide rows) and gaps.
	 */
	srand(1);
	for (a = 0x1000, i = 0; a < 0x1000 + 200000; i++) {
		uint64_t len = 1 + rand() % (i % 7 == 0 ? 900 : 40);

		if (i % 13 == 0)
			a += rand() % 64;	/* gap */
		add(&rows, a, a + len, call(KUNWIND_REG_SP, 8 + 8 * (i % 300), 0));
		a += len;
	}
	t = table_build(NULL, &rows, &len, &st, NULL);
	CHECK("lookup_table_builds_and_checks", t && !kunwind_table_check(t, len),
	      "table_build failed");
	if (!t)
		return;
	CHECK("lookup_wide_rows_above_256_rules", t->flags & KUNWIND_F_WIDE,
	      "flags %#x", t->flags);
	for (i = 0; i < rows.nr; i++) {
		for (a = rows.row[i].start; a < rows.row[i].end; a++, n++) {
			const struct kunwind_rule *r = kunwind_find(t, a);

			if (!r || memcmp(r, &rows.row[i].rule, sizeof(*r))) {
				if (!bad++)
					bad_at = a;
			}
		}
		/* Bytes of the gap after this row find no information. */
		if (i + 1 < rows.nr && rows.row[i + 1].start > rows.row[i].end) {
			const struct kunwind_rule *r = kunwind_find(t, rows.row[i].end);

			if (!r || r->type != KUNWIND_TYPE_NONE) {
				if (!bad++)
					bad_at = rows.row[i].end;
			}
		}
	}
	CHECK("lookup_every_byte_finds_its_row", !bad,
	      "%u of %u bytes wrong, first at %#llx", bad, n,
	      (unsigned long long)bad_at);
	CHECK("lookup_outside_segment_finds_nothing",
	      !kunwind_find(t, 0xfff) && !kunwind_find(t, a + 0x100000),
	      "found a row outside");
	free(t);
	free(rows.row);
}

static void *table_of(struct cfi_rows *rows, size_t *len)
{
	struct table_stats st;

	return table_build(NULL, rows, len, &st, NULL);
}

static void test_check_refuses_corrupt(void)
{
	struct cfi_rows rows = { 0 };
	struct kunwind_hdr *t, *c;
	struct kunwind_seg *seg;
	size_t len;

	add(&rows, 0x1000, 0x1010, call(KUNWIND_REG_SP, 8, 0));
	add(&rows, 0x1010, 0x1800, call(KUNWIND_REG_SP, 16, -16));
	t = table_of(&rows, &len);
	c = aligned_alloc(8, (len + 7) & ~7UL);

#define CORRUPT(name, want, stmt) do {					\
	enum kunwind_bad got;						\
	memcpy(c, t, len);						\
	seg = (struct kunwind_seg *)(c + 1);				\
	(void)seg;							\
	stmt;								\
	got = kunwind_table_check(c, len);				\
	CHECK(name, got == want, "expected %s, got %s",		\
	      kunwind_bad_str(want), kunwind_bad_str(got));		\
} while (0)

	CORRUPT("check_accepts_valid_table", KUNWIND_OK, (void)0);
	CORRUPT("check_refuses_bad_magic", KUNWIND_BAD_MAGIC, c->magic ^= 1);
	CORRUPT("check_refuses_new_version", KUNWIND_BAD_VERSION, c->version++);
	CORRUPT("check_refuses_truncated", KUNWIND_BAD_SIZE, c->size = len + 8);
	CORRUPT("check_refuses_rules_out_of_bounds", KUNWIND_BAD_LAYOUT,
		c->rules = len - 4);
	CORRUPT("check_refuses_rows_out_of_bounds", KUNWIND_BAD_LAYOUT,
		seg->nr_rows = 1 << 20);
	CORRUPT("check_refuses_unknown_rule_type", KUNWIND_BAD_RULE,
		((struct kunwind_rule *)((char *)c + c->rules))[1].type = 99);
	CORRUPT("check_refuses_bad_cfa_register", KUNWIND_BAD_RULE,
		((struct kunwind_rule *)((char *)c + c->rules))[1].reg = 3);
	CORRUPT("check_refuses_rule_index_past_dictionary", KUNWIND_BAD_RULE,
		((uint8_t *)c + seg->rows)[1] = c->nr_rules);
	CORRUPT("check_refuses_unsorted_rows", KUNWIND_BAD_ORDER,
		((uint8_t *)c + seg->rows)[2] = 0);
	CORRUPT("check_refuses_uncovered_start", KUNWIND_BAD_ORDER,
		((uint8_t *)c + seg->rows)[0] = 4);
	CORRUPT("check_refuses_empty_first_bucket", KUNWIND_BAD_ORDER,
		((uint16_t *)((char *)c + seg->bucket))[1] = 0);
	CORRUPT("check_refuses_decreasing_buckets", KUNWIND_BAD_ORDER,
		((uint16_t *)((char *)c + seg->bucket))[2] = 0);
	/* A size near 4 GiB must not wrap the bucket count (and read past). */
	CORRUPT("check_refuses_segment_near_4g", KUNWIND_BAD_LAYOUT,
		seg->size = 0xffffffff);
	CORRUPT("check_refuses_empty_segment", KUNWIND_BAD_SEGMENT,
		seg->size = 0);
	CORRUPT("check_refuses_unterminated_name", KUNWIND_BAD_SEGMENT,
		seg->name = len - c->strings - 1;
		((char *)c)[len - 1] = 'x');
	CHECK("check_refuses_misaligned_table",
	      kunwind_table_check((char *)c + 4, len - 4) == KUNWIND_BAD_SIZE,
	      "misaligned accepted");
	free(c);
	free(t);
	free(rows.row);
}

/* ---- walker ---- */

struct fake {
	uint64_t lo, hi;		/* the one stack */
	uint64_t lo2, hi2;		/* a second stack, for switches */
	uint64_t *mem, *mem2;
	const struct kunwind_hdr *t;
	uint64_t bias;			/* the table's load bias */
	uint64_t text_lo, text_hi;	/* text_ok(): [lo, hi), if hi */
	uint64_t tramp, tramp_p, tramp_ip; /* ret_addr(): one trampoline */
};

static const struct kunwind_seg *f_find(void *ctx, unsigned long ip,
				       const struct kunwind_hdr **table,
				       unsigned long *start)
{
	struct fake *f = ctx;

	*table = f->t;
	return kunwind_table_seg(f->t, f->bias, ip, start);
}

static bool f_read(void *ctx, unsigned long addr, unsigned long *val)
{
	struct fake *f = ctx;

	if (addr & 7)
		return false;
	if (addr >= f->lo && addr + 8 <= f->hi) {
		*val = f->mem[(addr - f->lo) / 8];
		return true;
	}
	if (f->mem2 && addr >= f->lo2 && addr + 8 <= f->hi2) {
		*val = f->mem2[(addr - f->lo2) / 8];
		return true;
	}
	return false;
}

static bool f_stack(void *ctx, unsigned long sp, unsigned long *lo,
		    unsigned long *hi)
{
	struct fake *f = ctx;

	if (sp >= f->lo && sp <= f->hi) {
		*lo = f->lo;
		*hi = f->hi + 1;	/* an empty stack's sp may equal its top */
		return true;
	}
	if (f->mem2 && sp >= f->lo2 && sp <= f->hi2) {
		*lo = f->lo2;
		*hi = f->hi2 + 1;
		return true;
	}
	return false;
}

/* A tracer's trampoline at f->tramp replaced the return address at tramp_p. */
static unsigned long f_ret_addr(void *ctx, unsigned long ip,
				unsigned long addr_p)
{
	struct fake *f = ctx;

	if (!f->tramp || ip != f->tramp)
		return ip;
	return addr_p == f->tramp_p ? f->tramp_ip : 0;
}

static bool f_text_ok(void *ctx, unsigned long ip)
{
	struct fake *f = ctx;

	return !f->text_hi || (ip >= f->text_lo && ip < f->text_hi);
}

static const struct kunwind_ops fake_ops = {
	.find_seg = f_find,
	.read = f_read,
	.stack = f_stack,
	.ret_addr = f_ret_addr,
	.text_ok = f_text_ok,
};

#define STACK 0x7000
#define WORDS 64

static void put(struct fake *f, uint64_t addr, uint64_t val)
{
	f->mem[(addr - f->lo) / 8] = val;
}

/*
 * Text layout of the synthetic program, one function per 0x100 bytes:
 *   0x1000 leaf: CFA rsp+8          0x1100 mid: CFA rsp+24, rbp at c-16
 *   0x1200 fp:   CFA rbp+16, c-16   0x1300 end: RA undefined
 *   0x1400 regs: pt_regs at rsp     0x1500 unsupported
 *   0x1600 signal: ucontext at rsp  0x1700 iret frame at rsp
 *   0x1800 gap (no FDE)             0x1900 noreturn caller's tail
 *   0x1a00 a function whose FDE starts right after 0x19ff
 */
static struct kunwind_hdr *program(size_t *len)
{
	struct cfi_rows rows = { 0 };
	struct kunwind_hdr *t;

	add(&rows, 0x1000, 0x1100, call(KUNWIND_REG_SP, 8, 0));
	add(&rows, 0x1100, 0x1200, call(KUNWIND_REG_SP, 24, -16));
	add(&rows, 0x1200, 0x1300, call(KUNWIND_REG_BP, 16, -16));
	add(&rows, 0x1300, 0x1400, typed(KUNWIND_TYPE_END, KUNWIND_REG_SP, 8));
	add(&rows, 0x1400, 0x1500, typed(KUNWIND_TYPE_REGS, KUNWIND_REG_SP, 0));
	add(&rows, 0x1500, 0x1600, typed(KUNWIND_TYPE_UNSUPPORTED, 0, 0));
	add(&rows, 0x1600, 0x1700, typed(KUNWIND_TYPE_SIGNAL, KUNWIND_REG_SP, 0));
	add(&rows, 0x1700, 0x1800, typed(KUNWIND_TYPE_IRET, KUNWIND_REG_SP, 0));
	add(&rows, 0x1900, 0x1a00, call(KUNWIND_REG_SP, 16, 0));
	add(&rows, 0x1a00, 0x1b00, call(KUNWIND_REG_SP, 64, 0));
	add(&rows, 0x1b00, 0x1c00, call(KUNWIND_REG_SP_INDIRECT, 16, -16));
	t = table_of(&rows, len);
	free(rows.row);
	return t;
}

static struct kunwind_cache *walk_cache;

static struct kunwind_state walk(struct fake *f, uint64_t ip, uint64_t sp,
				 uint64_t bp, unsigned int flags,
				 uint64_t *ips, unsigned int *n)
{
	struct kunwind_state s;

	kunwind_start(&s, &fake_ops, f, ip, sp, bp, 32, flags);
	s.cache = walk_cache;
	*n = 0;
	ips[(*n)++] = s.ip;
	while (kunwind_next(&s))
		ips[(*n)++] = s.ip;
	return s;
}

static void test_walks(void)
{
	uint64_t mem[WORDS] = { 0 }, mem2[WORDS] = { 0 }, ips[40];
	struct fake f = { .lo = STACK, .hi = STACK + 8 * WORDS, .mem = mem };
	struct kunwind_state s;
	unsigned int n;
	size_t len;

	f.t = program(&len);

	/* leaf -> mid -> end: reliable end of stack, rbp restored */
	put(&f, STACK + 0x00, 0x1150);		/* leaf's RA into mid */
	put(&f, STACK + 0x10, 0xbbbb);		/* mid saved rbp at CFA-16 */
	put(&f, STACK + 0x18, 0x1310);		/* mid's RA into end */
	s = walk(&f, 0x1010, STACK, 0x1234, 0, ips, &n);
	CHECK("walk_reaches_end_of_stack",
	      s.stop == KUNWIND_STOP_END && n == 3 && ips[1] == 0x1150 &&
	      ips[2] == 0x1310 && s.bp == 0xbbbb && !s.unreliable,
	      "stop %s, %u frames, bp %#lx", kunwind_stop_str(s.stop), n, s.bp);

	/* rbp-based frame */
	memset(mem, 0, sizeof(mem));
	put(&f, STACK + 0x20, 0x5555);		/* saved rbp at rbp */
	put(&f, STACK + 0x28, 0x1320);		/* RA at rbp + 8 */
	s = walk(&f, 0x1210, STACK, STACK + 0x20, 0, ips, &n);
	CHECK("walk_follows_rbp_based_cfa",
	      s.stop == KUNWIND_STOP_END && n == 2 && ips[1] == 0x1320 &&
	      s.sp == STACK + 0x30 && s.bp == 0x5555,
	      "stop %s, %u frames, sp %#lx", kunwind_stop_str(s.stop), n, s.sp);

	/* no row: a gap, without and with the rbp fallback */
	s = walk(&f, 0x1810, STACK, STACK + 0x20, 0, ips, &n);
	CHECK("walk_stops_without_row", s.stop == KUNWIND_STOP_NO_ROW && n == 1,
	      "stop %s", kunwind_stop_str(s.stop));
	s = walk(&f, 0x1810, STACK, STACK + 0x20, KUNWIND_FP_FALLBACK, ips, &n);
	CHECK("walk_fp_fallback_is_unreliable",
	      s.stop == KUNWIND_STOP_END && n == 2 && ips[1] == 0x1320 &&
	      s.unreliable,
	      "stop %s, %u frames, unreliable %d", kunwind_stop_str(s.stop), n,
	      s.unreliable);

	/*
	 * ip - 1: a return address 0x1a00 is the first byte of the next
	 * function (0x1a00's CFA is rsp+64); the caller is the function at
	 * 0x1900 (rsp+16), which must be the one used.
	 */
	memset(mem, 0, sizeof(mem));
	put(&f, STACK + 0x00, 0x1a00);		/* leaf returns to 0x1a00 */
	put(&f, STACK + 0x10, 0x1310);		/* 0x19xx frame: CFA rsp+16 */
	s = walk(&f, 0x1010, STACK, 0, 0, ips, &n);
	CHECK("walk_looks_up_return_address_minus_one",
	      s.stop == KUNWIND_STOP_END && n == 3 && ips[2] == 0x1310,
	      "stop %s, %u frames, ip[2] %#llx", kunwind_stop_str(s.stop), n,
	      (unsigned long long)ips[2]);

	/* the first frame uses the exact ip: 0x1a00 is its own function */
	put(&f, STACK + 0x38, 0x1310);
	s = walk(&f, 0x1a00, STACK, 0, 0, ips, &n);
	CHECK("walk_first_frame_uses_exact_ip",
	      s.stop == KUNWIND_STOP_END && n == 2 && s.sp == STACK + 64 - 8 + 8,
	      "stop %s, %u frames, sp %#lx", kunwind_stop_str(s.stop), n, s.sp);

	/* pt_regs: ip, sp, bp from the block; the next ip is exact */
	memset(mem, 0, sizeof(mem));
	put(&f, STACK + KUNWIND_PT_REGS_IP, 0x1a00);
	put(&f, STACK + KUNWIND_PT_REGS_SP, STACK + 0x1c0);
	put(&f, STACK + KUNWIND_PT_REGS_BP, 0x7777);
	put(&f, STACK + 0x1c0 + 56, 0x1310);	/* 0x1a00 frame: RA at CFA-8 */
	s = walk(&f, 0x1410, STACK, 0, 0, ips, &n);
	CHECK("walk_regs_frame_then_exact_ip",
	      s.stop == KUNWIND_STOP_END && n == 3 && ips[1] == 0x1a00 &&
	      ips[2] == 0x1310 && s.bp == 0x7777,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);

	/* a signal frame (struct ucontext), and an iret frame */
	memset(mem, 0, sizeof(mem));
	put(&f, STACK + KUNWIND_UC_IP, 0x1a00);
	put(&f, STACK + KUNWIND_UC_SP, STACK + 0x1c0);
	put(&f, STACK + KUNWIND_UC_BP, 0x6666);
	put(&f, STACK + 0x1c0 + 56, 0x1310);
	s = walk(&f, 0x1610, STACK, 0, 0, ips, &n);
	CHECK("walk_signal_frame",
	      s.stop == KUNWIND_STOP_END && n == 3 && ips[1] == 0x1a00 &&
	      s.bp == 0x6666,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);
	memset(mem, 0, sizeof(mem));
	put(&f, STACK + KUNWIND_IRET_IP, 0x1a00);
	put(&f, STACK + KUNWIND_IRET_SP, STACK + 0x1c0);
	put(&f, STACK + 0x1c0 + 56, 0x1310);
	s = walk(&f, 0x1710, STACK, 0x4444, 0, ips, &n);
	CHECK("walk_iret_frame_keeps_rbp",
	      s.stop == KUNWIND_STOP_END && n == 3 && s.bp == 0x4444,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);

	/* a register frame switching to another known stack */
	memset(mem, 0, sizeof(mem));
	f.mem2 = mem2;
	f.lo2 = 0x20000;
	f.hi2 = 0x20000 + 8 * WORDS;
	put(&f, STACK + KUNWIND_PT_REGS_IP, 0x1010);
	put(&f, STACK + KUNWIND_PT_REGS_SP, 0x20000);
	mem2[0] = 0x1310;			/* leaf's RA on the other stack */
	s = walk(&f, 0x1410, STACK, 0, 0, ips, &n);
	CHECK("walk_switches_to_another_known_stack",
	      s.stop == KUNWIND_STOP_END && n == 3,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);
	/* a stack switch hint: the old sp was saved at [rsp] */
	memset(mem, 0, sizeof(mem));
	memset(mem2, 0, sizeof(mem2));
	mem2[0] = STACK + 0x20;			/* saved sp on the new stack */
	put(&f, STACK + 0x20, 0xabcd);		/* rbp at CFA-16 */
	put(&f, STACK + 0x28, 0x1310);		/* RA at CFA-8 */
	s = walk(&f, 0x1b10, 0x20000, 0, 0, ips, &n);
	CHECK("walk_stack_switch_reads_saved_sp",
	      s.stop == KUNWIND_STOP_END && n == 2 && ips[1] == 0x1310 &&
	      s.sp == STACK + 0x30 && s.bp == 0xabcd,
	      "stop %s, %u frames, sp %#lx", kunwind_stop_str(s.stop), n, s.sp);
	put(&f, STACK + KUNWIND_PT_REGS_SP, 0x90000);
	s = walk(&f, 0x1410, STACK, 0, 0, ips, &n);
	CHECK("walk_stops_on_unknown_stack", s.stop == KUNWIND_STOP_BAD_READ,
	      "stop %s", kunwind_stop_str(s.stop));
	f.mem2 = NULL;

	/* sp going down: a frame whose CFA is below sp */
	memset(mem, 0, sizeof(mem));
	put(&f, STACK + 0x28, 0x1010);		/* rbp-based: RA at rbp+8 */
	s = walk(&f, 0x1210, STACK + 0x100, STACK + 0x20, 0, ips, &n);
	CHECK("walk_stops_when_sp_goes_down",
	      s.stop == KUNWIND_STOP_SP_DIRECTION,
	      "stop %s", kunwind_stop_str(s.stop));

	/* reads off the stack */
	s = walk(&f, 0x1010, STACK + 8 * WORDS, 0, 0, ips, &n);
	CHECK("walk_stops_on_bad_read", s.stop == KUNWIND_STOP_BAD_READ,
	      "stop %s", kunwind_stop_str(s.stop));

	s = walk(&f, 0x1510, STACK, 0, 0, ips, &n);
	CHECK("walk_stops_on_unsupported_rule",
	      s.stop == KUNWIND_STOP_UNSUPPORTED && n == 1,
	      "stop %s", kunwind_stop_str(s.stop));

	/* a recursion that never ends: the depth limit */
	for (n = 0; n < WORDS; n++)
		mem[n] = 0x1010;
	s = walk(&f, 0x1010, STACK, 0, 0, ips, &n);
	CHECK("walk_stops_at_depth_limit",
	      s.stop == KUNWIND_STOP_DEPTH && n == 32,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);
	free((void *)f.t);
}

/*
 * The walker never reports a frame that is not code, ends the kernel
 * stack at a register block saved in user mode (by cs, whatever ip is),
 * and undoes tracers' return-address trampolines.
 */
static void test_bad_frames(void)
{
	static const struct {
		const char *name;
		uint64_t ra;
	} bad[] = {
		{ "walk_stops_at_return_address_0", 0 },
		{ "walk_stops_at_return_address_on_the_stack", STACK + 8 },
		{ "walk_stops_at_user_return_address", 0x400000 },
		{ "walk_stops_at_non_canonical_return_address", 0x8000000000001150ULL },
		{ "walk_stops_at_return_address_of_freed_text", 0x2010 },
	};
	uint64_t mem[WORDS] = { 0 }, ips[40];
	struct fake f = { .lo = STACK, .hi = STACK + 8 * WORDS, .mem = mem };
	struct kunwind_state s;
	unsigned int i, n;
	size_t len;

	f.t = program(&len);
	f.text_lo = 0x1000;
	f.text_hi = 0x2000;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(mem, 0, sizeof(mem));
		put(&f, STACK + 0x00, bad[i].ra);
		s = walk(&f, 0x1010, STACK, 0, 0, ips, &n);
		CHECK(bad[i].name, s.stop == KUNWIND_STOP_BAD_RA && n == 1 &&
		      s.ip == 0x1010 && s.sp == STACK,
		      "stop %s, %u frames, last ip %#lx",
		      kunwind_stop_str(s.stop), n, s.ip);
	}
	/* a register frame's ip is checked too */
	memset(mem, 0, sizeof(mem));
	put(&f, STACK + KUNWIND_PT_REGS_IP, 0xdead0000);
	put(&f, STACK + KUNWIND_PT_REGS_SP, STACK + 0x1c0);
	s = walk(&f, 0x1410, STACK, 0, 0, ips, &n);
	CHECK("walk_stops_at_regs_ip_that_is_not_text",
	      s.stop == KUNWIND_STOP_BAD_RA && n == 1,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);

	/* user mode by cs: the end, even with a kernel-looking ip */
	memset(mem, 0, sizeof(mem));
	put(&f, STACK + KUNWIND_PT_REGS_IP, 0x1a00);
	put(&f, STACK + KUNWIND_PT_REGS_SP, STACK + 0x1c0);
	put(&f, STACK + KUNWIND_PT_REGS_CS, 0x33);
	s = walk(&f, 0x1410, STACK, 0, 0, ips, &n);
	CHECK("walk_regs_frame_from_user_mode_ends_the_stack",
	      s.stop == KUNWIND_STOP_END && n == 1,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);
	memset(mem, 0, sizeof(mem));
	put(&f, STACK + KUNWIND_IRET_IP, 0x1a00);
	put(&f, STACK + KUNWIND_IRET_SP, STACK + 0x1c0);
	put(&f, STACK + KUNWIND_IRET_CS, 0x2b);
	s = walk(&f, 0x1710, STACK, 0, 0, ips, &n);
	CHECK("walk_iret_frame_from_user_mode_ends_the_stack",
	      s.stop == KUNWIND_STOP_END && n == 1,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);

	/* leaf's return address replaced by a trampoline: recovered */
	memset(mem, 0, sizeof(mem));
	f.tramp = 0x1f80;
	f.tramp_p = STACK;
	f.tramp_ip = 0x1150;
	put(&f, STACK + 0x00, 0x1f80);
	put(&f, STACK + 0x18, 0x1310);
	s = walk(&f, 0x1010, STACK, 0, 0, ips, &n);
	CHECK("walk_recovers_return_address_from_trampoline",
	      s.stop == KUNWIND_STOP_END && n == 3 && ips[1] == 0x1150 &&
	      ips[2] == 0x1310,
	      "stop %s, %u frames, ip[1] %#llx", kunwind_stop_str(s.stop), n,
	      (unsigned long long)ips[1]);
	f.tramp_p = STACK + 8;			/* its record is not this slot */
	s = walk(&f, 0x1010, STACK, 0, 0, ips, &n);
	CHECK("walk_stops_at_unrecoverable_trampoline",
	      s.stop == KUNWIND_STOP_BAD_RA && n == 1,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);
	f.text_hi = 0;				/* text_ok() says yes to all */
	s = walk(&f, 0x1010, STACK, 0, KUNWIND_FP_FALLBACK, ips, &n);
	CHECK("walk_never_reports_ip_0_even_without_text_check",
	      s.stop == KUNWIND_STOP_BAD_RA && n == 1,
	      "stop %s, %u frames", kunwind_stop_str(s.stop), n);
	f.text_hi = 0x2000;
	/* interrupted at the trampoline's first instruction (just returned) */
	memset(mem, 0, sizeof(mem));
	f.tramp_p = STACK + 0x1c0 - 8;
	put(&f, STACK + KUNWIND_PT_REGS_IP, 0x1f80);
	put(&f, STACK + KUNWIND_PT_REGS_SP, STACK + 0x1c0);
	put(&f, STACK + 0x1c0 + 16, 0x1310);	/* 0x1150 (mid): CFA rsp+24 */
	s = walk(&f, 0x1410, STACK, 0, 0, ips, &n);
	CHECK("walk_recovers_trampoline_at_interrupted_ip",
	      s.stop == KUNWIND_STOP_END && n == 3 && ips[1] == 0x1150 &&
	      ips[2] == 0x1310,
	      "stop %s, %u frames, ip[1] %#llx", kunwind_stop_str(s.stop), n,
	      (unsigned long long)ips[1]);
	free((void *)f.t);
}

/*
 * The lookup cache answers as the table does for every address, also for
 * those an empty slot could be mistaken for (0, ~0: the walk fuzzer's
 * regress-cache-address-zero and regress-cache-address-ones).
 */
static void test_cache(void)
{
	static const uint64_t at[] = { 0, 1, ~0ULL, ~1ULL, 0xff, 0x100 };
	uint64_t mem[WORDS] = { 0 }, ips[40];
	struct fake f = { .lo = STACK, .hi = STACK + 8 * WORDS, .mem = mem };
	struct kunwind_state plain, cached;
	static struct kunwind_cache cache;
	unsigned int i, n, bad = 0;
	size_t len;

	f.t = program(&len);
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		/* the end-of-stack row 0x1310 placed at run-time address at[i] */
		f.bias = at[i] - 0x1310;
		plain = walk(&f, at[i], STACK, 0, 0, ips, &n);
		kunwind_cache_clear(&cache);
		walk_cache = &cache;
		cached = walk(&f, at[i], STACK, 0, 0, ips, &n);
		walk_cache = NULL;
		if (plain.stop != KUNWIND_STOP_END || cached.stop != plain.stop) {
			printf("# ip %#llx: uncached %s, cached %s\n",
			       (unsigned long long)at[i],
			       kunwind_stop_str(plain.stop),
			       kunwind_stop_str(cached.stop));
			bad++;
		}
	}
	CHECK("cache_answers_as_the_table_for_every_address", !bad,
	      "%u addresses differ", bad);
	free((void *)f.t);
}

int main(void)
{
	test_lookup_matches_rows();
	test_check_refuses_corrupt();
	test_walks();
	test_bad_frames();
	test_cache();
	printf("# unit: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
