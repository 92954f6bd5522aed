# SPDX-License-Identifier: GPL-2.0
"""kunwind's tables, read from the target's memory.

kunwind.ko describes its registry for debuggers in struct
kunwind_debug_info (unwind/linux/registry_lookup.h), found by name in its
kallsyms, else by its magic in its read-only data: the address of the
lookups' segment array (struct kunwind_live) and its layout.  Each live
segment names its table and where it runs; each table is copied once,
checked by the kernel's own checker, and handed to the walker.

A kernel whose own unwinder is kunwind (kernel/patches, vmlinux has
__start_kunwind_table) has its tables in its memory: vmlinux's in
.kunwind_table, each module's at mod->arch.kunwind_table, relocated with
the kernel and the module (bias 0).  Those are taken then, and only
those: kunwind.ko, if loaded too, registered the same tables (the
kernel's .kunwind_table and each module's .kunwind), so its registry is
not read.

Where no table covers vmlinux (kunwind.ko built without the vmlinux
table, or not loaded at all), vmlinux's table is built on the fly from
the vmlinux gdb has loaded (kunwind-gen build) and placed at the KASLR
slide.
"""
import os
import struct
import subprocess
import tempfile

import gdb

from . import lib, modules, target

# struct kunwind_debug_info of KUNWIND_DEBUG_VERSION: its magic and
# version come from C (kunwind_format.py); a change of its layout bumps
# the version, which is refused below.
DEBUG_FMT = '<IHHQ8H'


