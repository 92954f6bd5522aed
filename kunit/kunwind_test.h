/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the KUnit suites of kunwind_test.ko and by its helper module
 * kunwind_test_helper.ko (the second, small module that the registry
 * suite loads and unloads).
 *
 *   table.c      synthetic tables built in C (lookup and walk suites,
 *                whose scenarios are unwind/test/'s, shared with the host)
 *   trace.c      one stack walked by kunwind and by the kernel's ORC
 *                unwinder, the frame-for-frame comparison, and a kthread
 *                parked asleep to be walked (orc, tracer, api suites)
 *   main.c       module init/exit, what must be recorded during init,
 *                the helper module's rendezvous, insmod/rmmod
 *   asm_frames.S, helper_sections.S   assembly called by the suites
 */
#ifndef _KUNWIND_TEST_H
#define _KUNWIND_TEST_H

#include <linux/types.h>

#define KT_MAX_FRAMES	64

/* Which section of the helper module a probe came from. */
enum kt_sec {
	KT_SEC_TEXT,
	KT_SEC_INIT,
	KT_SEC_EXIT,
	KT_SEC_UNLIKELY,
	KT_SEC_NR,
	KT_SEC_BAD = KT_SEC_NR,		/* the bad-table module's probe */
};

/*
 * What the helper module tells kunwind_test.ko when it comes up; kept by
 * value, so nothing points into the helper after it is gone.
 */
struct kt_helper_info {
	struct module *mod;
	unsigned long sec_fn[KT_SEC_NR];	/* the asm function at offset 0 */
	unsigned long text_fn;			/* a C function in .text */
	bool bad_table;				/* the copy whose table is corrupt */
};

/* helper_sections.S: each calls kunwind_test_section_probe(sec). */
void kth_sec_text(int sec);
void kth_sec_init(int sec);
void kth_sec_exit(int sec);
void kth_sec_unlikely(int sec);

/* Exported by kunwind_test.ko for the helper module. */
void kunwind_test_helper_up(const struct kt_helper_info *info);
void kunwind_test_helper_down(const struct kt_helper_info *info);
/* Called by the helper's assembly, one per section: walks from here. */
void kunwind_test_section_probe(int sec);

/* kunwind_test_early.ko (early.c), loaded before kunwind.ko. */
typedef long (*kt_early_fn)(void *arg);
long kt_early_chain(kt_early_fn fn, void *arg);
long kt_traced_1(kt_early_fn fn, void *arg);
long kt_traced_2(kt_early_fn fn, void *arg);
long kt_traced_3(kt_early_fn fn, void *arg);

#ifndef KT_HELPER

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/module.h>
#include "unwind/kunwind.h"
#include "unwind/linux/kunwind_api.h"

/*
 * The kernel's side of unwind/test/scenarios.h's contract: the scenarios
 * the host's tests/unit.c runs too (lookup_test.c, walk_test.c), and the
 * synthetic segments of every suite.
 */
#define KT_TEST struct kunit
#define KT_EXPECT(test, cond, fmt, ...) ({				\
	bool __kt_ok = (cond);						\
	if (!__kt_ok)							\
		KUNIT_FAIL(test, "%s: " fmt, #cond, ##__VA_ARGS__);	\
	__kt_ok;							\
})
#define KT_NOTE(test, fmt, ...)	kunit_info(test, fmt "\n", ##__VA_ARGS__)
#define KT_ZALLOC(test, size)	kunit_kzalloc(test, size, GFP_KERNEL)
#include "unwind/test/scenarios.h"

/* ---- table.c ---- */

/*
 * A table of nr segments as kunwind-gen would build it (rules
 * deduplicated, gaps covered by KUNWIND_RULE_NONE, wide rows above 256
 * rules), allocated with kunit_kzalloc(): freed with the test.
 */
struct kunwind_hdr *kt_table_build(struct kunit *test, const struct kt_seg *segs,
				   unsigned int nr, size_t *len);

/* ---- trace.c ---- */

struct kt_trace {
	unsigned long ip[KT_MAX_FRAMES];
	unsigned long sp[KT_MAX_FRAMES];	/* kunwind only */
	unsigned int flags[KT_MAX_FRAMES];	/* KUNWIND_FRAME_*; ORC: 0 */
	u8 fallback[KT_MAX_FRAMES];		/* KUNWIND_FRAME_ORC: its reason */
	struct kunwind_steps steps;		/* kt_save_here(): the walk's */
	unsigned int n;
	int stop;				/* kunwind: enum kunwind_stop */
	bool orc_error;				/* ORC: unwind_error() at the end */
};

