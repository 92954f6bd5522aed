# SPDX-License-Identifier: GPL-2.0
"""Target memory, vmlinux's symbols and types, and the KASLR slide.

gdb has vmlinux loaded at its link-time addresses (or wherever the user
put it); the kernel may run elsewhere (KASLR).  The slide is measured on
the target itself, never taken from VMCOREINFO, which a live gdbstub
session does not have: linux_banner ("Linux version ...") must be found at
its symbol's address plus the slide, and the candidates come from the
registers of the CPUs that are in the kernel's text (the slide is a
multiple of 2 MiB, CONFIG_PHYSICAL_ALIGN on x86-64), else from a scan of
the 1 GiB the kernel's text may move in; slide 0 is tried last, because
gdb reads what a crash dump lacks from the vmlinux file itself.  Addresses of vmlinux's symbols
and text are then gdb's plus the slide; per-CPU variables are offsets,
not moved.

Memory and registers come from a source: gdb's own target (its inferior:
a gdbstub, a dump) by default, or another one set with set_source() --
kunwind-guestprof reads a QEMU guest's RAM file and its gdbstub itself
(prof/guestprof/guest.py), with gdb holding only vmlinux's types and
symbols.

Everything cached here is dropped when gdb loads new objfiles or the
target stops again (a live target moves on); a source that is not gdb's
calls reset_run() itself.
"""
import bisect
import struct
import subprocess

import gdb

ALIGN = 0x200000		# CONFIG_PHYSICAL_ALIGN: the slide's multiple
KASLR_SPAN = 1 << 30		# how far the kernel's text may move

_cache = {}


def _reset(*args):
    _cache.clear()


def _reset_run(*args):
    for k in [k for k in _cache if k not in ('types', 'nm', 'nm_all',
                                             'nm_names', 'slide')]:
        del _cache[k]


gdb.events.new_objfile.connect(_reset)
gdb.events.stop.connect(_reset_run)
if hasattr(gdb.events, 'clear_objfiles'):
    gdb.events.clear_objfiles.connect(_reset)


def reset_run():
    """Forget what the target's running changes (not vmlinux's types,
    symbols or the slide)."""
    _reset_run()


def forget(key):
    """Drop one cached thing (the module list when a module came)."""
    _cache.pop(key, None)


def cached(key, make):
    if key not in _cache:
        _cache[key] = make()
    return _cache[key]


# ---- the source: memory and registers ----------------------------------

class GdbSource:
    """gdb's target: gdb thread N is CPU N - 1 (QEMU's gdbstub and dumps)."""

    def read(self, addr, n):
        return bytes(gdb.selected_inferior().read_memory(addr, n))

    def nr_threads(self):
        return len(gdb.selected_inferior().threads())

    def thread(self, cpu):
        for t in gdb.selected_inferior().threads():
            if t.num == cpu + 1:
                return t
        raise gdb.GdbError('kunwind: no gdb thread %d for CPU %d (gdb sees '
                           '%d)' % (cpu + 1, cpu, self.nr_threads()))

    def reg(self, cpu, name):
        return int(t_reg(self.thread(cpu), name)) & (1 << 64) - 1


_source = GdbSource()


def set_source(source, forget=True):
    """Read memory and registers from source (None: gdb's target again);
    whatever was measured on the old one is forgotten, unless the new one
    is the same target read another way (forget=False)."""
    global _source
    _source = source or GdbSource()
    if forget:
        _reset()


def source():
    return _source


# ---- memory ---------------------------------------------------------------

def read(addr, n):
    """n bytes at addr; gdb.MemoryError if the target has none there."""
    return _source.read(addr, n)


def u64(addr):
    return struct.unpack('<Q', read(addr, 8))[0]


def u32(addr):
    return struct.unpack('<I', read(addr, 4))[0]


def try_u64(addr):
    try:
        return u64(addr)
    except gdb.MemoryError:
        return None


def try_u32(addr):
    try:
        return u32(addr)
    except gdb.MemoryError:
        return None


def cstr(addr, n=256):
    try:
        b = read(addr, n)
    except gdb.MemoryError:
        return None
    return b.split(b'\0', 1)[0].decode(errors='replace')


# ---- vmlinux: objfile, types, symbols --------------------------------------

