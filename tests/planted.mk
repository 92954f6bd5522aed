# SPDX-License-Identifier: GPL-2.0
# Planted bugs (tests/planted.test): kunwind.ko built from a copy of the
# tree with a patch of tests/planted/ that puts back a bug a check guards,
# and that check (tests/death.test, tests/kunit.test), run unchanged from
# the copy, must fail for that bug's cause.  make check runs two plants
# (walk_2mib_death, registry_2mib_kunit; KUNWIND_PLANTED=all for every
# one).  Copies and logs in $(O)/planted.  The test builds what it needs
# in the copies; its cost is in its header.
CHECKS += tests/planted.test
