"""The referee's verdict and its one error (standard library only)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

__all__ = ["Verdict", "Malformed", "REFEREE", "unvisited"]

#: the name every verdict carries, so a report says who checked it
REFEREE = "cgtalg.referee"


class Malformed(ValueError):
    """The document is not a certificate the referee knows, or is missing what a check needs.

    Raised for a document that is not a certificate at all (the caller says so and exits 2);
    a certificate that is readable but does not prove its claim is a failed :class:`Verdict`."""


@dataclass
class Verdict:
    """The referee's verdict on one claim.

    Attributes
    ----------
    kind : str
        What was checked (``"misère quotient"``, ``"periodicity"``...).
    claim : str
        The claim as the document states it, in words.
    ok : bool
        Whether every quoted field of the claim was re-derived from the certificate.
    reasons : list of str
        The failures found (first), or a summary of what was re-derived.
    checker : str
        The function of :mod:`cgtalg.referee` that ran (module and name).
    """

    kind: str
    claim: str
    ok: bool
    reasons: list[str] = field(default_factory=list)
    checker: str = REFEREE

    def fail(self, why: str) -> "Verdict":
        """Record a failure (the verdict becomes not ok); returns self."""
        self.ok = False
        self.reasons.insert(sum(1 for r in self.reasons if r.startswith("FAIL")), "FAIL: " + why)
        return self

    def to_json(self) -> dict:
        return {"kind": self.kind, "claim": self.claim, "checker": self.checker, "ok": self.ok,
                "reasons": list(self.reasons)}

    def __str__(self) -> str:
        head = f"{'OK' if self.ok else 'REJECTED'}: {self.kind}: {self.claim}\n  checker: {self.checker}"
        return head + "".join(f"\n  - {r}" for r in self.reasons)


def unvisited(stack: list[int], seen: set[int], stop: Callable[[], bool]) -> Iterator[int]:
    """The steps of a proof DAG reached from ``stack`` (which the caller may extend while
    walking), each once, depth first; ``seen`` collects them. The walk ends when ``stop()``
    says so (too many failures already) or nothing is left."""
    while stack and not stop():
        k = stack.pop()
        if k not in seen:
            seen.add(k)
            yield k
