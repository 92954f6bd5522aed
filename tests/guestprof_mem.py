# SPDX-License-Identifier: GPL-2.0
"""Run in gdb (tests/guestprof_check.py): kunwind-guestprof's reads of a
QEMU guest's RAM file through its own page-table walks, against QEMU's
own translation of the same addresses (gdbstub "m" packets, QEMU's
cpu_memory_rw_debug()), and the walks from each memory, on a guest
stopped ROUNDS times.

    KUNWIND_GP_SOCK=SOCKET KUNWIND_GP_RAM=FILE KUNWIND_GP_ROUNDS=N \\
        gdb -batch -ex 'source gdb/kunwind-gdb.py' \\
            -ex 'source tests/guestprof_mem.py' VMLINUX

Pages compared per vCPU and round: the whole task stack and the CPU's
own stacks (IRQ, exception, entry), the text page at a kernel rip, the
first page of every kunwind table and of every segment's text; both
sides must read the same bytes or both fail (the #VC stacks, mapped only
under SEV-ES, fail on both).  Prints "guestprof-mem: KEY=VALUE ..." and, per difference, a line
"guestprof-mem: differ ...".
"""
import os
import time

import gdb

from kunwind import guest, registry, target, tasks

PAGE = 4096


def main():
    stub = guest.Gdbstub(os.environ['KUNWIND_GP_SOCK'])
    ram = guest.GuestMemory(os.environ['KUNWIND_GP_RAM'])
    via_ram = guest.GuestSource(stub, ram)
    via_stub = guest.GuestSource(stub, guest.StubMemory(stub))
    via_ram.sample_regs()
    via_ram.find_root()
    reg = registry.registry()
    tables = [a for _, a, _ in reg.walker.tables if a] + \
        [s[0] for s in reg.segs]
    count = dict(pages=0, equal=0, both_unreadable=0, differ=0, walks=0,
                 walks_equal=0, walks_differ=0, frames=0)
    for rnd in range(int(os.environ.get('KUNWIND_GP_ROUNDS', '10'))):
        if rnd:
            stub.cont()
            time.sleep(0.05)
            via_ram.sample_regs()
        via_stub.regs = via_ram.regs
        via_stub.mem.flush()
        target.set_source(via_ram, forget=False)
        target.reset_run()
        reg = registry.registry()
        pages = set(a & ~(PAGE - 1) for a in tables)
        plans = []
        for cpu in range(len(via_ram.regs)):
            r = via_ram.regs[cpu]
            task = tasks.Task(tasks.current(cpu))
            stacks = [task.stack_range() + (0,)] + tasks.cpu_stacks(cpu)
            for lo, hi, _ in stacks:
                pages.update(range(lo & ~(PAGE - 1), hi, PAGE))
            if not r['cs'] & 3:	# swapper's tables map no user text
                pages.add(r['rip'] & ~(PAGE - 1))
            plans.append((cpu, r, stacks))
        for p in sorted(pages):
            count['pages'] += 1
            try:
                a = ram.read(p, PAGE)
            except gdb.MemoryError:
                a = None
            try:
                b = stub.read_memory(p, PAGE)
            except gdb.MemoryError:
                b = None
            if a == b:
                count['equal' if a is not None else 'both_unreadable'] += 1
            else:
                count['differ'] += 1
                print('guestprof-mem: differ page %#x: ram %s stub %s' % (
                    p, 'unreadable' if a is None else 'read',
                    'unreadable' if b is None else 'read'))
        for cpu, r, stacks in plans:
            if r['cs'] & 3:
                continue
            res = []
            for src, g in ((via_ram, ram.g), (via_stub, None)):
                target.set_source(src, forget=False)
                reg.walker.set_guest(g)
                reg.walker.set_stacks(stacks)
                frames, why, complete = reg.walker.walk(r['rip'], r['rsp'],
                                                        r['rbp'])
                res.append(([(f.ip, f.sp, f.exact) for f in frames], why))
            count['walks'] += 1
            count['frames'] += len(res[0][0])
            if res[0] == res[1]:
                count['walks_equal'] += 1
            else:
                count['walks_differ'] += 1
                print('guestprof-mem: differ walk cpu %d: ram %s (%s) stub '
                      '%s (%s)' % (cpu, [hex(f[0]) for f in res[0][0]],
                                   res[0][1], [hex(f[0]) for f in res[1][0]],
                                   res[1][1]))
        target.set_source(via_ram, forget=False)
    stub.cont()
    stub.detach()
    print('guestprof-mem: root %#x levels %d' % (via_ram.root[0],
                                               5 if via_ram.root[1] else 4))
    print('guestprof-mem: ' + ' '.join('%s=%d' % kv for kv in count.items()))
    target.set_source(None)


main()
