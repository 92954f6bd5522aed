/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel internals resolved by name (symbols.c), and what stands in for
 * the kernel functions kunwind may not call: the walk, the oops printer,
 * module discovery and the vmlinux table use them.  Exported GPL:
 * kunwind_sym, kunwind_in_sched_functions() and kunwind_text_address()
 * (for the KUnit suites and the profiler); the rest is kunwind.ko's own.
 */
#ifndef _KUNWIND_SYMBOLS_H
#define _KUNWIND_SYMBOLS_H

#include <linux/types.h>

struct task_struct;
struct pt_regs;
struct stack_info;
struct llist_node;
struct list_head;
struct mutex;

/*
 * Each 0/NULL when unavailable (kunwind_symbols_init() said so once, with
 * what is lost).  Read-only after init.
 */
struct kunwind_syms {
	unsigned long (*kallsyms_lookup_name)(const char *name);
#ifdef CONFIG_X86_64
	int (*get_stack_info)(unsigned long *stack, struct task_struct *task,
			      struct stack_info *info,
			      unsigned long *visit_mask);
#endif
#ifdef CONFIG_ARM64
	/* __percpu addresses: irq_stack_ptr, overflow_stack, the SDEI ones */
	unsigned long irq_stack_ptr, overflow_stack, sdei_stack_ptr[2];
	unsigned long per_cpu[2];	/* [__per_cpu_start, __per_cpu_end) */
	/* the kernel's frame-record walk: the profiler's self-check */
	unsigned int (*stack_trace_save_regs)(struct pt_regs *regs,
					      unsigned long *store,
					      unsigned int size,
					      unsigned int skip);
#endif
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

#endif /* _KUNWIND_SYMBOLS_H */
