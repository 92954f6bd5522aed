# Host unit tests of the guest-memory reader (gdb/guestmem.c) on synthetic
# RAM files and page tables.
$(O)/tests/guestmem: tests/guestmem.c gdb/guestmem.c gdb/guestmem.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WFLAGS) -o $@ tests/guestmem.c gdb/guestmem.c

CHECK_BUILD += $(O)/tests/guestmem
CHECKS += tests/guestmem.test
