"""A small QR Code encoder (byte mode, versions 1-40, levels L/M/Q/H) and its SVG (pure).

Enough to show an invite link as a QR code for a phone camera, with no
library and nothing downloaded. Follows ISO/IEC 18004: data codewords in byte
mode, Reed-Solomon error correction over GF(256) (polynomial 0x11D) in
interleaved blocks, function patterns, the mask with the lowest penalty.

>>> m = matrix("HELLO")
>>> len(m), len(m[0])
(21, 21)
>>> svg("https://example.org/").startswith("<svg")
True
"""

LEVELS = {"L": (0, 1), "M": (1, 0), "Q": (2, 3), "H": (3, 2)}  # name -> (table row, format bits)
LEVEL_NAMES = ("L", "M", "Q", "H")

ECC_PER_BLOCK = (
    (-1, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    (-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28),
    (-1, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    (-1, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
)
NUM_BLOCKS = (
    (-1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25),
    (-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49),
    (-1, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68),
    (-1, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81),
)

# GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


def _mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _rs_generator(degree: int) -> list:
    """Coefficients (highest first, leading 1 dropped) of prod (x - a^i), i < degree."""
    g = [1]
    for i in range(degree):
        nxt = [0] * (len(g) + 1)
        for j, c in enumerate(g):
            nxt[j] ^= c
            nxt[j + 1] ^= _mul(c, _EXP[i])
        g = nxt
    return g[1:]


def _rs_remainder(data: list, gen: list) -> list:
    rem = [0] * len(gen)
    for b in data:
        factor = b ^ rem[0]
        rem = rem[1:] + [0]
        for i, c in enumerate(gen):
            rem[i] ^= _mul(c, factor)
    return rem


def raw_modules(ver: int) -> int:
    """Data + ECC modules available in a version (after function patterns)."""
    n = (16 * ver + 128) * ver + 64
    if ver >= 2:
        k = ver // 7 + 2
        n -= (25 * k - 10) * k - 55
        if ver >= 7:
            n -= 36
    return n


def data_codewords(ver: int, level: str) -> int:
    row = LEVELS[level][0]
    return raw_modules(ver) // 8 - ECC_PER_BLOCK[row][ver] * NUM_BLOCKS[row][ver]


def _alignment_positions(ver: int) -> list:
    if ver == 1:
        return []
    k = ver // 7 + 2
    step = (ver * 8 + k * 3 + 5) // (k * 4 - 4) * 2
    size = ver * 4 + 17
    return [6] + [size - 7 - i * step for i in range(k - 1)][::-1]


def choose_version(n_bytes: int, level: str) -> int:
    for ver in range(1, 41):
        cc = 8 if ver <= 9 else 16
        if 4 + cc + 8 * n_bytes <= data_codewords(ver, level) * 8:
            return ver
    raise ValueError("too much data for a QR code")


def _codewords(data: bytes, ver: int, level: str) -> list:
    cc = 8 if ver <= 9 else 16
    bits = [0, 1, 0, 0] + [(len(data) >> i) & 1 for i in reversed(range(cc))]
    for byte in data:
        bits += [(byte >> i) & 1 for i in reversed(range(8))]
    cap = data_codewords(ver, level) * 8
    bits += [0] * min(4, cap - len(bits))
    bits += [0] * (-len(bits) % 8)
    words = [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8)]
    pad = 0xEC
    while len(words) < cap // 8:
        words.append(pad)
        pad ^= 0xEC ^ 0x11
    # split into blocks, add ECC, interleave
    row = LEVELS[level][0]
    nblocks = NUM_BLOCKS[row][ver]
    ecc_len = ECC_PER_BLOCK[row][ver]
    raw = raw_modules(ver) // 8
    short = nblocks - raw % nblocks
    short_len = raw // nblocks
    gen = _rs_generator(ecc_len)
    blocks, k = [], 0
    for i in range(nblocks):
        dlen = short_len - ecc_len + (0 if i < short else 1)
        dat = words[k:k + dlen]
        k += dlen
        blocks.append((dat, _rs_remainder(dat, gen)))
    out = []
    for i in range(max(len(d) for d, _ in blocks)):
        out += [d[i] for d, _ in blocks if i < len(d)]
    for i in range(ecc_len):
        out += [e[i] for _, e in blocks]
    return out


def _bit_length(n: int) -> int:
    """``n.bit_length()`` for n >= 0 (MicroPython's int has no such method)."""
    length = 0
    while n >> length:
        length += 1
    return length


def _bch(value: int, poly: int, bits: int) -> int:
    v = value << bits
    top = _bit_length(poly) - 1
    for i in reversed(range(top, _bit_length(v))):
        if (v >> i) & 1:
            v ^= poly << (i - top)
    return (value << bits) | v


MASKS = (
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: r * c % 2 + r * c % 3 == 0,
    lambda r, c: (r * c % 2 + r * c % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + r * c % 3) % 2 == 0,
)


class _Grid:
    def __init__(self, ver: int):
        self.ver = ver
        self.size = ver * 4 + 17
        self.m = [[False] * self.size for _ in range(self.size)]
        self.fn = [[False] * self.size for _ in range(self.size)]

    def set(self, r: int, c: int, dark: bool) -> None:
        self.m[r][c] = dark
        self.fn[r][c] = True

    def function_patterns(self) -> None:
        n = self.size
        for i in range(n):
            self.set(6, i, i % 2 == 0)
            self.set(i, 6, i % 2 == 0)
        for r, c in ((3, 3), (3, n - 4), (n - 4, 3)):
            for dr in range(-4, 5):
                for dc in range(-4, 5):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < n and 0 <= cc < n:
                        d = max(abs(dr), abs(dc))
                        self.set(rr, cc, d not in (2, 4))
        pos = _alignment_positions(self.ver)
        for i, r in enumerate(pos):
            for j, c in enumerate(pos):
                if (i == 0 and j == 0) or (i == 0 and j == len(pos) - 1) or (i == len(pos) - 1 and j == 0):
                    continue
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        self.set(r + dr, c + dc, max(abs(dr), abs(dc)) != 1)
        self.format_bits(0, "L")  # reserve
        if self.ver >= 7:
            bits = _bch(self.ver, 0x1F25, 12)
            for i in range(18):
                dark = (bits >> i) & 1 == 1
                a, b = n - 11 + i % 3, i // 3
                self.set(a, b, dark)
                self.set(b, a, dark)

    def format_bits(self, mask: int, level: str) -> None:
        n = self.size
        data = LEVELS[level][1] << 3 | mask
        bits = _bch(data, 0x537, 10) ^ 0x5412
        bit = lambda i: (bits >> i) & 1 == 1  # noqa: E731
        for i in range(0, 6):
            self.set(i, 8, bit(i))
        self.set(7, 8, bit(6))
        self.set(8, 8, bit(7))
        self.set(8, 7, bit(8))
        for i in range(9, 15):
            self.set(8, 14 - i, bit(i))
        for i in range(0, 8):
            self.set(8, n - 1 - i, bit(i))
        for i in range(8, 15):
            self.set(n - 15 + i, 8, bit(i))
        self.set(n - 8, 8, True)  # the dark module

    def place(self, words: list) -> None:
        n = self.size
        i = 0
        total = len(words) * 8
        right = n - 1
        while right >= 1:
            if right == 6:
                right = 5
            for vert in range(n):
                for j in range(2):
                    c = right - j
                    upward = ((right + 1) & 2) == 0
                    r = n - 1 - vert if upward else vert
                    if not self.fn[r][c] and i < total:
                        self.m[r][c] = (words[i >> 3] >> (7 - (i & 7))) & 1 == 1
                        i += 1
            right -= 2

    def apply_mask(self, mask: int) -> None:
        f = MASKS[mask]
        for r in range(self.size):
            for c in range(self.size):
                if not self.fn[r][c] and f(r, c):
                    self.m[r][c] = not self.m[r][c]

    def penalty(self) -> int:
        m, n = self.m, self.size
        score = 0
        for lines in (m, [list(col) for col in zip(*m)]):
            for line in lines:
                run, prev = 0, None
                for v in line:
                    if v == prev:
                        run += 1
                    else:
                        if run >= 5:
                            score += run - 2
                        run, prev = 1, v
                if run >= 5:
                    score += run - 2
                s = "".join("1" if v else "0" for v in line)
                for pat in ("10111010000", "00001011101"):
                    start = s.find(pat)
                    while start != -1:
                        score += 40
                        start = s.find(pat, start + 1)
        for r in range(n - 1):
            for c in range(n - 1):
                v = m[r][c]
                if v == m[r][c + 1] == m[r + 1][c] == m[r + 1][c + 1]:
                    score += 3
        dark = sum(v for row in m for v in row)
        total = n * n
        k = (abs(dark * 20 - total * 10) + total - 1) // total - 1
        score += k * 10
        return score


def matrix(text, level: str = "M", version: int | None = None, mask: int | None = None) -> list:
    """The QR code of ``text`` (str as UTF-8, or bytes) as rows of booleans (True = dark)."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVEL_NAMES)}")
    ver = version or choose_version(len(data), level)
    if version and choose_version(len(data), level) > version:
        raise ValueError("the data does not fit in that version")
    words = _codewords(data, ver, level)
    best = None
    for mk in range(8) if mask is None else (mask,):
        g = _Grid(ver)
        g.function_patterns()
        g.place(words)
        g.apply_mask(mk)
        g.format_bits(mk, level)
        p = g.penalty() if mask is None else 0
        if best is None or p < best[0]:
            best = (p, g)
    return best[1].m


def svg(text, level: str = "M", *, quiet: int = 4, label: str = "QR code") -> str:
    """An SVG drawing of the QR code (one path, dark on white, with a quiet zone)."""
    m = matrix(text, level)
    n = len(m) + 2 * quiet
    parts = []
    for r, row in enumerate(m):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                parts.append(f"M{start + quiet} {r + quiet}h{c - start}v1h-{c - start}z")
            else:
                c += 1
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n} {n}" role="img" aria-label="{label}" '
        f'shape-rendering="crispEdges"><rect width="{n}" height="{n}" fill="#fff"/>'
        f'<path fill="#000" d="{"".join(parts)}"/></svg>'
    )
