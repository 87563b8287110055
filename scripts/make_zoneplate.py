"""Writes data/zoneplate.png, the demo's test pattern (kept here to show how it
was made; needs only the Python standard library).

A circular zone plate: value = cos(k * r^2) with the local frequency rising
linearly with the radius, reaching the Nyquist limit at the image edge, so any
downscaling without a low-pass filter aliases the outer rings. Colour channels
use slightly different k so channel handling errors are visible."""
import math, struct, zlib

SIZE = 512

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

rows = []
for y in range(SIZE):
    row = bytearray([0])  # filter type: none
    for x in range(SIZE):
        dx, dy = x - SIZE / 2 + 0.5, y - SIZE / 2 + 0.5
        r2 = dx * dx + dy * dy
        for k in (1.0, 0.93, 0.86):
            v = 0.5 + 0.5 * math.cos(k * math.pi * r2 / SIZE)
            row.append(int(round(255 * v)))
    rows.append(bytes(row))

png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
open("data/zoneplate.png", "wb").write(png)
