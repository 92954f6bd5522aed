#!/bin/sh
# Install the Debian packages kunwind's host tools, tests and benchmarks
# need.  Idempotent: does nothing when everything is present; otherwise
# apt-get update, then install what is missing (scripts/apt.sh).
#   scripts/deps.sh            host build + tests
#   scripts/deps.sh kernel     also what the QEMU/kernel tests need
# What the kernel tests fetch per kernel (a stock 6.12 image and headers,
# the vmlinux of a -dbg package) is fetched by the scripts that need it
# (tests/harness/stock-boot.sh, tests/harness/dbg-vmlinux.sh).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
APT_WHO="deps"
. "$top/scripts/apt.sh"
pkgs="gcc make libelf-dev libdw-dev elfutils libunwind-dev valgrind gdb binutils clang
      llvm libclang-rt-14-dev python3 libc6-dbg libc6-dev linux-headers-amd64 kmod
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
if [ "${1:-}" = kernel ]; then
	pkgs="$pkgs qemu-system-x86 busybox-static cpio zstd bc bison flex
	      libssl-dev linux-headers-amd64 linux-image-amd64 linux-source-6.12
	      rsync xz-utils gzip python3-drgn patch
	      linux-perf bash coreutils procps libc-bin
	      qemu-system-arm gdb-multiarch"
fi
# shellcheck disable=SC2086 # one word a package
apt_need $pkgs
