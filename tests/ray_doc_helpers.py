"""Reading and writing the packed columns and table of a ray certificate's record, for tests that
edit certificates by hand (the referee's tests)."""

from __future__ import annotations

import base64
import zlib

import numpy as np


def cols_of(doc):
    ray = doc["ray"]
    k, n = max(ray["row"]) + 1, ray["order_r"]
    return np.frombuffer(zlib.decompress(base64.b64decode(ray["cols"])), "<i4").reshape(k, n).copy()


def set_cols(doc, cols):
    doc["ray"]["cols"] = base64.b64encode(zlib.compress(cols.astype("<i4").tobytes())).decode("ascii")


def table_of(doc):
    shape = doc["ray"]["F_shape"]
    bits = np.unpackbits(np.frombuffer(zlib.decompress(base64.b64decode(doc["ray"]["F"])), np.uint8))
    return bits[: np.prod(shape)].astype(bool).reshape(shape)


def set_table(doc, F):
    doc["ray"]["F"] = base64.b64encode(zlib.compress(np.packbits(F.reshape(-1)).tobytes())).decode("ascii")
