# SPDX-License-Identifier: GPL-2.0
# kunwind.ko and the sample module (sample/) on Debian's stock 6.1 and 6.12
# kernels booted in QEMU: kunwind's backtraces against the kernel's own
# dump_stack() at every point of sample/points.c (tests/stock.test), each kernel
# twice: without a vmlinux table (ORC fallback for vmlinux frames) and
# with the table of the vmlinux from its -dbg package.
#
# Cost on this machine (2 cores, TCG): the four boots with their builds
# take 56 s (`time tests/run tests/stock.test`, vmlinux files cached).
# First run on a fresh machine adds:
#   - the 6.12 image and headers (tests/harness/stock-boot.sh: apt-get update,
#     install): 43 s, of which 24 s are the image's update-initramfs;
#   - the two -dbg vmlinux files (tests/harness/dbg-vmlinux.sh: download 1.9 GB
#     of .deb, extract one member each, keep 1 GB in ~/.cache/kunwind/dbg):
#     25 s at this mirror's speed, a few minutes at worst.
# Affordable in CI's 90 minutes, so the -dbg variants run; they are
# "ok stock_<kver>_dbg # SKIP" only when apt no longer offers the -dbg
# package of the installed image's version, or with KUNWIND_STOCK_DBG=no.
# KUNWIND_STOCK="6.1" limits the kernels.

CHECK_BUILD += $(O)/kunwind-gen
CHECKS += tests/stock.test
