/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind.ko internals: the table registry, the kernel walk and the
 * counters.  Shared by unwind/linux/ and by the KUnit suites in kunit/,
 * for which every function here is exported GPL.  Kept small and stable.
 *
 * Concurrency: lookups (kunwind_registry_find(), kunwind_find_rule(), every
 * walk) take no lock and may run in any context, NMI included; they pair
 * with the registry's rcu_assign_pointer() of its lookup structure and the
 * synchronize_rcu()/kvfree_rcu() before the old one or a table goes away.
 * Registration and unregistration sleep.
 */
#ifndef _KUNWIND_INTERNAL_H
#define _KUNWIND_INTERNAL_H

#include <linux/types.h>
#include <linux/printk.h>
#include "../kunwind.h"
#include "kunwind_api.h"

struct module;
struct task_struct;
struct pt_regs;
struct seq_file;

/*
 * The one warning macro for what should never happen at run time (a
 * walk finding an inconsistency that a checked table cannot cause): one
 * line, once per call site, no stack dump, no BUG().  Evaluates to cond.
 * A refused table is not this: it gets one pr_warn() per registration.
 */
#define KUNWIND_WARN_ONCE(cond, fmt, ...)				\
({									\
	bool __kw_cond = !!(cond);					\
	if (unlikely(__kw_cond))					\
		pr_warn_once(fmt "\n", ##__VA_ARGS__);		\
	unlikely(__kw_cond);						\
})

/* ---- registry.c ---------------------------------------------------- */

/* Where an object's code lives, in run-time addresses: [start, end). */
struct kunwind_text {
	unsigned long start, end;
	bool init;	/* freed after init: see kunwind_reg_init_done() */
};

/*
 * The state of one segment of a registered table (debugfs shows it).
 * DROPPED: e.g. .exit.text without CONFIG_MODULE_UNLOAD, vmlinux's
 * .init.text (freed before kunwind.ko loads).
 */
enum kunwind_seg_state {
	KUNWIND_SEG_LIVE,	/* inside core text: looked up */
	KUNWIND_SEG_INIT,	/* inside init text: looked up until init is freed */
	KUNWIND_SEG_DEAD,	/* init text, freed */
	KUNWIND_SEG_DROPPED,	/* outside the object's text: not loaded */
};

struct kunwind_reg;

/*
 * The most segments one table may have.  kunwind-gen makes one per text
 * section, and a kernel object has few: vmlinux 3 (.text, .init.text,
 * .exit.text on the 6.12 test kernel), a module its .text,
 * .init.text, .exit.text, .text.unlikely, .text.hot and the kernel's
 * special text sections (.noinstr.text, .sched.text, .spinlock.text and
 * the like: about 20 names exist).  Modules are not built with
 * -ffunction-sections (clang LTO's split sections are merged back by
 * scripts/module.lds).  64 leaves room for all of them; a table with more
 * is no kernel object's, and would only make every registration copy and
 * sort, and every lookup search, more entries.
 */
#define KUNWIND_MAX_SEGS	64

/*
 * Register a table.  table/len: the relocated table (8-byte aligned),
 * which must stay mapped until kunwind_unregister_table() returns; bias:
 * run-time address minus table address (vmlinux: the KASLR offset;
 * modules: 0); text: the object's code.  Segments outside every text
 * range are dropped, segments in an init range die at
 * kunwind_reg_init_done().  A table that kunwind_table_check() refuses,
 * that has more than KUNWIND_MAX_SEGS segments, or whose live segments
 * overlap each other or another registered table's, is refused with one
 * pr_warn() naming name: ERR_PTR(-EINVAL).  Also ERR_PTR(-ENOMEM);
 * ERR_PTR(-EEXIST) if mod already has one.  Process context; sleeps.
 * name is copied.
 */
struct kunwind_reg *kunwind_register_table(const char *name,
					   struct module *mod,
					   const void *table,
					   unsigned long len,
					   unsigned long bias,
					   const struct kunwind_text *text,
					   unsigned int nr_text);

/* Init text is about to be freed: its segments stop matching.  Sleeps. */
void kunwind_reg_init_done(struct kunwind_reg *reg);

/*
 * Remove a registration; when it returns no walk uses the table any more
 * (synchronize_rcu()), so the table may be freed.  Sleeps.
 */
void kunwind_unregister_table(struct kunwind_reg *reg);

/* The registration of mod (NULL: vmlinux), or NULL.  Sleeps. */
struct kunwind_reg *kunwind_module_reg(struct module *mod);

/* State of the segment of reg holding run-time address addr, or -ENOENT. */
int kunwind_reg_seg_state(struct kunwind_reg *reg, unsigned long addr);

/*
 * The live segment holding run-time address ip, its table and the
 * segment's run-time start; NULL if none.  Caller is in an RCU read-side
 * section (a walk: preemption disabled; else rcu_read_lock())
 * for as long as it uses the table.  Any context, NMI included; its cost
 * does not grow with the number of registered tables.  This is
 * ops->find_seg of kernel walks.
 */
const struct kunwind_seg *kunwind_registry_find(unsigned long ip,
						const struct kunwind_hdr **table,
						unsigned long *start);

/*
 * For debuggers reading the registry from a target's memory (a live gdb
 * session, a crash dump: gdb/kunwind), which have vmlinux's debug info but
 * not kunwind.ko's: where the lookups' segments are and their layout.
 * They find it by its name in kunwind.ko's kallsyms (CONFIG_KALLSYMS_ALL)
 * or by its magic in kunwind.ko's read-only data.  The layout of struct
 * kunwind_live and kunwind_live_seg (registry.c) changes with kunwind.ko;
 * this says it, versioned by magic and version.
 */
struct kunwind_debug_info {
	u32 magic;			/* KUNWIND_DEBUG_MAGIC */
	u16 version;			/* KUNWIND_DEBUG_VERSION */
	u16 size;			/* of this struct */
	u64 live;			/* &kunwind_live: struct kunwind_live * */
	u16 live_nr;			/* offsetof(struct kunwind_live, nr) */
	u16 live_segs;			/* ... segs[] */
	u16 seg_size;			/* sizeof(struct kunwind_live_seg) */
	u16 seg_start, seg_end;		/* its start, end */
	u16 seg_table, seg_seg;		/* its table, seg */
	u16 reserved;
};

#define KUNWIND_DEBUG_MAGIC	0x4742444bu	/* "KDBG" little endian */
#define KUNWIND_DEBUG_VERSION	1

extern const struct kunwind_debug_info kunwind_debug_info;

/* Changes whenever what lookups find changes (registry.c). */
unsigned long kunwind_registry_gen(void);

/* A copy of the rule describing exactly ip (no ip - 1); false if none. */
bool kunwind_find_rule(unsigned long ip, struct kunwind_rule *rule);

/*
 * The length of the table at addr in module mod: its header, then the
 * whole size the header gives, must lie inside one read-only region of
 * the module (kunwind_mod_ro_holds()), so that nothing can change the
 * table after kunwind_table_check() has proved it.  0 if not, and *why
 * says what is wrong.  What registers modules' tables uses it.
 */
unsigned long kunwind_module_table_len(const struct module *mod,
				       unsigned long addr, const char **why);

/* ---- stack.c: walks of kernel stacks ------------------------------- */

/*
 * One walk: the core walker's state plus what the kernel's ops need.
 * Use: kunwind_walk_start*(); if it returns true, w->s.ip/sp/bp is the
 * first frame (w->frame_flags its KUNWIND_FRAME_* flags); then
 * kunwind_walk_next() until it returns false, each true a new frame; then
 * always kunwind_walk_end().  The walk runs with preemption disabled (an
 * RCU read-side section), from start to end.  w->s.stop says why the
 * walk ended (KUNWIND_STOP_END: complete).
 */
struct kunwind_walk {
	struct kunwind_state s;
	struct task_struct *task;
	struct pt_regs *regs;		/* the registers a walk started from */
	struct pt_regs *orc_regs;	/* a full register block ORC stepped to */
	unsigned int frame_flags;	/* KUNWIND_FRAME_* of the current frame */
	unsigned int nr_frames;		/* frames walked, the first included */
	unsigned int nr_table, nr_orc;	/* steps by tables, by the fallback */
	unsigned int nr_recovered;	/* return addresses undone from tracers */
	int graph_idx;			/* ftrace_graph_ret_addr()'s cursor */
	struct llist_node *rethook_cur;	/* rethook_find_ret_addr()'s cursor */
	bool tracer_lost;		/* a trampoline ret_addr() could not undo */
	bool put_stack;			/* try_get_task_stack() succeeded */
	struct kunwind_walk_cache *cache;	/* this CPU's lookup cache, if taken */
};

#define KUNWIND_MAX_DEPTH	128

/*
 * From ip/sp/bp on task's stacks (NULL: current).  first_called: ip is a
 * return address (look up ip - 1), else an interrupted or exact ip.
 * Another task's walk is refused (false, stop reason BAD_READ, counted)
 * in NMI and hardirq, where its stack reference must not be dropped, when
 * the task runs, has no stack, or its stack cannot be pinned.
 */
bool kunwind_walk_start(struct kunwind_walk *w, struct task_struct *task,
			unsigned long ip, unsigned long sp, unsigned long bp,
			bool first_called);
/*
 * From an interrupt, exception or NMI register set of current: the first
 * frame is regs->ip (exact), as stack_trace_save_regs() reports it.
 */
bool kunwind_walk_start_regs(struct kunwind_walk *w, struct pt_regs *regs);
/*
 * The same, with lookups through cache c, which the caller keeps across
 * walks of one context (a profiler's CPU: not shared with another walk
 * that may run at the same time) with *gen, the registry generation it
 * was filled under (kunwind_registry_gen()); a cache of another
 * generation is cleared first.  Start *gen at anything: ~0UL.
 */
bool kunwind_walk_start_regs_cached(struct kunwind_walk *w,
				    struct pt_regs *regs,
				    struct kunwind_cache *c, unsigned long *gen);
/* From where task (not current, not running) sleeps. */
bool kunwind_walk_start_task(struct kunwind_walk *w, struct task_struct *task);
/*
 * Step to the caller: by a table row, else (no row describes ip, the
 * row's step failed, or a tracer's trampoline could not be undone) one
 * step of the kernel's ORC unwinder, flagged KUNWIND_FRAME_ORC.
 */
bool kunwind_walk_next(struct kunwind_walk *w);
/* Count the stop reason, release the stack, the lookup cache and RCU. */
void kunwind_walk_end(struct kunwind_walk *w);
/* The per-CPU lookup caches of walks (stack.c); walks work without. */
int kunwind_walk_caches_init(void);
void kunwind_walk_caches_exit(void);

/*
 * The caller's frame, for starting from current: ip is the return
 * address into the caller of the function this expands in, sp the
 * caller's sp after the return, bp its rbp.  Forces a frame pointer in
 * that function (see __builtin_frame_address()).
 */
#define kunwind_caller_frame(ip, sp, bp)				\
do {									\
	unsigned long *__fp = __builtin_frame_address(0);		\
	(ip) = (unsigned long)__builtin_return_address(0);		\
	(sp) = (unsigned long)(__fp + 2);				\
	(bp) = __fp[0];							\
} while (0)

/* The kernel's ops (ctx: struct kunwind_walk *). */
extern const struct kunwind_ops kunwind_kernel_ops;

/* in_sched_functions(): scheduler or lock text (false if unresolved). */
bool kunwind_in_sched_functions(unsigned long addr);

/* Could a kernel frame return to, or be interrupted at, addr? */
bool kunwind_text_address(unsigned long addr);

/* ---- api.c, oops.c: printed traces -------------------------------- */

/* How kunwind_print_trace() prints (api.c has the format). */
struct kunwind_print {
	const char *loglvl;
	const char *what;	/* "oops", "panic": in the header; or NULL */
	unsigned int skip;	/* frames to leave out first */
	unsigned int max;	/* frames to print at most */
};

/*
 * Print current's stack like show_trace_log_lvl(): from regs, or (regs
 * NULL) from the function that calls this (its first frame is in that
 * function, at the return address of this call).  Returns the frames
 * printed.  Any context; allocates nothing, takes no lock.
 */
unsigned int kunwind_print_trace(struct pt_regs *regs,
				 const struct kunwind_print *p);

/*
 * oops.c: the backtraces printed when the kernel dies.  The die and panic
 * notifiers call kunwind_oops_show(), which runs inside a per-CPU guard
 * (kunwind_oops_guard_enter()/leave(), preemption off): a death of the
 * context that is printing one already (a fault inside the walk, a nested
 * oops, an NMI that dies) prints one line instead of a trace.  Exported
 * for the KUnit suites.
 */
enum kunwind_death { KUNWIND_DEATH_OOPS, KUNWIND_DEATH_PANIC };

bool kunwind_oops_guard_enter(void);
void kunwind_oops_guard_leave(void);
/*
 * Print the backtrace of a death: an oops from regs, a panic from where
 * panic() was called (regs NULL).  Frames printed, or -EBUSY when the
 * guard refused.
 */
int kunwind_oops_show(enum kunwind_death death, struct pt_regs *regs,
		      const char *loglvl);
/* profile.c: the sampling profiler (debugfs kunwind/profile/). */
struct dentry;
int kunwind_profile_init(void);
void kunwind_profile_debugfs(struct dentry *parent);
void kunwind_profile_exit(void);

int kunwind_oops_init(void);
void kunwind_oops_exit_notifiers(void);

/* ---- counters.c: a leaf -------------------------------------------- */

enum kunwind_counter {
	KUNWIND_CNT_WALKS,
	KUNWIND_CNT_FRAMES,		/* frames walked, the first included */
	KUNWIND_CNT_TABLE,		/* steps made by kunwind tables */
	KUNWIND_CNT_ORC,		/* steps made by the ORC fallback */
	KUNWIND_CNT_ORC_FAILED,		/* fallback tried, ORC failed too */
	KUNWIND_CNT_RECOVERED,		/* tracer trampolines undone */
	KUNWIND_CNT_ORC_TRACER,		/* ... by an ORC step (no helper) */
	KUNWIND_CNT_REFUSED,		/* walks of other tasks refused */
	KUNWIND_CNT_NO_RCU,		/* walks refused: RCU not watching */
	KUNWIND_CNT_DEATHS,		/* oops/panic backtraces printed */
	KUNWIND_CNT_DEATHS_NESTED,	/* ... refused by the per-CPU guard */
	KUNWIND_CNT_STOP,		/* + enum kunwind_stop: walk endings */
	KUNWIND_CNT_NR = KUNWIND_CNT_STOP + KUNWIND_STOP_NR
};

/* Per-CPU, NMI-safe. */
void kunwind_count(enum kunwind_counter c, unsigned long n);
unsigned long kunwind_counter_read(enum kunwind_counter c);
const char *kunwind_counter_name(enum kunwind_counter c);

/* ---- symbols.c: kernel internals resolved by name ------------------ */

struct stack_info;
struct llist_node;
struct mutex;

/*
 * Each 0/NULL when unavailable (kunwind_symbols_init() said so once, with
 * what is lost).  Read-only after init.
 */
struct kunwind_syms {
	unsigned long (*kallsyms_lookup_name)(const char *name);
	int (*get_stack_info)(unsigned long *stack, struct task_struct *task,
			      struct stack_info *info,
			      unsigned long *visit_mask);
	void (*put_task_stack)(struct task_struct *task);
	int (*kernel_text_address)(unsigned long addr);
	unsigned long stext, etext;		/* core kernel text */
	unsigned long sinittext, einittext;	/* vmlinux's init text */
	struct list_head *modules;		/* the module list ... */
	struct mutex *module_mutex;		/* ... and its lock */
	unsigned long ret_from_fork;		/* a new task's switch target */
	unsigned long sched_text[2], lock_text[2];
	unsigned long vpanic, oops_end[2];	/* oops.c; [1]: .cold */
	/* function_graph: return_to_handler, and its undo */
	unsigned long return_to_handler;
	unsigned long (*ftrace_graph_ret_addr)(struct task_struct *task,
					       int *idx, unsigned long ret,
					       unsigned long *retp);
	/* kretprobes (rethook): the trampoline, and its undo */
	unsigned long rethook_trampoline;
	unsigned long (*rethook_find_ret_addr)(struct task_struct *task,
					       unsigned long frame,
					       struct llist_node **cur);
};

extern struct kunwind_syms kunwind_sym;

void kunwind_symbols_init(void);
/* kallsyms_lookup_name(), 0 if unavailable (no kprobes, IBT-sealed). */
unsigned long kunwind_lookup_name(const char *name);
/* [*start, *end) of the function starting at addr (kallsyms' size). */
bool kunwind_func_range(unsigned long addr, unsigned long *start,
			unsigned long *end);

/* ---- between the module's files (not exported) --------------------- */

/*
 * vmlinux.S: the vmlinux table compiled in (empty without one), the
 * link-time addresses of two exported functions and of the text, and
 * that kernel's linux_banner.
 */
struct kunwind_vmlinux_info {
	u64 sprintf, kfree;
	u64 stext, etext;
	char banner[];
};

extern const u8 kunwind_vmlinux_table[], kunwind_vmlinux_table_end[];
extern const struct kunwind_vmlinux_info kunwind_vmlinux_info;

int kunwind_registry_init(void);
void kunwind_registry_exit(void);
void kunwind_registry_show(struct seq_file *m);
const char *kunwind_walk_stack_name(struct kunwind_walk *w, unsigned long sp);
int kunwind_vmlinux_register(void);
void kunwind_debugfs_init(void);
void kunwind_debugfs_exit(void);

#endif /* _KUNWIND_INTERNAL_H */
