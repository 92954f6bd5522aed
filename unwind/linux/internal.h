/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind.ko internals: the table registry, the kernel walk and the
 * counters.  Shared by unwind/linux/ and by the KUnit suites in kunit/,
 * for which every function here is exported GPL.  Kept small and stable.
 *
 * Concurrency: lookups (kunwind_registry_seg(), kunwind_find_rule(), every
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
	bool init;	/* freed after init: see kunwind_registration_init_done() */
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

struct kunwind_registration;

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

/**
 * kunwind_register_table() - Make a table's rows what walks find.
 * @name:    for messages and debugfs; copied
 * @mod:     the module the table describes; NULL: vmlinux
 * @table:   the relocated table, 8-byte aligned, mapped until
 *           kunwind_unregister_table() returns
 * @len:     its length
 * @bias:    run-time address minus table address (vmlinux: the KASLR
 *           offset; modules: 0)
 * @text:    the object's code: segments outside every range are dropped,
 *           segments in an init range die at
 *           kunwind_registration_init_done()
 * @nr_text: ranges in @text
 *
 * A table that kunwind_table_check() refuses, that has more than
 * KUNWIND_MAX_SEGS segments, or whose live segments overlap each other or
 * another registered table's, is refused with one pr_warn() naming @name.
 *
 * Context: Process context; sleeps.
 * Return: the registration; ERR_PTR(-EINVAL) for a refused table,
 * ERR_PTR(-ENOMEM), or ERR_PTR(-EEXIST) if @mod already has one.
 */
struct kunwind_registration *kunwind_register_table(const char *name,
					   struct module *mod,
					   const void *table,
					   unsigned long len,
					   unsigned long bias,
					   const struct kunwind_text *text,
					   unsigned int nr_text);

/**
 * kunwind_registration_init_done() - Init text is about to be freed.
 * @entry: a registration
 *
 * Its init segments stop matching; a walk running now still sees them
 * until it ends (the registry waits for it).
 *
 * Context: Process context; sleeps.
 */
void kunwind_registration_init_done(struct kunwind_registration *entry);

/**
 * kunwind_unregister_table() - Remove a registration.
 * @entry: what kunwind_register_table() returned
 *
 * When it returns no walk uses the table any more (synchronize_rcu()), so
 * the table may be freed.
 *
 * Context: Process context; sleeps.
 */
void kunwind_unregister_table(struct kunwind_registration *entry);

/**
 * kunwind_module_registration() - The registration of a module.
 * @mod: the module; NULL: vmlinux
 *
 * Context: Process context; sleeps (takes the registry's mutex).
 * Return: its registration, or NULL if it has none.
 */
struct kunwind_registration *kunwind_module_registration(struct module *mod);

/**
 * kunwind_registration_seg_state() - What became of a segment.
 * @entry: a registration
 * @addr:  a run-time address in one of its segments
 *
 * Context: Process context; sleeps.
 * Return: the enum kunwind_seg_state of the segment holding @addr, or
 * -ENOENT if none does.
 */
int kunwind_registration_seg_state(struct kunwind_registration *entry,
				   unsigned long addr);

/**
 * kunwind_registry_seg() - The live segment holding an address.
 * @ip:    a run-time address
 * @table: set to the segment's table
 * @start: set to the segment's run-time start
 *
 * ops->find_seg of kernel walks.  Its cost does not grow with the number
 * of registered tables.
 *
 * Context: Any context, NMI included, in an RCU read-side section (a
 * walk: preemption disabled; else rcu_read_lock()) for as long as the
 * caller uses the table.
 * Return: the segment, or NULL if no live segment holds @ip.
 */
const struct kunwind_seg *kunwind_registry_seg(unsigned long ip,
						const struct kunwind_hdr **table,
						unsigned long *start);
/**
 * kunwind_registry_fallback() - Count an ORC fallback step out of ip.
 * @ip:  the address the step's lookup was for
 * @why: enum kunwind_fallback
 *
 * Counted to the registration whose table covers @ip (debugfs tables).
 *
 * Context: Inside a walk (an RCU read-side section); any context.
 * Return: whether a table covers @ip.
 */
bool kunwind_registry_fallback(unsigned long ip, unsigned int why);

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

/**
 * kunwind_registry_gen() - The registry's generation.
 *
 * Context: Any context.
 * Return: a number that changes whenever what lookups find changes (a
 * table registered or gone, init text freed): lookup caches are valid
 * for the generation read before they were filled.
 */
unsigned long kunwind_registry_gen(void);

/**
 * kunwind_find_rule() - The rule describing an address.
 * @ip:   a run-time address, looked up as is (no ip - 1)
 * @rule: set to a copy of the rule
 *
 * Context: Any context; takes RCU itself.
 * Return: true if a live segment holds @ip, false if none does.
 */
bool kunwind_find_rule(unsigned long ip, struct kunwind_rule *rule);

/**
 * kunwind_module_table_len() - Check where a module's table lies.
 * @mod:  the module
 * @addr: the table's address in it
 * @why:  set to what is wrong when it returns 0
 *
 * The table's header, then the whole size the header gives, must lie
 * inside one read-only region of the module (kunwind_mod_ro_holds()), so
 * that nothing can change the table after kunwind_table_check() has
 * proved it.  What registers modules' tables uses it.
 *
 * Context: Process context, the module's memory stable (the module
 * notifier, or the module list's lock held).
 * Return: the table's length, or 0.
 */
unsigned long kunwind_module_table_len(const struct module *mod,
				       unsigned long addr, const char **why);

/* ---- walk.c: walks of kernel stacks -------------------------------- */

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
	struct kunwind_steps steps;	/* by tables, by the fallback */
	unsigned int fallback;		/* the ORC step's enum kunwind_fallback */
	unsigned int nr_recovered;	/* return addresses undone from tracers */
	int graph_idx;			/* ftrace_graph_ret_addr()'s cursor */
	struct llist_node *rethook_cur;	/* rethook_find_ret_addr()'s cursor */
	bool tracer_lost;		/* a trampoline ret_addr() could not undo */
	bool put_stack;			/* try_get_task_stack() succeeded */
	struct kunwind_walk_cache *cache;	/* this CPU's lookup cache, if taken */
};

