"""The tables of the 16-bit subfield GF(2^16) that :mod:`cgtalg.nimbers.finite` multiplies with:
log/exp of its cyclic multiplicative group, squares, square roots, halving, Artin–Schreier roots
and the nim-products of bytes.

They are derived from the recursive definition of the nim-product with numpy (no table of answers
is hard-coded), then kept in a cache file beside this module's bytecode (else in the user's cache
directory) that later imports read without numpy. The file carries a CRC-32 and a digest of this
module's source; a damaged or stale file is recomputed. ``tests/test_light_commands.py`` checks
the cached tables against freshly computed ones.
"""

from __future__ import annotations

import array
import hashlib
import os
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

__all__ = ["load_tables", "TABLE_NAMES", "ORDER16"]

if TYPE_CHECKING:  # numpy is imported only to build the tables (once; then they are read back)
    import numpy as np

# ---------------------------------------------------------------------------------------------
# Tables of the 16-bit subfield GF(2^16), derived from the recursive definition with numpy,
# kept in a cache file beside the module's bytecode (see _load_tables).
# ---------------------------------------------------------------------------------------------

_ORDER16 = 0xFFFF  # order of the cyclic group GF(2^16)^*


def _np_mul_small(a: np.ndarray, b: np.ndarray, bits: int) -> np.ndarray:
    """Elementwise nim-product of arrays of elements of GF(2^bits) by the plain recursion."""
    import numpy as np

    if bits == 1:
        return a & b
    hb = bits >> 1
    mask = (1 << hb) - 1
    a1, a0 = a >> hb, a & mask
    b1, b0 = b >> hb, b & mask
    c0 = _np_mul_small(a0, b0, hb)
    c2 = _np_mul_small(a1, b1, hb)
    c1 = _np_mul_small(a1 ^ a0, b1 ^ b0, hb)
    c2h = _np_mul_small(c2, np.full_like(c2, 1 << (hb - 1)), hb)
    return ((c1 ^ c0) << hb) | (c0 ^ c2h)


