# SPDX-License-Identifier: GPL-2.0
# tests/dkms.test: the Debian package (make deb) installed on this machine,
# kunwind.ko built by DKMS for the 6.1 and 6.12 kernels (6.12 with its
# -dbg vmlinux table, 6.1 with the ORC fallback), rebuilt by the kernel
# postinst hook, the one-line opt-in against the installed files, the
# early-load initramfs booted (tests/harness/initramfs-boot.sh), then purged.
# It needs root and changes the machine while it runs (packages, modules,
# /boot/initrd.img-*): an EXIT trap puts it back.
#
# Cost on this machine: 4 min 12 s (the breakdown is in tests/dkms.test).
CHECKS += tests/dkms.test
