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

With KUNWIND_GP_MODE=bt (and KUNWIND_GP_MONITOR=the guest's HMP socket,
KUNWIND_GP_STOPS=N): kunwind-guestprof's walker against an oracle that
is not kunwind, gdb's own backtrace from vmlinux's DWARF call frame
information.  gdb is the gdbstub's client ("target remote"); the guest
runs and is stopped N times at random (0.05 to 0.4 s; the monitor's
"stop", which QEMU reports to gdb as a SIGINT); at each stop every vCPU
in the kernel is walked by guestprof.Sampler.walk_cpu(), the profiler's
own walk (memory from the RAM file, registers from gdb's), and by gdb
("bt": the physical frames, inline and tail-call frames left out).  The
vmlinux gdb has is not relocated: the guest must run with nokaslr.

gdb's frame k + 1 is trusted when gdb unwound it by DWARF: frame k is in
C code (a function in DWARF, its lines in a .c or .h file: compiled with
call frame information; assembly has none, and gdb then guesses from
prologues),
gdb gives no stop reason there, frame k + 1's sp is on frame k's stack
(call frame information never describes a stack switch: an IRQ's
call_on_irqstack() is inline assembly) and its pc is in kernel text (a
module's frame is trusted, the step from it is not: gdb has no module's
debug info).  Every trusted frame must be kunwind's
frame at the same depth (the same pc); kunwind's frames past gdb's last
trusted one are counted, with why gdb ended there.  Prints a line per
walk "guestprof-bt: stop S cpu C ..." and, last,
"guestprof-bt: stops=N kernel_walks=N compared_frames=N differ=N
gdb_complete=N beyond=N beyond_walks=N" and the reasons gdb ended.
"""
import collections
import os
import random
import socket
import threading
import time

import gdb

from kunwind import modules, registry, target, tasks
from guestprof import guest, sampler as guestprof

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


class GdbStopSource(guest.GuestSource):
    """A GuestSource whose registers are gdb's (gdb is the gdbstub's
    client) and whose memory is the RAM file."""

    REGS = ('rip', 'rsp', 'rbp', 'cs', 'eflags', 'cr3', 'cr4', 'efer')

    def __init__(self, mem):
        super().__init__(None, mem)
        self.threads = []

    def nr_threads(self):
        return len(self.threads)

    def sample_regs(self):
        self.threads = sorted(gdb.selected_inferior().threads(),
                              key=lambda t: t.num)
        old = gdb.selected_thread()
        self.regs = []
        for t in self.threads:
            t.switch()
            f = gdb.newest_frame()
            r = {}
            for n in self.REGS:
                try:
                    r[n] = int(f.read_register(n)) & (1 << 64) - 1
                except (gdb.error, TypeError, ValueError):
                    # a flags type (cr3, cr4, efer in QEMU's description)
                    r[n] = int(gdb.parse_and_eval('(unsigned long)$' + n))
            self.regs.append(r)
        if old is not None:
            old.switch()
        self.mem.flush()


def hmp(path, cmd):
    """One command to QEMU's HMP monitor at path."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    buf = b''
    while b'(qemu)' not in buf:
        buf += s.recv(4096)
    s.sendall(cmd.encode() + b'\n')
    buf = b''
    while b'(qemu)' not in buf:
        buf += s.recv(4096)
    s.close()


def random_stop(monitor, rng):
    """Let the guest run (gdb's "continue") and stop it at a random time:
    the monitor's "stop", again every 0.5 s until gdb says it stopped (a
    stop sent before gdb's "c" reached QEMU stops nothing)."""
    done = threading.Event()
    delay = rng.uniform(0.05, 0.4)

    def stopper():
        if done.wait(delay):
            return
        while not done.is_set():
            hmp(monitor, 'stop')
            done.wait(0.5)
    th = threading.Thread(target=stopper, daemon=True)
    th.start()
    try:
        gdb.execute('continue', to_string=True)
    finally:
        done.set()
        th.join()


