# SPDX-License-Identifier: GPL-2.0
# KUnit suites of kunwind.ko, in QEMU on the test kernel (tests/kunit.test,
# tests/harness/kunit-run.sh).  It builds kunwind.ko and kunit/ itself, in
# $(O)/kunit, with the generator that `make all` builds.
CHECKS += tests/kunit.test
