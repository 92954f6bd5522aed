# SPDX-License-Identifier: GPL-2.0
# kunwind-guestprof against the guest's own profiler and QEMU's memory
# reads (tests/guestprof.test, tests/guestprof_check.py,
# scripts/guestprof-run.py, tests/harness/gdb-boot.sh live --ram).
CHECK_BUILD += $(O)/kunwind-gen $(O)/gdb/libkunwind.so $(O)/gdb/kunwind_format.py
CHECKS += tests/guestprof.test
