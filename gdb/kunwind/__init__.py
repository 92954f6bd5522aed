# SPDX-License-Identifier: GPL-2.0
"""kunwind's gdb helpers.

One topic per file, as in the kernel's scripts/gdb/linux:
  utils.py     what the commands share: errors as messages, symbolize()
  lib.py       the walker (libkunwind.so) through ctypes, and the
               constants generated from C (kunwind_format.py)
  target.py    target memory, vmlinux symbols and types, the KASLR slide
  modules.py   the target's module list and its kallsyms
  tasks.py     tasks, CPUs, their registers and stacks
  registry.py  kunwind's tables in target memory: kunwind.ko's, or the
               kernel's own (or vmlinux's built from vmlinux)
  bt.py        kunwind-bt
  tables.py    kunwind-tables, kunwind-lookup
The guest profiler (kunwind-guestprof), a user of these, is beside the
in-kernel profiler: prof/guestprof/.
"""
from . import bt, tables  # noqa: F401  (each defines its commands)
