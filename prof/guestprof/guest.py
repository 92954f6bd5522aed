# SPDX-License-Identifier: GPL-2.0
"""A running QEMU guest read from the host, without gdb's target and
without anything in the guest: kunwind-guestprof's source (target.py).

Registers.  Under TCG a running vCPU's registers in QEMU are current only
at translation-block exits, and neither the monitor nor the gdbstub reads
a running guest; so a sample stops the guest, as uniprof paused its Xen
domain.  Gdbstub speaks gdb's remote serial protocol (RSP) to QEMU's
gdbstub: ^C stops every vCPU (QEMU's vm_stop) and answers with a stop
packet, "Hg<thread>" + "g" per vCPU read its registers, "c" resumes them
all.  A sample is one write (^C and the register packets: QEMU answers
packets in order and, in system emulation, does not wait for our acks)
and one for "c".  QEMU stops the guest when a
client connects; detaching resumes it.

Memory.  Guest RAM is QEMU's memory-backend-file (share=on), mapped by
gdb/guestmem.c (guestmem.py), which walks the guest's page tables (4- or 5-level, from
the vCPUs' CR3 and CR4.LA57) with a translation cache that each sample
flushes (a vmalloc'ed stack may be freed and its pages reused between
two samples).  The root is found once: a vCPU's CR3, or its PTI kernel
half (bit 12 clear), that shows linux_banner at a KASLR slide, then
swapper's own (init_top_pgt), which maps the kernel's half whatever the
vCPUs run.
"""
import re
import socket

import gdb

from kunwind import target

from .guestmem import GuestMemory

# QEMU's x86-64 "g" packet (target/i386/gdbstub.c: 16 GPRs, rip,
# eflags, 6 segments, fs/gs/kernel-gs bases, cr0, cr2, cr3, cr4, cr8,
# efer, then x87 and SSE): byte offset and size of the registers read
# here.
G_REGS = {
    'rax': (0, 8), 'rbx': (8, 8), 'rcx': (16, 8), 'rdx': (24, 8),
    'rsi': (32, 8), 'rdi': (40, 8), 'rbp': (48, 8), 'rsp': (56, 8),
    'rip': (128, 8), 'eflags': (136, 4), 'cs': (140, 4), 'ss': (144, 4),
    'fs_base': (164, 8), 'gs_base': (172, 8), 'k_gs_base': (180, 8),
    'cr0': (188, 8), 'cr2': (196, 8), 'cr3': (204, 8), 'cr4': (212, 8),
    'efer': (228, 8),
}
G_MIN = 236
EFER_LMA = 1 << 10
CR4_LA57 = 1 << 12
PTI_USER_PGD = 1 << 12		# the user half of a PTI pgd pair


class RspError(gdb.GdbError):
    pass


