#!/usr/bin/env python3
"""Whether two PNG files hold the same pixels (8-bit, not interlaced, RGB or RGBA: what redlab writes).

usage: png_pixels.py A.png B.png   (prints "equal, W x H" and exits 0, or how many pixels differ and exits 1; 2 when
                                    a file is not such a PNG)
"""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG file" % path)
    at, idat, header = 8, b"", None
    while at < len(data):
        size, = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + size]
        at += 12 + size
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body[:13])
        elif kind == b"IDAT":
            idat += body
    if not header or header[2] != 8 or header[3] not in (2, 6) or header[6] != 0:
        raise ValueError("%s: not an 8-bit RGB or RGBA PNG without interlacing" % path)
    width, height, bpp = header[0], header[1], 3 if header[3] == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):   # the PNG filters undone (RFC 2083, 6)
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return width, height, bpp, bytes(out)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        (w1, h1, b1, p1), (w2, h2, b2, p2) = pixels(sys.argv[1]), pixels(sys.argv[2])
    except (OSError, ValueError, zlib.error, struct.error) as e:
        print("png_pixels: %s" % e)
        return 2
    if (w1, h1) != (w2, h2):
        print("sizes differ: %d x %d and %d x %d" % (w1, h1, w2, h2))
        return 1
    if b1 != b2:   # RGB against RGBA: compare the colours
        p1 = b"".join(p1[k:k + 3] for k in range(0, len(p1), b1))
        p2 = b"".join(p2[k:k + 3] for k in range(0, len(p2), b2))
        b1 = 3
    differ = sum(1 for k in range(0, len(p1), b1) if p1[k:k + b1] != p2[k:k + b1])
    print("equal, %d x %d" % (w1, h1) if differ == 0 else "%d of %d pixels differ" % (differ, w1 * h1))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