class Registry:
    """The walker with every table the target has, and what was found."""

    def __init__(self):
        self.walker = lib.Walker(self._read, self._stack, self._text)
        self.notes = []		# how the tables were found, for kunwind-tables
        self.segs = []		# (start, end, table name, section)
        self.fly = set()	# handles of tables built on the fly
        self.live_ptr = None	# where kunwind.ko points at its live array
        self.live = None	# what it pointed at when read
        self.kunwind = modules.find('kunwind')
        if target.has_symbol('__start_kunwind_table'):
            self._from_kernel()
        elif self.kunwind:
            self._from_target()
        else:
            self.warn('kunwind.ko is not loaded in the target: module '
                      'frames have no tables')
        if not any(s[0] <= target.sym('_stext') < s[1] for s in self.segs):
            self._vmlinux_on_the_fly()

    def warn(self, msg):
        """Said once, when the tables are read, and kept for kunwind-tables."""
        if msg.startswith('kunwind: '):
            msg = msg[len('kunwind: '):]
        self.notes.append(msg)
        print('kunwind: warning: ' + msg)

    # -- callbacks of the walker
    def _read(self, addr):
        return target.try_u64(addr)

    def _stack(self, sp):
        return None		# each walk sets its stacks (set_stacks())

    def _text(self, ip):
        if any(lo <= ip < hi for lo, hi in target.vmlinux_text()):
            return True
        return modules.module_of(ip) is not None

    # -- tables
    def _debug_info(self):
        m, f = self.kunwind, lib.constants()
        magic, version = f.KUNWIND_DEBUG_MAGIC, f.KUNWIND_DEBUG_VERSION
        addr = m.lookup('kunwind_debug_info')
        if addr is None and m.rodata:
            addr = _scan(m.rodata, struct.pack('<IHH', magic, version,
                                               struct.calcsize(DEBUG_FMT)))
        if addr is None:
            raise gdb.GdbError('kunwind: kunwind.ko is loaded but its '
                               'kunwind_debug_info is not found (in its '
                               'kallsyms or its read-only data)')
        raw = target.read(addr, struct.calcsize(DEBUG_FMT))
        v = struct.unpack(DEBUG_FMT, raw)
        if v[0] != magic or v[1] != version:
            raise gdb.GdbError('kunwind: kunwind_debug_info at %#x: magic '
                               '%#x version %d, want %#x version %d (another '
                               'kunwind.ko?)' % (addr, v[0], v[1],
                                                 magic, version))
        keys = ('magic', 'version', 'size', 'live', 'live_nr', 'live_segs',
                'seg_size', 'seg_start', 'seg_end', 'seg_table', 'seg_seg')
        return dict(zip(keys, v))

    def _from_target(self):
        d = self._debug_info()
        live = target.u64(d['live'])
        self.live_ptr, self.live_nr_off = d['live'], d['live_nr']
        self.live = self.live_key()
        if not live:
            self.notes.append('kunwind.ko has no tables registered')
            return
        nr = target.u32(live + d['live_nr'])
        if nr > 1 << 16:
            raise gdb.GdbError('kunwind: the registry at %#x says %d '
                               'segments: corrupt' % (live, nr))
        handles = {}
        for i in range(nr):
            s = live + d['live_segs'] + i * d['seg_size']
            start, end = target.u64(s + d['seg_start']), \
                target.u64(s + d['seg_end'])
            t, seg = target.u64(s + d['seg_table']), \
                target.u64(s + d['seg_seg'])
            if t not in handles:
                try:
                    handles[t] = self._copy_table(t, self._owner(start))
                except gdb.GdbError as e:
                    handles[t] = None, str(e)
                    self.warn('%s: its frames are not walked' % e)
            h, name = handles[t]
            if h is None:
                continue
            idx = (seg - t - lib.fmt.KUNWIND_HDR_SIZE) // lib.fmt.KUNWIND_SEG_SIZE
            secs = self.walker.segs(h)
            if not 0 <= idx < len(secs) or seg != t + lib.fmt.KUNWIND_HDR_SIZE \
                    + idx * lib.fmt.KUNWIND_SEG_SIZE or \
                    end - start != secs[idx][1]:
                self.warn('registry segment %d (%#x-%#x) does not match its '
                          'table at %#x: corrupt, not walked' % (i, start,
                                                                 end, t))
                continue
            if not self.walker.add_seg(h, idx, start):
                self.warn('registry segment %d (%#x-%#x) overlaps another: '
                          'corrupt, not walked' % (i, start, end))
                continue
            self.segs.append((start, end, name, secs[idx][0]))
        self.notes.append('%d tables, %d segments from kunwind.ko\'s registry'
                          % (len([h for h in handles.values() if h[0] is not
                                  None]), len(self.segs)))
        for t, (h, name) in sorted(handles.items()):
            if h is not None:
                self.notes.append('table of %s at %#x' % (name, t))

    def _from_kernel(self):
        start = target.sym('__start_kunwind_table')
        size = target.sym('__stop_kunwind_table') - start
        self._kernel_table('vmlinux', start)
        off = target.field_offset('struct module', 'arch', 'kunwind_table')
        found, without = [], []
        for m in modules.modules():
            t = target.try_u64(m.addr + off)
            if not t:
                without.append(m.name)
            elif self._kernel_table(m.name, t, m):
                found.append('table of %s at %#x' % (m.name, t))
        self.notes += ['vmlinux table from the kernel\'s .kunwind_table at '
                       '%#x (%d bytes); %d module tables from '
                       'mod->arch.kunwind_table' % (start, size, len(found))]
        if without:
            self.notes.append('%d modules without one: %s' % (
                len(without), ', '.join(without)))
        if self.kunwind:
            self.notes.append('kunwind.ko is loaded too: its registry holds '
                              'these same tables, not read')
        self.notes += found
        self.live = self.live_key()

    def _kernel_table(self, name, t, mod=None):
        """Place the kernel's table of name at t where its bases say; a
        module's segments only in its text (its init text is gone after
        init, and may be another module's since)."""
        try:
            h, _ = self._copy_table(t, name)
        except gdb.GdbError as e:
            self.warn('%s: its frames are not walked' % e)
            return False
        self._place(h, name, 0, mod.holds_text if mod else None)
        return True

    def _place(self, h, name, bias, where=None):
        """Table h's segments at their bases plus bias (where says yes)."""
        for idx, (sec, size, base) in enumerate(self.walker.segs(h)):
            start = base + bias
            if where and not where(start):
                continue
            if self.walker.add_seg(h, idx, start):
                self.segs.append((start, start + size, name, sec))
            else:
                self.warn('%s\'s segment %s (%#x-%#x) overlaps another: '
                          'not walked' % (name, sec, start, start + size))

    def live_key(self):
        """The live array and its length: a new publish, even one that
        got the old array's memory back, changes one of them but for a
        module unloaded and another of the same text loaded between two
        looks.  The kernel's own tables: its module list, as much."""
        if self.live_ptr is None:
            return modules.list_key()
        live = target.try_u64(self.live_ptr)
        return live, live and target.try_u32(live + self.live_nr_off)

    def _copy_table(self, t, name):
        try:
            hdr = target.read(t, lib.fmt.KUNWIND_HDR_SIZE)
        except gdb.MemoryError:
            raise gdb.GdbError('kunwind: table of %s at %#x is not readable'
                               % (name, t))
        size = struct.unpack_from('<I', hdr,
                                  lib.fmt.KUNWIND_HDR_OFF_SIZE)[0]
        if not lib.fmt.KUNWIND_HDR_SIZE <= size <= 64 << 20:
            raise gdb.GdbError('kunwind: table of %s at %#x is corrupt: its '
                               'header says %d bytes' % (name, t, size))
        try:
            data = target.read(t, size)
        except gdb.MemoryError:
            raise gdb.GdbError('kunwind: table of %s at %#x: %d bytes not '
                               'readable' % (name, t, size))
        return self.walker.add_table(name, data, t), name

    def _owner(self, start):
        """Whose text a segment starting at start is: vmlinux or a module."""
        if any(lo <= start < hi for lo, hi in target.vmlinux_text()):
            return 'vmlinux'
        m = modules.module_of(start)
        return m.name if m else '%#x' % start

    def _vmlinux_on_the_fly(self):
        path = target.vmlinux().filename
        gen = os.path.join(os.path.dirname(lib.lib_dir()), 'kunwind-gen')
        if not os.access(gen, os.X_OK):
            self.notes.append('no vmlinux table and no %s to build one' % gen)
            return
        with tempfile.NamedTemporaryFile(suffix='.kunwind') as f:
            r = subprocess.run([gen, 'build', path, '-o', f.name],
                               capture_output=True, text=True)
            if r.returncode:
                raise gdb.GdbError('kunwind: kunwind-gen build %s failed: %s'
                                   % (path, r.stderr.strip()))
            data = open(f.name, 'rb').read()
        h = self.walker.add_table('vmlinux', data)
        self.fly.add(h)
        s = target.slide()
        self._place(h, 'vmlinux', s)
        self.notes.append('vmlinux table built from %s (kunwind-gen), '
                          'placed at slide %#x' % (path, s))


def _scan(region, needle, chunk=1 << 16):
    lo, hi = region
    a = lo
    while a < hi:
        n = min(chunk + len(needle), hi - a)
        try:
            b = target.read(a, n)
        except gdb.MemoryError:
            a += chunk
            continue
        i = b.find(needle)
        while i >= 0:
            if (a + i) % 8 == 0:
                return a + i
            i = b.find(needle, i + 1)
        a += chunk
    return None


def registry():
    """The target's tables, once per stop."""
    return target.cached('registry', Registry)


def changed(reg):
    """Has kunwind.ko published another set of tables since reg was read,
    or, where the tables are the kernel's own, another module come or
    gone?  A live target's poller asks each time it stops."""
    return reg.live is not None and reg.live_key() != reg.live
