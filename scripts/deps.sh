#!/bin/sh
# Install the Debian packages kunwind's host tools, tests and benchmarks
# need.  Idempotent: does nothing when everything is present.
#   scripts/deps.sh            host build + tests
#   scripts/deps.sh kernel     also what the QEMU/kernel tests need
set -e
pkgs="gcc make libelf-dev libdw-dev elfutils libunwind-dev gdb binutils clang
      llvm libclang-rt-14-dev python3 libc6-dbg linux-headers-amd64 kmod"
if [ "$1" = kernel ]; then
	pkgs="$pkgs qemu-system-x86 busybox-static cpio zstd bc bison flex
	      libssl-dev linux-headers-amd64 linux-image-amd64 linux-source-6.12
	      rsync kmod"
fi
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing"
[ "$(id -u)" = 0 ] && sudo= || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
