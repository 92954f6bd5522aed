# SPDX-License-Identifier: GPL-2.0
#
# kunwind's gdb helpers: kernel stacks walked by kunwind's own walker, from
# the tables in the target's memory (a live QEMU gdbstub, a crash dump).
# Load with one line (Documentation/gdb.rst):
#
#	(gdb) source /path/to/kunwind/gdb/kunwind-gdb.py
#
# The walker's library and the format's constants are built by `make gdb`
# (build/gdb/); KUNWIND_GDB_LIB names another directory holding them.
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)

import kunwind  # noqa: E402,F401  (registers the commands)
