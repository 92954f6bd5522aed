// SPDX-License-Identifier: GPL-2.0
/*
 * libmixedlib.so, for tests/mixedprog.c: frame 0 of its main thread.  The
 * test removes it (or puts a FIFO in its place) before it reads the core,
 * so that frame 0 lies in no file an unwinder can read.  Built with frame
 * pointers; its CFI is gone with the file.
 */
int *volatile lib_target;	/* NULL: the store faults */

/* A local on the stack: GCC 12 sets up no frame for a leaf without one. */
void lib_fault(void)
{
	volatile int one = 1;

	*lib_target = one;
}