/*
 * kunwind's walk through the public callback API, and the kernel's ORC
 * walk exactly as arch_stack_walk() makes it (exported __unwind_start(),
 * unwind_next_frame(), unwind_get_return_address()).
 *
 * From current, both begin with the return address into the caller of
 * kt_*_here() (like stack_trace_save(..., 0)); from regs, with regs->ip;
 * from a sleeping task, with its saved return address.
 */
void kt_kunwind_here(struct kt_trace *t);
void kt_orc_here(struct kt_trace *t);
void kt_kunwind_regs(struct kt_trace *t, struct pt_regs *regs);
void kt_orc_regs(struct kt_trace *t, struct pt_regs *regs);
void kt_kunwind_task(struct kt_trace *t, struct task_struct *task);
void kt_orc_task(struct kt_trace *t, struct task_struct *task);

/*
 * A kthread parked asleep inside this module: sleeper_fn(),
 * sleeper_recurse() depth + 1 times, sleeper_bottom(), then schedule().
 * kt_sleeper_start() returns it once it is off the CPU (its stack stays
 * still until kt_sleeper_stop()), or NULL after failing the test.
 */
struct kt_sleeper {
	struct completion parked;
	struct task_struct *task;
	int depth;
	long sink;
};

struct task_struct *kt_sleeper_start(struct kunit *test, struct kt_sleeper *s,
				     int depth);
void kt_sleeper_stop(struct kt_sleeper *s);
/* Wait up to ~2.5 s for @t to be off the CPU, asleep: its stack is still. */
bool kt_wait_asleep(struct task_struct *t);

/* A kunwind_consume_fn appending to a struct kt_trace (cookie). */
struct kunwind_frame;
bool kt_trace_add(void *cookie, const struct kunwind_frame *f);

/* kunwind_save() of current from the caller of kt_save_here(). */
void kt_save_here(struct kt_trace *t);
/* Both walks of current from the caller of kt_both_here(). */
void kt_both_here(struct kt_trace *kun, struct kt_trace *orc);

/*
 * Frame-for-frame comparison.  Frames where ORC's walk ended or kunwind
 * stopped are not compared beyond the shorter trace only when the reason
 * is one of the documented differences (see trace.c); every other
 * difference fails, with both traces printed.  first_same_fn: frame 0
 * was taken at two different call sites of one function, so only its
 * function must agree.  Returns the number of frames compared.
 */
unsigned int kt_expect_same_trace(struct kunit *test, const char *what,
				  const struct kt_trace *kun,
				  const struct kt_trace *orc,
				  bool first_same_fn);
void kt_print_trace(struct kunit *test, const char *who,
		    const struct kt_trace *t);
bool kt_trace_has(const struct kt_trace *t, unsigned long lo, unsigned long hi);
/* Is ip in the function named fn (GCC suffixes such as .isra.0 too)? */
bool kt_ip_in(unsigned long ip, const char *fn);

/*
 * In the callback of an hrtimer that must interrupt the function fn: the
 * interrupted registers if the interrupt hit fn in kernel mode; else NULL
 * and *ret says what to return: HRTIMER_RESTART (the timer forwarded
 * 500 us) or, after 200 tries (*tries counts them), HRTIMER_NORESTART:
 * given up.
 */
struct hrtimer;
struct pt_regs *kt_irq_regs_in(struct hrtimer *t, const char *fn, int *tries,
			       int *ret);

/* ---- oracle.c ---- */

/*
 * What the tables say of an address, found without kunwind's registry:
 * vmlinux's from the table file, a module's from its own .kunwind
 * section (see oracle.c).
 */
enum kt_cover {
	KT_COVER_ROW,		/* a row kunwind follows */
	KT_COVER_NOT_FOLLOWED,	/* a row of rule UNDEFINED or UNSUPPORTED */
	KT_COVER_GAP,		/* a table covers the text, its row is NONE */
	KT_COVER_NO_TABLE,	/* no table describes that text */
	KT_COVER_UNKNOWN,	/* the oracle could not read what it needs */
	KT_COVER_NR
};

struct kt_cover_info {
	char table[MODULE_NAME_LEN];	/* "vmlinux" or the module's name */
	const char *seg;		/* the segment's section name, or NULL */
	struct kunwind_rule rule;	/* the row's rule, if a segment holds it */
	const char *why;		/* NO_TABLE, UNKNOWN: why */
};

