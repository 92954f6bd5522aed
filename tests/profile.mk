# SPDX-License-Identifier: GPL-2.0
# kunwind's sampling profiler in QEMU (tests/profile.test,
# tests/harness/profile-boot.sh): a stress boot on the debug kernel (lockdep,
# kmemleak: tests/harness/test-kernel-debug.config) while the sample module
# comes and goes and CPU 1 goes offline and online, and a functional boot
# on the test kernel.  KUNWIND_PROFILE="stress" (or "func") limits the
# boots.
#
# Cost on this machine (2 cores, TCG; `time tests/profile.test`, modules
# up to date): 84 s, of which the stress boot takes 62-71 s of QEMU (boot
# 4-5 s, 40 s of loops, ~15 s for kmemleak's two scans and the output)
# and the functional boot 7-12 s.  The first run also builds the debug
# kernel into ~/.cache/kunwind: 325 s, once (tests/harness/test-kernel.sh's
# header).
CHECK_BUILD += $(O)/kunwind-gen
CHECKS += tests/profile.test
