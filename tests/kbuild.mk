# SPDX-License-Identifier: GPL-2.0
# kunwind.ko and kunit/ with W=1 under CONFIG_WERROR, in tree (the tree
# dropped into a private view of the test kernel's source at lib/kunwind)
# and out of tree (tests/kbuild.test).  Out of tree it uses the generator
# that `make all` builds, $(O)/kunwind-gen.
CHECK_BUILD += $(O)/kunwind-gen
CHECKS += tests/kbuild.test
