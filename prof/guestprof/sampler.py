# SPDX-License-Identifier: GPL-2.0
"""kunwind-guestprof: profile a running QEMU guest's kernel from the host.

Nothing runs in the guest for it: each sample stops the guest through
QEMU's gdbstub, reads every vCPU's registers, walks each vCPU's kernel
stack with kunwind's C walker over the guest's RAM file (guestmem.py,
gdb/guestmem.c) and kunwind.ko's tables found in guest memory
(gdb/kunwind/registry.py, as kunwind-bt does), and resumes the guest;
names are looked up after it runs again.  The output is the in-guest
profiler's (kunwind_prof.ko, prof/): folded stacks, outermost frame first, "func" or
"func [module]" as %ps prints them, a root "[stopped: REASON]" for a walk
that did not reach the end of its stack, "COMM (user)" for a vCPU in user
mode; and the same flame graph (scripts/flamegraph.sh).

gdb holds vmlinux (the types and symbols); the guest's memory and
registers are not gdb's target.  scripts/kunwind-guestprof runs it as
    gdb -batch -ex 'source gdb/kunwind-gdb.py' \\
        -ex 'kunwind-guestprof ARGS' VMLINUX
"""
import argparse
import collections
import os
import select
import signal
import statistics
import subprocess
import time

import gdb

from kunwind import lib, modules, registry, target, tasks
from kunwind.utils import guarded

from . import guest


def depth():
    """Frames a sample keeps: the in-kernel profiler's PROF_DEPTH, from C
    (kunwind_format.py)."""
    return lib.constants().PROF_DEPTH


