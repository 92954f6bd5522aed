# The rows the generator takes from ORC (gen/orc.c), vs objtool's own dump.
CHECK_BUILD += $(O)/kunwind-gen
CHECKS += tests/orc.test
