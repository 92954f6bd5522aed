// SPDX-License-Identifier: GPL-2.0
/*
 * A small module whose only purpose is its CFI: built out of tree against
 * the Debian 6.1 headers (tests/readelf.mk), it is an ET_REL object whose
 * .debug_frame FDEs are relocated against .text, .init.text, .exit.text
 * and .text.unlikely, all starting at offset 0.  The oracle tests compare
 * kunwind-gen's rows for it with readelf's and libdw's.
 */
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>

static volatile long kunwind_frames_sink;

static noinline long kunwind_frames_fib(int n)
{
	return n < 2 ? n : kunwind_frames_fib(n - 1) + kunwind_frames_fib(n - 2);
}

static noinline long kunwind_frames_many(long a, long b, long c, long d)
{
	long x1 = a * 3, x2 = b * 5, x3 = c * 7, x4 = d * 11, x5 = a ^ d;

	barrier();
	kunwind_frames_sink = x1;
	barrier();
	return x1 + x2 * x3 + x4 * x5 + kunwind_frames_fib(a & 7);
}

static noinline int kunwind_frames_switch(int x)
{
	switch (x) {
	case 0: return kunwind_frames_fib(3);
	case 1: return 17;
	case 2: return 5;
	case 3: return 91;
	case 4: return kunwind_frames_many(x, 1, 2, 3);
	case 5: return 7;
	case 6: return 1234;
	case 7: return 8;
	default: return -1;
	}
}

static noinline int kunwind_frames_buf(int i)
{
	char *p = kmalloc(64, GFP_KERNEL);
	int r;

	if (!p)
		return -ENOMEM;
	memset(p, i, 64);
	barrier();
	r = p[i & 63];
	kfree(p);
	return r;
}

static noinline __cold void kunwind_frames_report(long v)
{
	pr_info("kunwind_frames: unexpected %ld\n", v);
}

static noinline __init long kunwind_frames_setup(int x)
{
	long r = kunwind_frames_many(x, x + 1, x + 2, x + 3);

	r += kunwind_frames_switch(x % 9);
	r += kunwind_frames_buf(x);
	return r;
}

static int __init kunwind_frames_init(void)
{
	long r = kunwind_frames_setup(5);

	if (r == 42)
		kunwind_frames_report(r);
	kunwind_frames_sink = r;
	return 0;
}

static noinline __exit void kunwind_frames_teardown(long v)
{
	if (v == 4242)
		kunwind_frames_report(v);
	kunwind_frames_sink = 0;
}

static void __exit kunwind_frames_exit(void)
{
	kunwind_frames_teardown(kunwind_frames_sink);
}

module_init(kunwind_frames_init);
module_exit(kunwind_frames_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kunwind test module: CFI in several text sections");