def vmlinux():
    """gdb's vmlinux objfile; gdb.GdbError if there is none."""
    for o in gdb.objfiles():
        if o.filename and gdb.lookup_global_symbol('linux_banner') and \
                o.lookup_global_symbol('linux_banner'):
            return o
    raise gdb.GdbError('kunwind: no vmlinux loaded (gdb vmlinux, or '
                       'file vmlinux): its types and symbols are needed')


def type_(name):
    types = cached('types', dict)
    if name not in types:
        try:
            types[name] = gdb.lookup_type(name)
        except gdb.error:
            raise gdb.GdbError('kunwind: vmlinux has no type %s (built '
                               'without debug info?)' % name)
    return types[name]


def field_offset(typename, *path):
    """Byte offset of a (nested) field, anonymous unions included."""
    types = cached('types', dict)
    key = (typename,) + path
    if key not in types:
        types[key] = _field_offset(typename, path)
    return types[key]


def _field_offset(typename, path):
    t = type_(typename)
    off = 0
    for name in path:
        f = _find_field(t, name)
        if f is None:
            raise gdb.GdbError('kunwind: %s has no field %s' % (typename,
                                                                name))
        off += f[0]
        t = f[1]
    return off


def has_field(typename, name):
    return _find_field(type_(typename), name) is not None


def _find_field(t, name):
    t = t.strip_typedefs()
    for f in t.fields():
        if f.name == name:
            return f.bitpos // 8, f.type
        if f.name is None and f.type.strip_typedefs().code in (
                gdb.TYPE_CODE_UNION, gdb.TYPE_CODE_STRUCT):
            sub = _find_field(f.type, name)
            if sub:
                return f.bitpos // 8 + sub[0], sub[1]
    return None


def link_addr(name):
    """The link-time address of vmlinux's symbol name (not slid): gdb's
    symbol (from the debug info), else the ELF symbol table's, as kallsyms
    has it (an assembly label such as 6.1's ret_from_fork has no debug
    info); gdb.GdbError if neither has it, or the ELF symbol table has
    several."""
    a = _link_addr(name)
    if a is None:
        raise gdb.GdbError('kunwind: vmlinux has no symbol %s (neither in '
                           'its debug info nor in its ELF symbol table)'
                           % name)
    return a


def has_symbol(name):
    """Has vmlinux a symbol name (link_addr() finds it)?"""
    return _link_addr(name) is not None


def _link_addr(name):
    s = gdb.lookup_global_symbol(name) or gdb.lookup_static_symbol(name)
    if s is not None:
        return int(s.value().address)
    found = elf_symbols().get(name)
    if not found:
        return None
    if len(found) > 1:
        raise gdb.GdbError('kunwind: vmlinux\'s ELF symbol table has %d '
                           'symbols %s (%s): which one is meant?' % (
                               len(found), name,
                               ', '.join('%#x' % a for a in found)))
    return found[0]


def sym(name):
    """Run-time address of vmlinux's symbol name."""
    return link_addr(name) + slide()


def percpu_addr(name, cpu):
    """Run-time address of per-CPU variable name of cpu."""
    off = u64(sym('__per_cpu_offset') + 8 * cpu)
    return link_addr(name) + off


def nr_cpus():
    def count():
        # CONFIG_FORCE_NR_CPUS makes nr_cpu_ids a constant, no symbol
        if not has_symbol('nr_cpu_ids'):
            return _source.nr_threads()
        try:
            n = u32(sym('nr_cpu_ids'))	# data: at its run-time address
        except gdb.MemoryError:
            n = 0
        return n or _source.nr_threads()
    return cached('nr_cpus', count)


def _nm():
    """Every defined symbol of vmlinux's ELF symbol table: [(link address,
    ELF size, name, nm type)], nm's order."""
    def load():
        path = vmlinux().filename
        out = subprocess.run(['nm', '-S', '--defined-only', path],
                             capture_output=True, text=True)
        if out.returncode:
            raise gdb.GdbError('kunwind: nm %s failed: %s' % (
                path, out.stderr.strip()))
        syms = []
        for line in out.stdout.splitlines():
            p = line.split()
            if len(p) == 4:
                syms.append((int(p[0], 16), int(p[1], 16), p[3], p[2]))
            elif len(p) == 3:
                syms.append((int(p[0], 16), 0, p[2], p[1]))
        return syms
    return cached('nm_all', load)