class Gdbstub:
    """A client of QEMU's gdbstub at a unix socket path or host:port."""

    PACKET = re.compile(rb'\$([^#]*)#[0-9a-fA-F]{2}')
    CHUNK = 0x700		# bytes an "m" reply holds in QEMU's 4 KiB packet

    def __init__(self, where, timeout=10):
        if ':' in where and not where.startswith('/'):
            host, port = where.rsplit(':', 1)
            self.s = socket.create_connection((host, int(port)), timeout)
            self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        else:
            self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.s.settimeout(timeout)
            try:
                self.s.connect(where)
            except OSError as e:
                raise RspError('kunwind: cannot connect to the gdbstub at '
                               '%s: %s' % (where, e))
        self.buf = b''
        self.running = False
        self.multiprocess = True	# until qSupported says
        try:
            self._handshake(where)
        except BaseException:
            self.detach()		# the connection stopped the guest
            raise

    def _handshake(self, where):
        # QEMU stops the guest on a connection and may say so first.
        self.send('qSupported:multiprocess+')
        r = self.recv()
        while b'PacketSize' not in r:
            r = self.recv()
        self.multiprocess = b'multiprocess+' in r
        self.command('?')
        self.threads = []
        r = self.command('qfThreadInfo')
        while r.startswith(b'm'):
            self.threads += r[1:].decode().split(',')
            r = self.command('qsThreadInfo')
        if not self.threads:
            raise RspError('kunwind: the gdbstub at %s lists no vCPU' % where)
        self._regs_batch = b''.join(
            self.packet('Hg' + t) + self.packet('g') for t in self.threads)

    @staticmethod
    def packet(p):
        return b'$%s#%02x' % (p.encode(), sum(p.encode()) & 255)

    def send(self, p):
        self.s.sendall(self.packet(p))

    def recv(self):
        """The next packet's payload (acks and noise skipped), acked."""
        while True:
            m = self.PACKET.search(self.buf)
            if m:
                self.buf = self.buf[m.end():]
                self.s.sendall(b'+')
                return m.group(1)
            try:
                d = self.s.recv(1 << 16)
            except socket.timeout:
                raise RspError('kunwind: the gdbstub did not answer')
            if not d:
                raise RspError('kunwind: the gdbstub closed the connection')
            self.buf += d

    def command(self, p):
        self.send(p)
        return self.recv()

    def stop(self):
        """Stop every vCPU; returns when QEMU says they are stopped."""
        if not self.running:
            return
        self.s.sendall(b'\x03')
        self._stopped()

    def _stopped(self):
        while self.recv()[:1] not in (b'T', b'S'):
            pass
        self.running = False

    def stop_registers(self):
        """stop() and registers() in one write: QEMU stops the guest on
        any byte that comes while it runs (vm_stop(), synchronous, its
        stop packet sent from there) before it parses the packets that
        follow."""
        if not self.running:
            return self.registers()
        self.s.sendall(b'\x03' + self._regs_batch)
        self._stopped()
        return self._registers()

    def cont(self):
        self.send('c')
        self.running = True

    def registers(self):
        """[raw "g" bytes] of every vCPU, in thread order (CPU order)."""
        self.s.sendall(self._regs_batch)
        return self._registers()

    def _registers(self):
        out = []
        for _ in self.threads:
            ok = self.recv()
            g = self.recv()
            if ok != b'OK':
                raise RspError('kunwind: the gdbstub refused a thread: %r'
                               % ok)
            out.append(bytes.fromhex(_unrle(g).decode()))
        return out

    def select(self, cpu):
        """gdb's "Hg": the vCPU whose page tables "m" packets go through."""
        if self.command('Hg' + self.threads[cpu]) != b'OK':
            raise RspError('kunwind: the gdbstub refused vCPU %d' % cpu)

    def read_memory(self, addr, n):
        """n bytes at guest-virtual addr, QEMU translating them through the
        selected vCPU's page tables ("m" packets); gdb.MemoryError where it
        cannot."""
        out = b''
        while len(out) < n:
            k = min(n - len(out), self.CHUNK)
            r = self.command('m%x,%x' % (addr + len(out), k))
            if not r or r.startswith(b'E') and len(r) == 3:
                raise gdb.MemoryError('Cannot access memory at address %#x'
                                      % (addr + len(out)))
            out += bytes.fromhex(_unrle(r).decode())
        return out

    def detach(self):
        """Resume the guest and leave it: QEMU resumes it when no process
        is attached any more ("D;1": with multiprocess, a "D" without the
        pid is refused and the guest would stay stopped)."""
        if self.s is None:
            return
        try:
            if self.running:
                self.stop()
            self.send('D;1' if self.multiprocess else 'D')
            # Replies of an interrupted batch may come first.
            for _ in range(2 * len(getattr(self, 'threads', ())) + 4):
                r = self.recv()
                if r == b'OK' or r.startswith(b'E'):
                    break
            if r != b'OK':
                raise RspError('kunwind: the gdbstub refused to detach '
                               '(%r): the guest may stay stopped (the '
                               'monitor\'s "cont" resumes it)' % r)
        finally:
            self.s.close()
            self.s = None


def _unrle(p):
    """RSP run-length encoding: "X*n" is X and n - 29 more of it."""
    if b'*' not in p:
        return p
    out = bytearray()
    i = 0
    while i < len(p):
        if p[i] == 0x2a and out and i + 1 < len(p):
            out += out[-1:] * (p[i + 1] - 29)
            i += 2
        else:
            out.append(p[i])
            i += 1
    return bytes(out)


def regs_of(g):
    """{name: value} of one vCPU's "g" bytes."""
    if len(g) < G_MIN:
        raise RspError('kunwind: a "g" packet of %d bytes: not QEMU\'s '
                       'x86-64 layout' % len(g))
    return {n: int.from_bytes(g[o:o + size], 'little')
            for n, (o, size) in G_REGS.items()}


