"""Plain JSON values from results: :func:`to_jsonable`.

Results hold numpy scalars and arrays, tuples, sets, forms and ordinals; :func:`to_jsonable`
turns them into what :func:`json.dumps` writes. (The rulesets' ``to_json`` methods use it;
it sits in core, below the rulesets, the store and the command line, so that all may use it;
numpy is imported only when a numpy value is met.)

>>> import numpy as np
>>> to_jsonable({"a": np.int64(3), "b": (1, np.arange(2)), "c": {2, 1}})
{'a': 3, 'b': [1, [0, 1]], 'c': [1, 2]}
"""

from __future__ import annotations

from typing import Any

__all__ = ["to_jsonable"]


def to_jsonable(obj: Any) -> Any:
    """Convert results (numpy scalars/arrays, sets, tuples, games, ordinals) to JSON types:
    dict keys become text, sets are sorted by ``repr``, an object with ``to_json()`` gives
    that, anything else its ``str``."""
    if obj is None or isinstance(obj, (bool, str, float, int)):
        return obj
    if type(obj).__module__ == "numpy":
        import numpy as np

        if isinstance(obj, np.bool_):
            return bool(obj)
        if isinstance(obj, np.integer):
            return int(obj)
        if isinstance(obj, np.floating):
            return float(obj)
        if isinstance(obj, np.ndarray):
            return obj.tolist()
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        items = list(obj)
        if isinstance(obj, (set, frozenset)):
            items = sorted(items, key=repr)
        return [to_jsonable(v) for v in items]
    if hasattr(obj, "to_json"):
        return to_jsonable(obj.to_json())
    return str(obj)
