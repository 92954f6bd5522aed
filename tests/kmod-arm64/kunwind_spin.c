// SPDX-License-Identifier: GPL-2.0
/*
 * Module code for tests/harness/arm64-gdb-oracle.sh to stop in: a kernel
 * thread that loops through calls of every shape GCC gives arm64 code
 * (leaves without a frame record, frames of several sizes, a frame on
 * x29 (alloca), recursion) and into the kernel (kmalloc, kfree,
 * cond_resched) and back, so that random stops land in module prologues,
 * bodies, leaves and epilogues, and in the kernel under module frames.
 */
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>

static volatile long spin_sink;
static struct task_struct *spin_task;

static noinline long spin_leaf(long a, long b)
{
	return a * 7 + (b ^ 3);
}

static noinline long spin_fib(int n)
{
	return n < 2 ? n : spin_fib(n - 1) + spin_fib(n - 2);
}

static noinline long spin_alloca(int n)
{
	volatile char *p = __builtin_alloca(n + 16);

	p[n] = (char)n;
	return spin_leaf(p[n], n);
}

static noinline long spin_big(long x)
{
	volatile long buf[64];
	int i;

	for (i = 0; i < 64; i++)
		buf[i] = spin_leaf(x, i);
	return buf[x & 63];
}

static noinline long spin_alloc(long x)
{
	long *p = kmalloc(64, GFP_KERNEL);
	long v;

	if (!p)
		return 0;
	p[0] = spin_big(x);
	v = p[0] + spin_fib(x & 15);
	kfree(p);
	return v;
}

static int spin_thread(void *unused)
{
	long i = 0;

	while (!kthread_should_stop()) {
		spin_sink += spin_alloc(i) + spin_alloca(i & 255);
		if (!(++i & 63))
			cond_resched();
	}
	return 0;
}

static int __init spin_init(void)
{
	spin_task = kthread_run(spin_thread, NULL, "kunwind_spin");
	return PTR_ERR_OR_ZERO(spin_task);
}

static void __exit spin_exit(void)
{
	kthread_stop(spin_task);
}

module_init(spin_init);
module_exit(spin_exit);
MODULE_DESCRIPTION("kunwind: module code for the arm64 gdb oracle");
MODULE_LICENSE("GPL");
