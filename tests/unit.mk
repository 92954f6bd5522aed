# Host unit tests of the freestanding core (unwind/): the scenarios of
# unwind/test/, which the KUnit suites run too, on the generator's tables.
$(O)/tests/unit: tests/unit.c $(GEN_OBJ) $(CORE_OBJ) unwind/*.h unwind/test/*.h gen/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -o $@ tests/unit.c $(GEN_OBJ) $(CORE_OBJ) $(GEN_LIBS)

CHECK_BUILD += $(O)/tests/unit
CHECKS += tests/unit.test
