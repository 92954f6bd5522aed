# The generator on the test kernel vmlinux, vs readelf and libdw.
CHECK_BUILD += $(O)/kunwind-gen $(O)/tests/libdw-oracle
CHECKS += tests/vmlinux.test
