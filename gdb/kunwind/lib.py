# SPDX-License-Identifier: GPL-2.0
"""The walker: libkunwind.so (gdb/libkunwind.c) through ctypes.

The C core (unwind/lookup.c, unwind/walk.c) is the kernel's own; Python
supplies memory reads, stack bounds and text ranges, and gets frames back
with the kernel's stop reasons.  Every constant comes from
kunwind_format.py, generated from C next to the library (gdb/gdb.mk):
the format's, the library's (stack kinds, frame flags), the stop
reasons and their strings.  Whoever binds more of the library (the guest
profiler's memory reader, prof/guestprof/guestmem.py) does it on load()'s
handle.
"""
import ctypes
import importlib
import os
import sys

import gdb

_READ = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_ulong,
                         ctypes.POINTER(ctypes.c_ulong))
_STACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_ulong,
                          ctypes.POINTER(ctypes.c_ulong),
                          ctypes.POINTER(ctypes.c_ulong),
                          ctypes.POINTER(ctypes.c_int))
_TEXT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_ulong)

_libs = {}	# architecture -> the library built for it
fmt = None


def target_arch():
    """'arm64' if gdb's target is AArch64, else 'x86-64' (the tables'
    architectures: libkunwind.so walks x86-64's, libkunwind-arm64.so
    arm64's)."""
    out = gdb.execute('show architecture', to_string=True)
    return 'arm64' if 'aarch64' in out else 'x86-64'


def lib_dir():
    d = os.environ.get('KUNWIND_GDB_LIB')
    if d:
        return d
    top = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    return os.path.join(top, os.environ.get('O', 'build'), 'gdb')


def load(arch=None):
    """The library for arch (default: the target's) and the constants;
    gdb.GdbError if they are not built."""
    global fmt
    arch = arch or target_arch()
    if arch in _libs:
        return _libs[arch]
    d = lib_dir()
    path = os.path.join(d, 'libkunwind-arm64.so' if arch == 'arm64'
                        else 'libkunwind.so')
    if not os.path.exists(path) or \
            not os.path.exists(os.path.join(d, 'kunwind_format.py')):
        raise gdb.GdbError('kunwind: no %s (or kunwind_format.py): run '
                           '"make gdb" in the kunwind tree, or set '
                           'KUNWIND_GDB_LIB' % path)
    if d not in sys.path:
        sys.path.insert(0, d)
    fmt = importlib.import_module('kunwind_format')
    lib = ctypes.CDLL(path, use_errno=True)
    u, i, p = ctypes.c_ulong, ctypes.c_int, ctypes.c_void_p
    pu = ctypes.POINTER(u)
    lib.kunwind_target_new.restype = p
    lib.kunwind_target_new.argtypes = [_READ, _STACK, _TEXT]
    lib.kunwind_target_free.argtypes = [p]
    lib.kunwind_target_add_table.restype = i
    lib.kunwind_target_add_table.argtypes = [p, ctypes.c_char_p, u]
    lib.kunwind_target_bad_str.restype = ctypes.c_char_p
    lib.kunwind_target_bad_str.argtypes = [i]
    lib.kunwind_target_nr_segs.argtypes = [p, i]
    lib.kunwind_target_seg_info.restype = ctypes.c_char_p
    lib.kunwind_target_seg_info.argtypes = [p, i, i, pu, pu]
    lib.kunwind_target_add_seg.argtypes = [p, i, i, u]
    lib.kunwind_target_walk.argtypes = [p, u, u, u, i, ctypes.c_uint, pu, pu,
                                        ctypes.POINTER(ctypes.c_uint),
                                        ctypes.POINTER(i), ctypes.POINTER(i)]
    lib.kunwind_target_stop_str.restype = ctypes.c_char_p
    lib.kunwind_target_stop_str.argtypes = [i]
    lib.kunwind_target_find_rule.argtypes = [p, u] + \
        [ctypes.POINTER(i)] * 4 + [pu, ctypes.POINTER(i)]
    lib.kunwind_target_set_guest.argtypes = [p, p]
    lib.kunwind_target_set_stacks.argtypes = [p, pu, ctypes.c_uint]
    lib.kunwind_target_set_lr.argtypes = [p, u]
    _libs[arch] = lib
    return lib


