#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Made-up consoles of bench/kernels-bench.sh's three boots, for
tests/bench.test: what kunwind_kernels_bench.ko and bench/kernels/guest.sh
print, with figures of the size the real boots gave.

    make-consoles.py DIR [BREAK]

writes DIR/fp.log, DIR/orc.log, DIR/kunwind.log; BREAK names one fault to
plant (see FAULTS) in the kunwind (or ORC) console.
"""
import os
import sys

FAULTS = ('none', 'no-icount', 'trace-differs', 'run-missing', 'few-samples',
          'run-failed', 'no-steps', 'prof-few-samples', 'bad-cpu')
SITES = {'depth4': 4, 'depth16': 16, 'depth32': 32, 'irq16': 16}
KERNEL_TAIL = ['do_one_initcall+0x91/0x196', 'do_init_module+0x68/0x231',
               'load_module+0x187a/0x19ed', 'do_syscall_64+0x52/0xa9']
# per kernel: insns per trace frame, workload instructions, perf cost/sample
K = {'fp': (410, 1_040_000_000, 3800), 'orc': (700, 1_000_000_000, 5200),
     'kunwind': (120, 1_000_000_000, 2500)}


def console(name, fault):
    per_frame, work, per_sample = K[name]
    out = ['[    0.000000] Linux version 6.12.117-kunwind-bench-%s' % name]
    if not (fault == 'no-icount' and name == 'kunwind'):
        out.append('[    1.167528] kkb: icount loop=2000000 counted=2000005')
    else:
        out.append('[    1.167528] kkb: icount loop=2000000 counted=1523411')
    for site, depth in SITES.items():
        frames = ['kkb_task+0x19/0x1b [kunwind_kernels_bench]',
                  'kkb_measure+0x28/0x7e [kunwind_kernels_bench]',
                  'kkb_bottom+0x1a/0x63 [kunwind_kernels_bench]']
        frames += ['kkb_recurse+0x18/0x29 [kunwind_kernels_bench]'] * (depth + 1)
        frames += ['kkb_init+0x10d/0xec2 [kunwind_kernels_bench]'] + KERNEL_TAIL
        if name == 'fp':	# no sibling calls with frame pointers
            frames += ['x64_sys_call+0x1c74/0x1e66']
        if fault == 'trace-differs' and name == 'kunwind' and site == 'depth16':
            del frames[5]
        for i, f in enumerate(frames):
            out.append('[    1.171045] kkb: frame %s %d %s' % (site, i, f))
        n = per_frame * len(frames)
        out.append('[    1.171398] kkb: site %s frames=%d insns=%d min=%d max=%d '
                   '(per trace, median of 5 batches of 100)'
                   % (site, len(frames), n, n, n))
    out.append('[    1.194144] kkb: done')
    runs = ['off'] + ['perf%s%d' % (g, f) for f in (100, 1000, 10000)
                      for g in ('', 'g')]
    if name == 'orc':
        runs += ['prof-%s-%d' % (h, f) for f in (100, 1000)
                 for h in ('kunwind', 'noop')]
    for rep in (1, 2, 3):
        for r in runs:
            if fault == 'run-missing' and name == 'kunwind' and r == 'perfg1000' and rep == 2:
                continue
            rate = (0 if r == 'off' else int(r.rsplit('-', 1)[-1])
                    if r.startswith('prof') else int(r.lstrip('perfg')))
            secs = work / 1e9
            samples = int(rate * secs)
            cost = 0 if r == 'off' else 9_000_000 + samples * (
                per_sample if 'perfg' in r else 1500 if r.startswith('perf')
                else 600 if 'kunwind' in r else 300)
            # its CPU time: its own work and the sampling, not perf's
            # process (the fixed 9 M)
            cpu = int(0.99 * work) + max(cost - 9_000_000, 0) + rep
            if fault == 'bad-cpu' and name == 'orc' and r == 'off':
                cpu = 140713728243699	# seen: a failed clock's timespec
            out.append('kkb: run %s %d loops=3000 ns=%d cpu=%d'
                       % (r, rep, work + cost + rep, cpu))
            if r.startswith('perf'):
                if fault == 'few-samples' and name == 'kunwind' and r == 'perfg10000':
                    samples //= 10
                out.append('kkb: samples %s %d %d' % (r, rep, samples))
            if r.startswith('prof'):
                if fault == 'prof-few-samples' and r == 'prof-kunwind-1000':
                    samples //= 10
                noop = 'noop' in r
                for key, v in (('samples', 0 if noop else samples),
                               ('handler_ns', samples * (68 if noop else 500)),
                               ('steps_tables', 0 if noop else samples * 9),
                               ('steps_fallback', 0), ('stopped', 0)):
                    out.append('kkb: stat %s %d %s: %d' % (r, rep, key, v))
    if fault == 'run-failed' and name == 'fp':
        out.append('kkb: failed perf100 1 exit 1')
    if name == 'kunwind' and fault != 'no-steps':
        out += ['kkb: begin steps', 'tables 4123', 'guessed 0', 'kkb: end steps']
    out.append('kkb: guest done')
    return '\n'.join(out) + '\n'


def main():
    d = sys.argv[1]
    fault = sys.argv[2] if len(sys.argv) > 2 else 'none'
    if fault not in FAULTS:
        sys.exit('unknown fault %s (%s)' % (fault, ', '.join(FAULTS)))
    os.makedirs(d, exist_ok=True)
    for name in K:
        with open(os.path.join(d, name + '.log'), 'w') as f:
            f.write(console(name, fault))


if __name__ == '__main__':
    main()
