// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the walker over random stacks and tables.
 *
 * The fake stacks are malloc'ed at their exact size and walked at their
 * real addresses, so ASan sees every byte the walker touches, whether it
 * reads through ops->read (which must only be asked for words the walker
 * has checked to lie on a stack, and may simulate a fault) or directly
 * (ops->read NULL).  ops->stack knows the two stacks, ops->find_seg the
 * segments of one table (all but a dead one); ops->text_ok and
 * ops->ret_addr, when the input asks for them, accept a range of text and
 * undo one tracer's trampoline.  Each kunwind_next() is checked against a
 * model of one step written from the format's description (walk_model.c,
 * from unwind/format.h, arch-x86.h, kunwind.h): what the rule says the
 * caller's ip, sp and bp are, which ret_addr() call it needs, that sp
 * grows on one stack and never comes back to a stack below where it left
 * it, that a frame whose ip is not text is never reported, that a stopped
 * walk stays stopped and unchanged, that the stop reason is one of the
 * enum's, and that the walk ends within max_depth steps.  With a lookup
 * cache the walk runs twice more, cold and warm, and must give the same
 * frames; and kunwind_trace() (with and without the cache, in two parts
 * cut after the split'th ip) must give that walk's ips and final state.
 *
 * Input (every byte string is valid; missing bytes read as zero, which
 * turns every hook off):
 *
 *   u8  mode      WALK_* bits below
 *   u8  max_depth
 *   u8  hooks     HOOK_* bits below
 *   u8  dead      WALK_DEAD_SEG: the segment find_seg() does not return
 *                 (index % nr_segs)
 *   u8  split     synthesized table: its rows from row split % nr_rows on
 *                 form a second, adjacent segment (0: one segment)
 *   u32 text_off, u32 text_len
 *                 HOOK_TEXT_OK: text_ok(ip) is ip in [text + text_off,
 *                 + text_len), or, if text_len is 0, ip in a live segment
 *   word tramp, word slot, word real
 *                 HOOK_RET_ADDR: ret_addr(ip, addr_p) is ip unless ip is
 *                 tramp; then real if addr_p is slot, else 0 (a trampoline
 *                 whose record is not this slot cannot be undone)
 *   table         WALK_RAW: u16 len, len bytes of table, u64 bias; the
 *                 input is skipped unless kunwind_table_check() accepts it
 *                 and no two segments overlap once loaded.  Else a table
 *                 synthesized from a compact description (see
 *                 synth_table()); the checker must accept it.
 *   stack sizes   for A, then B (WALK_TWO_STACKS): u16 words, u8 extra
 *                 bytes (& 7)
 *   word ip, word bp, u16 sp offset into A, u16 faulting offset into A
 *   stack words   A's, then B's
 *
 * A "word" is u8 tag + u16 value, so that stacks hold plausible pointers
 * without the fuzzer having to guess 64-bit addresses: tag & 3 selects
 * text + value (text: the first segment's run-time start), stack A +
 * value, stack B + value, or (raw) ~value.  Register frames need no field
 * of their own: cs is a stack word, and its low bits say user mode.
 */
#include "walk_fuzz.h"

#define TEXT_BASE	0xffffffff81000000UL
#define NO_FAULT	0xffff
#define MAX_WORDS	1024
#define MAX_FRAMES	256	/* max_depth is a u8 */
#define MAX_RULES	64
#define MAX_ROWS	256

/* A word as the input gives it, resolved once the stacks exist. */
struct in_word {
	uint8_t tag;
	uint16_t v;
};

/* One walk, to compare walks with and without the cache. */
struct walk {
	unsigned long ip[MAX_FRAMES], sp[MAX_FRAMES], bp[MAX_FRAMES];
	bool exact[MAX_FRAMES];
	unsigned int depth;
	enum kunwind_stop stop;
	bool unreliable;
	unsigned int nr_tramp;		/* walk_ctx's, for the whole walk */
};

/* The walker checks the bounds; the hook only reads (or faults). */
static bool op_read(void *ctx, unsigned long addr, unsigned long *val)
{
	if (!stack_of(ctx, addr, sizeof(*val)))
		fuzz_fail("read hook asked for %#lx, not a word on a stack",
			  addr);
	return ctx_read(ctx, addr, val);
}

static bool op_stack(void *ctx, unsigned long sp, unsigned long *lo,
		     unsigned long *hi)
{
	const struct stack *s = stack_of(ctx, sp, 1);

	if (!s)
		return false;
	*lo = s->lo;
	*hi = s->lo + s->size;
	return true;
}

/*
 * The segment holding run-time address addr, unless it is the dead one:
 * a kernel segment whose text was freed (init text after boot) stays in
 * its table, and find_seg() must not hand it out.
 */
static const struct kunwind_seg *op_find_seg(void *ctx, unsigned long ip,
					     const struct kunwind_hdr **table,
					     unsigned long *start)
{
	const struct walk_ctx *c = ctx;
	const struct kunwind_seg *seg;

	seg = kunwind_table_seg(c->t, c->bias, ip, start);
	if (!seg || seg == c->dead)
		return NULL;
	*table = c->t;
	return seg;
}

static bool op_text_ok(void *ctx, unsigned long ip)
{
	struct walk_ctx *c = ctx;

	c->nr_text_ok++;
	c->text_ip = ip;
	return ctx_text_ok(c, ip);
}

static unsigned long op_ret_addr(void *ctx, unsigned long ip,
				 unsigned long addr_p)
{
	struct walk_ctx *c = ctx;

	c->nr_ret_addr++;
	c->nr_tramp += ip == c->tramp;
	c->ret_ip = ip;
	c->ret_p = addr_p;
	return ctx_ret_addr(c, ip, addr_p);
}

static struct in_word in_word(struct fuzz_in *in)
{
	struct in_word w;

	w.tag = fuzz_u8(in);
	w.v = fuzz_u16(in);
	return w;
}

static unsigned long word_at(const struct walk_ctx *c, struct in_word w)
{
	switch (w.tag & 3) {
	case 0:
		return c->text_lo + w.v;
	case 1:
		return c->stk[0].lo + w.v;
	case 2:
		return c->stk[1].lo + w.v;
	default:
		return ~(unsigned long)w.v;
	}
}

static unsigned long get_word(struct fuzz_in *in, const struct walk_ctx *c)
{
	return word_at(c, in_word(in));
}

/*
 * A stack of whole words and 0-7 bytes more: stacks are page-sized in the
 * kernel, but the walker must not assume it.  Its address is its own.
 */
static void new_stack(struct fuzz_in *in, struct stack *s)
{
	size_t words = fuzz_u16(in) % (MAX_WORDS + 1);

	s->size = words * sizeof(long) + fuzz_u8(in) % sizeof(long);
	s->mem = malloc(s->size ? s->size : 1);
	if (!s->mem)
		abort();
	s->lo = (unsigned long)s->mem;
}

static void fill_stack(struct fuzz_in *in, const struct walk_ctx *c,
		       struct stack *s)
{
	size_t i;

	for (i = 0; i + sizeof(long) <= s->size; i += sizeof(long)) {
		unsigned long w = get_word(in, c);

		memcpy(s->mem + i, &w, sizeof(w));
	}
	for (; i < s->size; i++)
		s->mem[i] = fuzz_u8(in);
}

static uint32_t align_up(uint32_t off, uint32_t align)
{
	return (off + align - 1) & ~(align - 1);
}

/*
 * Segment k of a synthesized table: rows [row0, row0 + nr_rows), starting
 * at start[] (offsets from the first segment's base), and its bytes
 * [start[row0], end).  Lays out its super-block, bucket, row and escape
 * arrays from off on; returns where they end.
 */
static uint32_t synth_seg(uint8_t *p, struct kunwind_seg *seg, uint32_t off,
			  const uint32_t *start, const uint32_t *rule,
			  uint32_t row0, uint32_t nr_rows, uint32_t end)
{
	uint32_t lo = start[row0], size = end - lo, nb, ns, b, i;
	struct kunwind_esc *esc;
	uint32_t *super;
	uint16_t *bucket;

	nb = (size + KUNWIND_BUCKET_SIZE - 1) >> KUNWIND_BUCKET_SHIFT;
	ns = (nb >> (KUNWIND_SUPER_SHIFT - KUNWIND_BUCKET_SHIFT)) + 1;
	seg->base = TEXT_BASE + lo;
	seg->size = size;
	seg->nr_rows = nr_rows;
	seg->super = align_up(off, 4);
	seg->bucket = seg->super + ns * 4;
	seg->rows = seg->bucket + (nb + 1) * 2;
	seg->esc = align_up(seg->rows + nr_rows * KUNWIND_ROW_SIZE, 4);
	seg->nr_esc = 0;
	for (i = 0; i < nr_rows; i++)
		seg->nr_esc += rule[row0 + i] >= KUNWIND_RULE_ESCAPE;
	if (!p)
		return seg->esc + seg->nr_esc * sizeof(*esc);

	/* first(b) = the number of rows starting before bucket b. */
	super = (uint32_t *)(p + seg->super);
	bucket = (uint16_t *)(p + seg->bucket);
	for (b = 0, i = 0; b <= nb; b++) {
		while (i < nr_rows &&
		       start[row0 + i] - lo < b << KUNWIND_BUCKET_SHIFT)
			i++;
		if (!(b & (KUNWIND_BUCKETS_PER_SUPER - 1)))
			super[b >> 8] = i;
		bucket[b] = i - super[b >> 8];
	}
	/* A rule without a byte of its own: an escape, in row order. */
	esc = (struct kunwind_esc *)(p + seg->esc);
	for (i = 0; i < nr_rows; i++) {
		uint8_t *row = p + seg->rows + i * KUNWIND_ROW_SIZE;
		uint32_t r = rule[row0 + i];

		row[0] = (start[row0 + i] - lo) & (KUNWIND_BUCKET_SIZE - 1);
		row[1] = r < KUNWIND_RULE_ESCAPE ? r : KUNWIND_RULE_ESCAPE;
		if (r >= KUNWIND_RULE_ESCAPE)
			*esc++ = (struct kunwind_esc){ .row = i, .rule = r };
	}
	return seg->esc + seg->nr_esc * sizeof(*esc);
}

/*
 * A valid table from a compact description, at TEXT_BASE:
 *   u8 nr_rules, then per rule: u8 type, u8 reg, s16 cfa_off, s16 bp_off
 *   (type bit 7: cfa_off is a further s32), rule 0 forced to NONE;
 *   u32 size (20 bits); u8 nr_rows, then per row: u16 gap, u8 rule.
 * One segment ".text", or two adjacent ones if split (the header's byte)
 * picks a row other than the first: ".text" below that row's start,
 * ".init.text" from it on.  Both give every address the same rule as one
 * segment would; the walker must find the right one as it crosses.
 * With escape (WALK_ESCAPE), the dictionary is the rules, NONE rules up
 * to index 254, then the rules from 1 on again, from KUNWIND_RULE_ESCAPE
 * on; rows of an odd rule name its escaped copy, so that direct and
 * escaped rows mix in buckets.  Written from the layout in format.h,
 * independently of gen/table.c.
 */
static void *synth_table(struct fuzz_in *in, bool escape, unsigned int split,
			 size_t *len)
{
	static const char names[] = ".text\0.init.text";
	struct kunwind_rule rules[KUNWIND_RULE_ESCAPE - 1 + MAX_RULES];
	uint32_t start[MAX_ROWS], rule[MAX_ROWS];
	uint32_t nr_rules = 1 + fuzz_u8(in) % MAX_RULES, nr_in = nr_rules;
	uint32_t size, nr_rows, nr_segs, cut, i;
	uint32_t off_rules, off_str, off;
	struct kunwind_seg segs[2];
	struct kunwind_hdr *t;
	uint8_t *p;

	for (i = 0; i < nr_rules; i++) {
		uint8_t type = fuzz_u8(in), reg = fuzz_u8(in);
		struct kunwind_rule *r = &rules[i];

		r->cfa_off = (int16_t)fuzz_u16(in);
		r->bp_off = (int16_t)fuzz_u16(in);
		if (type & 0x80)
			r->cfa_off = (int32_t)fuzz_u32(in);
		/* x86-64's types, PLT the last: the model is x86-64's */
		r->type = i ? (type & 0x7f) % (KUNWIND_TYPE_PLT + 1) : 0;
		if (r->type == KUNWIND_TYPE_PLT)
			r->reg = reg & 15;
		else if (r->type == KUNWIND_TYPE_CALL && reg % 3 == 2)
			r->reg = KUNWIND_REG_SP_INDIRECT;
		else if (r->type == KUNWIND_TYPE_CALL && reg % 5 == 4) {
			/* a realigned stack: rbp at rbp, bp_off 0 */
			r->reg = KUNWIND_REG_BP_INDIRECT;
			r->bp_off = 0;
		}
		else
			r->reg = reg & 1 ? KUNWIND_REG_BP : KUNWIND_REG_SP;
	}

	if (escape && nr_in > 1) {
		memset(&rules[nr_in], 0,
		       (KUNWIND_RULE_ESCAPE - nr_in) * sizeof(rules[0]));
		memcpy(&rules[KUNWIND_RULE_ESCAPE], &rules[1],
		       (nr_in - 1) * sizeof(rules[0]));
		nr_rules = KUNWIND_RULE_ESCAPE - 1 + nr_in;
	}

	size = 1 + fuzz_u32(in) % (1 << 20);
	nr_rows = 1 + fuzz_u8(in) % MAX_ROWS;
	for (i = 0; i < nr_rows; i++) {
		uint32_t gap = fuzz_u16(in);

		start[i] = i ? start[i - 1] + 1 + gap : 0;
		rule[i] = fuzz_u8(in) % nr_in;
		if (nr_rules > nr_in && rule[i] % 2)
			rule[i] += KUNWIND_RULE_ESCAPE - 1;
		if (start[i] >= size || (i && start[i] <= start[i - 1]))
			break;
	}
	nr_rows = i;
	cut = split % nr_rows;
	nr_segs = cut ? 2 : 1;

	/* Sizes first (p NULL), then the bytes. */
	memset(segs, 0, sizeof(segs));
	off_rules = sizeof(*t) + nr_segs * sizeof(segs[0]);
	off = off_rules + nr_rules * sizeof(rules[0]);
	if (cut) {
		off = synth_seg(NULL, &segs[0], off, start, rule, 0, cut,
				start[cut]);
		off = synth_seg(NULL, &segs[1], off, start, rule, cut,
				nr_rows - cut, size);
	} else {
		off = synth_seg(NULL, &segs[0], off, start, rule, 0, nr_rows,
				size);
	}
	off_str = off;
	*len = align_up(off_str + sizeof(names), 8);

	t = calloc(1, *len);
	if (!t)
		abort();
	p = (uint8_t *)t;
	t->magic = KUNWIND_MAGIC;
	t->version = KUNWIND_VERSION;
	t->size = *len;
	t->nr_segs = nr_segs;
	t->nr_rules = nr_rules;
	t->rules = off_rules;
	t->strings = off_str;
	memcpy(p + off_rules, rules, nr_rules * sizeof(rules[0]));
	memcpy(p + off_str, names, sizeof(names));
	if (cut) {
		synth_seg(p, &segs[0], segs[0].super, start, rule, 0, cut,
			  start[cut]);
		synth_seg(p, &segs[1], segs[1].super, start, rule, cut,
			  nr_rows - cut, size);
		segs[1].name = sizeof(".text");
	} else {
		synth_seg(p, &segs[0], segs[0].super, start, rule, 0, nr_rows,
			  size);
	}
	memcpy(p + sizeof(*t), segs, nr_segs * sizeof(segs[0]));
	return t;
}

/*
 * ops->find_seg's contract: loaded segments do not overlap (before
 * relocation those of a .ko all start at 0, after it they are apart), so
 * the segment the walker keeps from its last lookup and the one
 * find_seg() would give agree.  Raw tables that break it are skipped.
 */
static bool segs_apart(const struct kunwind_hdr *t)
{
	const struct kunwind_seg *s = kunwind_segs(t);
	unsigned int i, j;

	for (i = 0; i < t->nr_segs; i++)
		for (j = i + 1; j < t->nr_segs; j++)
			if (s[j].base - s[i].base < s[i].size ||
			    s[i].base - s[j].base < s[j].size)
				return false;
	return true;
}

/* The walk's cache has a row, not a gap's, for the frame's lookup address. */
static bool cache_vouches(const struct kunwind_state *s)
{
	unsigned long addr = kunwind_frame_addr(s);
	unsigned int i;

	if (!s->cache)
		return false;
	for (i = 0; i < KUNWIND_CACHE_SIZE; i++)
		if (s->cache->e[i].addr == addr)
			return s->cache->e[i].rule.type != KUNWIND_TYPE_NONE;
	return false;
}

/*
 * The hooks were asked what the model says, no more: ret_addr() once for
 * the return address the rule gave (where it is read, the walker may call
 * it before a later read fails), text_ok() at most once, for the ip about
 * to be reported, and always before one is.
 */
static void check_hooks(const struct walk_ctx *c, const struct kunwind_state *old,
			const struct kunwind_state *s, const struct step *m,
			bool ok)
{
	bool declined = m->fp && !ok && s->stop == KUNWIND_STOP_NO_ROW;

	if (c->nr_ret_addr > 1 ||
	    (c->nr_ret_addr && (!m->ret_call || c->ret_ip != m->ret_ip ||
				c->ret_p != m->ret_p)))
		fuzz_fail("step %u: %u ret_addr() calls, the last (%#lx, "
			  "%#lx); expected %s(%#lx, %#lx)", old->depth,
			  c->nr_ret_addr, c->ret_ip, c->ret_p,
			  m->ret_call ? "" : "none, not ", m->ret_ip,
			  m->ret_p);
	if ((c->hooks & HOOK_RET_ADDR) && m->framed && !declined &&
	    !c->nr_ret_addr)
		fuzz_fail("step %u: return address %#lx (at %#lx) not given "
			  "to ret_addr()", old->depth, m->ret_ip, m->ret_p);
	if (c->nr_text_ok > 1 ||
	    (c->nr_text_ok && (!m->framed || c->text_ip != m->ip || !m->ip)))
		fuzz_fail("step %u: %u text_ok() calls, the last for %#lx; "
			  "expected one for %#lx", old->depth, c->nr_text_ok,
			  c->text_ip, m->ip);
	/*
	 * Asked for a reported ip whose lookup address (ip, or ip - 1 for a
	 * return address) is outside the segment the walk is in (the one its
	 * lookups left in s), and only then; unless the walk's cache holds a
	 * row (not a gap's) for that address, which says the same
	 * (kunwind_code_at()).
	 */
	if ((c->hooks & HOOK_TEXT_OK) && ok &&
	    kunwind_frame_addr(s) - s->seg_lo >= s->seg_len &&
	    !cache_vouches(s) && (!c->nr_text_ok || !ctx_text_ok(c, s->ip)))
		fuzz_fail("step %u: frame ip %#lx reported, text_ok() %s",
			  old->depth, s->ip,
			  c->nr_text_ok ? "says it is not text" : "not asked");
	if (ok && c->nr_text_ok && kunwind_frame_addr(s) - s->seg_lo < s->seg_len)
		fuzz_fail("step %u: text_ok() asked for %#lx, in the walk's "
			  "segment [%#lx, +%#lx)", old->depth, s->ip,
			  s->seg_lo, s->seg_len);
}

static void check_step(struct walk_ctx *c, struct kunwind_state *s)
{
	struct kunwind_state old = *s;
	const struct stack *to;
	struct step m;
	size_t k;
	bool ok;

	model_step(c, s, &m);
	c->nr_ret_addr = c->nr_text_ok = 0;
	ok = kunwind_next(s);
	check_hooks(c, &old, s, &m, ok);
	if (!ok) {
		enum kunwind_stop why = s->stop;

		if (why <= KUNWIND_STOP_NONE || why >= KUNWIND_STOP_NR)
			fuzz_fail("step %u failed with stop %d", old.depth,
				  why);
		if (!(m.stops & 1U << why))
			fuzz_fail("step %u: stop '%s', expected %s", old.depth,
				  kunwind_stop_str(why), stops_str(m.stops));
		if (s->ip != old.ip || s->sp != old.sp || s->bp != old.bp ||
		    s->exact_ip != old.exact_ip || s->depth != old.depth)
			fuzz_fail("failed step %u changed the frame",
				  old.depth);
		c->nr_ret_addr = c->nr_text_ok = 0;
		if (kunwind_next(s) || s->stop != why || s->ip != old.ip ||
		    s->sp != old.sp || s->depth != old.depth ||
		    c->nr_ret_addr || c->nr_text_ok)
			fuzz_fail("a stopped walk moved on");
		return;
	}

	if (s->stop != KUNWIND_STOP_NONE || s->depth != old.depth + 1 ||
	    s->depth >= s->max_depth)
		fuzz_fail("step %u: stop %d, depth %u of %u", old.depth,
			  s->stop, s->depth, s->max_depth);
	if (m.stops && !m.fp)
		fuzz_fail("step %u succeeded, expected %s", old.depth,
			  stops_str(m.stops));
	if (s->ip != m.ip || s->sp != m.sp || s->bp != m.bp ||
	    s->exact_ip != m.exact)
		fuzz_fail("step %u: got ip %#lx sp %#lx bp %#lx exact %d, "
			  "expected ip %#lx sp %#lx bp %#lx exact %d",
			  old.depth, s->ip, s->sp, s->bp, s->exact_ip, m.ip,
			  m.sp, m.bp, m.exact);
	if (m.fp && !s->unreliable)
		fuzz_fail("step %u guessed with rbp but is not unreliable",
			  old.depth);
	if (s->unreliable && !(s->flags & KUNWIND_FP_FALLBACK))
		fuzz_fail("unreliable without the rbp fallback");

	/* The new sp is on a known stack, and grew if it is the same one. */
	to = stack_of(c, s->sp, 1);
	if (!to || s->stack_lo != to->lo ||
	    s->sp - s->stack_lo >= s->stack_hi - s->stack_lo)
		fuzz_fail("step %u: sp %#lx not on its stack [%#lx, %#lx)",
			  old.depth, s->sp, s->stack_lo, s->stack_hi);
	if (s->stack_lo == old.stack_lo && s->sp <= old.sp)
		fuzz_fail("step %u: sp went from %#lx to %#lx on one stack",
			  old.depth, old.sp, s->sp);
	/*
	 * Stacks nest (exception -> IRQ -> task): a walk may leave a stack
	 * for another, even through a CALL frame (a stack-switch CFA, or an
	 * rbp-based one around call_on_irqstack), but coming back to one it
	 * left must not revisit the frames it walked there, or two stacks
	 * can send the walk back and forth until max_depth.
	 */
	k = to - c->stk;
	if (c->seen[k] && s->sp <= c->last_sp[k])
		fuzz_fail("step %u: back on stack %#lx at sp %#lx, already "
			  "walked up to %#lx there", old.depth, s->stack_lo,
			  s->sp, c->last_sp[k]);
	c->seen[k] = true;
	c->last_sp[k] = s->sp;
}

/* kunwind_start()'s flags for the input's mode. */
static unsigned int walk_flags(const struct walk_ctx *c)
{
	return (c->mode & WALK_FP ? KUNWIND_FP_FALLBACK : 0) |
	       (c->mode & WALK_CALLED ? KUNWIND_FIRST_CALLED : 0);
}

static void walk(struct walk_ctx *c, struct walk *w, unsigned long ip,
		 unsigned long sp, unsigned long bp, unsigned int max_depth,
		 struct kunwind_cache *cache, bool trace)
{
	unsigned int flags = walk_flags(c);
	struct kunwind_state s;
	unsigned int steps = 0;

	c->nr_tramp = 0;
	kunwind_start(&s, &c->ops, c, ip, sp, bp, max_depth, flags);
	s.cache = cache;
	if (s.exact_ip != !(flags & KUNWIND_FIRST_CALLED))
		fuzz_fail("start: exact_ip %d with flags %#x", s.exact_ip,
			  flags);
	if (s.stop != (usable_stack(c, sp) ? KUNWIND_STOP_NONE :
					     KUNWIND_STOP_BAD_READ))
		fuzz_fail("start: stop '%s' with sp %#lx",
			  kunwind_stop_str(s.stop), sp);
	c->seen[0] = c->seen[1] = false;
	if (!s.stop) {
		c->seen[stack_of(c, sp, 1) - c->stk] = true;
		c->last_sp[stack_of(c, sp, 1) - c->stk] = sp;
	}
	w->ip[0] = s.ip;
	w->sp[0] = s.sp;
	w->bp[0] = s.bp;
	w->exact[0] = s.exact_ip;
	/* Each step walks a frame or stops; max_depth - 1 frames at most. */
	while (!kunwind_done(&s)) {
		if (++steps > (max_depth ? max_depth : 1))
			fuzz_fail("walk did not stop after %u steps, "
				  "max_depth %u", steps, max_depth);
		w->ip[s.depth] = s.ip;
		w->sp[s.depth] = s.sp;
		w->bp[s.depth] = s.bp;
		w->exact[s.depth] = s.exact_ip;
		if (trace)
			fprintf(stderr, "#%u ip %#lx%s sp %#lx bp %#lx\n",
				s.depth, s.ip, s.exact_ip ? " (exact)" : "",
				s.sp, s.bp);
		check_step(c, &s);
	}
	w->depth = s.depth;
	w->stop = s.stop;
	w->unreliable = s.unreliable;
	w->nr_tramp = c->nr_tramp;
	if (trace)
		fprintf(stderr, "stop: %s after %u frames%s%s\n",
			kunwind_stop_str(s.stop), s.depth,
			s.unreliable ? " (unreliable)" : "",
			cache ? " (cached lookups)" : "");
}

/* A cache changes how rules are found, never which. */
static void same_walk(const struct walk *a, const struct walk *b,
		      const char *what)
{
	unsigned int i;

	if (a->depth != b->depth || a->stop != b->stop ||
	    a->unreliable != b->unreliable)
		fuzz_fail("%s: %u frames, stop '%s', unreliable %d; without "
			  "the cache %u, '%s', %d", what, b->depth,
			  kunwind_stop_str(b->stop), b->unreliable, a->depth,
			  kunwind_stop_str(a->stop), a->unreliable);
	for (i = 0; i <= a->depth; i++)
		if (a->ip[i] != b->ip[i] || a->sp[i] != b->sp[i] ||
		    a->bp[i] != b->bp[i] || a->exact[i] != b->exact[i])
			fuzz_fail("%s: frame %u differs", what, i);
}

/*
 * kunwind_trace() gives the ips of the walk of kunwind_next(), and leaves
 * the same state, also when stopped by max and resumed: in two parts, cut
 * after the split'th ip.
 */
static void same_trace(struct walk_ctx *c, const struct walk *ref,
		       unsigned long ip, unsigned long sp, unsigned long bp,
		       unsigned int max_depth, struct kunwind_cache *cache,
		       unsigned int split, const char *what)
{
	unsigned int flags = walk_flags(c);
	unsigned long pc[MAX_FRAMES + 1];
	struct kunwind_state s;
	unsigned int n, i, want;

	c->nr_tramp = 0;
	kunwind_start(&s, &c->ops, c, ip, sp, bp, max_depth, flags);
	s.cache = cache;
	want = s.stop ? 0 : ref->depth + 1;	/* refused by kunwind_start() */
	n = kunwind_trace(&s, pc, split);
	if (n > split)
		fuzz_fail("%s: %u ips stored, room for %u", what, n, split);
	n += kunwind_trace(&s, pc + n, MAX_FRAMES + 1 - n);
	if (n != want || s.stop != ref->stop ||
	    s.depth != ref->depth || s.unreliable != ref->unreliable)
		fuzz_fail("%s: %u ips, stop '%s' at depth %u, unreliable %d; "
			  "kunwind_next(): %u, '%s', %u, %d", what, n,
			  kunwind_stop_str(s.stop), s.depth, s.unreliable,
			  want, kunwind_stop_str(ref->stop),
			  ref->depth, ref->unreliable);
	for (i = 0; i < n; i++)
		if (pc[i] != ref->ip[i])
			fuzz_fail("%s: ip %u is %#lx, kunwind_next() gave %#lx",
				  what, i, pc[i], ref->ip[i]);
	if (c->nr_tramp != ref->nr_tramp)
		fuzz_fail("%s: ret_addr() asked about the trampoline %u times, "
			  "kunwind_next() %u", what, c->nr_tramp,
			  ref->nr_tramp);
	if (s.ip != ref->ip[ref->depth] || s.sp != ref->sp[ref->depth] ||
	    s.bp != ref->bp[ref->depth] || s.exact_ip != ref->exact[ref->depth])
		fuzz_fail("%s: the last frame differs", what);
}

static void trace_ctx(const struct walk_ctx *c)
{
	const struct kunwind_seg *seg = kunwind_segs(c->t);
	unsigned int i;

	for (i = 0; i < c->t->nr_segs; i++, seg++)
		fprintf(stderr, "segment %s [%#lx, +%#x)%s\n",
			kunwind_seg_name(c->t, seg),
			(unsigned long)(seg->base + c->bias),
			seg->size, seg == c->dead ? " dead" : "");
	if (c->hooks & HOOK_TEXT_OK) {
		if (c->ok_len)
			fprintf(stderr, "text_ok: [%#lx, +%#lx)\n", c->ok_lo,
				c->ok_len);
		else
			fprintf(stderr, "text_ok: the live segments\n");
	}
	if (c->hooks & HOOK_RET_ADDR)
		fprintf(stderr, "ret_addr: trampoline %#lx, its record at "
			"%#lx: %#lx\n", c->tramp, c->slot, c->real);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static int trace = -1;	/* WALK_FUZZ_TRACE=1: print each walk */
	static struct walk w[3];
	struct fuzz_in in = { data, len };
	struct walk_ctx c = { .mode = fuzz_u8(&in) };
	unsigned int max_depth = fuzz_u8(&in);
	unsigned int dead, split;
	struct in_word tramp, slot, real;
	struct kunwind_cache *cache;
	unsigned long ip, bp, sp;
	enum kunwind_bad bad;
	uint16_t fault;
	void *t;
	size_t tlen;

	if (trace < 0)
		trace = !!getenv("WALK_FUZZ_TRACE");
	c.hooks = fuzz_u8(&in);
	dead = fuzz_u8(&in);
	split = fuzz_u8(&in);
	c.ok_lo = fuzz_u32(&in);
	c.ok_len = fuzz_u32(&in);
	tramp = in_word(&in);
	slot = in_word(&in);
	real = in_word(&in);

	if (c.mode & WALK_RAW) {
		tlen = fuzz_u16(&in);
		tlen = tlen < in.n ? tlen : in.n;
		t = fuzz_aligned_copy(in.p, tlen);
		in.p += tlen;
		in.n -= tlen;
		c.bias = fuzz_u64(&in);
		if (kunwind_table_check(t, tlen) || !segs_apart(t)) {
			free(t);
			return -1;	/* not worth keeping in the corpus */
		}
	} else {
		t = synth_table(&in, c.mode & WALK_ESCAPE, split, &tlen);
		bad = kunwind_table_check(t, tlen);
		if (bad)
			fuzz_fail("synthesized table refused: %s",
				  kunwind_bad_str(bad));
	}
	c.t = t;
	if (c.t->nr_segs) {
		c.text_lo = kunwind_segs(c.t)->base + c.bias;
		if (c.mode & WALK_DEAD_SEG)
			c.dead = &kunwind_segs(c.t)[dead % c.t->nr_segs];
	}

	c.ops.find_seg = op_find_seg;
	c.ops.read = c.mode & WALK_DIRECT ? NULL : op_read;
	c.ops.stack = op_stack;
	c.ops.ret_addr = c.hooks & HOOK_RET_ADDR ? op_ret_addr : NULL;
	c.ops.text_ok = c.hooks & HOOK_TEXT_OK ? op_text_ok : NULL;

	new_stack(&in, &c.stk[0]);
	if (c.mode & WALK_TWO_STACKS)
		new_stack(&in, &c.stk[1]);
	c.ok_lo += c.text_lo;
	c.tramp = word_at(&c, tramp);
	c.slot = word_at(&c, slot);
	c.real = word_at(&c, real);
	ip = get_word(&in, &c);
	bp = get_word(&in, &c);
	sp = c.stk[0].lo + fuzz_u16(&in);
	fault = fuzz_u16(&in);
	if (fault != NO_FAULT)
		c.fault = c.stk[0].lo + fault;
	fill_stack(&in, &c, &c.stk[0]);
	fill_stack(&in, &c, &c.stk[1]);
	if (trace)
		trace_ctx(&c);

	walk(&c, &w[0], ip, sp, bp, max_depth, NULL, trace);
	same_trace(&c, &w[0], ip, sp, bp, max_depth, NULL, split, "trace");
	if (c.mode & WALK_CACHE) {
		cache = malloc(sizeof(*cache));
		if (!cache)
			abort();
		kunwind_cache_clear(cache);
		walk(&c, &w[1], ip, sp, bp, max_depth, cache, trace);
		same_walk(&w[0], &w[1], "cold cache");
		walk(&c, &w[2], ip, sp, bp, max_depth, cache, trace);
		same_walk(&w[0], &w[2], "warm cache");
		same_trace(&c, &w[0], ip, sp, bp, max_depth, cache, split,
			   "trace, warm cache");
		kunwind_cache_clear(cache);
		same_trace(&c, &w[0], ip, sp, bp, max_depth, cache, split,
			   "trace, cold cache");
		free(cache);
	}

	free(c.stk[0].mem);
	free(c.stk[1].mem);
	free(t);
	return 0;
}