class Sampler:
    """Samples of every vCPU: walked while the guest is stopped, named as
    soon as it runs again (so that a module's frames get its names while
    it is loaded, as the in-guest profiler names them before it goes)."""

    def __init__(self, src):
        self.src = src
        self.reg = None
        self.cpu_stacks = {}	# cpu -> its IRQ, exception and entry stacks
        self.names = {}		# (address, exact) -> frame name
        self.stacks = collections.Counter()	# folded stack -> samples
        self.samples = self.incomplete = 0
        self.rebuilt = 0
        # Who walked: steps by the tables kunwind.ko registered in the
        # guest, by a table the host built (the guest registered none
        # for vmlinux), and by nothing the tables hold (the host walker
        # has no fallback: such a step is a walker bug, counted apart).
        self.steps = collections.Counter()
        self.stops = collections.Counter()	# walk's end -> walks
        self.walks = None	# [line], when --walks asks for them

    def registry(self):
        """The tables, read again when kunwind.ko published others."""
        if self.reg is None or registry.changed(self.reg):
            target.reset_run()
            self.reg = registry.registry()
            self.reg.walker.set_guest(self.src.mem.g)
            self.cpu_stacks.clear()
            self.names.clear()		# modules moved: names may differ
            self.rebuilt += 1
            if self.rebuilt > 1:
                self.warm()
        return self.reg

    def warm(self):
        """Look up now what each sample needs, so that the first does not
        stop the guest for gdb's symbol tables."""
        tasks.thread_size()
        target.nm_symbols()		# nm of vmlinux: 0.1 s, once
        for field in ('comm', 'stack'):
            target.field_offset('struct task_struct', field)
        for cpu in range(len(self.src.regs)):
            tasks.current_ptr(cpu)
            self.fixed_stacks(cpu)

    def fixed_stacks(self, cpu):
        if cpu not in self.cpu_stacks:
            self.cpu_stacks[cpu] = tasks.cpu_stacks(cpu)
        return self.cpu_stacks[cpu]

    def walk_cpu(self, cpu):
        """A raw sample of cpu: ('user', comm bytes) or ('kernel', frames,
        why, complete, truncated), frames ((ip, exact), ...)."""
        r = self.src.regs[cpu]
        task = tasks.current(cpu)
        if r['cs'] & 3:
            comm = target.read(task + target.field_offset(
                'struct task_struct', 'comm'), 16)
            return ('user', comm.split(b'\0', 1)[0])
        stack = target.u64(task + target.field_offset('struct task_struct',
                                                      'stack'))
        w = self.reg.walker
        # tasks.stacks_of()'s, without reading the whole Task each time
        w.set_stacks([(stack, stack + tasks.thread_size(),
                       lib.fmt.KUNWIND_TARGET_STACK_TASK)] +
                     self.fixed_stacks(cpu))
        frames, why, complete = w.walk(r['rip'], r['rsp'], r['rbp'],
                                       max_frames=depth() + 1)
        trunc = len(frames) > depth()
        return ('kernel', tuple((f.ip, f.exact) for f in frames[:depth()]),
                why, complete and not trunc, trunc,
                tuple(f.lookup_addr() for f in frames))

    def who_walked(self, lookups):
        """{'guest': n, 'host': n, 'none': n}: the steps of a walk whose
        frames' rows are at lookups, by whose table made each (the row
        describing frame i made the step to frame i + 1)."""
        reg, out = self.reg, collections.Counter()
        for addr in lookups[:-1]:
            rule = reg.walker.find_rule(addr)
            if rule is None:
                out['none'] += 1
            else:
                t = reg.walker.tables[rule[5]] if 0 <= rule[5] < len(
                    reg.walker.tables) else None
                out['guest' if t and t[1] is not None else 'host'] += 1
        return out

    def sample(self):
        """Stop, walk every vCPU, resume; then name what was walked.
        Returns how long the guest was stopped (s)."""
        t0 = time.perf_counter()
        self.src.sample_regs()
        try:
            self.registry()
            out = []
            for cpu in range(len(self.src.regs)):
                try:
                    out.append(self.walk_cpu(cpu))
                except gdb.MemoryError:	# no current task, no stack
                    f = lib.fmt
                    out.append(('kernel', (),
                                f.KUNWIND_STOP_STR[f.KUNWIND_STOP_BAD_READ],
                                False, False, ()))
        finally:
            self.src.stub.cont()
        stopped = time.perf_counter() - t0
        for cpu, s in enumerate(out):
            self.samples += 1
            self.incomplete += s[0] == 'kernel' and not s[3]
            self.stacks[self.fold(s)] += 1
            if s[0] == 'kernel':
                self.account(cpu, s)
        return stopped

    def account(self, cpu, s):
        """Count a kernel walk's steps by who made them, and its end."""
        st = self.who_walked(s[5])
        self.steps.update(st)
        self.stops[s[2]] += 1
        if self.walks is not None:
            self.walks.append('%d %d %d %d %d %d %s' % (
                self.samples, cpu, len(s[5]), st['guest'], st['host'],
                st['none'], s[2].replace(' ', '_')))

    def steps_line(self):
        """The walks' steps by who made them, and how the walks ended."""
        return ('steps: %d by the guest\'s tables; by a fallback: %d by '
                'the vmlinux table built on the host (the guest registered '
                'none), %d by no table row (the host walker has no ORC: '
                'a walker bug); walks ended: %s' % (
                    self.steps['guest'], self.steps['host'],
                    self.steps['none'], ', '.join(
                        '%s %d' % kv for kv in sorted(self.stops.items()))
                    or 'none'))

    def name(self, ip, exact):
        """"func [module]" or "func", as %ps prints the frame."""
        key = (ip, exact)
        if key not in self.names:
            addr = ip if exact else ip - 1
            m = modules.module_of(addr)
            if m is None and not target.vmlinux_symbol(addr):
                # A module without tables publishes nothing: look again.
                target.forget('modules')
                m = modules.module_of(addr)
            s = m.symbol(addr) if m else target.vmlinux_symbol(addr)
            if not s:
                self.names[key] = '0x%x' % addr
            else:
                self.names[key] = '%s [%s]' % (s[0], m.name) if m else s[0]
        return self.names[key]

    def fold(self, s):
        """A sample's line in prof/'s folded file (but the count)."""
        if s[0] == 'user':
            # prof_put_comm(): the kernel's isgraph() (Latin-1), not ';'
            return ''.join(chr(b) if (0x21 <= b <= 0x7e or b >= 0xa1) and
                           b != 0x3b else '_' for b in s[1]) + ' (user)'
        _, frames, why, complete, trunc, _ = s
        root = '[truncated];' if trunc else '' if complete else \
            '[stopped: %s];' % why
        names = [self.name(ip, ex) for ip, ex in reversed(frames)]
        return root + (';'.join(names) or '[no frame]')


class Control:
    """perf record --control's idea: "enable", "disable", "stop" lines in
    a FIFO; sampling starts disabled."""

    def __init__(self, path):
        self.path = path
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.buf = b''
        self.enabled = False
        self.stopped = False

    def poll(self, timeout=0):
        """Read what came, waiting up to timeout seconds for it."""
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return
        d = os.read(self.fd, 4096)
        if not d:			# every writer closed: wait for the next
            os.close(self.fd)
            self.fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
            time.sleep(min(timeout, 0.01))
            return
        self.buf += d
        while b'\n' in self.buf:
            line, self.buf = self.buf.split(b'\n', 1)
            cmd = line.strip().decode(errors='replace')
            if cmd == 'enable':
                self.enabled = True
            elif cmd == 'disable':
                self.enabled = False
            elif cmd == 'stop':
                self.stopped = True
            elif cmd:
                print('kunwind-guestprof: control: unknown command %r' % cmd)

    def close(self):
        os.close(self.fd)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise gdb.GdbError('kunwind-guestprof: %s (help kunwind-guestprof)'
                           % message)