def gdb_frames(thread, stacks, text):
    """gdb's backtrace of thread: [(pc, sp)] of its physical frames and
    how many of them are trusted (see the docstring), and why the trust
    ended."""
    thread.switch()
    f = gdb.newest_frame()
    phys = []		# (pc, sp, frame)
    while f is not None and len(phys) < guestprof.depth():
        if f.type() not in (gdb.INLINE_FRAME, gdb.TAILCALL_FRAME):
            phys.append((f.pc(), int(f.read_register('rsp')) &
                         (1 << 64) - 1, f))
        try:
            f = f.older()
        except gdb.error:
            break
    trusted, why = 1, 'gdb gave one frame'
    for k in range(len(phys)):
        pc, sp, fr = phys[k]
        look = pc if k == 0 else pc - 1
        sal = gdb.find_pc_line(look)
        fn = sal.symtab.filename if sal.symtab else ''
        try:
            block = gdb.block_for_pc(look)
        except RuntimeError:
            block = None
        while block is not None and block.function is None and \
                not block.is_static and not block.is_global:
            block = block.superblock	# out of a lexical block
        # C: a function in DWARF (assembly has lines, in .S or, for an
        # idtentry stub, in the .h of its macro, but no function)
        if not fn.endswith(('.c', '.h')) or block is None or \
                block.function is None:
            why = 'asm or no debug info (%s)' % (os.path.basename(fn) or
                                                 'none')
            break
        reason = fr.unwind_stop_reason()
        if reason != gdb.FRAME_UNWIND_NO_REASON:
            why = 'gdb stopped: ' + gdb.frame_stop_reason_string(reason)
            break
        if k + 1 == len(phys):
            why = 'gdb gave no older frame'
            break
        npc, nsp, _ = phys[k + 1]
        st = [r for r in stacks if r[0] <= sp < r[1]]
        if not st or not st[0][0] <= nsp < st[0][1]:
            why = 'stack switch (no CFI describes it)'
            break
        if not text(npc):
            why = 'pc %#x not in kernel text' % npc
            break
        trusted = k + 2
    return [(pc, sp) for pc, sp, _ in phys], trusted, why


def add_module_symbols(kos):
    """gdb gets the debug info (and so the call frame information) of
    the modules in kos, "NAME=PATH ...", at the addresses of their
    sections in the guest (as the kernel's lx-symbols does)."""
    out = []
    for item in kos.split():
        name, path = item.split('=', 1)
        m = modules.find(name)
        if m is None:
            raise gdb.GdbError('guestprof-bt: module %s is not loaded' % name)
        sa = gdb.parse_and_eval('((struct module *)%#x)->sect_attrs' % m.addr)
        secs = {}
        for i in range(int(sa['nsections'])):
            a = sa['attrs'][i]
            secs[a['battr']['attr']['name'].string()] = int(a['address'])
        text = sorted(s for s in secs if s.startswith(('.text', '.init.text',
                                                      '.exit.text',
                                                      '.noinstr.text')))
        gdb.execute('add-symbol-file %s %#x%s' % (
            path, secs['.text'], ''.join(' -s %s %#x' % (s, secs[s])
                                         for s in text if s != '.text')),
            to_string=True)
        out.append('%s (%d text sections)' % (name, len(text)))
    return out


