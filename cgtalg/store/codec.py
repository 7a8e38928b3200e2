"""How values are written into the store: canonical JSON text and compressed integer chunks,
plus the argument checks shared by the store's methods.

Property values are stored as *canonical* JSON (sorted keys, no spaces, no NaN), so that
two equal values have equal text and "is the stored value the same?" is a string
comparison. Sequence chunks are zlib-compressed little-endian integers in the narrowest
signed type that holds the chunk (``codec`` names it: ``zlib:i1`` ... ``zlib:i8``).
"""

from __future__ import annotations

import json
import sys
import zlib
from typing import TYPE_CHECKING, Any, Sequence

from cgtalg.core.game import Game
from cgtalg.errors import StoreError

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "encode_value",
    "value_hash",
    "encode_chunk",
    "decode_chunk",
    "decode_chunk_values",
    "as_int64",
    "shorten",
    "check_game",
    "check_text",
    "check_index",
    "CHUNK_SIZE",
    "NAME_LENGTH",
    "RULESET_LENGTH",
    "SEQUENCE_KEY_LENGTH",
    "BIRTHDAY_CAP",
    "stored_birthday",
    "atom_key",
    "partizan_key",
    "key_hash",
    "check_position",
]

_CHUNK_DTYPES = ("i1", "i2", "i4", "i8")

# -- sizes of the key and name columns (the tables are in cgtalg.store.schema) ----------------
#: Values per full chunk of a sequence (full chunk ``i`` holds values from ``i*CHUNK_SIZE``).
CHUNK_SIZE = 1 << 20
#: Longest property or relation name.
NAME_LENGTH = 100
#: Longest ruleset key.
RULESET_LENGTH = 200
#: Longest sequence key.
SEQUENCE_KEY_LENGTH = 200


# -- keys of forms and positions (kept here, free of SQLAlchemy, so that the light store
# (:mod:`cgtalg.store.light`) keys rows exactly as the full store does) ---------------------
#: Stored birthdays saturate here (a 32-bit column on PostgreSQL): ``*10**18`` is stored
#: with this birthday, its true one being its size (the key ``"*n"``).
BIRTHDAY_CAP = 2**31 - 1


def stored_birthday(b: int) -> int:
    """The birthday column's value for a form of birthday ``b`` (saturated at BIRTHDAY_CAP)."""
    return b if b < BIRTHDAY_CAP else BIRTHDAY_CAP


def atom_key(n: int) -> str:
    """The key of the nim-heap ``*n`` in the forms table: ``"*n"`` (``""`` for ``*0``)."""
    from cgtalg.core.notation import int_to_digits  # (loaded when a nimber is written)

    return "" if n == 0 else "*" + int_to_digits(n)


def partizan_key(left_ids: Sequence[int], right_ids: Sequence[int]) -> str:
    """The key of a partizan form in the forms table (the same table and id space as the
    impartial forms): ``"L"``, its Left options' store ids ascending, ``"|"``, its Right
    options' ids ascending (``"L|"`` is the partizan ``0 = { | }``)."""
    return ("L" + ",".join(map(str, sorted(set(left_ids)))) + "|"
            + ",".join(map(str, sorted(set(right_ids)))))


def key_hash(key: str) -> str:
    """The hash column of a form's key (``forms.key_hash``) or of a position's text
    (``positions.position_hash``): the SHA-256 hex digest of the text."""
    import hashlib  # (loaded on first use: a fresh command that writes no key does not pay for it)

    return hashlib.sha256(key.encode()).hexdigest()


def check_position(ruleset: Any, position: Any) -> None:
    """Refuse a ruleset key or a position key that is not text of the allowed length."""
    check_text(ruleset, "ruleset key", RULESET_LENGTH)
    if not isinstance(position, str):
        raise TypeError(f"position key must be a str, got {type(position).__name__}")



def _json_default(obj: Any) -> Any:
    # numpy is imported only by the code that made numpy values (a light command reading or
    # writing plain values never loads it)
    np = sys.modules.get("numpy")
    if np is None:
        raise TypeError(f"{type(obj).__name__} is not JSON data")
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"{type(obj).__name__} is not JSON data")


def encode_value(value: Any, what: str) -> str:
    """Canonical JSON text of ``value``: equal data give equal text.

    Numpy scalars and arrays become Python numbers and lists; tuples become lists.

    Raises
    ------
    StoreError
        For ``None`` (which means "not stored"), NaN/infinity, or anything that is not JSON
        data; ``what`` names the value in the message.

    Examples
    --------
    >>> encode_value({"b": (1, 2), "a": True}, "a property")
    '{"a":true,"b":[1,2]}'
    """
    if value is None:
        raise StoreError(f"cannot store None as {what}: None means 'not stored'")
    try:
        return json.dumps(
            value,
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
            allow_nan=False,
            default=_json_default,
        )
    except (TypeError, ValueError) as exc:
        raise StoreError(f"cannot store {what}: {shorten(repr(value))} is not JSON data ({exc})") from None


def value_hash(text: str) -> str:
    """The 128-bit hex digest (SHA-256 prefix) that indexes a stored value for look-ups."""
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()[:32]


