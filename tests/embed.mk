# SPDX-License-Identifier: GPL-2.0
# tests/embed.test: the one-line opt-in (scripts/kunwind.mk) on a test
# module (tests/embedmod) built against the Debian 6.1 headers in a copy
# under $(O)/tests/embedmod; checked with readelf, objcopy and ld -r.
# The test builds the module itself: it needs only the generator.

CHECK_BUILD += $(O)/kunwind-gen
CHECKS += tests/embed.test
