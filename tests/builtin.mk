# SPDX-License-Identifier: GPL-2.0
# kunwind built in (CONFIG_KUNWIND=y): the test kernel with this tree at
# lib/kunwind (tests/harness/builtin-kernel.sh, cached in ~/.cache/kunwind),
# booted in QEMU, and the KUnit suites that apply to it (tests/builtin.test,
# tests/harness/kunit-run.sh --kernel builtin).  Its generator is built in the
# kernel's output tree, as in tree it always is.
CHECKS += tests/builtin.test
