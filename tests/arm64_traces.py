#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kunwind.ko's printed traces on the arm64 test kernel against the kernel's.

    tests/arm64_traces.py [--elfs FILE] [--tag TAG] KIND CONSOLE...

Each CONSOLE is a boot of tests/harness/arm64-death.sh: kunwind.ko (with the
vmlinux table) and the sample module loaded, the sample's points run, then
the sample told to die the way KIND says.  The oracle is the kernel's own
output on the same console: its frame-record walk (dump_stack()'s and the
oops's "Call trace:", arch/arm64/kernel/stacktrace.c) and its register
dump ("pc :", "lr :").

Points (every console): each "kunwind-sample: point N kunwind" trace equals
the same point's "point N kernel" dump_stack() frame for frame (the
kernel's dump_backtrace, show_stack, dump_stack_lvl and dump_stack frames
left out): called frames, where frame records are right.  Complete, no
fallback step.

The death (KIND): kunwind's "kunwind: Call Trace of the oops|panic"
against the kernel's "Call trace:" that follows "die KIND" (for a panic the
frames up to panic() left out, as kunwind starts where it was called):

  - equal frame for frame, but where the kernel lost a caller: right
    after an interrupted frame (" pc : ", a register frame's exact pc)
    kunwind may have one frame more, the caller that was still in x30 (a
    leaf, a prologue), the kernel's walk going on from x29, which is
    still the caller's caller's record.  That frame must be the return
    address of a call into the interrupted function: the instruction
    before it a bl to that function, or an indirect call (objdump's
    disassembly of the ELF files --elfs names, "NAME PATH" lines, NAME a
    module or "vmlinux"); a stale x30, which returns into the function
    itself after a call it made, is not.  For the oops's own registers
    it must also be the register dump's "lr :";
  - wherever the "lr :" is in another function than "pc :" (nothing
    called yet: x30 is the return address), kunwind's second frame is it;
  - a return address at a function's very end (a call to a no-return
    function) is the same address printed two ways: kunwind's %pB gives
    "fn+S/S", the kernel's %pS "next+0x0/...", kallsyms' size being the
    distance to the next symbol;
  - complete ("kunwind: walk complete"), its steps all by tables but the
    expected fallback (EXPECT_FALLBACK: ip 0 of a call through NULL has
    no table; a stack overflow's pt_regs has its sp in the guard page);
  - the kind's mark in kunwind's trace (KINDS: a stack, a function).

Prints "ok arm64_death_<kind> # ..." (with --tag T, arm64_death_T_<kind>:
Debian's stock kernel, tests/harness/arm64-death.sh --stock) or "not ok
..." with why, and a
summary line "# arm64 deaths: kernel lost N callers, kunwind gave them".
"""
import re
import subprocess
import sys

KINDS = {
    "kthread-null": {"stack": "TASK", "func": r"^ksample_die_thread$"},
    "null-call": {"stack": "TASK", "func": r"^ksample_die_null_call$"},
    "bug": {"stack": "TASK", "func": r"^ksample_die_bug$"},
    "asm": {"stack": "TASK", "func": r"^ksample_asm_die$"},
    "noreturn": {"stack": "TASK", "func": r"^ksample_die_call_noreturn$"},
    "tasklet": {"func": r"^tasklet_action"},
    "hrtimer": {"stack": "IRQ", "func": r"^ksample_die_wait$"},
    "sort": {"func": r"^sort_r$"},
    "idr": {"func": r"^idr_for_each$"},
    "panic": {"stack": "TASK", "func": r"^ksample_die_panic$"},
    "stack-overflow": {"stack": "OVERFLOW", "func": r"^ksample_overflow$"},
}
# Fallback steps a death's walk must take, by reason: nothing else.
EXPECT_FALLBACK = {
    "null-call": {"no table": 1},
    "stack-overflow": {"row step failed": 1},
}
DUMPERS = {"dump_backtrace", "show_stack", "dump_stack_lvl", "dump_stack",
           "__dump_stack"}
PANIC = {"panic", "vpanic"}

TS = re.compile(r"^\[[^\]]*\] ?")
FRAME = re.compile(r"^ (pc : )?(\S+)(?: (\[\S+\]))?( \(fp\))?$")
SYM = re.compile(r"^([^+\s]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)$")
ADDR = re.compile(r"^0x[0-9a-f]+$")	# no symbol: the ip of a NULL call
STEPS = re.compile(r"^kunwind: steps: (\d+) by tables, (\d+) by the "
                   r"frame-record fallback \(no table (\d+), no row (\d+), "
                   r"row step failed (\d+), tracer helper missing (\d+)\)")
REASONS = ("no table", "no row", "row step failed", "tracer helper missing")


class Frame:
    def __init__(self, sym, mod, exact=False, fallback=False):
        self.sym, self.mod = sym, mod
        self.exact, self.fallback = exact, fallback

    def func(self):
        m = SYM.match(self.sym)
        return m.group(1) if m else self.sym

    def __str__(self):
        return ("pc : " if self.exact else "") + self.sym + \
            (" " + self.mod if self.mod else "")


def same(u, k):
    """kunwind's frame u and the kernel's k: one address?"""
    if u.sym == k.sym and u.mod == k.mod:
        return True
    mu, mk = SYM.match(u.sym), SYM.match(k.sym)
    # fn+S/S (%pB) is next+0x0 (%pS): the return address of a no-return
    # call at fn's very end
    return bool(mu and mk and u.mod == k.mod and mu.group(2) == mu.group(3)
                and int(mk.group(2), 16) == 0)


def lines(path):
    with open(path, errors="replace") as f:
        return [TS.sub("", l.rstrip("\n")) for l in f]


def kunwind_trace(ls, i):
    """kunwind's trace whose header is at ls[i]: frames, stacks, end, steps."""
    frames, stacks, end, steps = [], [], None, None
    for line in ls[i + 1:]:
        m = re.match(r"^ <(/?)([A-Z_]+)>$", line)
        if m:
            if not m.group(1):
                stacks.append((m.group(2), len(frames)))
            continue
        if line.startswith("kunwind: walk "):
            end = line
            continue
        m = STEPS.match(line)
        if m:
            steps = [int(x) for x in m.groups()]
            break
        m = FRAME.match(line)
        if not m:
            break
        frames.append(Frame(m.group(2), m.group(3), bool(m.group(1)),
                            bool(m.group(4))))
    return frames, stacks, end, steps


def kernel_trace(ls, i):
    """The kernel's frames after its "Call trace:" at ls[i]."""
    frames = []
    for line in ls[i + 1:]:
        m = FRAME.match(line)
        if not m or m.group(1) or m.group(4) or \
                not (SYM.match(m.group(2)) or ADDR.match(m.group(2))):
            break
        frames.append(Frame(m.group(2), m.group(3)))
    return frames


# ELF files by module name ("vmlinux" for the kernel): --elfs FILE.
ELFS = {}
_DIS = {}


_SYMS = {}


def symbols(elf):
    """{name: (section, address, size)} of elf's function symbols."""
    if elf not in _SYMS:
        out = subprocess.run(["aarch64-linux-gnu-objdump", "-t", elf],
                             capture_output=True, text=True).stdout
        syms = {}
        for line in out.splitlines():
            m = re.match(r"^([0-9a-f]+) .{7} (\S+)\s+([0-9a-f]+) (\S+)$", line)
            if m and m.group(4) not in syms:
                syms[m.group(4)] = (m.group(2), int(m.group(1), 16),
                                    int(m.group(3), 16))
        _SYMS[elf] = syms
    return _SYMS[elf]


def disassembly(elf, sym):
    """{offset in sym: (mnemonic, operands, call target)} by objdump (of
    its section and range: --disassemble=SYM loses a module's relocations)."""
    key = (elf, sym)
    if key not in _DIS:
        sec, start, size = symbols(elf).get(sym, (None, 0, 0))
        insns, last = {}, None
        out = "" if not sec else subprocess.run(
            ["aarch64-linux-gnu-objdump", "-dr", "--no-show-raw-insn",
             "-j", sec, "--start-address=%#x" % start,
             "--stop-address=%#x" % (start + size), elf],
            capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r"^\s*([0-9a-f]+):\s+R_AARCH64_(?:CALL|JUMP)26\s+(\S+)", line)
            if m and last in insns:		# a module's bl, relocated
                insns[last][2] = re.sub(r"\+0x[0-9a-f]+$", "", m.group(2))
                continue
            m = re.match(r"^\s*([0-9a-f]+):\s+([a-z]\S*)\s*(.*)$", line)
            if m:
                last = int(m.group(1), 16) - start
                t = re.search(r"<([^>+]+)", m.group(3))
                insns[last] = [m.group(2), m.group(3), t.group(1) if t else None]
        _DIS[key] = insns
    return _DIS[key]


def called_into(x, p):
    """Is x the return address of a call into p's function, as a caller
    still in x30 must be: the instruction before x a bl to p's function,
    or an indirect call?  (A stale x30, left by a call the function made,
    returns into the function itself after a bl to another.)  None when
    the ELF of x is not known."""
    m = SYM.match(x.sym)
    elf = ELFS.get(x.mod.strip("[]") if x.mod else "vmlinux")
    if not m or not elf:
        return None
    insn = disassembly(elf, m.group(1)).get(int(m.group(2), 16) - 4)
    if not insn:
        return False
    if re.match(r"^blr(a[ab]z?)?$", insn[0]):
        return True
    target = (insn[2] or "").split(".")[0]
    return insn[0] == "bl" and target == p.func().split(".")[0]


def compare(u, k, dumps=()):
    """Align kunwind's u with the kernel's k: (problem or None, gained).

    Frame for frame, but for one frame kunwind may have after each of its
    interrupted frames (" pc : ") that the kernel lost.  dumps: the
    kernel's register dumps, (pc, lr) frames: after an interrupted frame
    at a dump's pc, that frame must be the dump's lr; and every such frame
    must be the return address of a call into the interrupted function
    (called_into(), objdump's disassembly of --elfs' files).
    """
    n, m = len(u), len(k)
    # may[i]: u[i] may be a caller the kernel lost (each asked once)
    may = [False] * n
    for i in range(1, n):
        if u[i - 1].exact:
            lr = next((d[1] for d in dumps if d[0].sym == u[i - 1].sym), None)
            may[i] = (lr is None or same(u[i], lr)) and \
                called_into(u[i], u[i - 1]) is not False
    # ok[i][j]: u[i:] aligns with k[j:]; by dynamic programming (a run of
    # equal frames, a recursion, can hide where the extra frame is)
    ok = [[False] * (m + 1) for _ in range(n + 1)]
    ok[n][m] = True
    for i in range(n - 1, -1, -1):
        for j in range(m, -1, -1):
            ok[i][j] = (j < m and same(u[i], k[j]) and ok[i + 1][j + 1]) or \
                (may[i] and ok[i + 1][j])
    if not ok[0][0]:
        i = j = 0
        while i < n and j < m and same(u[i], k[j]):
            i += 1
            j += 1
        return ("from frame %d: kunwind %s, kernel %s (%d and %d frames)" %
                (i, u[i] if i < n else "(end)", k[j] if j < m else "(end)",
                 n, m), [])
    gained, i, j = [], 0, 0
    while i < n:
        if j < m and same(u[i], k[j]) and ok[i + 1][j + 1]:
            i, j = i + 1, j + 1
            continue
        how = ["the lr of the register dump"] if any(
            d[0].sym == u[i - 1].sym for d in dumps) else []
        if called_into(u[i], u[i - 1]):
            how.append("a call into it (objdump)")
        if not how:
            return ("frame %d %s after %s: neither the lr of a register "
                    "dump nor known to call it (no ELF)" %
                    (i, u[i], u[i - 1]), gained)
        gained.append((str(u[i - 1]), str(u[i]), ", ".join(how)))
        i += 1
    return (None, gained)


def register_dumps(ls):
    """The kernel's register dumps in ls: (pc, lr) frames."""
    dumps = []
    for x, line in enumerate(ls):
        if line.startswith("pc : ") and x + 1 < len(ls) and \
                ls[x + 1].startswith("lr : "):
            pc = FRAME.match(" " + line[5:])
            lr = FRAME.match(" " + ls[x + 1][5:])
            if pc and lr:
                dumps.append((Frame(pc.group(2), pc.group(3)),
                              Frame(lr.group(2), lr.group(3))))
    return dumps


def check_points(ls):
    """Every point's kunwind trace against its dump_stack(): problems."""
    bad, n, seen = [], 0, set()
    for i, line in enumerate(ls):
        m = re.match(r"^kunwind-sample: point (\d+) kunwind$", line)
        # a console may print the log again at a panic: the first only
        if not m or m.group(1) in seen:
            continue
        num = m.group(1)
        seen.add(num)
        try:
            h = next(x for x in range(i, len(ls))
                     if ls[x].startswith("kunwind: Call Trace ("))
            kk = next(x for x in range(h, len(ls))
                      if ls[x] == "kunwind-sample: point %s kernel" % num)
            c = next(x for x in range(kk, len(ls)) if ls[x] == "Call trace:")
        except StopIteration:
            bad.append("point %s: a trace is missing" % num)
            continue
        u, _, end, steps = kunwind_trace(ls, h)
        k = kernel_trace(ls, c)
        while k and k[0].func() in DUMPERS:
            k.pop(0)
        problem, gained = compare(u, k)
        for before, caller, how in gained:
            print("# point %s: after %s the kernel lost %s, kunwind gave it "
                  "(%s)" % (num, before, caller, how))
        if problem:
            bad.append("point %s: %s" % (num, problem))
        elif end != "kunwind: walk complete":
            bad.append("point %s: %s" % (num, end))
        elif not steps or steps[1]:
            bad.append("point %s: fallback steps %s" % (num, steps))
        n += 1
    if not n:
        bad.append("no point was printed")
    return n, bad


def check_death(kind, ls):
    """(problems, note, gained) of the death on console lines ls."""
    try:
        d = ls.index("kunwind-sample: die %s" % kind)
    except ValueError:
        return (["the sample never said die %s" % kind], "", [])
    bad = []
    hs = [x for x in range(d, len(ls))
          if re.match(r"^kunwind: Call Trace of the (oops|panic) ", ls[x])]
    if len(hs) != 1:
        return (["%d kunwind traces of the death, not 1" % len(hs)], "", [])
    h = hs[0]
    is_panic = " of the panic " in ls[h]
    u, stacks, end, steps = kunwind_trace(ls, h)
    cs = [x for x in range(d, len(ls)) if ls[x] == "Call trace:"]
    if not cs:
        return (["the kernel printed no Call trace"], "", [])
    k = kernel_trace(ls, cs[0])
    dumps = register_dumps(ls[d:cs[0]])
    if is_panic:
        if not any(f.func() in PANIC for f in k):
            return (["the kernel's trace has no panic()"], "", [])
        while k and k.pop(0).func() not in PANIC:
            pass
    elif not dumps:
        return (["no pc/lr in the kernel's register dump"], "", [])
    elif not u or not u[0].exact or u[0].sym != dumps[-1][0].sym:
        bad.append("kunwind's first frame %s is not the pc %s" %
                   (u[0] if u else None, dumps[-1][0]))
    # x30 in another function than pc: nothing was called since the
    # entry (a leaf, a prologue), x30 is the return address
    for pc, lr in dumps:
        x = next((x for x, f in enumerate(u) if f.exact and f.sym == pc.sym),
                 None)
        if x is not None and lr.func() != pc.func() and \
                not (x + 1 < len(u) and same(u[x + 1], lr)):
            bad.append("after pc %s, x30 %s is the caller; kunwind has %s" %
                       (pc, lr, u[x + 1] if x + 1 < len(u) else None))
    problem, gained = compare(u, k, dumps)
    if problem:
        bad.append(problem)
    if end != "kunwind: walk complete":
        bad.append("not complete: %s" % end)
    if not steps:
        bad.append("no steps line")
    else:
        got = {r: n for r, n in zip(REASONS, steps[2:]) if n}
        want = EXPECT_FALLBACK.get(kind, {})
        if got != want:
            bad.append("fallback steps %s, not %s" % (got, want))
    mark = KINDS[kind]
    if "stack" in mark and mark["stack"] not in [s for s, _ in stacks]:
        bad.append("no <%s> in kunwind's trace" % mark["stack"])
    if not any(re.search(mark["func"], f.func()) for f in u):
        bad.append("no %s in kunwind's trace" % mark["func"])
    note = "%d frames, the kernel's %d; steps: %d by tables, %d fallback" % (
        len(u), len(k), steps[0] if steps else -1, steps[1] if steps else -1)
    return (bad, note, gained)


def main():
    args = sys.argv[1:]
    prefix = "arm64_death_"
    if args[:1] == ["--elfs"] and len(args) > 1:	# "NAME PATH" lines
        with open(args[1]) as f:
            ELFS.update(l.split(None, 1) for l in f.read().splitlines()
                        if l.strip())
        ELFS.update((k, v.strip()) for k, v in ELFS.items())
        args = args[2:]
    if args[:1] == ["--tag"] and len(args) > 1:	# arm64_death_<tag>_<kind>
        prefix += args[1] + "_"
        args = args[2:]
    if len(args) < 2 or args[0] not in KINDS:
        sys.exit("usage: %s [--tag TAG] KIND CONSOLE... (KIND: %s)" %
                 (sys.argv[0], " ".join(KINDS)))
    kind = args[0]
    rc = 0
    for path in args[1:]:
        ls = lines(path)
        n, pbad = check_points(ls)
        bad, note, gained = check_death(kind, ls)
        bad += pbad
        for before, caller, how in gained:
            print("# %s: after %s the kernel lost %s, kunwind gave it (%s)" %
                  (kind, before, caller, how))
        name = prefix + kind.replace("-", "_")
        if bad:
            rc = 1
            print("not ok %s # %s" % (name, path))
            for b in bad:
                print("#   " + b)
        else:
            print("ok %s # %s; %d points equal the kernel's; callers the "
                  "kernel lost: %d" % (name, note, n, len(gained)))
    return rc


if __name__ == "__main__":
    sys.exit(main())