def constants():
    """kunwind_format.py, the constants generated from C (load()'s)."""
    load()
    return fmt


class Frame:
    def __init__(self, ip, sp, exact, table=-1):
        self.ip, self.sp, self.exact = ip, sp, exact
        # the handle of the table holding lookup_addr(), whose row the step
        # to the next frame followed; -1: none
        self.table = table

    def lookup_addr(self):
        """Where the frame's row is: ip, or ip - 1 for a return address."""
        return self.ip if self.exact else self.ip - 1


class Walker:
    """A target for the walker: tables copied in, callbacks for the rest.

    read(addr) -> int or None; stack(sp) -> (lo, hi, kind) or None;
    text(ip) -> bool.  A gdb.MemoryError in a callback counts as a failure
    (the target has nothing there); any other exception (a symbol or type
    vmlinux lacks, a bug) fails the callback too, and walk() raises it
    once the walk has ended: never taken for an answer.
    """

    def __init__(self, read, stack, text, arch=None):
        self.lib = load(arch)
        self.error = None	# the first exception of a callback in a walk

        def call(fn, *args):
            try:
                return fn(*args)
            except gdb.MemoryError:
                return None
            except Exception as e:
                if self.error is None:
                    self.error = e
                return None

        def c_read(addr, val):
            v = call(read, addr)
            if v is None:
                return 0
            val[0] = v
            return 1

        def c_stack(sp, lo, hi, kind):
            r = call(stack, sp)
            if not r:
                return 0
            lo[0], hi[0], kind[0] = r
            return 1

        def c_text(ip):
            return 1 if call(text, ip) else 0

        # Keep the callbacks alive as long as the target.
        self._cb = (_READ(c_read), _STACK(c_stack), _TEXT(c_text))
        self.t = self.lib.kunwind_target_new(*self._cb)
        if not self.t:
            raise gdb.GdbError('kunwind: out of memory')
        self.tables = []	# (name, address in target or None, bytes)

    def __del__(self):
        if getattr(self, 't', None):
            self.lib.kunwind_target_free(self.t)
            self.t = None

    def add_table(self, name, data, addr=None):
        """Handle of a checked copy; gdb.GdbError naming what is wrong."""
        h = self.lib.kunwind_target_add_table(self.t, data, len(data))
        if h < 0:
            raise gdb.GdbError('kunwind: table of %s%s is corrupt: %s' % (
                name, ' at %#x' % addr if addr is not None else '',
                self.lib.kunwind_target_bad_str(h).decode()))
        self.tables.append((name, addr, len(data)))
        return h

    def segs(self, h):
        """[(section name, size, base as the table holds it)] of table h."""
        out = []
        size, base = ctypes.c_ulong(), ctypes.c_ulong()
        for i in range(self.lib.kunwind_target_nr_segs(self.t, h)):
            n = self.lib.kunwind_target_seg_info(self.t, h, i,
                                                 ctypes.byref(size),
                                                 ctypes.byref(base))
            out.append((n.decode(errors='replace'), size.value, base.value))
        return out

    def add_seg(self, h, seg, start):
        return self.lib.kunwind_target_add_seg(self.t, h, seg, start) == 0

    def set_guest(self, guest):
        """Reads of the walks from guest (a GuestMemory's handle), not the
        read callback; None: the callback again."""
        self.lib.kunwind_target_set_guest(self.t, guest)

    def set_stacks(self, stacks):
        """The walks' stacks as [(lo, hi, kind)], not the stack callback;
        []: the callback again."""
        flat = (ctypes.c_ulong * (3 * len(stacks) or 1))(
            *[v for s in stacks for v in s])
        if self.lib.kunwind_target_set_stacks(self.t, flat, len(stacks)):
            raise gdb.GdbError('kunwind: %d stacks: too many' % len(stacks))

    def walk(self, ip, sp, bp, first_called=False, max_frames=128, lr=0):
        """([Frame], stop reason string, complete?); lr: arm64's x30 of
        the first frame, for a walk from a full register set."""
        if getattr(self, '_bufs', (0,))[0] < max_frames:
            self._bufs = (max_frames, (ctypes.c_ulong * max_frames)(),
                          (ctypes.c_ulong * max_frames)(),
                          (ctypes.c_uint * max_frames)(),
                          (ctypes.c_int * max_frames)(), ctypes.c_int(),
                          fmt.KUNWIND_TARGET_FRAME_EXACT,
                          fmt.KUNWIND_STOP_END)
        _, ips, sps, flags, tables, stop, exact, end = self._bufs
        self.error = None
        self.lib.kunwind_target_set_lr(self.t, lr)
        n = self.lib.kunwind_target_walk(self.t, ip, sp, bp,
                                         1 if first_called else 0,
                                         max_frames, ips, sps, flags, tables,
                                         ctypes.byref(stop))
        if self.error is not None:
            e, self.error = self.error, None
            if isinstance(e, gdb.GdbError):
                raise e
            raise gdb.GdbError('kunwind: the walk\'s %s: %s' % (
                type(e).__name__, e))
        frames = [Frame(ips[k], sps[k], bool(flags[k] & exact), tables[k])
                  for k in range(n)]
        why = self.lib.kunwind_target_stop_str(stop.value).decode()
        return frames, why, stop.value == end

    def find_rule(self, addr):
        """(type, reg, cfa_off, bp_off, seg_start, table handle) or None."""
        v = [ctypes.c_int() for _ in range(4)]
        start, table = ctypes.c_ulong(), ctypes.c_int(-1)
        if not self.lib.kunwind_target_find_rule(
                self.t, addr, *[ctypes.byref(x) for x in v],
                ctypes.byref(start), ctypes.byref(table)):
            return None
        return tuple(x.value for x in v) + (start.value, table.value)


