/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version and configuration difference kunwind.ko depends
 * on, in one place (force-included by Kbuild, like WireGuard's compat.h):
 * nothing else in unwind/linux/ tests LINUX_VERSION_CODE or reaches for
 * kernel internals by name.  Supported: 6.1 and 6.12 (Debian stock and the
 * self-built test kernel), x86-64; arm64's 6.12 test kernel.  What differs
 * by architecture is in arch/ (arch/x86.h, arch/arm64.h and their .c).
 *
 *   module text ranges        6.1: core_layout/init_layout, >= 6.4: mem[]
 *                             (for_each_mod_mem_type() came with mem[])
 *   unexported internals      resolved by name in symbols.c (kallsyms_lookup_name()
 *                             itself with a kprobe), never assumed present
 *   get_stack_info() (x86)    without
 *                             it, the task stack (and, >= 6.2, the IRQ
 *                             stack through the exported pcpu_hot, which
 *                             cpu_current_top_of_stack names) only
 *   ret_from_fork             >= 6.5 the switch target is ret_from_fork_asm
 *   a module's sections       mod->sect_attrs (private layout, copied here;
 *                             CONFIG_KALLSYMS && CONFIG_SYSFS)
 *   a module's read-only mem  6.1: core_layout ro_size, >= 6.4: mem[MOD_TEXT]
 *                             and mem[MOD_RODATA]
 *   non-faulting loads        copy_from_kernel_nofault_allowed()'s checks,
 *                             with the paging's virtual address width
 *   ORC fallback (x86)        CONFIG_UNWINDER_ORC only
 *   the kernel's own kunwind  CONFIG_UNWINDER_KUNWIND (kernel/patches): its
 *                             vmlinux table (__start_kunwind_table, by
 *                             name), every module's .kunwind, its oops
 *                             traces already kunwind's
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

/* Every architecture difference: arch/<arch>.h here, arch/<arch>.c. */
#if defined(CONFIG_X86_64)
#include "arch/x86.h"
#elif defined(CONFIG_ARM64)
#include "arch/arm64.h"
#else
#error "kunwind supports x86-64 and arm64 only"
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

/* ---- a module's table: its section, its read-only memory ----------- */
/* (discovery.c's block: kunwind_mod_section(), kunwind_mod_ro_holds()) */

#if defined(CONFIG_KALLSYMS) && defined(CONFIG_SYSFS)
/*
 * mod->sect_attrs, the address of every allocated section, which the
 * loader keeps for /sys/module/<m>/sections/ after init, when the symbol
 * table has lost its data symbols (unless CONFIG_KALLSYMS_ALL).  Its type
 * is private to kernel/module/sysfs.c; this is a copy of its layout,
 * the same from 5.8 (bin_attribute sections) to 6.12 at least, read in
 * the 6.12 source and the 6.1 one.  Only grp, nsections, the name and
 * the address are read.
 */
struct kunwind_module_sect_attr {
	struct bin_attribute battr;	/* .attr.name: the section's name */
	unsigned long address;
};

struct kunwind_module_sect_attrs {
	struct attribute_group grp;
	unsigned int nsections;
	struct kunwind_module_sect_attr attrs[];
};
#endif

/*
 * The run-time address of mod's section name, 0 if it has none or the
 * loader has not published its sections yet: sysfs is set up after the
 * MODULE_STATE_COMING notifiers.  Caller holds a reference on mod (the
 * attributes are freed with the module).
 */
static inline unsigned long kunwind_mod_section(const struct module *mod,
						const char *name)
{
#if defined(CONFIG_KALLSYMS) && defined(CONFIG_SYSFS)
	const struct kunwind_module_sect_attrs *sa = (const void *)READ_ONCE(mod->sect_attrs);
	unsigned int i;

	/*
	 * The copied layout is checked against what the kernel built with
	 * it: the group is "sections" and its i-th bin_attribute is ours
	 * (a kernel with another layout, e.g. without nsections, fails
	 * this and the table is found only through the symbol table).
	 */
	if (!sa || !sa->grp.name || strcmp(sa->grp.name, "sections") ||
	    !sa->grp.bin_attrs)
		return 0;
	for (i = 0; i < sa->nsections; i++) {
		if (sa->grp.bin_attrs[i] != &sa->attrs[i].battr)
			return 0;
		if (sa->attrs[i].battr.attr.name &&
		    !strcmp(sa->attrs[i].battr.attr.name, name))
			return sa->attrs[i].address;
	}
#endif
	return 0;
}

