#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The retpoline thunks' entry rows of a vmlinux's kunwind table.

    thunk_check.py KUNWIND_GEN VMLINUX

Every __x86_indirect_{,call_,jump_,its_}thunk_<reg> symbol (nm) must have
a row of exactly one byte at its address, CFA = rsp + 8, the return
address at CFA - 8 (kunwind-gen dump: "rsp+8 u c-8"), and objdump must
show a call (the retpoline), a jmp or an lfence (a thunk patched by the
alternatives) as its first instruction.  Prints one ok/not ok line.
"""
import os
import re
import subprocess
import sys

THUNK = re.compile(r'^__x86_indirect_(?:call_|jump_|its_)?thunk_[a-z0-9]+$')


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True,
                          check=True).stdout


def main():
    gen, vmlinux = sys.argv[1:3]
    rel = re.match(r'vmlinux-(\d+)\.(\d+)', os.path.basename(vmlinux))
    name = 'vmlinux_thunk_entries_are_call_frames_%s_%s' % rel.groups() \
        if rel else 'vmlinux_thunk_entries_are_call_frames'
    syms = {}
    for line in run(['nm', vmlinux]).splitlines():
        f = line.split()
        if len(f) == 3 and THUNK.match(f[2]) and not f[2].endswith('_array'):
            syms[int(f[0], 16)] = f[2]
    rows = {}
    for line in run([gen, 'dump', vmlinux]).splitlines():
        f = line.split()
        if len(f) >= 6 and f[1].startswith('0x'):
            rows[int(f[1], 16)] = (int(f[2], 16), ' '.join(f[3:6]))
    bad = []
    for addr, sym in sorted(syms.items()):
        row = rows.get(addr)
        dis = run(['objdump', '-d', '--start-address=%#x' % addr,
                   '--stop-address=%#x' % (addr + 16), vmlinux])
        insn = ''
        for line in dis.splitlines():
            m = re.match(r'\s*[0-9a-f]+:\s+(?:[0-9a-f]{2} )+\s*\t?(\S+)', line)
            if m:
                insn = m.group(1)
                break
        if row != (addr + 1, 'rsp+8 u c-8') or \
                insn not in ('call', 'jmp', 'lfence'):
            bad.append('%s (row %s, first instruction %s)' % (sym, row, insn))
    if not syms or bad:
        print('not ok %s' % name)
        print('#   %d thunk entries; wrong: %s' %
              (len(syms), '; '.join(bad[:5]) or 'no thunk symbol found'))
        return 1
    print('ok %s' % name)
    print('#   %d thunk entries: a one-byte call row each (rsp+8), first '
          'instruction a call, jmp or lfence' % len(syms))
    return 0


if __name__ == '__main__':
    sys.exit(main())
