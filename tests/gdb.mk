# SPDX-License-Identifier: GPL-2.0
# The gdb helpers (gdb/kunwind) on a crash dump and a live QEMU guest of
# the test kernel, against the kernel's traces, gdb's bt and drgn
# (tests/gdb.test, tests/gdb_check.py, tests/harness/gdb-boot.sh).
CHECK_BUILD += $(O)/kunwind-gen $(O)/gdb/libkunwind.so $(O)/gdb/kunwind_format.py
CHECKS += tests/gdb.test
