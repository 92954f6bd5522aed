# SPDX-License-Identifier: GPL-2.0
# Test 2: kunwind-gen's rows against elfutils libdw (dwarf_cfi_addrframe).
# Needs libdw-dev and libelf-dev.

$(O)/tests/libdw-oracle: tests/libdw_oracle.c tests/libdw_view.c \
			 tests/libdw_oracle.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -o $@ $(filter %.c,$^) -ldw -lelf

CHECK_BUILD += $(O)/tests/libdw-oracle
CHECKS += tests/libdw.test
