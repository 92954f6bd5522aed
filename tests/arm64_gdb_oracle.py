# SPDX-License-Identifier: GPL-2.0
"""gdb's own unwinder as the oracle of kunwind's arm64 walk, at random stops.

Run inside gdb-multiarch (tests/harness/arm64-gdb-oracle.sh starts the
guest and gdb):

    gdb-multiarch -batch -x tests/arm64_gdb_oracle.py VMLINUX

with the environment:

    KUNWIND_ORACLE_PORT     the QEMU gdbstub's TCP port
    KUNWIND_ORACLE_TABLE    vmlinux's kunwind table (kunwind-gen build)
    KUNWIND_ORACLE_STOPS    how many times to stop the guest (default 300)
    KUNWIND_ORACLE_SEED     the random delays' seed (default: time)
    KUNWIND_ORACLE_MODULES  "NAME:TABLE:TEXT_ADDR:KO ..." module tables,
                            the run-time address of each one's .text and
                            its .ko (gdb's add-symbol-file: its DWARF)

The guest runs a workload; the script stops it after a random delay
(0-40 ms: a SIGINT to gdb, as a ^C), and at each stop, on every CPU that
is in the kernel, compares three walks from the same registers:

  gdb     its backtrace (frame.older()), with vmlinux's DWARF: its own CFI
          interpreter and, where there is none, its prologue analyser
  kunwind the one walker (libkunwind-arm64.so) on kunwind's table of
          vmlinux, given pc, sp, x29 and x30
  fp      arm64's frame-record walk, as the kernel's stacktrace.c does it:
          pc, then the return address of each record from x29 on

kunwind and gdb must agree frame for frame as far as both go (the
shorter walk's length); a differing frame is a failure, printed with both
walks, and so is a kunwind walk that stops short of gdb's for any reason
but "no unwind row" (code without CFI: counted, with where) or the end
of the stack.  For each walk the caller of the interrupted function (frame 1)
is checked against gdb's: "lost" when it differs or is missing while gdb
has it.  Every kunwind step is counted by who took it: the table (there
is no fallback here, so every frame after the first is a table step) and
why each walk ended.

Prints "# ..." lines and one result line:
    arm64_oracle stops=N samples=N kernel=N compared=N equal=N
        differ=N fp_lost=N kunwind_lost=N gdb_short=N steps=N
Exit status 1 (gdb's, through gdb.execute("quit 1")) on any difference.
"""
import os
import random
import signal
import sys
import threading
import time

import gdb

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'gdb'))
from kunwind import lib  # noqa: E402  (gdb/kunwind: after the path)

THREAD_SIZE = 16384		# arm64 with 4K pages: task and IRQ stacks
MAX_FRAMES = 48
PSTATE_MODE = 0xf		# pstate's mode field: 0 is EL0 (user)


def u64(addr):
    return int.from_bytes(gdb.selected_inferior().read_memory(addr, 8)
                          .tobytes(), 'little')


def reg(name):
    return int(gdb.selected_frame().read_register(name)) & (1 << 64) - 1


def stack_of(sp):
    """The 16 KiB-aligned block holding sp: a task or an IRQ stack (both
    THREAD_SIZE, aligned to it).  Only kernel addresses."""
    if sp >> 63 == 0:
        return None
    lo = sp & ~(THREAD_SIZE - 1)
    return (lo, lo + THREAD_SIZE, 2)


