# SPDX-License-Identifier: GPL-2.0
"""The guest's RAM file through gdb/guestmem.c (in libkunwind.so): QEMU's
memory-backend-file mapped, the guest's page tables walked in C with a
translation cache (guest.py says why and how the root is found)."""
import ctypes
import os

import gdb

from kunwind import lib

_bound = None


def _bind():
    """libkunwind.so with the guest-memory functions typed."""
    global _bound
    if _bound is None:
        g = lib.load()
        u, i, p = ctypes.c_ulong, ctypes.c_int, ctypes.c_void_p
        pu = ctypes.POINTER(u)
        g.kunwind_guest_open.restype = p
        g.kunwind_guest_open.argtypes = [ctypes.c_char_p, u]
        g.kunwind_guest_close.argtypes = [p]
        g.kunwind_guest_set_root.argtypes = [p, u, i]
        g.kunwind_guest_flush.argtypes = [p]
        g.kunwind_guest_virt_to_phys.argtypes = [p, u, pu]
        g.kunwind_guest_read.restype = u
        g.kunwind_guest_read.argtypes = [p, u, ctypes.c_char_p, u]
        g.kunwind_guest_stats.argtypes = [p, pu, pu]
        _bound = g
    return _bound


class GuestMemory:
    """The guest's RAM file through gdb/guestmem.c."""

    def __init__(self, path, below_4g=0):
        self.lib = _bind()
        self.g = self.lib.kunwind_guest_open(path.encode(), below_4g)
        if not self.g:
            err = ctypes.get_errno()
            raise gdb.GdbError('kunwind: cannot map the guest RAM file %s: '
                               '%s' % (path, os.strerror(err) if err else
                                       'not a RAM file'))
        self.buf = ctypes.create_string_buffer(1 << 16)

    def close(self):
        if self.g:
            self.lib.kunwind_guest_close(self.g)
            self.g = None

    def set_root(self, cr3, la57):
        self.lib.kunwind_guest_set_root(self.g, cr3, 1 if la57 else 0)

    def flush(self):
        self.lib.kunwind_guest_flush(self.g)

    def phys(self, va):
        pa = ctypes.c_ulong()
        if self.lib.kunwind_guest_virt_to_phys(self.g, va, ctypes.byref(pa)):
            return None
        return pa.value

    def read(self, addr, n):
        buf = self.buf if n <= len(self.buf) else \
            ctypes.create_string_buffer(n)
        got = self.lib.kunwind_guest_read(self.g, addr, buf, n)
        if got != n:
            raise gdb.MemoryError('Cannot access memory at address %#x' %
                                  (addr + got))
        return buf.raw[:n]

    def stats(self):
        walks, hits = ctypes.c_ulong(), ctypes.c_ulong()
        self.lib.kunwind_guest_stats(self.g, ctypes.byref(walks),
                                     ctypes.byref(hits))
        return walks.value, hits.value
