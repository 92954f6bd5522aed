# SPDX-License-Identifier: GPL-2.0
# tests/arm64.test: kunwind on the arm64 test kernel (cross-built) and
# gdb-multiarch as its oracle; the arm64 walker as a library for it.
CHECK_BUILD += $(O)/kunwind-gen $(O)/gdb/libkunwind-arm64.so oracle-objs
CHECKS += tests/arm64.test
