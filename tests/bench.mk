# SPDX-License-Identifier: GPL-2.0
# bench/kernels/report.py on made-up consoles (tests/bench.test): its
# figures, and its errors where a boot went wrong.  No boot, no kernel.
CHECKS += tests/bench.test
