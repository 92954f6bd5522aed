# SPDX-License-Identifier: GPL-2.0
# kunwind as the kernel's own unwinder (CONFIG_UNWINDER_KUNWIND): the
# series in kernel/patches on the test kernel (tests/harness/unwinder-kernel.sh,
# cached in ~/.cache/kunwind), booted in QEMU beside its ORC twin, the test
# kernel (tests/unwinder.test).
CHECKS += tests/unwinder.test
