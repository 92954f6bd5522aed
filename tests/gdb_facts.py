# SPDX-License-Identifier: GPL-2.0
"""What tests/gdb_check.py takes from outside the helpers it checks: the
kernel's own traces in a console, the dump's ELF program headers and
VMCOREINFO, vmlinux's symbols from nm; and a side-by-side diff."""
import re
import struct
import subprocess


def kernel_trace(lines):
    """The frames of a kernel 'Call Trace:' (no '? ' guesses, no
    <IRQ>-style brackets): ['sym+off/size [mod]']."""
    out = []
    for line in lines:
        line = re.sub(r'^\[\s*\d+\.\d+\]', '', line).strip()
        if line.startswith('</TASK>'):
            break
        if re.fullmatch(r'\S+\+0x[0-9a-f]+/0x[0-9a-f]+( \[\S+\])?', line):
            out.append(line)	# not "? " guesses, brackets, registers
    return out


def diff(a, b):
    n = max(len(a), len(b))
    return '\n'.join('%-50s %s %s' % (a[i] if i < len(a) else '-',
                                      '==' if i < len(a) and i < len(b) and
                                      a[i] == b[i] else '!=',
                                      b[i] if i < len(b) else '-')
                     for i in range(n))


def nm_syms(vmlinux, names):
    """{name: link address} of vmlinux's symbols names, from nm."""
    out = subprocess.run(['nm', vmlinux], capture_output=True,
                         text=True).stdout
    return dict((p[2], int(p[0], 16)) for p in
                (line.split() for line in out.splitlines())
                if len(p) == 3 and p[2] in names)


def core_phdrs(path):
    """An ELF core's program headers: (p_type, p_offset, p_vaddr, p_filesz)."""
    with open(path, 'rb') as f:
        eh = f.read(64)
        phoff, = struct.unpack_from('<Q', eh, 32)
        phentsize, phnum = struct.unpack_from('<HH', eh, 54)
        f.seek(phoff)
        ph = f.read(phentsize * phnum)
    out = []
    for i in range(phnum):
        typ, _, off, va, _, filesz = struct.unpack_from('<IIQQQQ', ph,
                                                        i * phentsize)
        out.append((typ, off, va, filesz))
    return out


def kernel_offset(dump):
    """VMCOREINFO's KERNELOFFSET (the KASLR slide) from the dump's notes:
    not the helpers' own measure."""
    with open(dump, 'rb') as f:
        for typ, off, _, filesz in core_phdrs(dump):
            if typ == 4:			# PT_NOTE
                f.seek(off)
                m = re.search(rb'KERNELOFFSET=([0-9a-f]+)', f.read(filesz))
                if m:
                    return int(m.group(1), 16)
    return None


def fork_return(vmlinux):
    """(name, link address) of what a new task's inactive_task_frame
    returns to, from nm: ret_from_fork_asm if vmlinux has it, else
    ret_from_fork, as ORC's __unwind_start() compares."""
    out = subprocess.run(['nm', vmlinux], capture_output=True,
                         text=True).stdout
    syms = dict((p[2], int(p[0], 16)) for p in
                (line.split() for line in out.splitlines())
                if len(p) == 3 and p[2] in ('ret_from_fork_asm',
                                            'ret_from_fork'))
    for name in ('ret_from_fork_asm', 'ret_from_fork'):
        if name in syms:
            return name, syms[name]
    return None, None


def core_offset(path, vaddr):
    """File offset of virtual address vaddr in an ELF core."""
    for typ, off, va, filesz in core_phdrs(path):
        if typ == 1 and va <= vaddr < va + filesz:
            return off + vaddr - va
    raise SystemExit('not ok gdb_bad_input: %#x not in the dump' % vaddr)


def patch(path, vaddr, data):
    with open(path, 'r+b') as f:
        f.seek(core_offset(path, vaddr))
        f.write(data)