def _build_tables() -> dict[str, np.ndarray]:
    """Build the GF(2^16) tables: exp/log of a primitive element, squares, square roots,
    multiplication by 2^15, and one Artin–Schreier root per solvable right-hand side."""
    import numpy as np

    idx = np.arange(1 << 16, dtype=np.int64)
    # 8-bit product table from the recursion (65536 entries), then GF(2^16) products by one
    # more level of the split using it.
    i4 = np.arange(256, dtype=np.int64)
    mul4 = _np_mul_small(i4 >> 4, i4 & 0xF, 4)
    a1, a0, b1, b0 = idx >> 12, (idx >> 8) & 0xF, (idx >> 4) & 0xF, idx & 0xF
    c0 = mul4[(a0 << 4) | b0]
    c2 = mul4[(a1 << 4) | b1]
    c1 = mul4[((a1 ^ a0) << 4) | (b1 ^ b0)]
    mul8 = ((c1 ^ c0) << 4) | (c0 ^ mul4[(c2 << 4) | 0x8])  # mul8[(a << 8) | b] = a ⊗ b

    def mul16(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        a1, a0, b1, b0 = a >> 8, a & 0xFF, b >> 8, b & 0xFF
        c0 = mul8[(a0 << 8) | b0]
        c2 = mul8[(a1 << 8) | b1]
        c1 = mul8[((a1 ^ a0) << 8) | (b1 ^ b0)]
        return ((c1 ^ c0) << 8) | (c0 ^ mul8[(c2 << 8) | 0x80])

    # The least primitive element g: g^(65535/p) != 1 for the primes p | 65535 = 3·5·17·257
    # (scalar square-and-multiply with the 8-bit table).
    m8 = mul8.tolist()

    def mul16s(a: int, b: int) -> int:
        a1, a0, b1, b0 = a >> 8, a & 0xFF, b >> 8, b & 0xFF
        c0 = m8[(a0 << 8) | b0]
        c2 = m8[(a1 << 8) | b1]
        c1 = m8[((a1 ^ a0) << 8) | (b1 ^ b0)]
        return ((c1 ^ c0) << 8) | (c0 ^ m8[(c2 << 8) | 0x80])

    def pow16s(a: int, n: int) -> int:
        r = 1
        while n:
            if n & 1:
                r = mul16s(r, a)
            a = mul16s(a, a)
            n >>= 1
        return r

    g = next(
        g
        for g in range(2, 1 << 16)
        if all(pow16s(g, _ORDER16 // p) != 1 for p in (3, 5, 17, 257))
    )
    # The powers of g by doubling.
    powers = np.ones(1, dtype=np.int64)
    while powers.size < _ORDER16:
        step = mul16s(int(powers[-1]), g)
        powers = np.concatenate([powers, mul16(powers, np.full_like(powers, step))])
    powers = powers[:_ORDER16]
    if np.unique(powers).size != _ORDER16:  # pragma: no cover - sanity check
        raise AssertionError(f"{g} is not a primitive element of GF(2^16)")
    exp = powers
    log = np.zeros(1 << 16, dtype=np.int64)
    log[exp] = np.arange(_ORDER16, dtype=np.int64)
    nz = idx[1:]
    sq = np.zeros(1 << 16, dtype=np.int64)
    sq[1:] = exp[(2 * log[nz]) % _ORDER16]
    sqrt = np.zeros(1 << 16, dtype=np.int64)
    sqrt[1:] = exp[(log[nz] * 0x8000) % _ORDER16]  # 2 * 0x8000 ≡ 1 (mod 65535)
    half = np.zeros(1 << 16, dtype=np.int64)
    half[1:] = exp[(log[nz] + log[0x8000]) % _ORDER16]
    # Artin–Schreier: y² ⊕ y = c is 2-to-1 on GF(2^16); keep the even root of each pair.
    artin = np.full(1 << 16, -1, dtype=np.int64)
    even = idx[::2]
    artin[sq[even] ^ even] = even
    return {
        "generator": np.array([g]),
        "exp": exp,
        "log": log,
        "sq": sq,
        "sqrt": sqrt,
        "half": half,
        "artin": artin,
    }


#: the tables kept in the cache file, in its order (``generator`` is one value; ``bytes`` is the
#: nim-product of every pair of bytes, ``(a << 8) | b``, used by :mod:`cgtalg.nimbers.engine`)
_TABLE_NAMES = ("generator", "exp", "log", "sq", "sqrt", "half", "artin", "bytes")
_CACHE_MAGIC = b"cgtalg GF(2^16) tables v2\n"


def _computed_tables() -> dict[str, list[int]]:
    """The tables of :data:`_TABLE_NAMES` computed afresh (numpy, about 0.1 s with its import)."""
    tables = {name: values.tolist() for name, values in _build_tables().items()}
    exp, log = tables["exp"], tables["log"]
    # a ⊗ b for bytes: both lie in GF(2^16), so exp[log a + log b] (0 when either is 0)
    tables["bytes"] = [exp[(log[a] + log[b]) % _ORDER16] if a and b else 0 for a in range(256) for b in range(256)]
    return tables


def _cache_files() -> list[Path]:
    """Where the tables are cached: beside this module's bytecode (as numba caches its kernels),
    else in the user's cache directory (``$XDG_CACHE_HOME/cgtalg``, else ``~/.cache/cgtalg``).
    The name carries a digest of this module's source, so a changed module never reads tables
    an older one wrote."""
    here = Path(__file__)
    try:
        digest = hashlib.sha256(here.read_bytes()).hexdigest()[:16]
    except OSError:
        return []
    name = f"gf16-tables-{digest}.bin"
    base = os.environ.get("XDG_CACHE_HOME")
    user = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return [here.parent / "__pycache__" / name, user / "cgtalg" / name]


def _read_cache(path: Path) -> dict[str, list[int]] | None:
    """The tables of a cache file, or ``None`` if it is missing, truncated or damaged (the
    CRC-32 of its values does not match)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_CACHE_MAGIC)
    if not data.startswith(_CACHE_MAGIC) or zlib.crc32(memoryview(data)[head + 4:]) != int.from_bytes(data[head:head + 4], "little"):
        return None
    values = array.array("i")
    values.frombytes(memoryview(data)[head + 4:])
    if sys.byteorder != "little":  # pragma: no cover - written little-endian
        values.byteswap()
    sizes = (1, _ORDER16, 1 << 16, 1 << 16, 1 << 16, 1 << 16, 1 << 16, 1 << 16)
    if len(values) != sum(sizes):
        return None
    out, at = {}, 0
    for name, size in zip(_TABLE_NAMES, sizes):
        out[name] = values[at:at + size].tolist()
        at += size
    return out


def _write_cache(paths: list[Path], tables: dict[str, list[int]]) -> None:
    """Write the cache file in the first place that takes it (atomically: a temporary file
    renamed); a place that cannot be written is skipped, and none at all is no error."""
    values = array.array("i", [v for name in _TABLE_NAMES for v in tables[name]])
    if sys.byteorder != "little":  # pragma: no cover
        values.byteswap()
    payload = values.tobytes()
    data = _CACHE_MAGIC + zlib.crc32(payload).to_bytes(4, "little") + payload
    for path in paths:
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(data)
            os.replace(tmp, path)
            return
        except OSError:
            try:
                tmp.unlink()
            except OSError:
                pass


def _load_tables() -> dict[str, list[int]]:
    """The tables of :data:`_TABLE_NAMES`: read from the cache file when one is intact, else
    computed (numpy) and cached. ``tests/test_light_commands.py`` checks the cached tables
    against freshly computed ones, and that a damaged file is recomputed."""
    paths = _cache_files()
    for path in paths:
        tables = _read_cache(path)
        if tables is not None:
            return tables
    tables = _computed_tables()
    _write_cache(paths, tables)
    return tables


TABLE_NAMES = _TABLE_NAMES
ORDER16 = _ORDER16
load_tables = _load_tables
