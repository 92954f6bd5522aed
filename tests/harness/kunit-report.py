#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The report of a KUnit run in QEMU (tests/harness/kunit-run.sh): TAP lines.

usage: kunit-report.py CONSOLE KUNIT_PY OUT QEMU_STATUS KUNIT_SRC [CONFIG]

CONSOLE     the console log of the boot (tests/harness/qemu-run.sh --log)
KUNIT_PY    the kernel's tools/testing/kunit/kunit.py (its parser)
OUT         where ktap.log, kunit.json and kunit-parse.txt go
QEMU_STATUS tests/harness/qemu-run.sh's exit status
KUNIT_SRC   kunit/ of the sources the modules were built from
CONFIG      the test kernel's .config, for #if/#ifdef around cases

Lines printed:

  ok kunit_<suite>.<case>[.<param>]           one a KUnit result
  ok kunit_<...> # SKIP <reason>              a case KUnit skipped
  not ok kunit_<...>                          with its diagnostics
  ok kunit_expected_cases_ran                 every case of the sources
  ok kunit_console_no_panic_oops_warning_or_kunwind_message
  ok kunit_console_bad_table_refused_with_one_message
  ok kunit_graph_tracer_set_up                if graph-setup.sh ran
  ok kunit_qemu_and_init_exit_clean

The KTAP of each module insmod'ed by the initramfs (the console between
"kunwind-init: insmod M.ko" and the next init line; the built-in empty
run before them prints a KTAP header of its own) goes to the kernel's own
parser, kunit.py parse --json; kunwind_test.ko's is OUT/ktap.log and
OUT/kunit.json, any other module's OUT/ktap-M.log and OUT/kunit-M.json.

