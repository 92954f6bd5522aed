# SPDX-License-Identifier: GPL-2.0
"""kunwind's gdb helpers.

One topic per file, as in the kernel's scripts/gdb/linux:
  lib.py       the walker (libkunwind.so) through ctypes
  target.py    target memory, vmlinux symbols and types, the KASLR slide
  modules.py   the target's module list and its kallsyms
  tasks.py     tasks, CPUs, their registers and stacks
  registry.py  kunwind's tables in target memory (or built from vmlinux)
  bt.py        kunwind-bt
  tables.py    kunwind-tables, kunwind-lookup
  guest.py     a running QEMU guest from the host: gdbstub client, RAM file
  guestprof.py kunwind-guestprof, the host-side profiler of a guest kernel
"""
from . import bt, guestprof, tables  # noqa: F401  (each defines its commands)
