# SPDX-License-Identifier: GPL-2.0
"""What every command shares: errors as messages, frames as names."""
import functools

import gdb

from . import modules, target


def guarded(invoke):
    """A command's invoke(): a target that cannot be read, or a Python
    error, is a message, never a traceback."""
    @functools.wraps(invoke)
    def run(self, arg, from_tty):
        try:
            return invoke(self, arg, from_tty)
        except gdb.GdbError:
            raise
        except gdb.MemoryError as e:
            raise gdb.GdbError('kunwind: cannot read the target: %s' % e)
        except Exception as e:	# a bug, or a target beyond belief
            raise gdb.GdbError('kunwind: %s: %s' % (type(e).__name__, e))
    return run


def symbolize(frame):
    """'func+0xoff/0xsize [module]' of a frame (symbol found at the row's
    address, offset from ip, as the kernel's %pB), or '?'."""
    addr = frame.lookup_addr()
    m = modules.module_of(addr)
    if m:
        s = m.symbol(addr)
        suffix = ' [%s]' % m.name
    else:
        s = target.vmlinux_symbol(addr)
        suffix = ''
    if not s:
        return '?' + suffix
    name, off, size = s
    off += frame.ip - addr
    return '%s+%#x/%#x%s' % (name, off, size, suffix)
