# SPDX-License-Identifier: GPL-2.0
"""The target's modules: its module list, their text and their kallsyms.

Module frames are named from the target's own kallsyms (mod->kallsyms:
the ELF symbols the loader kept, with run-time values), so no .ko is
needed on the host.  Two layouts: 6.4's mod->mem[MOD_TEXT ...] and the
older mod->core_layout / init_layout.
"""
import bisect
import struct

import gdb

from . import target

MOD_TEXT, MOD_RODATA, MOD_INIT_TEXT = 0, 2, 4
ELF64_SYM = 24
STT_FUNC, STT_NOTYPE = 2, 0


class Module:
    def __init__(self, addr):
        self.addr = addr
        self.name = target.cstr(addr + target.field_offset('struct module',
                                                           'name'), 56)
        self.text = []		# run-time [(start, end)]: core, init
        self.rodata = None
        if target.has_field('struct module', 'mem'):
            mem = addr + target.field_offset('struct module', 'mem')
            size = target.type_('struct module_memory').sizeof
            base_off = target.field_offset('struct module_memory', 'base')
            size_off = target.field_offset('struct module_memory', 'size')

            def region(i):
                b = target.u64(mem + i * size + base_off)
                n = target.u32(mem + i * size + size_off)
                return (b, b + n) if b and n else None
            for i in (MOD_TEXT, MOD_INIT_TEXT):
                r = region(i)
                if r:
                    self.text.append(r)
            self.rodata = region(MOD_RODATA)
        else:			# before 6.4
            for lay in ('core_layout', 'init_layout'):
                lo = addr + target.field_offset('struct module', lay)
                b = target.u64(lo + target.field_offset('struct module_layout',
                                                        'base'))
                t = target.u32(lo + target.field_offset('struct module_layout',
                                                        'text_size'))
                ro = target.u32(lo + target.field_offset('struct module_layout',
                                                         'ro_size'))
                if b and t:
                    self.text.append((b, b + t))
                if lay == 'core_layout' and b and ro > t:
                    self.rodata = (b + t, b + ro)
        self._syms = None

    def holds_text(self, ip):
        return any(lo <= ip < hi for lo, hi in self.text)

    def symbols(self):
        """Sorted [(address, symtab index, name, type, size)] of the
        module's kallsyms."""
        if self._syms is not None:
            return self._syms
        self._syms = []
        ks = target.try_u64(self.addr + target.field_offset('struct module',
                                                            'kallsyms'))
        if not ks:
            return self._syms
        symtab = target.u64(ks + target.field_offset('struct mod_kallsyms',
                                                     'symtab'))
        num = target.u32(ks + target.field_offset('struct mod_kallsyms',
                                                  'num_symtab'))
        strtab = target.u64(ks + target.field_offset('struct mod_kallsyms',
                                                     'strtab'))
        if not symtab or not strtab or num > 1 << 20:
            return self._syms
        try:
            raw = target.read(symtab, num * ELF64_SYM)
        except gdb.MemoryError:
            return self._syms
        names = {}
        for k in range(num):
            st_name, info, _, _, value, size = struct.unpack_from(
                '<IBBHQQ', raw, k * ELF64_SYM)
            if not value or not st_name:
                continue
            names[k] = (value, st_name, info & 15, size)
        blob = _strtab(strtab, max((v[1] for v in names.values()),
                                   default=0) + 256)
        for k, (value, st_name, typ, size) in names.items():
            end = blob.find(b'\0', st_name)
            name = blob[st_name:end if end >= 0 else None].decode(
                errors='replace')
            self._syms.append((value, k, name, typ, size))
        self._syms.sort()
        return self._syms

    def symbol(self, ip):
        """(name, offset, size) of the function holding ip, or None: as
        the kernel's find_kallsyms_symbol() picks it, the first symbol in
        symtab order at the highest address not above ip, its size up to
        the next symbol of any type."""
        syms = [s for s in self.symbols() if s[3] in (STT_FUNC, STT_NOTYPE)]
        i = bisect.bisect_right(syms, (ip, 1 << 62)) - 1
        if i < 0:
            return None
        start, _, name, _, size = syms[i]
        while i > 0 and syms[i - 1][0] == start:
            i -= 1
            name = syms[i][2]		# the lowest symtab index wins
        # find_kallsyms_symbol(): up to the next symbol, at most to the
        # end of the memory region holding ip
        region = next((hi for lo, hi in self.text + [self.rodata or (0, 0)]
                       if lo <= ip < hi), start + size)
        later = [s[0] for s in self.symbols() if start < s[0] < region]
        end = min(later) if later else region
        return name, ip - start, end - start

    def lookup(self, name):
        """Run-time value of the module's symbol name, or None."""
        for value, _, n, _, _ in self.symbols():
            if n == name:
                return value
        return None


def _strtab(addr, n):
    """Up to n bytes of a string table (less if the end is unreadable)."""
    while n > 0:
        try:
            return target.read(addr, n)
        except gdb.MemoryError:
            n //= 2
    return b''


def modules():
    """The target's modules, in list order."""
    def walk():
        head = target.sym('modules')
        off = target.field_offset('struct module', 'list')
        out, seen = [], set()
        p = target.u64(head)
        while p and p != head and p not in seen and len(out) < 10000:
            seen.add(p)
            out.append(Module(p - off))
            p = target.u64(p)
        return out
    return target.cached('modules', walk)


def list_key():
    """The module list's nodes, read afresh (modules() is cached): other
    ones when a module came or went."""
    head = target.sym('modules')
    out, p = [], target.try_u64(head)
    while p and p != head and len(out) < 10000:
        out.append(p)
        p = target.try_u64(p)
    return tuple(out)


def find(name):
    for m in modules():
        if m.name == name:
            return m
    return None


def module_of(ip):
    for m in modules():
        if m.holds_text(ip):
            return m
    return None