def _parser():
    p = _Parser(prog='kunwind-guestprof', add_help=False)
    p.add_argument('--gdbstub', required=True)
    p.add_argument('--ram')
    p.add_argument('--below-4g', type=lambda v: int(v, 0), default=0)
    p.add_argument('-F', '--frequency', type=float, default=100)
    p.add_argument('-d', '--duration', type=float, default=10)
    p.add_argument('-o', '--output', default='guestprof.folded')
    p.add_argument('--html')
    p.add_argument('--control')
    p.add_argument('--stats')
    p.add_argument('--walks')
    p.add_argument('-r', '--realtime', type=int, default=0)
    return p


def _realtime(prio):
    """perf record -r: sample with SCHED_FIFO priority prio, so that the
    guest's busy vCPU threads cannot keep the sampler off the CPU while
    the guest waits for it, stopped."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(prio))
        return True
    except (OSError, AttributeError) as e:
        print('kunwind-guestprof: warning: no SCHED_FIFO priority %d (%s): '
              'sampling at normal priority' % (prio, e))
        return False


def _flamegraph(folded, html):
    top = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    r = subprocess.run([os.path.join(top, 'scripts', 'flamegraph.sh'), folded,
                        html, '--title', 'kunwind-guestprof: ' +
                        os.path.basename(folded)],
                       capture_output=True, text=True)
    if r.returncode:
        raise gdb.GdbError('kunwind-guestprof: flamegraph.sh failed: %s' %
                           r.stderr.strip())


_signalled = []


def _stop_on_signals():
    """SIGTERM and SIGHUP end the run as its end does, at the next tick:
    the guest is detached and resumes (a kill -9 leaves it stopped: the
    monitor's "cont" resumes it).  SIGINT is gdb's: Ctrl-C raises
    KeyboardInterrupt, which detaches on its way out.  Returns the old
    handlers (None for gdb's own, which Python cannot put back: the
    default then)."""
    def end(signum, frame):
        _signalled.append(signum)
    del _signalled[:]
    old = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            old[sig] = signal.signal(sig, end)
        except (ValueError, OSError):	# not the main thread
            pass
    return old


def _sample(opt, src, sampler, ctl):
    """The sampling loop: how long each sample stopped the guest (s),
    and the ticks missed."""
    period = 1.0 / opt.frequency
    costs, late = [], 0
    end = None if ctl else time.monotonic() + opt.duration
    enabled = ctl is None
    nxt = time.monotonic()
    while not _signalled:
        if ctl:
            ctl.poll()
            if ctl.stopped:
                break
            if not ctl.enabled:
                enabled = False
                ctl.poll(0.05)
                continue
            if not enabled:
                enabled = True
                nxt = time.monotonic()
        now = time.monotonic()
        if end is not None and now >= end:
            break
        if nxt > now:
            time.sleep(nxt - now)
        elif now - nxt > period:
            late += 1			# a missed tick is not made up
            nxt = now
        costs.append(sampler.sample())
        nxt += period
    return costs, late


def profile(opt):
    old_signals = _stop_on_signals()
    old_policy = os.sched_getscheduler(0), os.sched_getparam(0)
    ctl = src = None
    try:
        ctl = Control(opt.control) if opt.control else None
        src = guest.connect(opt.gdbstub, opt.ram, opt.below_4g)
        sampler = Sampler(src)
        if opt.walks:
            sampler.walks = []
        sampler.registry()
        sampler.warm()
        for note in sampler.reg.notes:
            print('kunwind-guestprof: ' + note)
        if opt.realtime:
            _realtime(opt.realtime)
        src.stub.cont()
        print('kunwind-guestprof: %d vCPUs, KASLR slide %#x, %s, %g Hz%s' % (
            len(src.regs), target.slide(),
            'page-table root %#x (%d-level)' % (src.root[0], 5 if src.root[1]
                                                 else 4) if opt.ram else
            'memory through the gdbstub (no --ram: slow)', opt.frequency,
            ', waiting for "enable" on ' + opt.control if ctl else ''))
        gdb.flush()
        costs, late = _sample(opt, src, sampler, ctl)
        src.stub.detach()
        if _signalled:
            print('kunwind-guestprof: signal %d: stopped, the guest resumed'
                  % _signalled[0])
    finally:
        try:
            if src:
                src.stub.detach()	# a no-op when done above
        finally:
            if ctl:
                ctl.close()
            for sig, h in old_signals.items():
                signal.signal(sig, signal.SIG_DFL if h is None else h)
            try:
                os.sched_setscheduler(0, *old_policy)
            except OSError:
                pass
    # Latin-1: a task's name is bytes, written back as the kernel's were.
    with open(opt.output, 'w', encoding='latin-1') as f:
        for stack, n in sorted(sampler.stacks.items()):
            f.write('%s %d\n' % (stack, n))
    walks, hits = src.mem.stats()
    src.mem.close()
    us = [c * 1e6 for c in costs] or [0]
    line = ('kunwind-guestprof: ticks=%d samples=%d incomplete=%d late=%d '
            'per-sample=%.0fus median=%.0fus max=%.0fus tables-read=%d '
            'page-walks=%d cache-hits=%d' % (
                len(costs), sampler.samples, sampler.incomplete, late,
                statistics.mean(us), statistics.median(us), max(us),
                sampler.rebuilt, walks, hits))
    print(line)
    steps = 'kunwind-guestprof: ' + sampler.steps_line()
    print(steps)
    if opt.stats:
        with open(opt.stats, 'w') as f:
            f.write(line + '\n')
            f.write('costs_us %s\n' % ' '.join('%.0f' % u for u in us))
            f.write(steps + '\n')
    if opt.walks:
        with open(opt.walks, 'w') as f:
            f.write('# sample cpu frames steps_by_guest_tables '
                    'steps_by_host_table steps_by_no_table end\n')
            f.write(''.join(w + '\n' for w in sampler.walks))
    if opt.html:
        _flamegraph(opt.output, opt.html)
    print('kunwind-guestprof: folded %s%s' % (
        opt.output, ' html %s' % opt.html if opt.html else ''))


class KunwindGuestprof(gdb.Command):
    """Profile a running QEMU guest's kernel from the host.

Usage: kunwind-guestprof --gdbstub SOCKET [--ram FILE] [-F HZ] [-d SECONDS]
                         [-o FOLDED] [--html HTML] [--control FIFO]
                         [--below-4g BYTES] [--stats FILE] [--walks FILE]
                         [-r PRIO]

The guest is QEMU with its gdbstub on SOCKET (a unix socket path, or
HOST:PORT) and its RAM in FILE, shared:
    -gdb unix:SOCKET,server=on,wait=off
    -object memory-backend-file,id=ram,size=SIZE,mem-path=FILE,share=on
    -machine memory-backend=ram
Without --ram, memory is read through the gdbstub: any QEMU, but a round
trip per page, milliseconds a sample.  Nothing runs in the guest.  gdb
must have the guest kernel's vmlinux loaded (its types and symbols), not
be connected to the gdbstub (this command is its client).  kunwind's tables are read from kunwind.ko's
registry in guest memory (vmlinux's built from the loaded vmlinux when
the guest has none), as kunwind-bt finds them.

Every 1/HZ s (default 100 Hz) the guest is stopped, each vCPU's kernel
stack is walked by kunwind's C walker from its registers, and the guest
resumes; for SECONDS (default 10).  With --control FIFO (perf record's
--control), samples are taken while enabled: from a line "enable" in
FIFO to a line "disable", any number of times, until a line "stop"
(SECONDS does not apply).  FOLDED (default guestprof.folded) gets folded stacks as
kunwind.ko's profiler writes them; --html makes the flame graph
(scripts/flamegraph.sh).  --below-4g: the RAM below 4 GiB when QEMU's
machine is not pc (q35 with 2.75 GiB or more: 0x80000000).  The last
lines give the counts and the cost: per-sample is the time the guest
was stopped per sample (stop, registers, walks, resume).  -r PRIO (perf
record's -r): sample with SCHED_FIFO priority PRIO, so that the guest's
busy vCPU threads do not keep the sampler waiting while the guest is
stopped (on a 2-core host, milliseconds a few times a second).

Who walked: the last lines count the kernel walks' steps by the tables
kunwind.ko registered in the guest, by the vmlinux table built on the
host (a guest without one) and by no table row (none: the walker has no
fallback), and how the walks ended; --walks FILE writes the same per
walk."""

    def __init__(self):
        super().__init__('kunwind-guestprof', gdb.COMMAND_DATA)

    @guarded
    def invoke(self, arg, from_tty):
        opt = _parser().parse_args(gdb.string_to_argv(arg))
        if opt.frequency <= 0 or opt.duration <= 0:
            raise gdb.GdbError('kunwind-guestprof: -F and -d want positive '
                               'numbers')
        try:
            profile(opt)
        finally:
            target.set_source(None)


KunwindGuestprof()
