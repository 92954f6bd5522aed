# SPDX-License-Identifier: GPL-2.0
# kunwind's oops and panic backtraces (unwind/linux/oops.c) beside the
# kernel's own, one QEMU boot per death of the sample module, on the test
# kernel and Debian's stock 6.1 and 6.12 with their vmlinux tables
# (tests/death.test, tests/harness/death-boot.sh).  KUNWIND_DEATH="test" limits
# the kernels.
CHECK_BUILD += $(O)/kunwind-gen
CHECKS += tests/death.test
