# SPDX-License-Identifier: GPL-2.0
# Host side of kunwind: the generator, kunwind-stack, tests and benchmarks.
# The kernel module is built by Kbuild (see Kbuild), not here.

O       ?= build
CC      ?= gcc
CFLAGS  ?= -O2 -g
# -Werror in a checkout only: a copy elsewhere (DKMS's /usr/src/kunwind-*,
# built by the host's compiler at install time) must not fail its
# installation on a warning a newer compiler adds.
WERROR  ?= $(if $(wildcard .git),-Werror)
WFLAGS  := -Wall -Wextra $(WERROR) -Wno-unused-parameter
CORE_CFLAGS := -ffreestanding -fno-stack-protector -nostdlib

CORE_SRC := unwind/lookup.c unwind/walk.c
GEN_SRC  := gen/elf.c gen/arch.c gen/rows.c gen/map.c gen/cfi.c gen/cfa.c gen/hints.c gen/arm64.c gen/orc.c gen/table.c gen/build.c gen/dump.c gen/embed.c gen/asm.c
GEN_LIBS := -lelf

CORE_OBJ := $(CORE_SRC:%.c=$(O)/%.o)
GEN_OBJ  := $(GEN_SRC:%.c=$(O)/%.o)

all: $(O)/kunwind-gen $(O)/kunwind-stack gdb

# The core is compiled freestanding, exactly as the kernel sees it.
$(O)/unwind/%.o: unwind/%.c unwind/*.h unwind/host/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) $(CORE_CFLAGS) -c -o $@ $<

$(O)/gen/%.o: gen/%.c gen/*.h unwind/*.h unwind/host/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -c -o $@ $<

$(O)/kunwind-gen: $(O)/gen/main.o $(GEN_OBJ) $(CORE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(GEN_LIBS)

# kunwind-stack: the walker on the threads of a core file (kunwind-stack/).
# Its objects go to kunwind-stack.obj/, as $(O)/kunwind-stack is the program.
STACK_OBJ := $(O)/kunwind-stack.obj/main.o $(O)/kunwind-stack.obj/core.o

$(O)/kunwind-stack.obj/%.o: kunwind-stack/%.c kunwind-stack/*.h gen/*.h unwind/*.h unwind/host/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -c -o $@ $<

$(O)/kunwind-stack: $(STACK_OBJ) $(GEN_OBJ) $(CORE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(GEN_LIBS)

# The gdb helpers and kunwind-guestprof: libkunwind.so and the Python
# constants (gdb/gdb.mk; not in the DKMS package's copy of the tree).
-include gdb/gdb.mk

# Host tools and tests, plus QEMU, busybox, headers and kernel sources for
# the kernel tests (make check runs them all).
deps:
	@scripts/deps.sh kernel

# Test and benchmark fragments add their own targets and CHECKS.
-include tests/*.mk bench/*.mk fuzz/*.mk

check: deps
	@$(MAKE) --no-print-directory all $(CHECK_BUILD)
	@tests/run $(CHECKS)

# The host tests alone, a few minutes: no test kernel to build and no
# kernel booted, but scripts.test's one boot of the stock 6.1 kernel
# (~10 s).  The rest of CHECKS builds the test kernel (kbuild, orc,
# vmlinux) or boots kernels in QEMU (tests/README.md says which).
HOST_CHECKS = $(filter tests/unit.test tests/libdw.test tests/readelf.test \
	tests/embed.test tests/kunwind-stack%.test tests/guestmem.test \
	tests/flamegraph.test tests/scripts.test tests/layout.test fuzz/%.test \
	tests/bench.test, \
	$(CHECKS))

check-host:
	@scripts/deps.sh
	@$(MAKE) --no-print-directory all $(CHECK_BUILD)
	@tests/run $(HOST_CHECKS)

# The main job: the stock Debian kernel in QEMU with kunwind.ko and the
# sample module, kunwind's backtraces beside the kernel's; then the host
# demo (kunwind-stack on a core file).
demo: deps
	@$(MAKE) --no-print-directory all $(O)/tests/stackprog
	@scripts/demo.sh

# The 6.12 test kernel with kunwind as its own unwinder
# (CONFIG_UNWINDER_KUNWIND): the series in kernel/patches applied to a
# hard-linked view of the source; prints the build directory last.
# Documentation/unwinder.rst.
unwinder-kernel: deps
	@tests/harness/unwinder-kernel.sh

# The Debian DKMS package: $(O)/deb/kunwind-dkms_<version>_all.deb
# (debian/, Documentation/debian.rst).  dpkg-buildpackage runs in a copy,
# $(O)/deb/src, of the files the package takes (those git lists, tracked
# or not yet, never ignored ones: no build output), so nothing is written
# to the tree.  The version is debian/changelog's plus +git<commit
# time>.<commit>, and .dirty<UTC time> when the package's files have
# uncommitted changes, so that a later commit's package, or a rebuild
# after an edit, upgrades an earlier one (apt would otherwise keep the
# installed package of the same version).  MAKEFLAGS is
# not passed on: this make's O= is not debian/rules' business.
DEB_FILES := Kbuild Kconfig Makefile COPYING LICENSE gen unwind prof \
	scripts/kunwind.mk scripts/dkms-post-install scripts/initramfs debian

deb:
	@APT_WHO=deb; . scripts/apt.sh && apt_need debhelper dh-dkms dkms dpkg-dev
	rm -rf $(O)/deb && mkdir -p $(O)/deb/src
	git ls-files -z -c -o --exclude-standard -- $(DEB_FILES) | \
		xargs -0 cp -p --parents -t $(O)/deb/src
	sed -i "1s/(\([^)]*\))/(\1+git$$(TZ=UTC0 git log -1 --format=%cd \
		--date=format-local:%Y%m%d%H%M%S).$$(git log -1 --format=%h)$$( \
		test -z "$$(git status --porcelain -- $(DEB_FILES))" || \
		date -u +.dirty%Y%m%d%H%M%S))/" \
		$(O)/deb/src/debian/changelog
	cd $(O)/deb/src && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		dpkg-buildpackage -b -us -uc >../build.log 2>&1 || \
		{ cat ../build.log; exit 1; }
	@ls $(O)/deb/kunwind-dkms_*_all.deb

clean:
	rm -rf $(O)

.PHONY: all deps check check-host clean demo bench gdb deb unwinder-kernel
