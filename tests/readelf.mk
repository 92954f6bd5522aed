# SPDX-License-Identifier: GPL-2.0
# tests/readelf.test: kunwind-gen's rows against readelf's frames-interp.
#
# Builds the objects the oracle tests check (tests/oracle-files.sh lists
# them): tests/objs/frames.c at -O0/-O2/-O3/-Os, with and without frame
# pointers, into .eh_frame ("eh") and into .debug_frame ("dbg"), each as a
# relocatable .o and linked with tests/objs/cfi.S into a shared object;
# the -O2 variants also into an executable.  -O3 and -Os add
# -ffunction-sections, so their .o has one text section per function.
# Then tests/kmod, a module built against the Debian 6.1 headers.
#
# The objects use their own flags, never the host CFLAGS: what they hold
# must not change with how the tools are built.

RE_DIR := $(O)/tests/objs
RE_CC := gcc

RE_FLAGS_O0 := -O0
RE_FLAGS_O2 := -O2
RE_FLAGS_O3 := -O3 -ffunction-sections
RE_FLAGS_Os := -Os -ffunction-sections
RE_FLAGS_fp := -fno-omit-frame-pointer
RE_FLAGS_nofp := -fomit-frame-pointer
RE_FLAGS_eh := -fasynchronous-unwind-tables
RE_FLAGS_dbg := -g -fno-asynchronous-unwind-tables

RE_VARIANTS := $(foreach o,O0 O2 O3 Os,$(foreach f,fp nofp,\
		$(foreach k,eh dbg,$(o)-$(f)-$(k))))

# $(call re_flags,O2-nofp-dbg): the compiler flags of a variant.
re_flags = $(foreach w,$(subst -, ,$(1)),$(RE_FLAGS_$(w)))
# $(call re_kind,O2-nofp-dbg): eh or dbg.
re_kind = $(lastword $(subst -, ,$(1)))

RE_OBJS := $(RE_VARIANTS:%=$(RE_DIR)/frames-%.o) \
	   $(RE_DIR)/cfi-eh.o $(RE_DIR)/cfi-dbg.o \
	   $(RE_VARIANTS:%=$(RE_DIR)/libframes-%.so) \
	   $(filter %-O2-fp-eh %-O2-fp-dbg %-O2-nofp-eh %-O2-nofp-dbg,\
		$(RE_VARIANTS:%=$(RE_DIR)/frames-%))

$(RE_DIR)/frames-%.o: tests/objs/frames.c tests/readelf.mk
	@mkdir -p $(@D)
	$(RE_CC) -fPIC -Wall $(call re_flags,$*) -c -o $@ $<

$(RE_DIR)/main-%.o: tests/objs/main.c tests/readelf.mk
	@mkdir -p $(@D)
	$(RE_CC) -fPIC -Wall $(call re_flags,$*) -c -o $@ $<

$(RE_DIR)/cfi-eh.o: tests/objs/cfi.S tests/readelf.mk
	@mkdir -p $(@D)
	$(RE_CC) -c -o $@ $<

$(RE_DIR)/cfi-dbg.o: tests/objs/cfi.S tests/readelf.mk
	@mkdir -p $(@D)
	$(RE_CC) -DCFI_DEBUG_FRAME -c -o $@ $<

define re_link_rules
$(RE_DIR)/libframes-$(1).so: $(RE_DIR)/frames-$(1).o \
			     $(RE_DIR)/cfi-$(call re_kind,$(1)).o
	$(RE_CC) -shared -o $$@ $$^

$(RE_DIR)/frames-$(1): $(RE_DIR)/main-$(1).o $(RE_DIR)/frames-$(1).o \
		       $(RE_DIR)/cfi-$(call re_kind,$(1)).o
	$(RE_CC) -o $$@ $$^
endef
$(foreach v,$(RE_VARIANTS),$(eval $(call re_link_rules,$(v))))

# arm64: the same file cross-compiled, .o and a shared object (no libc
# linked: -nostdlib), as the arm64 kernel builds it (kern: GCC's
# .debug_frame under the kernel's flags, pac-ret included) and as user
# code does (eh: .eh_frame, pac-ret on leaves too; O0; O3 without frame
# pointers).  Listed apart (objs-arm64.list): the libdw oracle reads x86-64.
RE_A64_CC := aarch64-linux-gnu-gcc
RE_A64_FLAGS_kern := -Os -g -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-fpatchable-function-entry=2 -mbranch-protection=pac-ret
RE_A64_FLAGS_eh := -O2 -fasynchronous-unwind-tables -fno-omit-frame-pointer \
	-mbranch-protection=pac-ret+leaf
RE_A64_FLAGS_O0 := -O0 -g -fno-asynchronous-unwind-tables
RE_A64_FLAGS_O3 := -O3 -ffunction-sections -fomit-frame-pointer \
	-fasynchronous-unwind-tables
RE_A64_VARIANTS := kern eh O0 O3
RE_A64_OBJS := $(RE_A64_VARIANTS:%=$(RE_DIR)/arm64-frames-%.o) \
	       $(RE_A64_VARIANTS:%=$(RE_DIR)/arm64-libframes-%.so)

$(RE_DIR)/arm64-frames-%.o: tests/objs/frames.c tests/readelf.mk
	@mkdir -p $(@D)
	$(RE_A64_CC) -fPIC -Wall $(RE_A64_FLAGS_$*) -c -o $@ $<

$(RE_DIR)/arm64-libframes-%.so: $(RE_DIR)/arm64-frames-%.o
	$(RE_A64_CC) -shared -nostdlib -o $@ $^

$(RE_DIR)/objs-arm64.list: tests/readelf.mk
	@mkdir -p $(@D)
	@printf '%s\n' $(abspath $(RE_A64_OBJS)) >$@

# The list tests/oracle-files.sh prints, absolute paths, one a line.
$(RE_DIR)/objs.list: tests/readelf.mk
	@mkdir -p $(@D)
	@printf '%s\n' $(abspath $(RE_OBJS)) >$@

# The module.  Built in a copy so the source tree stays clean, with the
# newest 6.1 headers, in a kernel make that must not inherit our O=, CC
# or CFLAGS.  Without headers the build succeeds and the test fails,
# saying what to install.
RE_KO_DIR := $(O)/tests/kmod
RE_KO := $(RE_KO_DIR)/kunwind_frames.ko
RE_KDIR = $(lastword $(shell ls -d /usr/src/linux-headers-6.1.*-amd64 \
			2>/dev/null | sort -V))

$(RE_KO): tests/kmod/kunwind_frames.c tests/kmod/Kbuild
	@mkdir -p $(@D)
	@if [ -z "$(RE_KDIR)" ]; then \
		echo "readelf.mk: no /usr/src/linux-headers-6.1.*-amd64:" \
		     "run scripts/deps.sh kernel" >&2; \
		exit 0; \
	fi; \
	cp tests/kmod/kunwind_frames.c tests/kmod/Kbuild $(@D)/ && \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u O -u CC -u CFLAGS \
		$(MAKE) -s -C "$(RE_KDIR)" M="$(abspath $(@D))" modules

# make oracle-objs: everything tests/oracle-files.sh lists.
oracle-objs: $(RE_OBJS) $(RE_DIR)/objs.list $(RE_KO) \
	     $(RE_A64_OBJS) $(RE_DIR)/objs-arm64.list
.PHONY: oracle-objs

CHECK_BUILD += oracle-objs
CHECKS += tests/readelf.test
