#!/usr/bin/env python3
"""The machine code of each kernel in a cubin: its `.text.<mangled name>` section, read from the ELF file.

A kernel's SASS is the bytes of its .text section (relocations are kept apart, in .rel sections), so two cubins whose
kernels have equal .text bytes have equal SASS; no disassembler is needed (cuobjdump is not in every toolkit).

usage: sass_text.py [--same-length NAME_PART]... A.cubin B.cubin [SUBSTRING]
  compares the kernels of A and B whose mangled names contain SUBSTRING (default: all): prints how many are equal
  and the names of those that differ or are in one file only. A kernel whose name contains a --same-length part
  need only be as long in both (the caller says why). Exit 0 when all are equal and there is at least one, 1
  otherwise, 2 when a file is not an ELF file.
"""
import struct
import sys


def kernels(path):
    """{mangled name: .text bytes} of an ELF64 little-endian file."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("%s: not a 64-bit little-endian ELF file" % path)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = []
    for i in range(shnum):
        name, _type, _flags, _addr, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        sections.append((name, offset, size))
    strtab_offset = sections[shstrndx][1]
    out = {}
    for name, offset, size in sections:
        end = data.index(b"\0", strtab_offset + name)
        section = data[strtab_offset + name:end].decode()
        if section.startswith(".text."):
            out[section[len(".text."):]] = data[offset:offset + size]
    return out


def main():
    args, same_length = sys.argv[1:], []
    while len(args) >= 2 and args[0] == "--same-length":
        same_length.append(args[1])
        args = args[2:]
    if len(args) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    part = args[2] if len(args) == 3 else ""
    try:
        a, b = kernels(args[0]), kernels(args[1])
    except (OSError, ValueError, struct.error) as e:
        print("sass_text: %s" % e, file=sys.stderr)
        return 2
    a = {k: v for k, v in a.items() if part in k}
    b = {k: v for k, v in b.items() if part in k}
    only = sorted(set(a) ^ set(b))
    differ = sorted(k for k in set(a) & set(b) if a[k] != b[k])
    lengths_only = [k for k in differ if any(p in k for p in same_length) and len(a[k]) == len(b[k])]
    for k in lengths_only:
        print("as long, other code (allowed): %s (%d bytes)" % (k, len(a[k])))
    differ = [k for k in differ if k not in lengths_only]
    for k in only:
        print("in one file only: %s" % k)
    for k in differ:
        print("differs: %s (%d and %d bytes)" % (k, len(a[k]), len(b[k])))
    same = len(set(a) & set(b)) - len(differ) - len(lengths_only)
    print("%d kernels with equal machine code (%d bytes), %d as long (allowed), %d differ, %d in one file only" %
          (same, sum(len(a[k]) for k in set(a) & set(b) if a[k] == b[k]), len(lengths_only), len(differ), len(only)))
    return 0 if same > 0 and not differ and not only else 1


if __name__ == "__main__":
    sys.exit(main())
