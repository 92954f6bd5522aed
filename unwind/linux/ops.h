/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's walk operations, kunwind_kernel_ops, and the core's calls
 * of them.  Included by env.h in the kernel build only: the freestanding
 * core (kunwind.h) knows of ops, not of the kernel.  Two implement them:
 * kunwind.ko (unwind/linux/kwalk.c) and, in a kernel whose unwinder is
 * kunwind (CONFIG_UNWINDER_KUNWIND), arch/x86/kernel/unwind_kunwind.c.
 */
#ifndef _KUNWIND_LINUX_OPS_H
#define _KUNWIND_LINUX_OPS_H

/* env.h comes before format.h and kunwind.h: their structs by name. */
struct kunwind_ops;
struct kunwind_hdr;
struct kunwind_seg;

extern const struct kunwind_ops kunwind_kernel_ops;

/*
 * kunwind_kernel_ops' functions, on a kernel walk: ctx is the walk's own
 * state (kunwind.ko: struct kunwind_kstate, unwind/linux/kwalk.h).  They
 * run in the walk's context, any, NMI included.
 */

/**
 * kunwind_kernel_find_seg() - the kernel's ops->find_seg()
 * @ctx: the walk
 * @ip: a run-time address
 * @table: set to the table of the segment found
 * @start: set to the segment's run-time start
 *
 * Return: the segment of a registered table holding @ip (kunwind.ko:
 * the registry's lookup, kunwind_registry_seg()), or NULL.
 */
const struct kunwind_seg *kunwind_kernel_find_seg(void *ctx, unsigned long ip,
						  const struct kunwind_hdr **table,
						  unsigned long *start);

/**
 * kunwind_kernel_read() - the kernel's ops->read()
 * @ctx: the walk
 * @addr: a word the walker proved to lie on a stack
 *        kunwind_kernel_stack() gave
 * @val: set to the word
 *
 * A read whose fault is fixed up (kunwind.ko: kunwind_read_nofault(),
 * unwind/linux/compat.h).  A failed read of a stack of current also warns
 * once: those stacks cannot go away under the walk.
 *
 * Return: true if the word was read, false if it faulted or the address
 * is one copy_from_kernel_nofault() refuses.
 */
bool kunwind_kernel_read(void *ctx, unsigned long addr, unsigned long *val);

/**
 * kunwind_kernel_stack() - the kernel's ops->stack()
 * @ctx: the walk
 * @sp: an address
 * @lo: set to the start of the stack holding @sp
 * @hi: set to its end
 *
 * The task stack, and for current the IRQ, exception and entry stacks
 * that get_stack_info() knows (without it, the task stack only).
 *
 * Return: true if one of the walk's task's stacks holds @sp.
 */
bool kunwind_kernel_stack(void *ctx, unsigned long sp, unsigned long *lo,
			  unsigned long *hi);

/**
 * kunwind_kernel_ret_addr() - the kernel's ops->ret_addr()
 * @ctx: the walk
 * @ip: a return address read from the stack
 * @addr_p: where it was read
 *
 * Undoes function_graph's return_to_handler and the rethook trampoline
 * with the tracers' own records of the walk's task, as ORC's
 * unwind_recover_ret_addr().
 *
 * Return: @ip if it is no trampoline, else the real return address, or 0
 * if it cannot be had (kunwind.ko then lets ORC take that step).
 */
unsigned long kunwind_kernel_ret_addr(void *ctx, unsigned long ip,
				      unsigned long addr_p);

/*
 * The trampolines kunwind_kernel_ret_addr() undoes (function_graph's
 * return_to_handler, the rethook trampoline; 0 for one the kernel lacks),
 * set before the first walk: the walk asks it about these ips only, and
 * takes every other return address as it is, without a call.
 */
extern unsigned long kunwind_kernel_trampolines[2];

/**
 * kunwind_kernel_text_ok() - the kernel's ops->text_ok()
 * @ctx: the walk
 * @ip: an address outside every segment
 *
 * Return: whether the kernel could return to or be interrupted at @ip
 * (__kernel_text_address(); kunwind.ko: kunwind_text_address(), which
 * asks it where it can be called).
 */
bool kunwind_kernel_text_ok(void *ctx, unsigned long ip);

/*
 * The core calls these directly when kunwind_kernel_ops are the walk's
 * (walk.c, op_read() and the others): an indirect call is a retpoline
 * here.
 */
#define KUNWIND_KERNEL_OPS

#endif /* _KUNWIND_LINUX_OPS_H */
