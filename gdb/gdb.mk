# SPDX-License-Identifier: GPL-2.0
# The gdb helpers (gdb/kunwind) and kunwind-guestprof (prof/guestprof):
# the walker as a shared library for ctypes, and every constant Python
# needs, generated from C (kunwind_format.py): the #define literals of
# unwind/format.h, gdb/libkunwind.h and the kernel glue's KUNWIND_DEBUG_*
# and the in-kernel profiler's PROF_DEPTH, which kunwind-guestprof's
# samples keep too (gdb/format_py.py), then the walker's stop reasons and
# the header's offsets (gdb/constants.c).  Included by the Makefile.
gdb: $(O)/gdb/libkunwind.so $(O)/gdb/libkunwind-arm64.so $(O)/gdb/kunwind_format.py

GDB_CORE_OBJ := $(CORE_SRC:unwind/%.c=$(O)/gdb/%.pic.o)
# wherever the in-kernel profiler defines PROF_DEPTH
GDB_PROF_SRC := $(wildcard prof/*.h)

$(O)/gdb/%.pic.o: unwind/%.c unwind/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) $(CORE_CFLAGS) -fPIC -c -o $@ $<

# gdb/guestmem.c reads a QEMU guest's RAM file (kunwind-guestprof).
$(O)/gdb/libkunwind.so: gdb/libkunwind.c gdb/libkunwind.h gdb/guestmem.c \
		gdb/guestmem.h unwind/*.h $(GDB_CORE_OBJ)
	$(CC) $(CFLAGS) $(WFLAGS) -fPIC -shared -o $@ gdb/libkunwind.c \
		gdb/guestmem.c $(GDB_CORE_OBJ)

# The same walker built for arm64 tables (unwind/arch-arm64.h): gdb on an
# arm64 guest (tests/arm64.test's oracle).
GDB_CORE_A64_OBJ := $(CORE_SRC:unwind/%.c=$(O)/gdb/arm64/%.pic.o)

$(O)/gdb/arm64/%.pic.o: unwind/%.c unwind/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) $(CORE_CFLAGS) -DKUNWIND_TARGET_ARM64 -fPIC -c -o $@ $<

$(O)/gdb/libkunwind-arm64.so: gdb/libkunwind.c gdb/libkunwind.h gdb/guestmem.c \
		gdb/guestmem.h unwind/*.h $(GDB_CORE_A64_OBJ)
	$(CC) $(CFLAGS) $(WFLAGS) -DKUNWIND_TARGET_ARM64 -fPIC -shared -o $@ \
		gdb/libkunwind.c gdb/guestmem.c $(GDB_CORE_A64_OBJ)

$(O)/gdb/constants: gdb/constants.c unwind/*.h $(GDB_CORE_OBJ)
	$(CC) $(CFLAGS) $(WFLAGS) -o $@ gdb/constants.c $(GDB_CORE_OBJ)

$(O)/gdb/kunwind_format.py: gdb/format_py.py unwind/format.h gdb/libkunwind.h \
		unwind/linux/*.h $(GDB_PROF_SRC) $(O)/gdb/constants
	@mkdir -p $(@D)
	{ python3 gdb/format_py.py unwind/format.h gdb/libkunwind.h \
		--only KUNWIND_DEBUG_ unwind/linux/*.h \
		--only PROF_DEPTH $(GDB_PROF_SRC) && $(O)/gdb/constants; } \
		>$@.tmp && mv $@.tmp $@