class StubMemory:
    """Guest memory through the gdbstub ("m" packets): any QEMU, no RAM
    file, but a round trip per read; pages are kept until the next
    sample."""

    PAGE = 4096

    def __init__(self, stub):
        self.stub = stub
        self.pages = {}
        self.g = None		# no C reader: the walker reads through Python

    def flush(self):
        self.pages.clear()

    def set_root(self, cr3, la57):
        pass			# QEMU translates, through the vCPUs' own

    def phys(self, va):
        return None

    def read(self, addr, n):
        out = b''
        while len(out) < n:
            a = addr + len(out)
            base = a & ~(self.PAGE - 1)
            if base not in self.pages:
                try:
                    self.pages[base] = self.stub.read_memory(base, self.PAGE)
                except gdb.MemoryError:
                    self.pages[base] = None
            page = self.pages[base]
            if page is None:
                raise gdb.MemoryError('Cannot access memory at address %#x'
                                      % a)
            out += page[a - base:a - base + n - len(out)]
        return out

    def close(self):
        pass

    def stats(self):
        return 0, 0


class GuestSource:
    """target.py's source for a running guest: memory from its RAM file
    (or its gdbstub), registers of the last stop."""

    def __init__(self, stub, mem):
        self.stub, self.mem = stub, mem
        self.regs = []
        self.root = None

    def read(self, addr, n):
        return self.mem.read(addr, n)

    def nr_threads(self):
        return len(self.stub.threads)

    def reg(self, cpu, name):
        if not 0 <= cpu < len(self.regs):
            raise gdb.GdbError('kunwind: no vCPU %d' % cpu)
        return self.regs[cpu][name]

    def sample_regs(self):
        """Stop the guest (if it runs) and read every vCPU's registers."""
        self.regs = [regs_of(g) for g in self.stub.stop_registers()]
        self.mem.flush()
        if isinstance(self.mem, StubMemory):
            # The last "Hg" was the last vCPU's; under PTI a vCPU in user
            # mode has the user page tables, without the kernel.
            kernel = [c for c, r in enumerate(self.regs) if not r['cs'] & 3]
            self.stub.select(kernel[0] if kernel else 0)

    def find_root(self):
        """Measure the KASLR slide through a vCPU's page tables, then keep
        swapper's (init_top_pgt).  gdb.GdbError when no root shows the
        kernel."""
        if isinstance(self.mem, StubMemory):
            target.set_source(self)
            target.slide()
            self.root = (0, False)
            return
        tried, why = set(), 'no vCPU in long mode'
        order = sorted(range(len(self.regs)),
                       key=lambda c: self.regs[c]['cs'] & 3)
        for cpu in order:
            r = self.regs[cpu]
            if not r['efer'] & EFER_LMA:
                continue
            la57 = bool(r['cr4'] & CR4_LA57)
            for cr3 in (r['cr3'], r['cr3'] & ~PTI_USER_PGD):
                cr3 &= ~0xfff
                if (cr3, la57) in tried:
                    continue
                tried.add((cr3, la57))
                self.mem.set_root(cr3, la57)
                target.set_source(self)
                try:
                    target.slide()
                except gdb.GdbError as e:
                    why = str(e)
                    continue
                pgd = self.mem.phys(target.sym('init_top_pgt'))
                if pgd is not None:
                    self.mem.set_root(pgd, la57)
                    if target.cstr(target.sym('linux_banner'), 14) == \
                            'Linux version ':
                        self.root = (pgd, la57)
                        return
                self.mem.set_root(cr3, la57)
                self.root = (cr3, la57)
                return
        raise gdb.GdbError('kunwind: no vCPU\'s page tables map this vmlinux '
                           '(%s)' % why)


def connect(gdbstub, ram, below_4g=0):
    """A GuestSource on a stopped guest, its root found, made target.py's
    source; memory from the RAM file ram, or with ram None from the
    gdbstub."""
    stub = Gdbstub(gdbstub)
    try:
        mem = GuestMemory(ram, below_4g) if ram else StubMemory(stub)
        src = GuestSource(stub, mem)
        src.sample_regs()
        src.find_root()
    except BaseException:
        try:
            stub.detach()	# the connection stopped the guest
        except Exception:
            pass
        raise
    return src