def rule_str(rule, arch=None):
    """A rule in the notation of kunwind-gen dump (Documentation/gen.rst),
    for arch (default: the target's)."""
    typ, reg, cfa, bp = rule[:4]
    f = fmt
    if (arch or target_arch()) == 'arm64':
        base = {f.KUNWIND_REG_SP: 'sp', f.KUNWIND_REG_BP: 'x29'}.get(reg, '?')
        x29 = 'c%+d' % bp if bp else 'u'
        if typ == f.KUNWIND_TYPE_CALL:
            return '%s%+d %s c%+d' % (base, cfa, x29, bp + 8)
        if typ == f.KUNWIND_TYPE_LR:
            return '%s%+d %s x30' % (base, cfa, x29)
        if typ == f.KUNWIND_TYPE_REGS:
            return 'regs:%s%+d regs regs' % (base, cfa)
    base = {f.KUNWIND_REG_SP: 'rsp', f.KUNWIND_REG_BP: 'rbp',
            f.KUNWIND_REG_SP_INDIRECT: '*rsp'}.get(reg, '?')
    rbp = 'c%+d' % bp if bp else 'u'
    if typ == f.KUNWIND_TYPE_CALL and reg == f.KUNWIND_REG_BP_INDIRECT:
        return '*(rbp%+d) *rbp c-8' % cfa
    if typ == f.KUNWIND_TYPE_CALL:
        return '%s%+d %s c-8' % (base, cfa, rbp)
    if typ == f.KUNWIND_TYPE_REGS:
        return 'regs:%s%+d regs regs' % (base, cfa)
    if typ == f.KUNWIND_TYPE_IRET:
        return 'iret:%s%+d u regs' % (base, cfa)
    if typ == f.KUNWIND_TYPE_END:
        return 'end of stack'
    if typ == f.KUNWIND_TYPE_NONE:
        return 'no information (a gap)'
    if typ == f.KUNWIND_TYPE_UNDEFINED:
        return 'undefined (not unwindable)'
    if typ == f.KUNWIND_TYPE_UNSUPPORTED:
        return 'unsupported'
    if typ == f.KUNWIND_TYPE_SIGNAL:
        return 'exp:signal exp exp'
    if typ == f.KUNWIND_TYPE_PLT:
        return 'exp:plt u c-8'
    return 'type %d' % typ
