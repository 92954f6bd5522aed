# SPDX-License-Identifier: GPL-2.0
# Test 3: stacks from a core file, kunwind-stack against eu-stack and gdb.
# stackprog parks threads in hard places and dumps core; its flags are its
# own (never the host CFLAGS): the cases depend on -O2 without frame
# pointers.  Needs elfutils, gdb and libc6-dbg.

$(O)/tests/stackprog: tests/stackprog.c
	@mkdir -p $(@D)
	$(CC) -O2 -fomit-frame-pointer -g $(WFLAGS) -pthread -o $@ $<

CHECK_BUILD += $(O)/tests/stackprog $(O)/kunwind-stack
CHECKS += tests/stack.test
