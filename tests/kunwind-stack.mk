# SPDX-License-Identifier: GPL-2.0
# Test 3: stacks from a core file, kunwind-stack against eu-stack and gdb.
# stackprog parks threads in hard places and dumps core; its flags are its
# own (never the host CFLAGS): the cases depend on -O2 without frame
# pointers.  Needs elfutils, gdb and libc6-dbg.

$(O)/tests/stackprog: tests/stackprog.c tests/park.h
	@mkdir -p $(@D)
	$(CC) -O2 -fomit-frame-pointer -g $(WFLAGS) -pthread -o $@ $<

CHECK_BUILD += $(O)/tests/stackprog $(O)/kunwind-stack
CHECKS += tests/kunwind-stack.test

# Mixed stacks (tests/kunwind-stack-mixed.test): code with frame pointers and no
# CFI around libc's CFI, dynamic (main's frame 0 in libmixedlib.so, which
# the test removes) and static.  No -g: no .debug_frame either.
MIXED_CFLAGS := -O2 -fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
		-fno-unwind-tables -fno-optimize-sibling-calls

$(O)/tests/libmixedlib.so: tests/mixedlib.c tests/kunwind-stack.mk
	@mkdir -p $(@D)
	$(CC) -O2 -fno-omit-frame-pointer $(WFLAGS) -fPIC -shared -o $@ $<

$(O)/tests/mixedprog: tests/mixedprog.c tests/park.h tests/kunwind-stack.mk $(O)/tests/libmixedlib.so
	$(CC) $(MIXED_CFLAGS) $(WFLAGS) -DMIXED_LIB -pthread -o $@ $< \
		-L$(O)/tests -lmixedlib

$(O)/tests/mixedprog-static: tests/mixedprog.c tests/park.h tests/kunwind-stack.mk
	@mkdir -p $(@D)
	$(CC) $(MIXED_CFLAGS) $(WFLAGS) -static -pthread -o $@ $<

# Hostile cores (tests/kunwind-stack-hostile.test): kunwind-stack's own files with
# UBSan's alignment check, which aborts on a misaligned load.
UBSAN := -fsanitize=alignment -fno-sanitize-recover=all
STACK_UBSAN_OBJ := $(STACK_OBJ:$(O)/kunwind-stack.obj/%=$(O)/tests/ubsan/%)

$(O)/tests/ubsan/%.o: kunwind-stack/%.c kunwind-stack/*.h gen/*.h unwind/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) $(UBSAN) -c -o $@ $<

$(O)/tests/kunwind-stack-ubsan: $(STACK_UBSAN_OBJ) $(GEN_OBJ) $(CORE_OBJ)
	$(CC) $(CFLAGS) $(UBSAN) -o $@ $^ $(GEN_LIBS)

CHECK_BUILD += $(O)/tests/mixedprog $(O)/tests/mixedprog-static \
	       $(O)/tests/kunwind-stack-ubsan
CHECKS += tests/kunwind-stack-mixed.test tests/kunwind-stack-hostile.test
