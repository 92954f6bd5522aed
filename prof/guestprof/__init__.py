# SPDX-License-Identifier: GPL-2.0
"""kunwind-guestprof: a QEMU guest's kernel profiled from the host
(Documentation/guestprof.rst), beside kunwind.ko's own profiler (prof/).

A user of the gdb helpers (gdb/kunwind: the walker, the target's tables,
tasks and symbols), loaded with them by gdb/kunwind-gdb.py:
  guest.py     a running QEMU guest from the host: gdbstub client, and
               the source of memory and registers target.py reads
  guestmem.py  the guest's RAM file through gdb/guestmem.c (in
               libkunwind.so)
  sampler.py   kunwind-guestprof: the samples, the loop, the output
"""
from . import sampler  # noqa: F401  (defines kunwind-guestprof)