The expected cases come from the sources, at run time: every
"struct kunit_suite" of KUNIT_SRC/*.c (its .name and .test_cases), and the
KUNIT_CASE* entries of that array (comments removed; #if, #ifdef, #ifndef,
#elif and #else evaluated against CONFIG where they test CONFIG_
options, kept otherwise).  Each must have a result.  A KUNIT_CASE_PARAM*
case must have one for every parameter it declares: its generator is
the <name>_gen_params of a KUNIT_ARRAY_PARAM(<name>, ARRAY, ...) or
KUNIT_ARRAY_PARAM_DESC(<name>, ARRAY, ...) of the same file, and its
parameters are ARRAY's elements, counted in the source (the file and the
headers it includes with "...", found beside it or in KUNIT_SRC/..,
preprocessed as above); "suite.case.<param>" results are counted against
that number, which must be equal.  A generator not defined so, or an
array not found, fails the check (the count is unknown), as does a
parameterised case with a case-level result but no parameter results,
unless it is a SKIP.  A skipped case has a result (it is reported as
SKIP above).

With kunwind built in (tests/harness/kunit-run.sh --kernel builtin: CONFIG
has CONFIG_KUNWIND=y), KUNIT_REPORT_LEFT_OUT="suite.case ..." names the
cases the sources leave out of a build against a built-in kunwind (#if
!IS_BUILTIN(CONFIG_KUNWIND)), and one more line is printed:

  ok kunit_exactly_the_expected_cases_ran

the cases that ran are those of this build, which are those built for
kunwind.ko but the ones named (each of which is a case of the sources
for kunwind.ko), plus any the sources add for a built-in kunwind.

A second, degraded boot (kunit-run.sh: kunwind.unavailable=...) is
reported with KUNIT_REPORT_NAME=<prefix> (default "kunit") before each
name, KUNIT_REPORT_SUITES="suite ..." (only those suites are expected,
and the bad table is not), and KUNIT_REPORT_UNAVAILABLE="sym ..." (the
internals kunwind.ko was told to treat as missing: its one line for each
is allowed).

Exit status 0 iff no line is "not ok".
"""
import glob
import json
import os
import re
import subprocess
import sys

# The console as a whole: any of these fails it, unless it is a line of
# kunwind's listed in KUNWIND_ALLOWED.
BAD = re.compile(r"Kernel panic|BUG:|Oops|kernel BUG|WARNING:|INFO:|"
                 r"general protection fault|Call Trace:|RIP: 0010|"
                 r": [0-9a-f]{4} \[#\d+\]")
TAINT_BAD = set("BDLMW")	# bad page, died, soft lockup, MCE, warned
PREFIX = re.compile(r"^(\[[^\]]*\] ?)+")
KUNWIND = re.compile(r"^kunwind: ")
RAW_ADDR = re.compile(r"\b(0x)?ffff[0-9a-f]{12}\b")
# kunwind.ko is silent on the test kernel (vmlinux table, get_stack_info()
# found) but for these lines; anything else it says (KUNWIND_WARN_ONCE, a
# degraded start, another refusal) fails.  To allow one more, add its
# pattern (matched from "kunwind: " to the end of the line) and why.
KUNWIND_ALLOWED = [
    (r"kunwind_test_badtable: table refused: .*",
     "the corrupt table (kunwind_test_badtable.ko), counted below"),
    (r"loading out-of-tree module taints kernel\.",
     "the kernel's notice at the first out-of-tree module"),
    (r"registered \d+ tables? of modules loaded before kunwind\.ko",
     "kunwind.ko registering the tables of modules loaded before it "
     "(kunwind_test_early.ko)"),
    (r"kt_refuse_[a-z_]+: table refused: .*",
     "the registry suite's deliberately bad tables (kunwind_registry)"),
]
# ... and with kunwind built in (CONFIG_KUNWIND=y in CONFIG):
KUNWIND_ALLOWED_BUILTIN = [
    (r"built in, no vmlinux table: kernel frames use the ORC fallback",
     "built in, kunwind has no vmlinux table (Documentation/kernel.rst)"),
]

RESULT = re.compile(r"^\s*(not )?ok \d+ (?:- )?(.*?)(?: # (\S+)\s?(.*))?$")
TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\]\s?")


def module_parts(lines):
    """{module: its console lines}, for each "kunwind-init: insmod M.ko":
    the lines up to the next line of the init script."""
    parts = {}
    for i, l in enumerate(lines):
        m = re.match(r"kunwind-init: insmod (\S+)\.ko( \S+=\S*)*$", l)
        if not m:
            continue
        end = next((j for j in range(i + 1, len(lines))
                    if lines[j].startswith("kunwind-init:")), len(lines))
        parts[m.group(1)] = lines[i + 1:end]
    return parts


def parse_ktap(kunitpy, out, module, part):
    """kunit.py parse of one module's KTAP: (json or None, its log)."""
    base = "" if module == "kunwind_test" else "-" + module
    ktap = os.path.join(out, "ktap%s.log" % base)
    jpath = os.path.join(out, "kunit%s.json" % base)
    with open(ktap, "w") as f:
        f.write("\n".join(part) + "\n")
    if os.path.exists(jpath):
        os.unlink(jpath)
    p = subprocess.run([sys.executable, kunitpy, "parse", "--json=" + jpath,
                        ktap], capture_output=True, text=True)
    with open(os.path.join(out, "kunit-parse%s.txt" % base), "w") as f:
        f.write(p.stdout + p.stderr)
    if not os.path.exists(jpath):
        return None, (p.stdout + p.stderr).splitlines()[-10:]
    with open(jpath) as f:
        return json.load(f), []


def ktap_lines(part):
    """{full name: (ok, directive, reason, diagnostics, index)} of the
    result lines of a KTAP part.  A result at nesting level n (4n spaces)
    is named after the "# Subtest:" headers above it, "suite.case.param"
    as in kunit.py's JSON; its diagnostics are the lines since the
    previous result line at any level."""
    res, buf, names = {}, [], []
    for i, l in enumerate(part):
        l = TIMESTAMP.sub("", l).rstrip()
        depth = (len(l) - len(l.lstrip(" "))) // 4
        m = re.match(r"^\s*# Subtest: (.*)$", l)
        if m and depth >= 1:
            names = names[:depth - 1] + [""] * (depth - 1 - len(names))
            names.append(m.group(1).strip())
            continue
        m = RESULT.match(l)
        if m:
            full = ".".join(names[:depth] + [m.group(2).strip()])
            res.setdefault(full, (not m.group(1), (m.group(3) or "").upper(),
                                  m.group(4) or "", buf[-40:], i))
            buf = []
        elif l.strip():
            buf.append(l.strip())
    return res


def results_of(group, prefix=""):
    """(name, status) of each case in kunit.py's JSON, "suite.case" or
    "suite.case.param"."""
    for c in group.get("test_cases", []):
        # kunit.py makes up a nameless result for each one the plan
        # ("1..N") promised and the KTAP lacks.
        yield prefix + (c["name"] or "(missing)"), c["status"]
    for g in group.get("sub_groups", []):
        yield from results_of(g, prefix + g["name"] + ".")


# ---- the expected cases, from the sources -------------------------------

def read_config(path):
    conf = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for l in f:
                m = re.match(r"^(CONFIG_\w+)=(.*)$", l.strip())
                if m:
                    conf[m.group(1)] = m.group(2)
    return conf


def cond_value(expr, conf):
    """An #if expression on CONFIG_ options, or None if it tests anything
    else (then the lines stay)."""
    def opt(m):
        v = conf.get(m.group(2))
        what = m.group(1)
        if what == "IS_BUILTIN":
            return "1" if v == "y" else "0"
        if what == "IS_MODULE":
            return "1" if v == "m" else "0"
        if what in ("IS_ENABLED", "IS_REACHABLE"):
            return "1" if v in ("y", "m") else "0"
        return "1" if v == "y" or (v and v not in ("n", "m")) else "0"
    e = re.sub(r"\b(IS_ENABLED|IS_BUILTIN|IS_MODULE|IS_REACHABLE|defined)"
               r"\s*\(\s*(CONFIG_\w+)\s*\)", opt, expr)
    e = re.sub(r"\b(defined)\s+(CONFIG_\w+)", opt, e)
    e = re.sub(r"\b()(CONFIG_\w+)", opt, e)
    if re.search(r"[A-Za-z_]", e.replace("&&", "").replace("||", "")):
        return None
    e = e.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    try:
        return bool(eval(e, {"__builtins__": {}}))
    except Exception:
        return None


def preprocess(text, conf):
    """text without comments and without the lines of #if branches that
    CONFIG rules out (an unknown condition keeps its lines)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"\\\n", " ", text)
    out = []
    stack = []		# (keeping, a branch was taken, parent keeping)
    keep = True
    for l in text.split("\n"):
        m = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", l)
        if not m:
            out.append(l if keep else "")
            continue
        d, arg = m.group(1), m.group(2).strip()
        if d in ("if", "ifdef", "ifndef"):
            if d == "ifdef":
                arg = "defined(%s)" % arg
            elif d == "ifndef":
                arg = "!defined(%s)" % arg
            v = cond_value(arg, conf)
            v = True if v is None else v
            stack.append((keep and v, v, keep))
        elif d == "elif" and stack:
            _, taken, parent = stack.pop()
            v = cond_value(arg, conf)
            v = True if v is None else v
            stack.append((parent and v and not taken, taken or v, parent))
        elif d == "else" and stack:
            _, taken, parent = stack.pop()
            stack.append((parent and not taken, True, parent))
        elif d == "endif" and stack:
            stack.pop()
        keep = stack[-1][0] if stack else True
        out.append("")
    return "\n".join(out)


def skip_literal(text, i):
    """The index after the C string or char literal at text[i]."""
    j = i + 1
    while j < len(text) and text[j] != text[i]:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def initializer_count(body):
    """How many initializers body (an array's, between its braces)
    holds: its commas outside (), [], {} and literals, a trailing comma
    not counted."""
    depth = n = 0
    item = False
    i = 0
    while i < len(body):
        c = body[i]
        if c in "\"'":
            i = skip_literal(body, i)
            item = True
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            n += item
            item = False
            i += 1
            continue
        if not c.isspace():
            item = True
        i += 1
    return n + item


def with_includes(path, root, conf, seen=None):
    """[(path, preprocessed text)] of path and of the files it includes
    with "..." (beside it, else under root), recursively, once each."""
    seen = set() if seen is None else seen
    if path in seen:
        return []
    seen.add(path)
    with open(path, errors="replace") as f:
        text = preprocess(f.read(), conf)
    out = [(path, text)]
    for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
        for d in (os.path.dirname(path), root):
            inc = os.path.join(d, m.group(1))
            if os.path.isfile(inc):
                out += with_includes(inc, root, conf, seen)
                break
    return out


def array_length(texts, name):
    """The number of elements of the C array name defined in texts, or
    (None, why)."""
    for path, text in texts:
        m = re.search(r"\b%s\s*\[\s*([^\]]*?)\s*\]\s*(?:__\w+\s*)*=\s*\{"
                      % re.escape(name), text)
        if not m:
            continue
        if m.group(1):
            if re.fullmatch(r"\d+", m.group(1)):
                return int(m.group(1)), None
            return None, "%s[%s]: a size not a number" % (name, m.group(1))
        depth, i = 0, m.end() - 1
        while i < len(text):
            c = text[i]
            if c in "\"'":
                i = skip_literal(text, i)
                continue
            depth += {"{": 1, "}": -1}.get(c, 0)
            if depth == 0:
                return initializer_count(text[m.end():i]), None
            i += 1
        return None, "%s: no end of its initializer in %s" % (name, path)
    return None, "no array %s in %s" % (name, " ".join(
        os.path.basename(p) for p, _ in texts))


def param_count(texts, gen):
    """(number of parameters, why unknown) of the generator gen: the
    array of its KUNIT_ARRAY_PARAM or KUNIT_ARRAY_PARAM_DESC."""
    for _, text in texts:
        for m in re.finditer(r"\bKUNIT_ARRAY_PARAM(?:_DESC)?\s*\(\s*(\w+)\s*,"
                             r"\s*(\w+)", text):
            if m.group(1) + "_gen_params" == gen:
                n, why = array_length(texts, m.group(2))
                return n, why and "%s: %s" % (gen, why)
    return None, ("%s: not the generator of a KUNIT_ARRAY_PARAM or "
                  "KUNIT_ARRAY_PARAM_DESC, cannot count its parameters" % gen)


def expected_cases(srcdir, conf):
    """[(suite, case, param, file)] of every suite in srcdir/*.c; param
    is None for a plain case, else (generator, number of parameters or
    None, why it is None)."""
    arrays, suites = {}, []
    root = os.path.dirname(os.path.abspath(srcdir))
    for path in sorted(glob.glob(os.path.join(srcdir, "*.c"))):
        texts = with_includes(path, root, conf)
        text = texts[0][1]
        for m in re.finditer(r"struct\s+kunit_case\s+(\w+)\s*\[\s*\]\s*=\s*"
                             r"\{(.*?)\}\s*;", text, re.S):
            arrays[m.group(1)] = []
            for c in re.finditer(r"\b(KUNIT_CASE\w*)\s*\(\s*(\w+)"
                                 r"(?:\s*,\s*(\w+))?", m.group(2)):
                param = None
                if c.group(1).startswith("KUNIT_CASE_PARAM"):
                    param = (c.group(3),) + param_count(texts, c.group(3))
                arrays[m.group(1)].append((c.group(2), param))
        for m in re.finditer(r"struct\s+kunit_suite\s+(\w+)\s*=\s*"
                             r"\{(.*?)\}\s*;", text, re.S):
            name = re.search(r"\.name\s*=\s*\"([^\"]+)\"", m.group(2))
            cases = re.search(r"\.test_cases\s*=\s*(\w+)", m.group(2))
            suites.append((name.group(1) if name else m.group(1),
                           cases.group(1) if cases else None,
                           os.path.basename(path)))
    want = []
    for suite, array, fname in suites:
        for case, param in arrays.get(array, []):
            want.append((suite, case, param, fname))
        if not arrays.get(array):
            want.append((suite, None, False, fname))
    return want


def left_out_problems(srcdir, conf, want, names, left_out):
    """What is wrong with the cases that ran (names) when left_out
    ("suite.case") are left out of this build: [] if nothing."""
    module_conf = dict(conf)
    module_conf.pop("CONFIG_KUNWIND", None)	# as for kunwind.ko
    module = {"%s.%s" % (w[0], w[1])
              for w in expected_cases(srcdir, module_conf) if w[1]}
    here = {"%s.%s" % (w[0], w[1]) for w in want if w[1]}
    why = ["%s: no such case in %s/*.c" % (n, srcdir)
           for n in left_out if n not in module]
    why += ["%s: in this build, not left out" % n
            for n in left_out if n in here]
    why += ["%s: left out of this build, not listed" % n
            for n in sorted(module - here - set(left_out))]
    why += ["%s: ran, not a case of this build" % n for n in sorted(names)
            if ".".join(n.split(".")[:2]) not in here]
    return why


def missing_cases(want, results):
    """What of want has no result in results ([(name, KUnit status)]):
    a case, or a parameter of a parameterised case (counted)."""
    status = dict(results)
    missing = []
    for suite, case, param, fname in want:
        if case is None:
            missing.append("%s (%s): no case array found" % (suite, fname))
            continue
        full = suite + "." + case
        if not param:
            if full not in status:
                missing.append("%s (%s)" % (full, fname))
            continue
        gen, n, why = param
        got = [r for r, _ in results if r.startswith(full + ".") and
               not r.endswith(".(missing)")]
        if not got and status.get(full) == "SKIP":
            continue		# the whole case skipped, with its reason
        if not got and full not in status:
            missing.append("%s (parameterised) (%s)" % (full, fname))
        elif n is None:
            missing.append("%s (%s): %s" % (full, fname, why))
        elif len(got) != n:
            missing.append("%s (%s): %d of %d parameters of %s have a "
                           "result%s" % (full, fname, len(got), n, gen,
                                         ": " + ", ".join(
                                             r[len(full) + 1:] for r in got)
                                         if got else ""))
    return missing


# ---- main ---------------------------------------------------------------

def main():
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__)
    console, kunitpy, out, qrc, srcdir = sys.argv[1:6]
    qrc = int(qrc)
    prefix = os.environ.get("KUNIT_REPORT_NAME", "kunit")
    suites = os.environ.get("KUNIT_REPORT_SUITES", "").split()
    allowed = list(KUNWIND_ALLOWED)
    for sym in os.environ.get("KUNIT_REPORT_UNAVAILABLE", "").split():
        allowed.append((re.escape(sym) + r" unavailable: .*",
                        "told to treat %s as missing" % sym))
    conf = read_config(sys.argv[6] if len(sys.argv) == 7 else None)
    if conf.get("CONFIG_KUNWIND") == "y":
        allowed += KUNWIND_ALLOWED_BUILTIN
    with open(console, errors="replace") as f:
        lines = f.read().splitlines()
    results = []		# (ok, name, diagnostics, skip reason or None)

    def report(ok, name, diag=(), skip=None):
        results.append((ok, name, list(diag), skip))

    parts = module_parts(lines)
    mods = list(parts)
    names, order, parse_err, named = set(), {}, [], []
    for module, part in parts.items():
        if not any(re.search(r"\bK?TAP version", l) for l in part):
            continue
        data, err = parse_ktap(kunitpy, out, module, part)
        if data is None:
            parse_err += ["kunit.py parse found nothing in %s's KTAP:"
                          % module] + err
            continue
        ktap = ktap_lines(part)
        for name, status in results_of(data):
            names.add(name)
            named.append((name, status))
            r = ktap.get(name)
            order[name] = (mods.index(module), r[4] if r else len(part))
            if status == "PASS":
                report(True, name)
            elif status == "SKIP":
                reason = r[2] if r and r[1] == "SKIP" else ""
                report(True, name, skip=reason or "(no reason given)")
            else:
                report(False, name, ["KUnit status %s" % status] +
                       (r[3] if r else []))
    # In the order the cases ran: module, then first result line.
    results.sort(key=lambda r: order[r[1]])
    if not names:
        report(False, "cases_ran",
               ["no KUnit result in the console (%s)" % console] + parse_err)

    want = expected_cases(srcdir, conf)
    if suites:
        want = [w for w in want if w[0] in suites]
    missing = missing_cases(want, named)
    report(not missing and bool(want), "expected_cases_ran",
           (["%d cases of %s/*.c lack results (of the case or of a parameter):"
             % (len(missing), srcdir)]
            + missing) if missing else
           ["no struct kunit_suite in %s/*.c" % srcdir])
    left_out = os.environ.get("KUNIT_REPORT_LEFT_OUT")
    if left_out is not None:
        left_out = left_out.split()
        why = left_out_problems(srcdir, conf, want, names, left_out)
        report(not why, "exactly_the_expected_cases_ran",
               why + ["left out: %s" % (" ".join(left_out) or "none")])

    # The console as a whole.
    bad = []
    for l in lines:
        text = PREFIX.sub("", l)
        if KUNWIND.match(text):
            # kunwind prints kernel addresses as symbols only
            if RAW_ADDR.search(text) or \
               not any(re.match("kunwind: " + p + "$", text)
                       for p, _ in allowed):
                bad.append(l)
        elif BAD.search(l):
            bad.append(l)
        elif "Tainted:" in l and taint_flags(l) & TAINT_BAD:
            bad.append(l)
    report(not bad, "console_no_panic_oops_warning_or_kunwind_message",
           bad[:20] + ["(allowed kunwind lines: KUNWIND_ALLOWED in %s)"
                       % os.path.abspath(__file__)])
    refused = [l for l in lines
               if "table refused" in l and "kt_refuse_" not in l]
    good = [l for l in refused
            if "kunwind_test_badtable" in l and "bad magic" in l]
    if not suites or "kunwind_registry" in suites:
        report(len(good) == 1 and len(refused) == 1,
               "console_bad_table_refused_with_one_message",
               ['expected one "kunwind_test_badtable: table refused: bad '
                'magic", got:'] + refused)
    if any(l.startswith("kunwind-init: run graph-setup.sh") for l in lines):
        setup = [l for l in lines if l.startswith("graph-setup:") or
                 l.startswith("kunwind-init: graph-setup.sh exit")]
        report("kunwind-init: graph-setup.sh exit 0" in lines,
               "graph_tracer_set_up", setup)
    why = {124: "QEMU timed out", 2: "kernel panic or init status != 0",
           3: "the initramfs never reported its end"}
    report(qrc == 0, "qemu_and_init_exit_clean",
           ["qemu-run.sh exit %d: %s" % (qrc, why.get(qrc, "QEMU failed"))]
           + [l for l in lines if l.startswith("kunwind-init:")][-5:])

    failed = skipped = 0
    for ok, name, diag, skip in results:
        if skip is not None:
            skipped += 1
            print("ok %s_%s # SKIP %s" % (prefix, name, skip))
            continue
        print("%s %s_%s" % ("ok" if ok else "not ok", prefix, name))
        if not ok:
            failed += 1
            for l in diag:
                print("#   " + l)
    print("# kunit: %d results from KTAP (%d skipped), %d expected cases "
          "from %s (%d parameters of %d parameterised ones), %d checks "
          "failed" % (len(names), skipped, len(want), srcdir,
                      sum(w[2][1] or 0 for w in want if w[2]),
                      sum(1 for w in want if w[2]), failed))
    if left_out is not None:
        print("# kunit: left out of this build (built in): %s"
              % (" ".join(left_out) or "none"))
    return 1 if failed else 0


def taint_flags(line):
    """The taint letters of a "Tainted:" line (6.12: also "[W]=WARN")."""
    flags = set(re.findall(r"\[([A-Z])\]=", line))
    m = re.search(r"Tainted: ([GP][ A-Z]*)", line)
    if m:
        flags |= set(m.group(1)) - set(" GP")
    return flags


if __name__ == "__main__":
    sys.exit(main())
