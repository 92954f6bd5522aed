# The generator on the test kernel vmlinux, vs readelf and libdw.
CHECKS += tests/vmlinux.test
