/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version and configuration difference kunwind.ko depends
 * on, in one place (force-included by Kbuild, like WireGuard's compat.h):
 * nothing else in unwind/linux/ tests LINUX_VERSION_CODE or reaches for
 * kernel internals by name.  Supported: 6.1 and 6.12 (Debian stock and the
 * self-built test kernel), x86-64.
 *
 *   module text ranges        6.1: core_layout/init_layout, >= 6.4: mem[]
 *                             (for_each_mod_mem_type() came with mem[])
 *   kallsyms_lookup_name()    not exported since 5.7: found with a kprobe
 *   get_stack_info()          not exported: resolved once by name; without
 *                             it, the task stack (and, >= 6.2, the IRQ
 *                             stack through the exported pcpu_hot, which
 *                             cpu_current_top_of_stack names) only
 *   ret_from_fork             >= 6.5 the switch target is ret_from_fork_asm
 *   ORC fallback              CONFIG_UNWINDER_ORC only
 *
 * Versions are told apart by what the headers define, not by
 * LINUX_VERSION_CODE: distributions backport.
 */
#ifndef _KUNWIND_COMPAT_H
#define _KUNWIND_COMPAT_H

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/stacktrace.h>
#include <asm/cpu_entry_area.h>
#include <asm/cpufeature.h>
#include <asm/unwind.h>

#if !defined(CONFIG_X86_64)
#error "kunwind supports x86-64 only"
#endif

/* ---- module memory ------------------------------------------------- */

/* [*start, *end) of mod's core or init text; empty if it has none. */
static inline void kunwind_mod_text(const struct module *mod, bool init,
				    unsigned long *start, unsigned long *end)
{
#ifdef for_each_mod_mem_type
	const struct module_memory *m = &mod->mem[init ? MOD_INIT_TEXT : MOD_TEXT];

	*start = (unsigned long)m->base;
	*end = *start + m->size;
#else
	const struct module_layout *l = init ? &mod->init_layout : &mod->core_layout;

	*start = (unsigned long)l->base;
	*end = *start + l->text_size;
#endif
}

/*
 * mod's full symbol table: at MODULE_STATE_COMING (and during init) the
 * loader's complete one, with data symbols such as __kunwind_table; after
 * init only the core symbols.  Caller holds rcu_read_lock_sched() or runs
 * in the module notifier.
 */
static inline bool kunwind_mod_symtab(const struct module *mod,
				      const Elf_Sym **syms, unsigned int *nr,
				      const char **strtab)
{
#ifdef CONFIG_KALLSYMS
	const struct mod_kallsyms *k = rcu_dereference_sched(mod->kallsyms);

	if (!k)
		return false;
	*syms = k->symtab;
	*nr = k->num_symtab;
	*strtab = k->strtab;
	return true;
#else
	return false;
#endif
}

/* ---- indirect calls into unexported functions ---------------------- */

#define KUNWIND_ENDBR64	0xfa1e0ff3	/* f3 0f 1e fa */

/*
 * With kernel IBT enabled an indirect call must land on ENDBR64, and
 * objtool seals (overwrites) the ENDBR of functions whose address is
 * never taken, such as get_stack_info(): calling one through a pointer
 * would raise #CP.  So check before calling, never crash.
 */
static inline bool kunwind_indirect_call_ok(unsigned long addr)
{
	u32 insn;

	if (!addr || copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn)))
		return false;
#ifdef CONFIG_X86_KERNEL_IBT
	if (cpu_feature_enabled(X86_FEATURE_IBT) && insn != KUNWIND_ENDBR64)
		return false;
#endif
	return true;
}

/* ---- stacks -------------------------------------------------------- */

/*
 * One non-faulting load of a word already proved to lie on a kernel
 * stack: the exception-table load copy_from_kernel_nofault() is made of,
 * without its call, its user-range check and its copy loop.  A fault
 * (a freed, unmapped stack) is fixed up and returns false.  Measured
 * (bench/kernel-bench.sh, test kernel, TCG): kunwind/ORC ns per frame
 * 0.92-0.99 with copy_from_kernel_nofault(), 0.62-0.67 with this.
 */
static __always_inline bool kunwind_read_nofault(unsigned long addr,
						 unsigned long *val)
{
	pagefault_disable();
	__get_kernel_nofault(val, (unsigned long *)addr, unsigned long, fault);
	pagefault_enable();
	return true;
fault:
	pagefault_enable();
	return false;
}

/* The task's (not current, not running) saved frame at task->thread.sp. */
static inline unsigned long kunwind_task_saved_sp(struct task_struct *task)
{
	return READ_ONCE(task->thread.sp);
}

/* task's stack is not freed yet (it is freed when the task exits). */
static inline bool kunwind_task_stack_alive(struct task_struct *task)
{
	return task_stack_page(task) && refcount_read(&task->stack_refcount);
}

/* task runs on another CPU: its stack changes under us. */
static inline bool kunwind_task_running(struct task_struct *task)
{
#ifdef CONFIG_SMP
	return task != current && READ_ONCE(task->on_cpu);
#else
	return false;
#endif
}

/* This CPU's IRQ stack [*lo, *hi), when known without get_stack_info(). */
static inline bool kunwind_irq_stack(unsigned long *lo, unsigned long *hi)
{
#ifdef cpu_current_top_of_stack
	/* As in_irq_stack(): the pointer is the top-most word. */
	unsigned long top = (unsigned long)this_cpu_read(pcpu_hot.hardirq_stack_ptr);

	if (!top)
		return false;
	*hi = top + sizeof(long);
	*lo = *hi - IRQ_STACK_SIZE;
	return true;
#else
	return false;
#endif
}

/* The names dump_stack() prints for stack types (stack_type_name()). */
static inline const char *kunwind_stack_name(enum stack_type type)
{
	static const char * const exc[] = {
		[ESTACK_DF] = "#DF", [ESTACK_NMI] = "NMI", [ESTACK_DB] = "#DB",
		[ESTACK_MCE] = "#MC", [ESTACK_VC] = "#VC", [ESTACK_VC2] = "#VC2",
	};

	if (type == STACK_TYPE_TASK)
		return "TASK";
	if (type == STACK_TYPE_IRQ)
		return "IRQ";
	if (type == STACK_TYPE_SOFTIRQ)
		return "SOFTIRQ";
	if (type == STACK_TYPE_ENTRY)
		return "ENTRY_TRAMPOLINE";
	if (type >= STACK_TYPE_EXCEPTION && type <= STACK_TYPE_EXCEPTION_LAST &&
	    type - STACK_TYPE_EXCEPTION < ARRAY_SIZE(exc))
		return exc[type - STACK_TYPE_EXCEPTION];
	return "UNKNOWN";
}

/* ---- the kernel's ORC unwinder, for the fallback step -------------- */

#ifdef CONFIG_UNWINDER_ORC
#define KUNWIND_HAVE_ORC 1
#else
#define KUNWIND_HAVE_ORC 0
#endif

#endif /* _KUNWIND_COMPAT_H */
