# SPDX-License-Identifier: GPL-2.0
# kunwind.ko and the sample module (sample/) on Debian's stock 6.1 and 6.12
# kernels booted in QEMU: kunwind's backtraces against the kernel's own
# dump_stack() at every point of sample.c (tests/stock.test).  About 30 s a
# kernel.  scripts/stock-boot.sh installs a missing 6.12 image and headers
# with apt; KUNWIND_STOCK="6.1" limits the kernels.

CHECK_BUILD += $(O)/kunwind-gen
CHECKS += tests/stock.test
