# SPDX-License-Identifier: GPL-2.0
# make bench: kunwind's walker vs the rbp chain, libunwind and libdw on one
# stack, then table size and generator time on a vmlinux (bench/run.sh).
# Needs libelf-dev, libdw-dev, libunwind-dev; see bench/README.md.
#
# Every bench object is built with frame pointers, not only the deep
# stack: the rbp chain must run unbroken from the bottom frame to main()
# for the frame-pointer walk to cover the same frames as the others.  The
# deep stack is built a second time without (deep_stack-nofp.o).

BENCH_SRC    := bench/bench.c bench/tables.c bench/lookup.c bench/peers.c \
		bench/deep_stack.c
BENCH_OBJ    := $(BENCH_SRC:%.c=$(O)/%.o) $(O)/bench/deep_stack-nofp.o
BENCH_CFLAGS := -O2 -g -fno-omit-frame-pointer

$(O)/bench/%.o: bench/%.c bench/*.h gen/gen.h unwind/*.h
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $(WFLAGS) -c -o $@ $<

# The same deep stack without frame pointers (bench_deep_stack_nofp()).
$(O)/bench/deep_stack-nofp.o: bench/deep_stack.c bench/bench.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -fomit-frame-pointer -DBENCH_NOFP $(WFLAGS) -c -o $@ $<

$(O)/bench/kunwind-bench: $(BENCH_OBJ) $(CORE_OBJ) $(GEN_OBJ)
	$(CC) $(BENCH_CFLAGS) -o $@ $^ -lelf -ldw -lunwind

# The kernel part first (the three kernels' own unwinders, frame
# pointers, ORC and kunwind, counted in instructions under QEMU -icount;
# kunwind_save vs stack_trace_save in the test kernel, -icount too; the
# profiler's cost in Debian's 6.12 in TCG's wall time; kunwind-guestprof's
# cost to the guest it profiles from the host), so that the host summary
# lines come last.
bench: $(O)/bench/kunwind-bench $(O)/kunwind-gen gdb $(O)/gdb/libkunwind-arm64.so
	bench/kernels-bench.sh
	bench/kernel-bench.sh
	bench/profile-bench.sh
	bench/guestprof-bench.sh
	O=$(O) bench/arm64-bench.sh
	O=$(O) bench/run.sh

# Built by make check too, so that an API change breaks the build, not
# the next benchmark run; running it stays with make bench.
CHECK_BUILD += $(O)/bench/kunwind-bench

# make bench three times: each figure's median and spread (bench/repeat.sh),
# the figures the README quotes.
bench-3: $(O)/bench/kunwind-bench $(O)/kunwind-gen gdb
	O=$(O) bench/repeat.sh 3

.PHONY: bench-3
