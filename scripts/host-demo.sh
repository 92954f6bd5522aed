#!/bin/sh
# The host demo: kunwind-gen on the bundled example program, then
# kunwind-stack on a core of it, beside eu-stack for one thread.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
exe=$top/build/tests/stackprog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== kunwind-gen stats build/tests/stackprog"
"$top/build/kunwind-gen" stats "$exe"
echo
echo "== kunwind-gen dump build/tests/stackprog (the rows of call_noreturn)"
start=$(printf '%x' "0x$(nm "$exe" | awk '$3 == "call_noreturn" { print $1 }')")
"$top/build/kunwind-gen" dump "$exe" | grep -A3 " 0x$start "
echo
echo "== a core of stackprog (5 threads parked in hard places, main aborts)"
(cd "$tmp" && ulimit -c unlimited && "$exe" >/dev/null 2>&1) || true
core=$(ls "$tmp"/core* 2>/dev/null | head -1)
if [ -z "$core" ]; then
	(cd "$tmp" && gdb -batch -nx -ex 'handle SIGUSR1 SIGSEGV nostop noprint pass' \
		-ex run -ex "gcore $tmp/core" -ex kill --args "$exe" --stop >/dev/null 2>&1)
	core=$tmp/core
fi
echo
echo "== kunwind-stack --core CORE --exe build/tests/stackprog"
"$top/build/kunwind-stack" --core "$core" --exe "$exe" | tee "$tmp/k.txt" |
	awk '/^TID/ { n = 0 } { if (n++ < 12) print } n == 13 { print "   ..." }'
echo
echo "== eu-stack on the same core (first thread), for comparison"
eu-stack -n 12 --core "$core" --executable "$exe" 2>/dev/null | sed -n '1,14p'
echo
echo "== kunwind-stack --bench 20000"
"$top/build/kunwind-stack" --core "$core" --exe "$exe" --bench 20000 | tail -1
