// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_test_early.ko: a module with a kunwind table that is loaded
 * BEFORE kunwind.ko (tests/harness/kunit-run.sh), so kunwind must find and
 * register it at its own load.  It only exports call chains that the
 * suites of kunwind_test.ko walk through:
 *
 *   kt_early_chain(fn, arg)     two frames of this module, then fn(arg):
 *                               the registry suite proves those frames were
 *                               walked by this module's table
 *   kt_traced_1/2/3(fn, arg)    three frames that the test's initramfs
 *                               puts under function_graph (set_ftrace_filter
 *                               "kt_traced_*"), and that the tracer suite
 *                               puts under kretprobes
 *
 * Each level does work after the call, so no call is a tail call and each
 * frame keeps its return address on the stack, and its own work, so that
 * no two functions are folded into one (-fipa-icf).
 */
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/module.h>

#include "kunwind_test.h"

static noinline long kt_early_inner(kt_early_fn fn, void *arg)
{
	long r = fn(arg);

	barrier();
	return r + 11;
}

noinline long kt_early_chain(kt_early_fn fn, void *arg)
{
	long r = kt_early_inner(fn, arg);

	barrier();
	return r + 12;
}
EXPORT_SYMBOL_GPL(kt_early_chain);

noinline long kt_traced_3(kt_early_fn fn, void *arg)
{
	long r = fn(arg);

	barrier();
	return r + 3;
}
EXPORT_SYMBOL_GPL(kt_traced_3);

noinline long kt_traced_2(kt_early_fn fn, void *arg)
{
	long r = kt_traced_3(fn, arg);

	barrier();
	return r + 2;
}
EXPORT_SYMBOL_GPL(kt_traced_2);

noinline long kt_traced_1(kt_early_fn fn, void *arg)
{
	long r = kt_traced_2(fn, arg);

	barrier();
	return r + 1;
}
EXPORT_SYMBOL_GPL(kt_traced_1);

MODULE_DESCRIPTION("kunwind KUnit helper: a tabled module loaded before kunwind.ko");
MODULE_LICENSE("GPL");