/* Is [addr, addr + len) inside [base, base + size)?  Without overflow. */
static inline bool kunwind_span_in(unsigned long addr, unsigned long len,
				   unsigned long base, unsigned long size)
{
	return addr - base < size && len <= size - (addr - base);
}

/*
 * Is [addr, addr + len) inside one read-only region of mod's core
 * memory: its text or its read-only data?  Not ro_after_init, which the
 * module's init may still write.  >= 6.4 each is an allocation of its own
 * (mem[MOD_TEXT], mem[MOD_RODATA]); 6.1 lays them out one after the
 * other in core_layout: text up to text_size, read-only data up to
 * ro_size.
 */
static inline bool kunwind_mod_ro_holds(const struct module *mod,
					unsigned long addr, unsigned long len)
{
#ifdef for_each_mod_mem_type
	static const enum mod_mem_type ro[] = { MOD_TEXT, MOD_RODATA };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ro); i++)
		if (kunwind_span_in(addr, len, (unsigned long)mod->mem[ro[i]].base,
				    mod->mem[ro[i]].size))
			return true;
	return false;
#else
	unsigned long base = (unsigned long)mod->core_layout.base;
	unsigned int text = mod->core_layout.text_size;

	return kunwind_span_in(addr, len, base, text) ||
	       kunwind_span_in(addr, len, base + text,
			       mod->core_layout.ro_size - text);
#endif
}

/* ---- stacks -------------------------------------------------------- */

/*
 * One non-faulting load of a word already proved to lie on a kernel
 * stack: the exception-table load copy_from_kernel_nofault() is made of,
 * without its call and its copy loop, but with its address checks.  A
 * fault (a freed, unmapped stack) is fixed up and returns false.
 * Measured (bench/kernel-bench.sh, test kernel, TCG): kunwind/ORC ns per
 * frame 0.92-0.99 with copy_from_kernel_nofault(), 0.62-0.67 with this.
 */
/*
 * pagefault_disable()/enable(), always inlined: the kernel's are plain
 * static inlines that GCC may emit out of line, in .text, where they
 * could be traced or probed (tests/walkpath.test).
 */
static __always_inline void kunwind_pagefault_disable(void)
{
	current->pagefault_disabled++;
	barrier();
}

static __always_inline void kunwind_pagefault_enable(void)
{
	barrier();
	current->pagefault_disabled--;
}

static __always_inline bool kunwind_read_nofault(unsigned long addr,
						 unsigned long *val)
{
	if (unlikely(!kunwind_kernel_addr_ok(addr)))
		return false;
	kunwind_pagefault_disable();
	__get_kernel_nofault(val, (unsigned long *)addr, unsigned long, fault);
	kunwind_pagefault_enable();
	return true;
fault:
	kunwind_pagefault_enable();
	return false;
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

/* ---- the kernel's unwinder is kunwind (kernel/patches) ------------- */

/*
 * The kernel walks with kunwind's walker and tables itself: vmlinux's
 * table is in the image between __start_kunwind_table and
 * __stop_kunwind_table (link-vmlinux.sh; its segment bases relocated
 * with the kernel, so at run-time addresses), and every module has its
 * .kunwind section (Makefile.modfinal), which discovery.c finds as it
 * finds the opt-in line's.
 */
#ifdef CONFIG_UNWINDER_KUNWIND
#define KUNWIND_KERNEL_UNWINDER 1
#else
#define KUNWIND_KERNEL_UNWINDER 0
#endif

#endif /* _KUNWIND_COMPAT_H */
