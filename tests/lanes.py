# SPDX-License-Identifier: GPL-2.0
"""Cases of a check script run at once, in lanes: each lane is a process
(an argv, and variables added to the environment), its output goes to
files, and is printed after, lane by lane in the order given, so that the
result lines read as if the lanes had run one after the other.  For the
QEMU checks, whose guests keep a host CPU busy each: on the 2-CPU machine
two lanes take about the time of the longer.  A lane that failed without
a "not ok" line of its own gets one, NAME_lane_N, naming its command."""
import os
import re
import subprocess
import sys
import tempfile


def run(name, lanes):
    """Run lanes [(argv, env)] at once; the number of lanes that failed."""
    procs = []
    try:
        for argv, env in lanes:
            out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
            procs.append((subprocess.Popen(argv, stdout=out, stderr=err,
                                           env=dict(os.environ, **env)),
                          out, err))
        failed = 0
        for i, (p, out, err) in enumerate(procs):
            rc = p.wait()
            out.seek(0)
            err.seek(0)
            o, e = out.read(), err.read()
            sys.stdout.flush()
            sys.stderr.buffer.write(e)
            sys.stderr.flush()
            # A lane killed mid-line must not glue the next result on.
            if o and not o.endswith(b'\n'):
                o += b'\n'
            sys.stdout.buffer.write(o)
            sys.stdout.flush()
            if rc:
                failed += 1
                if not re.search(rb'^not ok ', o, re.M):
                    argv, env = lanes[i]
                    print('not ok %s_lane_%d: %s%s exited %d' % (
                        name, i, ''.join('%s=%s ' % kv for kv in env.items()),
                        ' '.join(argv[1:]), rc))
                    for line in e.decode(errors='replace').splitlines()[-20:]:
                        print('#   ' + line)
                    sys.stdout.flush()
        return failed
    finally:
        # An exception here (an interrupt): no lane outlives the caller.
        for p, _, _ in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
