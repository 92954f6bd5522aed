# SPDX-License-Identifier: GPL-2.0
# libFuzzer targets for the CFI parser, the whole generator on an ELF file,
# the table checker and the walker; and kunwind-gen on hostile files.
#
#   make fuzz          build $(O)/fuzz/{cfi,elf,table,walk}_fuzz and a seed
#                      corpus from this machine's binaries in $(O)/fuzz/corpus
#   make fuzz-corpus   regenerate the small committed seeds in fuzz/corpus
#   fuzz/fuzz.test     a bounded smoke run of each target (part of make check)
#   fuzz/hostile.test  kunwind-gen on the hostile objects of fuzz/hostile/
#                      (part of make check)
#
# See fuzz/README.md for long runs.

FUZZ_CC     ?= clang-14
FUZZ_CFLAGS ?= -g -O1 -fsanitize=fuzzer,address,undefined \
	       -fno-sanitize-recover=all $(WFLAGS)
FUZZ_NAMES  := cfi elf table walk
FUZZ_BINS   := $(FUZZ_NAMES:%=$(O)/fuzz/%_fuzz)
FUZZ_DEPS   := fuzz/fuzz.h fuzz/table_invariants.h fuzz/fuzz.mk unwind/*.h $(CORE_SRC)

# Real objects the seeds come from: an executable (.plt, PLT expression,
# _start with an undefined return address), a start file (ET_REL), a
# library, glibc (the __restore_rt signal frame), and .debug_frame as GCC
# writes it for the kernel (-fno-asynchronous-unwind-tables), from our own
# sources at -O2 (rsp-based rows) and -O0 (rbp-based rows).
FUZZ_LIBDIR := /usr/lib/x86_64-linux-gnu
FUZZ_EXE    := /usr/bin/true
FUZZ_REL    := $(FUZZ_LIBDIR)/crt1.o
FUZZ_LIBC   := $(firstword $(wildcard /lib/x86_64-linux-gnu/libc.so.6 \
				      $(FUZZ_LIBDIR)/libc.so.6))
FUZZ_LIBZ   := $(firstword $(wildcard $(FUZZ_LIBDIR)/libz.so.1 \
				      /lib/x86_64-linux-gnu/libz.so.1))
FUZZ_DWARF  := $(O)/fuzz/dwarf-O2.so $(O)/fuzz/dwarf-O0.so
FUZZ_RULES  := $(O)/fuzz/many-rules.o

fuzz: $(FUZZ_BINS) $(O)/fuzz/corpus/.done

$(O)/fuzz/cfi_fuzz: fuzz/cfi_fuzz.c $(FUZZ_DEPS) gen/*.h $(GEN_SRC)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(CORE_SRC) $(GEN_SRC) $(GEN_LIBS)

$(O)/fuzz/elf_fuzz: fuzz/elf_fuzz.c $(FUZZ_DEPS) gen/*.h $(GEN_SRC)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(CORE_SRC) $(GEN_SRC) $(GEN_LIBS)

$(O)/fuzz/table_fuzz: fuzz/table_fuzz.c $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(CORE_SRC)

# The harness, and the model of a step it checks the walker against.
$(O)/fuzz/walk_fuzz: fuzz/walk_fuzz.c fuzz/walk_model.c fuzz/walk_fuzz.h $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ fuzz/walk_fuzz.c fuzz/walk_model.c $(CORE_SRC)

$(O)/fuzz/dwarf-O2.so: FUZZ_OPT := -O2
$(O)/fuzz/dwarf-O0.so: FUZZ_OPT := -O0 -fno-omit-frame-pointer
$(O)/fuzz/dwarf-%.so: $(CORE_SRC) unwind/*.h
	@mkdir -p $(@D)
	$(CC) $(FUZZ_OPT) -g -fno-asynchronous-unwind-tables -fPIC -shared \
		-nostdlib -o $@ $(CORE_SRC)

# 300 functions, each with a CFA offset of its own after its first byte:
# a table of 302 rules, whose 47 rarest have no rule byte and are reached
# through the escape list (unwind/format.h).
$(FUZZ_RULES): fuzz/fuzz.mk
	@mkdir -p $(@D)
	i=0; while [ $$i -lt 300 ]; do \
		printf 'f%d:\n.cfi_startproc\nnop\n.cfi_def_cfa_offset %d\nret\n.cfi_endproc\n' \
			$$i $$((16 + 8 * i)); \
		i=$$((i + 1)); \
	done >$(@:.o=.S)
	$(CC) -c -o $@ $(@:.o=.S)

# The seed script.
#   cfi OUT FILE SECTION MAX   a frame section as the cfi target reads it
#                              (kind byte, u64 address, bytes), cut after
#                              the last whole CIE/FDE that fits in MAX bytes
#                              (0: all)
#   cfi-signal OUT FILE        the CIE with augmentation "S" and its FDE
#   cfi-cies OUT N             N FDEs naming N different CIE offsets (none a
#                              CIE): the parser's CIE cache must grow
#   walk OUT DUMP [TABLE]      a walk target input: with TABLE, that table
#                              raw; else a table synthesized from the first
#                              rows and rules of the kunwind-gen DUMP; and a
#                              stack holding a call chain through those rows,
#                              ending at an end-of-stack row if there is one;
#                              text_ok() on, its first return address a
#                              trampoline that ret_addr() undoes, a
#                              synthesized table in two segments
#   walk-escape OUT DUMP       the same, synthesized with escaped rules
#                              (WALK_ESCAPE)
define FUZZ_SEED_PY
import struct, subprocess, sys

def section(path, name):
    d = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', d, 0x28)
    entsize, num, strndx = struct.unpack_from('<HHH', d, 0x3a)
    hdr = lambda i: struct.unpack_from('<IIQQQQ', d, shoff + i * entsize)
    strtab = hdr(strndx)[4]
    for i in range(num):
        sh = hdr(i)
        end = d.index(b'\0', strtab + sh[0])
        if d[strtab + sh[0]:end].decode() == name:
            return sh[3], d[sh[4]:sh[4] + sh[5]]
    sys.exit('%s: no section %s' % (path, name))

def entries(data):
    off = 0
    while off + 4 <= len(data):
        n, = struct.unpack_from('<I', data, off)
        if n == 0 or n == 0xffffffff or off + 4 + n > len(data):
            return
        yield off, data[off:off + 4 + n]
        off += 4 + n

def seed(out, kind, addr, data):
    open(out, 'wb').write(bytes([kind]) + struct.pack('<Q', addr) + data)

def cfi(out, path, name, limit):
    addr, data = section(path, name)
    if limit:
        end = 0
        for off, e in entries(data):
            if off + len(e) > limit:
                break
            end = off + len(e)
        data = data[:end]
    seed(out, name == '.debug_frame', addr, data)

def cfi_signal(out, path):
    addr, data = section(path, '.eh_frame')
    cies = {}
    for off, e in entries(data):
        cie_ptr, = struct.unpack_from('<I', e, 4)
        if cie_ptr == 0:
            aug = e[9:e.index(b'\0', 9)]
            cies[off] = (e, b'S' in aug)
        elif cies.get(off + 4 - cie_ptr, (0, False))[1]:
            cie = cies[off + 4 - cie_ptr][0]
            fde = e[:4] + struct.pack('<I', len(cie) + 4) + e[8:]
            seed(out, 0, addr + off - len(cie), cie + fde)
            return
    sys.exit('%s: no signal frame CIE' % path)

def cfi_cies(out, n):
    data = b''
    for i in range(n):
        data += struct.pack('<II', 4, len(data) + 4 - i * 8 or 1)
    seed(out, 0, 0, data)


def word(tag, v):
    return struct.pack('<BH', tag, v)

# The first return address of the chain is replaced by a tracer's
# trampoline (text + 0xfff0) whose record, the slot, gives it back.
TRAMP = word(0, 0xfff0)

def chain_stack(rows, base, ok):
    calls = [(s, e, r) for s, e, r in rows
             if ok(s, r) and r[2] == 'c-8' and r[0].startswith('rsp') and
             int(r[0][3:]) % 8 == 0 and e - s >= 2 and e - base < 65536]
    ends = [(s, e, r) for s, e, r in rows
            if ok(s, r) and r[2] == 'u' and e - base < 65536]
    chain = calls[::max(len(calls) // 4, 1)][:4] + ends[:1] or rows[:1]
    words, sp, slot, real = {}, 0, word(3, 0), word(3, 0)
    for i, (s, e, r) in enumerate(chain[:-1]):
        cfa = sp + int(r[0][3:])
        words[(cfa - 8) // 8] = word(0, chain[i + 1][0] - base + 1)
        if i == 0:
            slot, real = word(1, cfa - 8), words[(cfa - 8) // 8]
            words[(cfa - 8) // 8] = TRAMP
        at = cfa + int(r[1][1:]) if r[1].startswith('c') else -1
        if at >= sp and at // 8 not in words:
            words[at // 8] = word(1, cfa + 64)
        sp = cfa
    n = max(words) + 2 if words else 1
    b = struct.pack('<HB', n, 0)
    b += word(0, chain[0][0] - base) + word(1, 0) + struct.pack('<HH', 0, 0xffff)
    return b + b''.join(words.get(i, word(3, 0)) for i in range(n)), slot, real

# The hook fields: text_ok() = the live segments, ret_addr() undoes the
# trampoline; no dead segment; the synthesized table split at row split.
def hooks(split, slot, real):
    return struct.pack('<BBBII', 0x03, 0, split, 0, 0) + TRAMP + slot + real

def enc_rule(r):
    if r is None:
        return bytes(6)
    cfa, bp, ra = r
    bp_off = int(bp[1:]) if bp.startswith('c') else 0
    kinds = {'regs:': 2, 'iret:': 3}
    if ra == 'u' and not cfa.startswith('iret:'):
        t, reg, off = 5, 0, 0
    elif cfa.startswith('rsp') or cfa.startswith('rbp'):
        t, reg, off = 1, cfa.startswith('rbp'), int(cfa[3:])
    elif cfa.startswith('*rsp'):
        t, reg, off = 1, 2, int(cfa[4:])
    elif cfa[:5] in kinds and cfa[5:8] in ('rsp', 'rbp'):
        t, reg, off = kinds[cfa[:5]], cfa[5:8] == 'rbp', int(cfa[8:])
    elif cfa == 'exp:plt':
        t, reg, off = 8, 11, 8
    elif cfa == 'exp:signal':
        t, reg, off = 4, 0, 0
    elif cfa == 'u':
        t, reg, off = 6, 0, 0
    else:
        t, reg, off = 7, 0, 0
    return struct.pack('<BBhh', t, reg, off, bp_off)

def walk(out, dump, table=None, mode=0x01):
    rows = []
    for line in open(dump):
        f = line.split()
        if len(f) == 6 and f[0] == '.text':
            rows.append((int(f[1], 16), int(f[2], 16), tuple(f[3:])))
    if table:
        t = open(table, 'rb').read()
        seg0, = struct.unpack_from('<Q', t, 24)
        stack, slot, real = chain_stack(rows, seg0, lambda s, r: True)
        b = bytes([0x03, 64]) + hooks(0, slot, real)
        b += struct.pack('<H', len(t)) + t + struct.pack('<Q', 0) + stack
        open(out, 'wb').write(b)
        return
    rows = rows[:200]
    base = rows[0][0]
    rules, starts = [None], []
    for i, (s, e, r) in enumerate(rows):
        if r not in rules and len(rules) < 64:
            rules.append(r)
        starts.append((s - base, rules.index(r) if r in rules else 0))
        if i + 1 < len(rows) and rows[i + 1][0] > e:
            starts.append((e - base, 0))
    starts = starts[:256]
    size = min(rows[-1][1] - base, 1 << 20)
    last = starts[-1][0] + base
    stack, slot, real = chain_stack(rows, base,
                                    lambda s, r: r in rules and s < last)
    b = bytes([mode, 64]) + hooks(len(starts) // 2, slot, real)
    b += bytes([len(rules) - 1]) + b''.join(map(enc_rule, rules))
    b += struct.pack('<IB', size - 1, len(starts) - 1)
    prev = 0
    for s, r in starts:
        b += struct.pack('<HB', min(max(s - prev - 1, 0), 65535), r)
        prev = s
    open(out, 'wb').write(b + stack)

cmd = sys.argv[1]
if cmd == 'cfi':
    cfi(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
elif cmd == 'cfi-signal':
    cfi_signal(sys.argv[2], sys.argv[3])
elif cmd == 'cfi-cies':
    cfi_cies(sys.argv[2], int(sys.argv[3]))
elif cmd == 'walk':
    walk(*sys.argv[2:])
elif cmd == 'walk-escape':
    walk(sys.argv[2], sys.argv[3], mode=0x11)
endef
export FUZZ_SEED_PY
FUZZ_SEED := python3 -c "$$FUZZ_SEED_PY"

# The committed seeds: a few KiB from small real objects, cut to size.
fuzz-corpus: $(O)/kunwind-gen $(FUZZ_DWARF) $(FUZZ_RULES)
	@# Overwrites the seeds it makes; keeps the regress-* reproducers.
	mkdir -p fuzz/corpus/cfi fuzz/corpus/elf fuzz/corpus/table fuzz/corpus/walk
	cp $(FUZZ_REL) fuzz/corpus/elf/crt1.o
	$(FUZZ_SEED) cfi fuzz/corpus/cfi/true.eh_frame $(FUZZ_EXE) .eh_frame 1024
	$(FUZZ_SEED) cfi fuzz/corpus/cfi/crt1.o.eh_frame $(FUZZ_REL) .eh_frame 0
	$(FUZZ_SEED) cfi-signal fuzz/corpus/cfi/libc-restore_rt.eh_frame $(FUZZ_LIBC)
	$(FUZZ_SEED) cfi fuzz/corpus/cfi/dwarf-O2.debug_frame $(O)/fuzz/dwarf-O2.so .debug_frame 768
	$(FUZZ_SEED) cfi fuzz/corpus/cfi/dwarf-O0.debug_frame $(O)/fuzz/dwarf-O0.so .debug_frame 768
	$(O)/kunwind-gen build $(FUZZ_REL) -o fuzz/corpus/table/crt1.o.table
	$(O)/kunwind-gen build $(O)/fuzz/dwarf-O2.so -o fuzz/corpus/table/dwarf-O2.table
	$(O)/kunwind-gen build $(O)/fuzz/dwarf-O0.so -o fuzz/corpus/table/dwarf-O0.table
	$(O)/kunwind-gen build $(FUZZ_RULES) -o fuzz/corpus/table/many-rules.table
	$(O)/kunwind-gen dump $(FUZZ_EXE) >$(O)/fuzz/true.dump
	$(FUZZ_SEED) walk fuzz/corpus/walk/true.walk $(O)/fuzz/true.dump
	$(O)/kunwind-gen dump $(O)/fuzz/dwarf-O2.so >$(O)/fuzz/dwarf-O2.dump
	$(FUZZ_SEED) walk fuzz/corpus/walk/dwarf-O2.walk $(O)/fuzz/dwarf-O2.dump
	$(FUZZ_SEED) walk-escape fuzz/corpus/walk/dwarf-O2.escape.walk $(O)/fuzz/dwarf-O2.dump
	$(O)/kunwind-gen dump $(O)/fuzz/dwarf-O0.so >$(O)/fuzz/dwarf-O0.dump
	$(FUZZ_SEED) walk fuzz/corpus/walk/dwarf-O0.raw.walk $(O)/fuzz/dwarf-O0.dump \
		fuzz/corpus/table/dwarf-O0.table
	@echo "fuzz/corpus: $$(cat fuzz/corpus/*/* | wc -c) bytes"