enum kt_cover kt_cover(unsigned long addr, struct kt_cover_info *ci);
const char *kt_cover_str(enum kt_cover c);
/* Frees the vmlinux table read by the first kt_cover(). */
void kt_cover_release(void);

/*
 * How many compared frames were checked, how many came from the ORC
 * fallback, and for each of those the walk's reason (reason[]) and what
 * the oracle says of the address its step was from (cover[]; a tracer's
 * trampoline undone by ORC: orc_tracer).  A fallback step whose reason
 * the oracle does not confirm, where it finds a row kunwind follows, or
 * where it cannot tell, fails the comparison.
 */
struct kt_compare_stats {
	unsigned long frames, orc_frames, differences;
	unsigned long table_steps;	/* compared frames stepped to by tables */
	unsigned long reason[KUNWIND_FALLBACK_NR];	/* the walk's reasons */
	unsigned long cover[KT_COVER_NR];
	unsigned long orc_tracer;
};
extern struct kt_compare_stats kt_stats;

/*
 * The .init and .exit of the suites that compare with ORC: each case
 * prints the steps it compared, by tables and by the ORC fallback, and
 * the fallback's by reason.
 */
int kt_steps_init(struct kunit *test);
void kt_steps_exit(struct kunit *test);

/*
 * A kunwind_save*() of n entries (store; the first the exact ip of a
 * register frame if first_exact, else a return address) and the walk's
 * steps: checked against the oracle as far as the entries tell, printed.
 * Each fallback reason may count at most the entries whose step the
 * oracle gives that reason (the walk's steps over frames it did not
 * store, in kunwind's own text, are by its table: none), and the steps
 * must reach the last entry.
 */
void kt_expect_save_steps(struct kunit *test, const char *what,
			  const unsigned long *store, unsigned int n,
			  bool first_exact, const struct kunwind_steps *steps);

/* ---- asm_frames.S (asm_test.c) ---- */

struct kt_asm_point;
struct kt_noret;
void kt_asm_cfi(struct kt_asm_point *p);
void kt_asm_call(struct kt_asm_point *p);
void kt_asm_regs(struct kt_asm_point *p);
void kt_asm_iret(struct kt_asm_point *p);
void kt_asm_switch(struct kt_asm_point *p, unsigned long *tos);
void kt_asm_end(struct kt_asm_point *p);
void kt_asm_undefined(struct kt_asm_point *p);
void __noreturn kt_asm_noret_caller(struct kt_noret *n);
void kt_asm_after_noret(struct kt_noret *n);
extern const char kt_asm_regs_ip[], kt_asm_iret_ip[];
/* Called by asm_frames.S */
void kt_asm_probe(struct kt_asm_point *p);
void __noreturn kt_noreturn_probe(struct kt_noret *n, void *local);

/* ---- main.c ---- */

/* Recorded by the test module's __init code while init text is live. */
struct kt_init_record {
	unsigned long init_fn;		/* an __init function of this module */
	bool init_rule_found;		/* kunwind_find_rule(init_fn) then */
	int init_seg_state;		/* kunwind_registration_seg_state() then */
	bool walked;
	struct kt_trace kun, orc;	/* walked from an __init function */
};
extern struct kt_init_record kt_init_record;

/* The helper module's rendezvous (registry suite). */
struct kt_probe {
	bool done;
	unsigned long call_ip;		/* return address into the asm */
	struct kunwind_rule rule;	/* kunwind_find_rule(call_ip - 1) */
	bool rule_found;
	char seg_name[24];		/* the segment holding call_ip - 1 */
	unsigned long seg_off;		/* call_ip's offset in it */
	int seg_state;			/* kunwind_registration_seg_state() then */
	char fn1[48];			/* frame 1's function, named then */
	struct kt_trace kun, orc;
};

struct kt_helper_state {
	struct kt_helper_info info;	/* the latest helper_up() */
	unsigned long ups, downs;
	struct kt_probe probe[KT_SEC_NR + 1];
	/* kunwind's view of its init function during its init */
	bool init_rule_found;
	int init_seg_state;
};
extern struct kt_helper_state kt_helper;

/* Run /bin/insmod or /bin/rmmod, or any program; 0 on success. */
int kt_run(const char *a0, const char *a1, const char *a2);
int kt_insmod(const char *name);
int kt_rmmod(const char *name);
extern char *kt_module_dir;

#endif /* !KT_HELPER */
#endif /* _KUNWIND_TEST_H */
