# SPDX-License-Identifier: GPL-2.0
# The tree against README.md's "What is here" and STYLE.md's sizes
# (tests/layout.test): a host test, a second.
CHECKS += tests/layout.test