#define KUNWIND_MAX_DEPTH	128

/**
 * kunwind_walk_start() - Start a walk from registers.
 * @w:            the walk
 * @task:         whose stacks (NULL: current)
 * @ip:           the first frame's ip
 * @sp:           its sp
 * @bp:           its rbp
 * @first_called: @ip is a return address (looked up at ip - 1), not an
 *                interrupted or exact ip
 *
 * Another task's walk is refused (stop reason BAD_READ, counted) in NMI
 * and hardirq, where its stack reference must not be dropped, when the
 * task runs, has no stack, or its stack cannot be pinned.
 *
 * Context: Any context; disables preemption until kunwind_walk_end().
 * Return: true if @w's first frame is valid; kunwind_walk_end() either way.
 */
bool kunwind_walk_start(struct kunwind_walk *w, struct task_struct *task,
			unsigned long ip, unsigned long sp, unsigned long bp,
			bool first_called);
/**
 * kunwind_walk_start_regs() - Start a walk from a register set of current.
 * @w:    the walk
 * @regs: an interrupt's, exception's or NMI's registers
 *
 * The first frame is regs->ip (exact), as stack_trace_save_regs()
 * reports it.
 *
 * Context: Any context; disables preemption until kunwind_walk_end().
 * Return: true if @w's first frame is valid; kunwind_walk_end() either way.
 */
bool kunwind_walk_start_regs(struct kunwind_walk *w, struct pt_regs *regs);
/**
 * kunwind_walk_start_task() - Start a walk of a sleeping task.
 * @w:    the walk
 * @task: a task, not current, not running
 *
 * Context: Process or softirq context (the task's stack is pinned);
 * disables preemption until kunwind_walk_end().
 * Return: true if @w's first frame, where @task sleeps, is valid;
 * kunwind_walk_end() either way.
 */
bool kunwind_walk_start_task(struct kunwind_walk *w, struct task_struct *task);
/**
 * kunwind_walk_next() - Step to the caller.
 * @w: a started walk
 *
 * By a table row, else (no row describes ip, the row's step failed, or a
 * tracer's trampoline could not be undone) by one step of the kernel's
 * ORC unwinder, flagged KUNWIND_FRAME_ORC.
 *
 * Context: Between kunwind_walk_start*() and kunwind_walk_end().
 * Return: true if @w's current frame is the caller's; false when the walk
 * ended (w->s.stop says why).
 */
bool kunwind_walk_next(struct kunwind_walk *w);

/**
 * kunwind_walk_trace() - Store the ips of a walk's frames.
 * @w:   a started walk
 * @pc:  where the ips go, the current frame's first
 * @max: room in @pc
 *
 * The frames a loop of kunwind_walk_next() gives, its ORC fallback
 * included; ordinary frames in runs (kunwind_trace_calls()), without
 * their KUNWIND_FRAME_* flags.  It stops at the last frame stored.
 *
 * Context: Between kunwind_walk_start*() and kunwind_walk_end().
 * Return: the number of ips stored.
 */
unsigned int kunwind_walk_trace(struct kunwind_walk *w, unsigned long *pc,
				unsigned int max);

/**
 * kunwind_walk_end() - End a walk.
 * @w: a walk that kunwind_walk_start*() started, or refused
 *
 * Counts the stop reason, releases the task's stack, the lookup cache and
 * the RCU read-side section (preemption enabled again).
 */
void kunwind_walk_end(struct kunwind_walk *w);
/* The per-CPU lookup caches of walks (walk.c); walks work without. */
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

