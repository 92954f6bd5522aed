# Host unit tests of the freestanding core (unwind/): the scenarios of
# unwind/test/, which the KUnit suites run too, on the generator's tables.
$(O)/tests/unit: tests/unit.c $(GEN_OBJ) $(CORE_OBJ) unwind/*.h unwind/test/*.h gen/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -o $@ tests/unit.c $(GEN_OBJ) $(CORE_OBJ) $(GEN_LIBS)

# The core built for arm64 (unwind/arch-arm64.h) on this machine: what a
# host tool walking arm64 stacks links, and its arm64 walk scenarios.
CORE_A64_OBJ := $(CORE_SRC:%.c=$(O)/arm64/%.o)

$(O)/arm64/unwind/%.o: unwind/%.c unwind/*.h unwind/host/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) $(CORE_CFLAGS) -DKUNWIND_TARGET_ARM64 -c -o $@ $<

$(O)/tests/unit-arm64: tests/unit.c $(GEN_OBJ) $(CORE_A64_OBJ) unwind/*.h unwind/test/*.h gen/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -DKUNWIND_TARGET_ARM64 -o $@ tests/unit.c \
		$(GEN_OBJ) $(CORE_A64_OBJ) $(GEN_LIBS)

CHECK_BUILD += $(O)/tests/unit $(O)/tests/unit-arm64
CHECKS += tests/unit.test
