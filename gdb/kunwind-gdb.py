# SPDX-License-Identifier: GPL-2.0
#
# kunwind's gdb helpers: kernel stacks walked by kunwind's own walker, from
# the tables in the target's memory (a live QEMU gdbstub, a crash dump).
# Load with one line (Documentation/gdb.rst):
#
#	(gdb) source /path/to/kunwind/gdb/kunwind-gdb.py
#
# It loads the helpers (gdb/kunwind: kunwind-bt, kunwind-tables,
# kunwind-lookup) and the guest profiler built on them (prof/guestprof:
# kunwind-guestprof, Documentation/guestprof.rst).
#
# The walker's library and the constants generated from C are built by
# `make gdb` (build/gdb/); KUNWIND_GDB_LIB names another directory holding
# them.
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
for _d in (_here, os.path.join(os.path.dirname(_here), 'prof')):
    if _d not in sys.path:
        sys.path.insert(0, _d)

import kunwind  # noqa: E402,F401  (registers the commands)
import guestprof  # noqa: E402,F401  (registers kunwind-guestprof)