/**
 * kunwind_in_sched_functions() - in_sched_functions(), which is not exported.
 * @addr: a kernel text address
 *
 * Context: Any context.
 * Return: true if @addr is scheduler or lock text; false, also when the
 * text's bounds could not be resolved.
 */
bool kunwind_in_sched_functions(unsigned long addr);

/**
 * kunwind_text_address() - Could a kernel frame be at an address?
 * @addr: a return address or an interrupted ip
 *
 * __kernel_text_address() when resolved; else core, init or module text.
 *
 * Context: Any context, NMI included.
 * Return: true if a kernel frame could return to, or be interrupted at,
 * @addr.
 */
bool kunwind_text_address(unsigned long addr);

/* ---- api.c, oops.c: printed traces -------------------------------- */

/* How kunwind_print_trace() prints (api.c has the format). */
struct kunwind_print {
	const char *loglvl;
	const char *what;	/* "oops", "panic": in the header; or NULL */
	unsigned int skip;	/* frames to leave out first */
	unsigned int max;	/* frames to print at most */
};

/**
 * kunwind_print_trace() - Print current's stack like show_trace_log_lvl().
 * @regs: where to start; NULL: the function that calls this (its first
 *        frame is in that function, at the return address of this call)
 * @p:    how
 *
 * Context: Any context; allocates nothing, takes no lock.
 * Return: the frames printed.
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

/**
 * kunwind_oops_guard_enter() - Enter this CPU's death-printing guard.
 *
 * Context: Any context; disables preemption until
 * kunwind_oops_guard_leave().
 * Return: true if entered; false if this CPU is printing a death already
 * (the caller prints one line instead, and still leaves).
 */
bool kunwind_oops_guard_enter(void);

/**
 * kunwind_oops_guard_leave() - Leave the guard kunwind_oops_guard_enter()
 * entered or refused.
 */
void kunwind_oops_guard_leave(void);

/**
 * kunwind_oops_show() - Print the backtrace of a death.
 * @death:  an oops or a panic
 * @regs:   an oops: its registers; a panic: NULL, from where panic() was
 *          called
 * @loglvl: printk level prefix
 *
 * Context: The die and panic notifiers; any context.
 * Return: the frames printed, or -EBUSY when the guard refused.
 */
int kunwind_oops_show(enum kunwind_death death, struct pt_regs *regs,
		      const char *loglvl);
int kunwind_oops_init(void);
void kunwind_oops_exit_notifiers(void);

/* ---- counters.c: a leaf -------------------------------------------- */

enum kunwind_counter {
	KUNWIND_CNT_WALKS,
	KUNWIND_CNT_FRAMES,		/* frames walked, the first included */
	KUNWIND_CNT_TABLE,		/* steps made by kunwind tables */
	KUNWIND_CNT_ORC,		/* steps made by the ORC fallback */
	KUNWIND_CNT_FALLBACK,		/* + enum kunwind_fallback: per reason */
	KUNWIND_CNT_ORC_FAILED = KUNWIND_CNT_FALLBACK + KUNWIND_FALLBACK_NR,
					/* fallback tried, ORC failed too */
	KUNWIND_CNT_RECOVERED,		/* tracer trampolines undone */
	KUNWIND_CNT_ORC_TRACER,		/* ... by an ORC step (no helper) */
	KUNWIND_CNT_REFUSED,		/* walks of other tasks refused */
	KUNWIND_CNT_NO_RCU,		/* walks refused: RCU not watching */
	KUNWIND_CNT_DEATHS,		/* oops/panic backtraces printed */
	KUNWIND_CNT_DEATHS_NESTED,	/* ... refused by the per-CPU guard */
	KUNWIND_CNT_STOP,		/* + enum kunwind_stop: walk endings */
	KUNWIND_CNT_NR = KUNWIND_CNT_STOP + KUNWIND_STOP_NR
};

/**
 * kunwind_count() - Add to a per-CPU counter.
 * @c: the counter
 * @n: how much
 *
 * Context: Any context, NMI included.
 */
void kunwind_count(enum kunwind_counter c, unsigned long n);

/**
 * kunwind_counter_read() - A counter's sum over the CPUs.
 * @c: the counter
 *
 * Context: Any context; not a snapshot: CPUs may count meanwhile.
 * Return: the sum.
 */
unsigned long kunwind_counter_read(enum kunwind_counter c);

/**
 * kunwind_counter_name() - A counter's name, as debugfs shows it.
 * @c: the counter
 *
 * Return: the name; "?" for a value out of range.
 */
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
/**
 * kunwind_lookup_name() - kallsyms_lookup_name(), which is not exported
 * (nor is this: kunwind's own use only).
 * @name: a symbol
 *
 * Context: Process context.
 * Return: its address; 0 if unknown, or if kallsyms_lookup_name() could
 * not be found (no kprobes, IBT-sealed).
 */
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
