# SPDX-License-Identifier: GPL-2.0
# The walk's code in kunwind.ko is neither traceable nor probeable: no
# ftrace call sites, the walk's closure in .kprobes.text, the API's entry
# points there (tests/walkpath.test, readelf on the kunwind.ko that
# tests/harness/kunit-run.sh --build builds with $(O)/kunwind-gen; 4 s when the
# modules are up to date).
CHECK_BUILD += $(O)/kunwind-gen
CHECKS += tests/walkpath.test
