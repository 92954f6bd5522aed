// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel internals kunwind.ko uses that are not exported, resolved by
 * name once at load: the one place that does so.  kallsyms_lookup_name()
 * itself is not exported since 5.7; a kprobe finds it (built in, kunwind
 * calls it directly, and resolves the rest by name all the same).
 *
 * A function is kept only if it may be called through a pointer
 * (kunwind_indirect_call_ok(): with IBT, objtool seals the ENDBR of
 * functions whose address is never taken, and calling one raises #CP).
 * Whatever cannot be had is said once at load, with what is lost; the
 * module never fails to load for it.
 *
 * Then what stands in, on the walk's path, for kernel functions kunwind
 * may not call (unexported, or not resolved): __kernel_text_address()'s
 * and in_sched_functions()'s answers from the bounds resolved here.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include "../env.h"
#include "symbols.h"

struct kunwind_syms kunwind_sym __ro_after_init;
EXPORT_SYMBOL_GPL(kunwind_sym);

/*
 * kunwind.unavailable=name,name...: treat these internals as missing, as
 * on a kernel where they cannot be had (IBT-sealed, no kallsyms); the
 * tests boot with it to walk the degraded paths.
 */
static char *unavailable;
module_param(unavailable, charp, 0444);
MODULE_PARM_DESC(unavailable, "internals to treat as missing, comma-separated (tests)");

static bool listed_unavailable(const char *name)
{
	size_t len = strlen(name);
	const char *p = unavailable;

	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/*
 * One symbol: its names (alternatives, newest first), where it goes in
 * struct kunwind_syms, whether it is called, and what is lost without it.
 * "needs": resolved only if that earlier entry was (the tracer helpers
 * matter only where the tracer's trampoline exists).
 */
struct sym_desc {
	const char *names[2];
	size_t off;
	bool call;
	const char *needs;
	const char *lost;
};

#define SYM(field) offsetof(struct kunwind_syms, field)

static const struct sym_desc sym_descs[] = {
#ifdef CONFIG_X86_64
	{ { "get_stack_info" }, SYM(get_stack_info), true, NULL,
	  "walks stay on the task and IRQ stacks (no exception or entry stacks)" },
#endif
#ifdef CONFIG_ARM64
	/* per-CPU variables: their addresses are __percpu pointers */
	{ { "__per_cpu_start" }, SYM(per_cpu[0]), false, NULL,
	  "walks stay on the task stack (no per-CPU stack is trusted)" },
	{ { "__per_cpu_end" }, SYM(per_cpu[1]), false, "__per_cpu_start",
	  "walks stay on the task stack (no per-CPU stack is trusted)" },
	{ { "irq_stack_ptr" }, SYM(irq_stack_ptr), false, NULL,
	  "walks stay on the task stack (no IRQ stack)" },
	{ { "overflow_stack" }, SYM(overflow_stack), false, NULL,
	  "a stack overflow's walk ends on the overflow stack" },
	{ { "sdei_stack_normal_ptr" }, SYM(sdei_stack_ptr[0]), false, NULL, NULL },
	{ { "sdei_stack_critical_ptr" }, SYM(sdei_stack_ptr[1]), false, NULL, NULL },
	{ { "stack_trace_save_regs" }, SYM(stack_trace_save_regs), true, NULL,
	  "the profiler has no self-check against the frame-record walk" },
#endif
	{ { "put_task_stack" }, SYM(put_task_stack), true, NULL,
	  "walks of other tasks are refused (their stacks cannot be pinned)" },
	{ { "__kernel_text_address" }, SYM(kernel_text_address), true, NULL,
	  "return addresses are checked against core and module text only: frames in ftrace, kprobe and BPF trampolines end walks" },
	{ { "_stext" }, SYM(stext), false, NULL,
	  "core kernel text unknown: without __kernel_text_address() kernel frames end walks" },
	{ { "_etext" }, SYM(etext), false, "_stext",
	  "core kernel text unknown: without __kernel_text_address() kernel frames end walks" },
	{ { "_sinittext" }, SYM(sinittext), false, NULL,
	  "without __kernel_text_address(), the boot CPU's idle task ends at start_kernel()" },
	{ { "_einittext" }, SYM(einittext), false, "_sinittext",
	  "without __kernel_text_address(), the boot CPU's idle task ends at start_kernel()" },
	{ { "modules" }, SYM(modules), false, NULL,
	  "modules loaded before kunwind.ko are not registered" },
	{ { "module_mutex" }, SYM(module_mutex), false, "modules",
	  "modules loaded before kunwind.ko are not registered" },
	/* >= 6.5: ret_from_fork is C, the switch target ret_from_fork_asm. */
	{ { "ret_from_fork_asm", "ret_from_fork" }, SYM(ret_from_fork), false, NULL,
	  "first frame of never-run tasks unreliable" },
	{ { "__sched_text_start" }, SYM(sched_text[0]), false, NULL,
	  "kunwind_save_tsk() keeps scheduler frames" },
	{ { "__sched_text_end" }, SYM(sched_text[1]), false, "__sched_text_start",
	  "kunwind_save_tsk() keeps scheduler frames" },
	{ { "__lock_text_start" }, SYM(lock_text[0]), false, NULL,
	  "kunwind_save_tsk() keeps lock frames" },
	{ { "__lock_text_end" }, SYM(lock_text[1]), false, "__lock_text_start",
	  "kunwind_save_tsk() keeps lock frames" },
	/* oops.c: a panic's frames, and whether an oops caused it */
	{ { "vpanic" }, SYM(vpanic), false, NULL, NULL },	/* >= 6.15 */
	/* arm64's die() calls panic() itself */
	{ { "oops_end", "die" }, SYM(oops_end[0]), false, NULL,
	  "a panic that an oops caused gets a second backtrace" },
	/* GCC moves its panic() call to a part of its own (6.1) */
	{ { "oops_end.cold" }, SYM(oops_end[1]), false, NULL, NULL },
	{ { "return_to_handler" }, SYM(return_to_handler), false, NULL, NULL },
	{ { "ftrace_graph_ret_addr" }, SYM(ftrace_graph_ret_addr), true, "return_to_handler",
	  "return addresses replaced by function_graph are recovered by fallback steps" },
	{ { "arch_rethook_trampoline", "__kretprobe_trampoline" },
	  SYM(rethook_trampoline), false, NULL, NULL },
	{ { "rethook_find_ret_addr", "kretprobe_find_ret_addr" },
	  SYM(rethook_find_ret_addr), true, "arch_rethook_trampoline",
	  "return addresses replaced by kretprobes are recovered by fallback steps" },
};

/*
 * kallsyms_lookup_name() is not exported since 5.7: kunwind.ko finds it
 * with a kprobe (kunwind_probed_func(): with x86's IBT the probe sits
 * after the function's ENDBR, step back to it).  Built in, kunwind is vmlinux code and takes its address.
 */
static unsigned long find_kallsyms_lookup_name(void)
{
#ifndef MODULE
	return (unsigned long)kallsyms_lookup_name;
#elif defined(CONFIG_KPROBES)
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long addr;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return kunwind_probed_func(addr);
#else
	return 0;
#endif
}

unsigned long kunwind_lookup_name(const char *name)
{
	return kunwind_sym.kallsyms_lookup_name ?
	       kunwind_sym.kallsyms_lookup_name(name) : 0;
}

/*
 * [*start, *end) of the function at addr, its size from kallsyms ("+0x0/
 * 0x3c0", what %pS prints); false if kallsyms does not know it.
 */
bool kunwind_func_range(unsigned long addr, unsigned long *start,
			unsigned long *end)
{
	char buf[KSYM_SYMBOL_LEN];
	unsigned long size;
	char *p;

	if (!addr)
		return false;
	sprint_symbol(buf, addr);
	p = strchr(buf, '/');
	if (!p || !strstr(buf, "+0x0/"))
		return false;
	p[strcspn(p, " ")] = '\0';	/* " [module]" */
	if (kstrtoul(p + 1, 16, &size) || !size)
		return false;
	*start = addr;
	*end = addr + size;
	return true;
}

/* Was the entry named name (an earlier one) resolved? */
static bool resolved(const char *name, const bool *found, unsigned int before)
{
	unsigned int i;

	for (i = 0; i < before; i++)
		if (!strcmp(sym_descs[i].names[0], name))
			return found[i];
	return false;
}

void kunwind_symbols_init(void)
{
	bool found[ARRAY_SIZE(sym_descs)] = {};
	unsigned long addr = find_kallsyms_lookup_name();
	unsigned int i, j;

	if (kunwind_indirect_call_ok(addr) &&
	    !listed_unavailable("kallsyms_lookup_name"))
		kunwind_sym.kallsyms_lookup_name = (void *)addr;
	else
		pr_warn("kallsyms_lookup_name() unavailable: every internal below is missing\n");

	for (i = 0; i < ARRAY_SIZE(sym_descs); i++) {
		const struct sym_desc *d = &sym_descs[i];

		if (d->needs && !resolved(d->needs, found, i))
			continue;
		addr = 0;
		for (j = 0; j < ARRAY_SIZE(d->names) && d->names[j] && !addr; j++)
			addr = kunwind_lookup_name(d->names[j]);
		if (listed_unavailable(d->names[0]))
			addr = 0;
		if (addr && d->call && !kunwind_indirect_call_ok(addr))
			addr = 0;
		if (addr) {
			*(unsigned long *)((char *)&kunwind_sym + d->off) = addr;
			found[i] = true;
		} else if (d->lost) {
			pr_info("%s unavailable: %s\n", d->names[0], d->lost);
		}
	}
}

/* ---- what stands in for unexported kernel functions ---------------- */

/*
 * Module text, for kernels where __kernel_text_address() cannot be
 * called: the module list is RCU-protected (modules are freed after a
 * grace period), and every walk is an RCU read-side section.  A range
 * that starts at 0 is none: the loader clears an init region's base
 * before its size when it frees it.
 */
static __kunwind_walk bool module_text(unsigned long addr)
{
	struct module *mod;
	unsigned long start, end;
	bool found = false;

	if (!kunwind_sym.modules)
		return false;
	list_for_each_entry_rcu(mod, kunwind_sym.modules, list) {
		if (mod->state == MODULE_STATE_UNFORMED)
			continue;
		kunwind_mod_text(mod, false, &start, &end);
		if (start && addr - start < end - start) {
			found = true;
			break;
		}
		kunwind_mod_text(mod, true, &start, &end);
		if (start && addr - start < end - start) {
			found = true;
			break;
		}
	}
	return found;
}

/*
 * Could a kernel frame return to, or be interrupted at, addr?  Kernel or
 * module text and the trampolines ORC accepts, as __kernel_text_address()
 * says; without it, core text and the module list (no trampolines).
 * Freed module init text is no longer the module's, so it is refused.
 * vmlinux's init text is accepted after it is freed, as ORC does: the
 * boot CPU's idle task returns into start_kernel() and friends.
 */
__kunwind_walk bool kunwind_text_address(unsigned long addr)
{
	if (kunwind_sym.kernel_text_address)
		return kunwind_sym.kernel_text_address(addr);
	if (kunwind_sym.etext && addr >= kunwind_sym.stext &&
	    addr < kunwind_sym.etext)
		return true;
	if (kunwind_sym.einittext && addr >= kunwind_sym.sinittext &&
	    addr < kunwind_sym.einittext)
		return true;
	return module_text(addr);
}
EXPORT_SYMBOL_GPL(kunwind_text_address);

/*
 * in_sched_functions(), which stack_trace_save_tsk() filters with: the
 * scheduler's and the locks' text.  Not exported; false if unresolved.
 */
__kunwind_walk bool kunwind_in_sched_functions(unsigned long addr)
{
	const unsigned long *sched = kunwind_sym.sched_text;
	const unsigned long *lock = kunwind_sym.lock_text;

	return (addr >= sched[0] && addr < sched[1]) ||
	       (addr >= lock[0] && addr < lock[1]);
}
EXPORT_SYMBOL_GPL(kunwind_in_sched_functions);