def shorten(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters with ``...`` (for messages)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def as_int64(values: Any, key: str) -> np.ndarray:
    """``values`` as a one-dimensional int64 array, or a :class:`StoreError` naming ``key``."""
    import numpy as np

    array = np.asarray(values)
    if array.ndim != 1:
        raise StoreError(f"values of sequence {key!r} must be one-dimensional, got shape {array.shape}")
    if array.size == 0:
        return np.empty(0, dtype=np.int64)
    if array.dtype.kind not in "iu":
        raise StoreError(
            f"values of sequence {key!r} must be integers that fit in int64, got dtype {array.dtype}"
        )
    if array.dtype == np.uint64 and int(array.max()) > np.iinfo(np.int64).max:
        raise StoreError(f"values of sequence {key!r} must fit in int64, got {int(array.max())}")
    return array.astype(np.int64, copy=False)


def encode_chunk(values: np.ndarray) -> tuple[str, bytes]:
    """``(codec, data)``: ``values`` in the narrowest signed type holding them, zlib-compressed
    at level 1 (speed before the last few per cent of size).

    Examples
    --------
    >>> import numpy as np
    >>> codec, data = encode_chunk(np.array([0, 1, 300]))
    >>> codec, decode_chunk(codec, data, 3).tolist()
    ('zlib:i2', [0, 1, 300])
    """
    import numpy as np

    lo, hi = int(values.min()), int(values.max())
    for dtype in _CHUNK_DTYPES:
        limits = np.iinfo(dtype)
        if limits.min <= lo and hi <= limits.max:
            break
    return f"zlib:{dtype}", zlib.compress(values.astype("<" + dtype).tobytes(), 1)


def decode_chunk(codec: str, data: bytes, count: int) -> np.ndarray:
    """The int64 values of a chunk written by :func:`encode_chunk`.

    Raises
    ------
    ValueError
        For an unknown codec, undecompressible data, or a value count other than ``count``.
    """
    import numpy as np

    kind, _, dtype = codec.partition(":")
    if kind != "zlib" or dtype not in _CHUNK_DTYPES:
        raise ValueError(f"unknown encoding {codec!r}")
    try:
        values = np.frombuffer(zlib.decompress(data), dtype="<" + dtype)
    except zlib.error as exc:
        raise ValueError(f"undecompressible data ({exc})") from None
    if values.size != count:
        raise ValueError(f"it holds {values.size} values, not {count}")
    return values.astype(np.int64)


def check_game(g: Any) -> None:
    """Raise ``TypeError`` unless ``g`` is a form: an impartial :class:`~cgtalg.core.game.Game`
    or a partizan :class:`~cgtalg.core.partizan.PartizanGame` (both kinds share the forms
    table)."""
    if not isinstance(g, Game) and type(g).__name__ != "PartizanGame":
        raise TypeError(f"expected a Game, got {type(g).__name__} (use cgtalg.parse(text) for text)")


def check_text(value: Any, what: str, max_length: int) -> None:
    """Raise unless ``value`` is a str of 1 to ``max_length`` characters (a key or name)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    if not value or len(value) > max_length:
        raise StoreError(
            f"{what} must have 1 to {max_length} characters, got {shorten(repr(value))} "
            f"({len(value)} characters)"
        )


def check_index(value: Any, what: str) -> int:
    """``value`` as a non-negative int, else ``TypeError`` / :class:`StoreError`."""
    np = sys.modules.get("numpy")  # a numpy integer exists only once numpy is loaded
    if isinstance(value, bool) or not (isinstance(value, int) or (np is not None and isinstance(value, np.integer))):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    if value < 0:
        raise StoreError(f"{what} must be >= 0, got {value}")
    return int(value)


#: ``array`` type codes of the chunk types, by size in bytes
_ARRAY_CODES = {1: "b", 2: "h", 4: "i", 8: "q"}


def decode_chunk_values(codec: str, data: bytes, count: int) -> list[int]:
    """:func:`decode_chunk` as a list of ints, without numpy (the standard ``array`` module).

    Raises
    ------
    ValueError
        As :func:`decode_chunk`.

    Examples
    --------
    >>> import numpy as np
    >>> codec, data = encode_chunk(np.array([0, -1, 300]))
    >>> decode_chunk_values(codec, data, 3)
    [0, -1, 300]
    """
    import array

    kind, _, dtype = codec.partition(":")
    if kind != "zlib" or dtype not in _CHUNK_DTYPES:
        raise ValueError(f"unknown encoding {codec!r}")
    try:
        raw = zlib.decompress(data)
    except zlib.error as exc:
        raise ValueError(f"undecompressible data ({exc})") from None
    size = int(dtype[1:])
    code = next(c for c in (_ARRAY_CODES[size], "l") if array.array(c).itemsize == size)
    if len(raw) % size:
        raise ValueError(f"it holds {len(raw) / size:g} values, not {count}")
    values = array.array(code)
    values.frombytes(raw)
    if sys.byteorder != "little":  # pragma: no cover - chunks are little-endian
        values.byteswap()
    if len(values) != count:
        raise ValueError(f"it holds {len(values)} values, not {count}")
    return values.tolist()