def main_bt():
    ram = guest.GuestMemory(os.environ['KUNWIND_GP_RAM'])
    monitor = os.environ['KUNWIND_GP_MONITOR']
    nstops = int(os.environ.get('KUNWIND_GP_STOPS', '40'))
    seed = int(os.environ.get('KUNWIND_GP_SEED', str(int(time.time()))))
    rng = random.Random(seed)
    print('guestprof-bt: %d stops, random seed %d (KUNWIND_GP_SEED)' % (
        nstops, seed))
    gdb.execute('target remote ' + os.environ['KUNWIND_GP_SOCK'],
                to_string=True)
    src = GdbStopSource(ram)
    src.sample_regs()
    src.find_root()
    target.set_source(src, forget=False)
    sampler = guestprof.Sampler(src)
    sampler.registry()
    sampler.warm()
    if target.slide():
        raise gdb.GdbError('guestprof-bt: KASLR slide %#x: boot the guest '
                           'with nokaslr (gdb\'s vmlinux is not relocated)'
                           % target.slide())
    gdb.execute('set confirm off')
    for m in add_module_symbols(os.environ.get('KUNWIND_GP_KOS', '')):
        print('guestprof-bt: gdb has the debug info of ' + m)

    def text(ip):
        return sampler.reg._text(ip)
    c = collections.Counter()
    ends = collections.Counter()
    for stop in range(nstops):
        random_stop(monitor, rng)
        src.sample_regs()
        target.set_source(src, forget=False)
        sampler.registry()
        c['stops'] += 1
        for cpu, r in enumerate(src.regs):
            if r['cs'] & 3:
                c['user'] += 1
                continue
            s = sampler.walk_cpu(cpu)
            task = tasks.current(cpu)
            stack = target.u64(task + target.field_offset(
                'struct task_struct', 'stack'))
            stacks = [(stack, stack + tasks.thread_size())] + \
                [x[:2] for x in sampler.fixed_stacks(cpu)]
            kw = [f[0] for f in s[1]]
            st = sampler.who_walked(s[5])
            c['steps_guest'] += st['guest']
            c['steps_host'] += st['host']
            c['steps_none'] += st['none']
            g, trusted, why = gdb_frames(src.threads[cpu], stacks, text)
            c['kernel_walks'] += 1
            bad = next((k for k in range(trusted)
                        if k >= len(kw) or kw[k] != g[k][0]), None)
            c['compared_frames'] += trusted if bad is None else bad + 1
            if bad is not None:
                c['differ'] += 1
            if trusted == len(kw) and bad is None:
                c['gdb_complete'] += 1
            beyond = max(0, len(kw) - trusted)
            if beyond:
                c['beyond_walks'] += 1
                c['beyond'] += beyond
                ends[why] += 1
            print('guestprof-bt: stop %d cpu %d kunwind %d frames (%s; '
                  'steps %d by tables, %d by fallback) gdb %d frames, '
                  '%d trusted (%s): %s' % (
                      stop, cpu, len(kw), s[2], st['guest'],
                      st['host'] + st['none'], len(g), trusted, why,
                      'equal' if bad is None else
                      'DIFFER at frame %d: gdb %s kunwind %s' % (
                          bad, hex(g[bad][0]),
                          hex(kw[bad]) if bad < len(kw) else 'none')))
            for k in range(max(len(kw), len(g))):
                gk = g[k][0] if k < len(g) else None
                kk = kw[k] if k < len(kw) else None
                print('guestprof-bt:   #%-2d %s gdb %-18s %-40s '
                      'kunwind %-18s %s' % (
                          k, '*' if k < trusted else ' ',
                          hex(gk) if gk else '-',
                          _name(gk), hex(kk) if kk else '-',
                          _name(kk)))
    gdb.execute('detach', to_string=True)
    print('guestprof-bt: ' + ' '.join('%s=%d' % (k, c[k]) for k in (
        'stops', 'user', 'kernel_walks', 'compared_frames', 'differ',
        'gdb_complete', 'beyond', 'beyond_walks', 'steps_guest',
        'steps_host', 'steps_none')))
    for why, n in ends.most_common():
        print('guestprof-bt: kunwind walked past gdb\'s end %d times: %s'
              % (n, why))
    target.set_source(None)


def _name(pc):
    if not pc:
        return ''
    s = gdb.find_pc_line(pc - 1)
    b = gdb.block_for_pc(pc - 1)
    fn = b.function.name if b is not None and b.function else None
    if fn is None:
        m = gdb.execute('info symbol %#x' % (pc - 1), to_string=True)
        fn = m.split(' in ')[0].strip() if 'No symbol' not in m else '?'
    return fn + (':%d' % s.line if s.symtab else '')


if os.environ.get('KUNWIND_GP_MODE') == 'bt':
    main_bt()
else:
    main()