class Oracle:
    def __init__(self, table, modules):
        self.text = []		# [lo, hi) of kernel text the tables cover
        self.modules = []	# [lo, hi) of the modules' .text
        self.walker = lib.Walker(self.read, stack_of, self.is_text,
                                 arch='arm64')
        self.add(table, 'vmlinux', None)
        for name, path, text in modules:
            self.add(path, name, text)
        self.n = dict(stops=0, samples=0, kernel=0, compared=0, equal=0,
                      differ=0, fp_lost=0, kunwind_lost=0, gdb_short=0,
                      steps=0, user=0, gdb_error=0, gdb_caller=0, entry=0,
                      idle=0, gdb_caller_busy=0, fp_lost_busy=0,
                      kunwind_lost_busy=0, k_longer=0, g_longer=0,
                      module=0, vector=0, k_short_bad=0, stray_sigint=0,
                      fp_right=0, fp_right_equal=0, fp_right_differ=0,
                      module_steps=0)
        self.entry = (self.addr('__entry_text_start'),
                      self.addr('__entry_text_end'))
        self.idle = self.addr('cpu_do_idle')
        self.vectors = self.addr('vectors')
        self.ends = {}
        self.last = {}		# where walks ended, but at the end of stack
        self.reported = 0

    def add(self, path, name, text_addr):
        with open(path, 'rb') as f:
            data = f.read()
        h = self.walker.add_table(name, data)
        for i, (sec, size, base) in enumerate(self.walker.segs(h)):
            # vmlinux: link addresses (the guest boots with nokaslr); a
            # module: its .text where the loader put it
            start = base if text_addr is None else text_addr + base
            if text_addr is not None and sec != '.text':
                continue
            self.walker.add_seg(h, i, start)
            self.text.append((start, start + size))
            if text_addr is not None:
                self.modules.append((start, start + size))

    @staticmethod
    def addr(name):
        return int(gdb.parse_and_eval('(unsigned long)&%s' % name)) & \
            (1 << 64) - 1

    def read(self, addr):
        return u64(addr)

    def is_text(self, ip):
        return any(lo <= ip < hi for lo, hi in self.text)

    def gdb_walk(self):
        """gdb's frames, without the inlined ones (a frame of an inlined
        call shares its pc with the function it was inlined in)."""
        pcs = []
        f = gdb.newest_frame()
        try:
            while f is not None and len(pcs) < MAX_FRAMES:
                if f.type() != gdb.INLINE_FRAME:
                    pcs.append(f.pc() & (1 << 64) - 1)
                f = f.older()
        except gdb.error:
            self.n['gdb_error'] += 1
        return pcs

    @staticmethod
    def fp_walk(pc, fp):
        out = [pc]
        seen = set()
        while fp and fp >> 63 and fp % 8 == 0 and fp not in seen and \
                len(out) < MAX_FRAMES:
            seen.add(fp)
            try:
                nfp, lr = u64(fp), u64(fp + 8)
            except gdb.MemoryError:
                break
            if not lr:
                break
            out.append(lr)
            fp = nfp
        return out

    def sample(self):
        """One CPU's registers.  QEMU often stops a CPU on the first
        instruction of an exception vector: it took an interrupt that was
        due as it stopped.  Nothing has been saved there yet: sp, x29 and
        x30 are the interrupted code's, its pc and pstate are in ELR_EL1
        and SPSR_EL1.  That interrupted point is the sample then (gdb is
        shown it by setting pc, put back after)."""
        self.n['samples'] += 1
        pc = reg('pc')
        if 0 <= pc - self.vectors < 0x800 and not pc % 0x80:
            self.n['vector'] += 1
            elr, mode = reg('ELR_EL1'), reg('SPSR_EL1') & PSTATE_MODE
            if not mode or not elr >> 63:
                self.n['user'] += 1
                return
            gdb.execute('set $pc = %#x' % elr)
            try:
                self.sample_at(elr)
            finally:
                gdb.execute('set $pc = %#x' % pc)
            return
        if not reg('cpsr') & PSTATE_MODE or not pc >> 63:
            self.n['user'] += 1
            return
        self.sample_at(pc)

    def sample_at(self, pc):
        sp = reg('sp')
        self.n['kernel'] += 1
        fp, lr = reg('x29'), reg('x30')
        frames, why, _ = self.walker.walk(pc, sp, fp, max_frames=MAX_FRAMES,
                                          lr=lr)
        k = [fr.ip for fr in frames]
        g = self.gdb_walk()
        r = self.fp_walk(pc, fp)
        self.n['steps'] += len(k) - 1
        self.ends[why] = self.ends.get(why, 0) + 1
        if why != 'end of stack':
            at = '%s at %s' % (why, self.sym(k[-1]))
            self.last[at] = self.last.get(at, 0) + 1
        m = min(len(k), len(g))
        if len(g) > m and len(k) == m and self.n['g_longer'] < 3 and \
                k[:m] == g[:m]:
            gdb.write('# gdb went on after kunwind\'s %s at %s: %s\n' % (
                why, self.sym(k[-1]), ' '.join(self.sym(a) for a in g[m:m + 3])))
        if len(g) < 2:
            self.n['gdb_short'] += 1
            return
        self.n['compared'] += 1
        in_mod = [any(lo <= a < hi for lo, hi in self.modules) for a in k]
        self.n['module'] += any(in_mod)
        # steps out of a module frame: the module's table walked them
        self.n['module_steps'] += sum(in_mod[:-1])
        idle = 0 <= pc - self.idle < 0x40
        self.n['idle'] += idle
        if k[:m] == g[:m]:
            self.n['equal'] += 1
            # who went further: kunwind ends where its table says (user
            # pt_regs, a first frame) or where no row is; gdb may go on
            self.n['k_longer'] += len(k) > len(g)
            self.n['g_longer'] += len(g) > len(k)
            # kunwind may stop short of gdb only where it has no row (and
            # says so) or the stack ends (gdb then goes on, if at all, out
            # of the kernel's text: a user pc); never on a step that
            # failed, nor at an end of stack gdb walks on from in the
            # kernel
            if len(g) > len(k) and (
                    why not in ('no unwind row', 'end of stack') or
                    (why == 'end of stack' and self.is_text(g[len(k)]))):
                self.n['k_short_bad'] += 1
                if self.reported < 10:
                    self.reported += 1
                    gdb.write('# kunwind stopped short (%s) at pc %#x:\n'
                              '#   kunwind %s\n#   gdb     %s\n' % (
                                  why, pc, ' '.join(self.sym(a) for a in k),
                                  ' '.join(self.sym(a) for a in g)))
        else:
            self.n['differ'] += 1
            if self.reported < 10:
                self.reported += 1
                gdb.write('# differ at pc %#x sp %#x x29 %#x x30 %#x (%s)\n'
                          '#   kunwind %s\n#   gdb     %s\n' % (
                              pc, sp, fp, lr, why,
                              ' '.join(self.sym(a) for a in k),
                              ' '.join(self.sym(a) for a in g)))
        # Frame 1 lost: gdb's is kernel text and the walk's is not it.
        # Not judged in the entry code (the vectors, kernel_entry and
        # kernel_exit): the interrupted context is in ELR/SPSR or half
        # saved, gdb's frame 1 there is x30's guess, kunwind stops.
        if self.entry[0] <= pc < self.entry[1] and len(k) == 1:
            self.n['entry'] += 1
            return
        if not self.is_text(g[1]):
            return
        self.n['gdb_caller'] += 1
        self.n['gdb_caller_busy'] += not idle
        fp_lost = len(r) < 2 or r[1] != g[1]
        # Where the frame-record walk is right at frame 1 (the interrupted
        # function had its record), it is compared with kunwind over both
        # walks (counted, the first differences printed; gdb judges both
        # above).  Past an exception boundary the record walk follows
        # pt_regs' stackframe from the interrupted x29 and loses an
        # interrupted leaf's caller, which kunwind (the pt_regs' x30) and
        # gdb keep.
        if not fp_lost and len(k) > 1:
            self.n['fp_right'] += 1
            m2 = min(len(k), len(r))
            if k[:m2] == r[:m2]:
                self.n['fp_right_equal'] += 1
            else:
                i = next(j for j in range(m2) if k[j] != r[j])
                self.n['fp_right_differ'] += 1
                if self.n['fp_right_differ'] <= 2:
                    gdb.write('# frame records differ at frame %d:\n'
                              '#   frame records %s\n#   kunwind       %s\n'
                              % (i, ' '.join(self.sym(a) for a in r[:i + 2]),
                                 ' '.join(self.sym(a) for a in k[:i + 2])))
        self.n['fp_lost_busy'] += fp_lost and not idle
        if fp_lost:
            self.n['fp_lost'] += 1
            if self.n['fp_lost_busy'] <= 3 and not idle and \
                    len(k) > 1 and k[1] == g[1]:
                gdb.write('# fp-lost at pc %s, x29 %#x, x30 %s:\n'
                          '#   frame records %s\n#   kunwind       %s\n'
                          '#   gdb           %s\n' % (
                              self.sym(pc), fp, self.sym(lr),
                              ' '.join(self.sym(a) for a in r[:6]),
                              ' '.join(self.sym(a) for a in k[:6]),
                              ' '.join(self.sym(a) for a in g[:6])))
        if len(k) < 2 or k[1] != g[1]:
            self.n['kunwind_lost'] += 1
            self.n['kunwind_lost_busy'] += not idle
            if self.n['kunwind_lost'] <= 3:
                gdb.write('# kunwind-lost at %s (%s): kunwind %s, gdb %s\n' % (
                    self.sym(pc), why, ' '.join(self.sym(a) for a in k[:4]),
                    ' '.join(self.sym(a) for a in g[:4])))

    @staticmethod
    def sym(addr):
        """function+offset: the outermost function at addr, the one the
        inlined calls there were inlined in."""
        b = gdb.block_for_pc(addr) if addr >> 63 else None
        fn = start = None
        while b is not None:
            if b.function is not None:
                fn, start = b.function, b.start
            b = b.superblock
        if fn is None:
            return '%#x' % addr
        return '%s+%#x' % (fn.print_name, addr - start)


