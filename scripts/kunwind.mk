# SPDX-License-Identifier: GPL-2.0
#
# kunwind tables for any kernel module: ONE line in the module's Kbuild
# (or Makefile), after the obj-m lines:
#
#	include $(KUNWIND_DIR)/scripts/kunwind.mk
#
#	make -C $KDIR M=$PWD KUNWIND_DIR=/path/to/kunwind
#
# (or write the path literally; in-tree: $(srctree)/<where kunwind is>).
# For every module M.o in obj-m, once Kbuild has linked M.o, kunwind-gen
# reads its .debug_frame/.eh_frame and its assembly hints and adds the
# table to M.o itself (section .kunwind, relocations .rela.kunwind, symbol
# __kunwind_table).  modfinal then links M.ko from M.o: the table is in the
# .ko, one file to ship, signed with it by modules_install, and relocated
# by the kernel's module loader.  Kbuild records the step in M.kunwind
# (removed by `make clean`); a relinked M.o gets a fresh table, and
# embedding twice replaces the table rather than adding one.
#
# Also puts unwind/linux on the include path: <kunwind_asm.h> has the
# KUNWIND_HINT_* macros for assembly.
#
# The table comes from the module's CFI (.debug_frame with
# CONFIG_DEBUG_INFO, .eh_frame, .cfi_* assembly), hints and ORC; a module
# with no code or no rows gets no table, and kunwind-gen says so (the
# module still builds).
#
# KUNWIND_GEN=<path> uses that generator; by default <kunwind>/build/
# kunwind-gen, (re)built here with the host compiler (and libelf-dev)
# when out of date; in tree, <kernel output dir>/<where kunwind is>/build/
# kunwind-gen, so that an O= build writes nothing into the source tree.
# Installed without the generator's sources (the kunwind-dkms package:
# this file is /usr/share/kunwind/scripts/kunwind.mk), the generator is
# <prefix>/lib/kunwind/kunwind-gen, which the package's postinst built:
# nothing is built or written under <prefix>.
# KUNWIND_DIR, if unset, becomes the tree this file is in.

kunwind-dir := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
KUNWIND_DIR ?= $(kunwind-dir)
kunwind-mods := $(patsubst %.o,%,$(filter %.o,$(obj-m)))
kunwind-stamps := $(addprefix $(obj)/,$(addsuffix .kunwind,$(kunwind-mods)))

always-y += $(addsuffix .kunwind,$(kunwind-mods))
ccflags-y += -I$(kunwind-dir)/unwind/linux
asflags-y += -I$(kunwind-dir)/unwind/linux

ifeq ($(origin KUNWIND_GEN),undefined)
ifeq ($(wildcard $(kunwind-dir)/gen/main.c),)
KUNWIND_GEN := $(abspath $(kunwind-dir)/../../lib/kunwind/kunwind-gen)

$(KUNWIND_GEN):
	$(error $@ is missing: the kunwind-dkms package's postinst builds it \
		(dpkg-reconfigure kunwind-dkms))
else
ifneq ($(KBUILD_EXTMOD),)
kunwind-gen-out := build
KUNWIND_GEN := $(kunwind-dir)/build/kunwind-gen
else
# In tree: kunwind's place in the source tree, mirrored in the output tree
# (a kunwind outside the source tree keeps its own build/).
kunwind-gen-rel := $(patsubst $(abspath $(srctree))/%,%,$(kunwind-dir))
ifneq ($(filter /%,$(kunwind-gen-rel)),)
kunwind-gen-out := $(kunwind-dir)/build
else
kunwind-gen-out := $(abspath $(objtree)/$(kunwind-gen-rel)/build)
endif
KUNWIND_GEN := $(kunwind-gen-out)/kunwind-gen
endif

# Everything Kbuild passes down (MAKEFLAGS with its -rR and command-line
# variables such as O= and M=, the exported CC and flags) is for the
# kernel; the generator is a host program built by kunwind's own Makefile.
# One lock on the output directory serialises the builds of several
# Kbuild directories running in parallel.
# Silent when up to date (which is nearly always).
quiet_cmd_kunwind_gen =
      cmd_kunwind_gen = mkdir -p $(dir $@) && \
	flock $(dir $@) env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	$(MAKE) -C $(kunwind-dir) $(if $(filter 1,$(KBUILD_VERBOSE)),,-s) \
		O=$(kunwind-gen-out) CC="$(HOSTCC)" $(kunwind-gen-out)/kunwind-gen

$(KUNWIND_GEN): FORCE
	$(call cmd,kunwind_gen)
endif
endif

quiet_cmd_kunwind = KUNWIND $<
      cmd_kunwind = $(KUNWIND_GEN) embed $< && touch $@

$(kunwind-stamps): $(obj)/%.kunwind: $(obj)/%.o $(KUNWIND_GEN) FORCE
	$(call if_changed,kunwind)