def nm_symbols():
    """vmlinux's text symbols from its ELF symbol table, as kallsyms has
    them: sorted [(link address, ELF size, name, nm type)]."""
    return cached('nm', lambda: sorted(s for s in _nm() if s[3] in 'tTwW'))


def elf_symbols():
    """{name: [link address, ...]} of vmlinux's ELF symbol table, absolute
    symbols left out."""
    def index():
        out = {}
        for a, _, name, typ in _nm():
            if typ not in 'aA' and a not in out.setdefault(name, []):
                out[name].append(a)
        return out
    return cached('nm_names', index)


def _linker_provided(name):
    """scripts/kallsyms.c's may_be_linker_script_provide_symbol()."""
    if len(name) < 8 or not name.startswith('__'):
        return False
    return name[2:].startswith(('start_', 'stop_', 'end_')) or \
        name.endswith(('_start', '_end'))


def vmlinux_symbol(addr):
    """(name, offset, size) of the vmlinux function holding run-time addr,
    or None: as kallsyms names it, the symbol at or below addr whatever its
    ELF size (the padding after an assembly function is named after it),
    in vmlinux's text only."""
    syms = nm_symbols()
    a = addr - slide()
    i = bisect.bisect_right(syms, (a, 1 << 64)) - 1
    if i < 0:
        return None
    start, size, name, _ = syms[i]
    if not any(lo <= addr < hi for lo, hi in vmlinux_text()):
        return None
    # Aliases, as scripts/kallsyms.c orders them: strong before weak, then
    # not a linker script's __start_X/__X_end..., then fewer underscores.
    k = i
    while k > 0 and syms[k - 1][0] == start:
        k -= 1
    alias = sorted(syms[k:i + 1], key=lambda s: (
        s[3] in 'wW', _linker_provided(s[2]),
        len(s[2]) - len(s[2].lstrip('_'))))
    name = alias[0][2]
    # The size kallsyms prints: up to the next symbol (padding included).
    j = i + 1
    while j < len(syms) and syms[j][0] == start:
        j += 1
    if j < len(syms):
        size = syms[j][0] - start
    return name, a - start, size


def vmlinux_text():
    """Run-time [(start, end)] of vmlinux's core and init text."""
    def ranges():
        s = slide()
        return [(link_addr('_stext') + s, link_addr('_etext') + s),
                (link_addr('_sinittext') + s, link_addr('_einittext') + s)]
    return cached('vtext', ranges)


# ---- KASLR ------------------------------------------------------------------

BANNER = b'Linux version '


def _banner_at(s):
    try:
        return read(link_addr('linux_banner') + s, len(BANNER)) == BANNER
    except gdb.MemoryError:
        return False


def _kernel_ips():
    ips = []
    for cpu in range(_source.nr_threads()):
        try:
            ips.append(_source.reg(cpu, 'rip'))
        except gdb.error:
            pass
    return ips


def t_reg(thread, name):
    """Register name of thread (keeps the selected thread)."""
    old = gdb.selected_thread()
    try:
        thread.switch()
        return gdb.parse_and_eval('$' + name)
    finally:
        if old is not None and old.is_valid():
            old.switch()


def slide():
    """The KASLR slide: run-time minus gdb's addresses of vmlinux."""
    def measure():
        # Slide 0 last: where a crash dump has nothing, gdb reads the
        # vmlinux file instead, so vmlinux's own addresses always "have"
        # the banner in a dump; a moved kernel has it at its slide too.
        if not _source.nr_threads():
            raise gdb.GdbError('kunwind: no target: connect to one (target '
                               'remote ...) or open a dump (core-file ...)')
        lo, hi = link_addr('_stext'), link_addr('_etext')
        tried = {0}
        for ip in _kernel_ips():
            first = (ip - hi) // ALIGN * ALIGN
            for s in range(first, ip - lo + 1, ALIGN):
                if s not in tried:
                    tried.add(s)
                    if _banner_at(s):
                        return s
        for s in range(ALIGN, KASLR_SPAN, ALIGN):
            if s not in tried and _banner_at(s):
                return s
        if _banner_at(0):
            return 0
        raise gdb.GdbError('kunwind: linux_banner is not where vmlinux '
                           'says, nor at any KASLR slide: is this the '
                           'vmlinux of the running kernel?')
    return cached('slide', measure)