# The uncommitted seeds, bigger and from this machine: whole sections and
# their tables.  Rebuilt with kunwind-gen, never kept in git.
$(O)/fuzz/corpus/.done: fuzz/fuzz.mk $(O)/kunwind-gen $(FUZZ_DWARF)
	rm -rf $(@D)
	mkdir -p $(@D)/cfi $(@D)/elf $(@D)/table $(@D)/walk
	cp $(FUZZ_REL) $(FUZZ_DWARF) $(@D)/elf/
	$(FUZZ_SEED) cfi $(@D)/cfi/true.eh_frame $(FUZZ_EXE) .eh_frame 0
	$(FUZZ_SEED) cfi $(@D)/cfi/libz.eh_frame $(FUZZ_LIBZ) .eh_frame 0
	$(FUZZ_SEED) cfi $(@D)/cfi/libc.eh_frame $(FUZZ_LIBC) .eh_frame 16384
	$(FUZZ_SEED) cfi-signal $(@D)/cfi/libc-restore_rt.eh_frame $(FUZZ_LIBC)
	$(FUZZ_SEED) cfi-cies $(@D)/cfi/many-cies.eh_frame 1100
	for f in $(FUZZ_DWARF); do \
		$(FUZZ_SEED) cfi $(@D)/cfi/$${f##*/}.debug_frame $$f .debug_frame 0 && \
		$(O)/kunwind-gen build $$f -o $(@D)/table/$${f##*/}.table && \
		$(O)/kunwind-gen dump $$f >$(@D)/$${f##*/}.dump && \
		$(FUZZ_SEED) walk $(@D)/walk/$${f##*/}.walk $(@D)/$${f##*/}.dump || \
		exit 1; \
	done
	for f in $(FUZZ_EXE) $(FUZZ_REL) $(FUZZ_LIBZ); do \
		$(O)/kunwind-gen build $$f -o $(@D)/table/$${f##*/}.table && \
		$(O)/kunwind-gen dump $$f >$(@D)/$${f##*/}.dump && \
		$(FUZZ_SEED) walk $(@D)/walk/$${f##*/}.walk $(@D)/$${f##*/}.dump && \
		$(FUZZ_SEED) walk $(@D)/walk/$${f##*/}.raw.walk \
			$(@D)/$${f##*/}.dump $(@D)/table/$${f##*/}.table || \
		exit 1; \
	done
	touch $@

CHECK_BUILD += fuzz
CHECKS += fuzz/fuzz.test fuzz/hostile.test

.PHONY: fuzz fuzz-corpus