def interrupt_after(seconds):
    t = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    t.daemon = True
    t.start()
    return t


def main():
    port = os.environ['KUNWIND_ORACLE_PORT']
    stops = int(os.environ.get('KUNWIND_ORACLE_STOPS', '300'))
    seed = int(os.environ.get('KUNWIND_ORACLE_SEED', str(int(time.time()))))
    mods = []
    for m in os.environ.get('KUNWIND_ORACLE_MODULES', '').split():
        name, path, text, ko = m.split(':')
        mods.append((name, path, int(text, 0), ko))
    gdb.execute('set pagination off')
    gdb.execute('set confirm off')
    gdb.execute('set backtrace limit %d' % MAX_FRAMES)
    gdb.execute('target remote :%s' % port)
    for name, path, text, ko in mods:
        gdb.execute('add-symbol-file %s %#x' % (ko, text), to_string=True)
    o = Oracle(os.environ['KUNWIND_ORACLE_TABLE'],
               [(name, path, text) for name, path, text, ko in mods])
    rnd = random.Random(seed)
    gdb.write('# seed %d, %d stops\n' % (seed, stops))
    while o.n['stops'] < stops:
        t = None
        try:
            t = interrupt_after(rnd.uniform(0.002, 0.04))
            gdb.execute('continue', to_string=True)
        except gdb.error:
            pass
        except KeyboardInterrupt:
            continue	# before continue ran: the guest is still stopped
        finally:
            if t is not None:
                t.cancel()	# stopped for another reason: no stray ^C
        o.n['stops'] += 1
        try:
            for th in gdb.selected_inferior().threads():
                th.switch()
                o.sample()
        except KeyboardInterrupt:
            o.n['stray_sigint'] += 1
    gdb.write('# ends of kunwind\'s walks: %s\n' % ', '.join(
        '%s %d' % kv for kv in sorted(o.ends.items())))
    for at, n in sorted(o.last.items(), key=lambda kv: -kv[1])[:8]:
        gdb.write('#   %d ended: %s\n' % (n, at))
    gdb.write('arm64_oracle ' + ' '.join(
        '%s=%d' % (k, o.n[k]) for k in (
            'stops', 'samples', 'vector', 'kernel', 'user', 'compared',
            'module', 'module_steps',
            'equal',
            'differ', 'k_short_bad', 'k_longer', 'g_longer', 'entry',
            'fp_right', 'fp_right_equal', 'fp_right_differ', 'gdb_caller', 'fp_lost', 'kunwind_lost',
            'idle', 'gdb_caller_busy', 'fp_lost_busy', 'kunwind_lost_busy',
            'gdb_short', 'gdb_error', 'stray_sigint',
            'steps')) + '\n')
    signal.signal(signal.SIGINT, signal.SIG_IGN)	# no ^C in the exit
    gdb.execute('detach')
    gdb.execute('quit %d' % (1 if o.n['differ'] or o.n['k_short_bad'] else 0))


main()
