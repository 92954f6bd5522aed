# SPDX-License-Identifier: GPL-2.0
"""Cores of tests/mixedprog.c and elfutils' test cores, for
tests/kunwind-stack-mixed.test and tests/kunwind-stack-hostile.test: how
to make them, how to read eu-stack's and kunwind-stack's frames.

A core is made as tests/kunwind-stack.test makes stackprog's: the kernel
dumps it when core_pattern names a file in the working directory, else gdb
runs the program, stops at its SIGSEGV and writes the core with gcore
(KUNWIND_CORE=abort|gcore forces one).  The program runs in a temporary
directory with its shared library copied there (LD_LIBRARY_PATH), so that
the test can take the library away before it reads the core.
"""
import bz2
import importlib.machinery
import importlib.util
import os
import re
import shutil
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
BUILD = os.path.join(TOP, os.environ.get("O", "build"))
KSTACK = os.path.join(BUILD, "kunwind-stack")
TIMEOUT = 120

# tests/kunwind-stack.test's core making, parsers and symbol aliases.
_loader = importlib.machinery.SourceFileLoader(
    "stack_test", os.path.join(TOP, "tests", "kunwind-stack.test"))
stack_test = importlib.util.module_from_spec(
    importlib.util.spec_from_loader("stack_test", _loader))
_loader.exec_module(stack_test)
run = stack_test.run
Symbols = stack_test.Symbols
parse_eu_stack = stack_test.parse_eu_stack
parse_kunwind_stack = stack_test.parse_ours

# elfutils' cores: tests/data/elfutils (copied, see its README) and the
# tests/ directory of an unpacked elfutils source (apt-get source elfutils)
# named by KUNWIND_ELFUTILS_TESTS.
# Without it, tests/harness/elfutils-tests.sh fetches Debian's source once
# (cached) and names it; if that fails, those cores are a skip, saying why.
def _elfutils_tests():
    if os.environ.get("KUNWIND_ELFUTILS_TESTS"):
        return [os.environ["KUNWIND_ELFUTILS_TESTS"]], None
    p = subprocess.run([os.path.join(TOP, "tests", "harness", "elfutils-tests.sh")],
                       capture_output=True, text=True)
    if p.returncode or not p.stdout.strip():
        return [], (p.stderr.strip().splitlines() or ["failed"])[-1]
    return [p.stdout.strip().splitlines()[-1]], None


ELFUTILS_SRC, ELFUTILS_WHY = _elfutils_tests()
ELFUTILS_DIRS = [os.path.join(TOP, "tests", "data", "elfutils")] + \
    ELFUTILS_SRC


class Report:
    """TAP lines; failures print what was expected and what came."""

    def __init__(self):
        self.failed = 0

    def __call__(self, ok, name, msg=""):
        print("%s %s" % ("ok" if ok else "not ok", name))
        if not ok:
            self.failed += 1
            for line in msg.rstrip("\n").splitlines():
                print("#   " + line)

    def skip(self, name, why):
        print("ok %s # SKIP %s" % (name, why))


def make_core(tmp, exe, lib=None):
    """Run exe in tmp to its SIGSEGV and a core; return (core, stdout).
    lib, if given, is copied to tmp first and the program finds it there
    (tmp/<name of lib>, which the caller may then remove)."""
    env = dict(os.environ)
    if lib:
        shutil.copy(lib, tmp)
        env["LD_LIBRARY_PATH"] = tmp
    before = set(os.listdir(tmp))
    if stack_test.core_method() == "abort":
        p = run([exe], cwd=tmp, env=env, preexec_fn=stack_test.raise_core_limit)
        cores = [os.path.join(tmp, f) for f in set(os.listdir(tmp)) - before]
        if p.returncode != -11 or len(cores) != 1:
            raise RuntimeError("%s exited %d, cores %s:\n%s%s" % (
                exe, p.returncode, cores, p.stdout, p.stderr))
        return cores[0], p.stdout
    core = os.path.join(tmp, "core")
    p = run(["gdb", "-batch", "-nx", "-ex", "run", "-ex", "gcore " + core,
             "-ex", "kill", "--args", exe], cwd=tmp, env=env)
    if not os.path.isfile(core):
        raise RuntimeError("gcore wrote no core:\n%s%s" % (p.stdout,
                                                           p.stderr))
    return core, p.stdout


def thread_ids(out):
    """mixedprog's "<case> <tid>" lines."""
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^(\w+) (\d+)$", out, re.M)}


def elfutils_file(name, tmp):
    """elfutils' test file name (as is, or .bz2 unpacked into tmp), or
    None."""
    for d in ELFUTILS_DIRS:
        path = os.path.join(d, name)
        if os.path.isfile(path):
            return path
        if os.path.isfile(path + ".bz2"):
            out = os.path.join(tmp, name)
            with bz2.open(path + ".bz2") as f, open(out, "wb") as g:
                shutil.copyfileobj(f, g)
            os.chmod(out, 0o755)
            return out
    return None


def kunwind_stack(core, exe, *flags, timeout=TIMEOUT):
    return subprocess.run([KSTACK, "--core", core, "--exe", exe] +
                          list(flags), capture_output=True, text=True,
                          timeout=timeout)


def fde_ranges(path):
    """[start, end) of every FDE of path's .eh_frame and .debug_frame."""
    out = run(["readelf", "-wf", path]).stdout
    return [(int(a, 16), int(b, 16))
            for a, b in re.findall(r"FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)",
                                   out)]


def symbols(path):
    """{name: address} of path's function symbols."""
    syms = {}
    for line in run(["nm", path]).stdout.splitlines():
        w = line.split()
        if len(w) == 3 and w[1] in "tTwW":
            syms[w[2]] = int(w[0], 16)
    return syms


def side_by_side(eu, ks):
    """Two stacks, one frame a line, "!" where the pcs differ."""
    ef = eu["frames"] if eu else []
    kf = ks["frames"] if ks else []
    out = ["   %-44s %s" % ("eu-stack", "kunwind-stack")]
    for i in range(max(len(ef), len(kf))):
        e = "0x%x %s" % (ef[i][0], ef[i][1] or "??") if i < len(ef) else "-"
        k = "0x%x %s%s" % (kf[i][0], kf[i][1] or "??",
                           " [guess]" if kf[i][3] else "") \
            if i < len(kf) else "-"
        same = i < len(ef) and i < len(kf) and ef[i][0] == kf[i][0]
        out.append("%s%2d %-44s %s" % (" " if same else "!", i, e, k))
    out.append("   stop %-39s %s" % ((eu["stop"] if eu else "-")[:38],
                                     ks["stop"] if ks else "-"))
    return "\n".join(out)
