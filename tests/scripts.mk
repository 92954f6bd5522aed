# SPDX-License-Identifier: GPL-2.0
# The test machinery on inputs made to fail (tests/scripts.test): tests/run,
# the package set-up, stock-boot.sh, vmlinux.test, stock.test --check,
# kunit-report.py, qemu-run.sh's statuses, mkinitramfs.sh's scripts (one
# ~10 s boot of the stock 6.1 kernel).
CHECK_BUILD += $(O)/kunwind-gen $(O)/tests/libdw-oracle
CHECKS += tests/scripts.test
