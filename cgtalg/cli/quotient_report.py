"""The text report of ``cgtalg quotient`` (no click: :mod:`cgtalg.cli.fast` prints it too)."""

from __future__ import annotations

import math
import re

from typing import Any

__all__ = ["quotient_text", "phi_text", "DEFAULT_SECONDS", "PROGRESS_SECONDS", "progress_line"]

#: the time budget of a run without ``--time`` (seconds)
DEFAULT_SECONDS = 120.0
#: a progress line at least this often (seconds) while heaps are added, also when the order stays
PROGRESS_SECONDS = 5.0


def phi_text(q: Any) -> str:
    """Φ in the literature's style: the words of heaps ``0, 1, 2, ...``, the periodic part in
    brackets when certified (``1 a 1 b b [a c 1 d e]``: heaps 5.. repeat with period 5)."""
    words = q.presentation().words
    if getattr(q, "tail", None):   # final by the normal tail: Φ verified to checked_to, then β(G(n))
        return " ".join(words[x] for x in q.shown_phi) + " …"
    phi = [words[x] for x in q.phi]
    if q.final and q.period:
        n0, p = q.period
        return " ".join(phi[:n0] + ["[" + " ".join(phi[n0:n0 + p]) + "]"])
    return " ".join(phi)


def _largest_fitting_order() -> int | None:
    """The largest candidate order whose table (:func:`cgtalg.quotients.pretension.table_bytes`,
    one copy) fits in 90% of this machine's memory; None where the memory cannot be read."""
    from cgtalg.budget import physical_memory
    from cgtalg.quotients.pretension import table_bytes

    phys = physical_memory()
    if not phys:
        return None
    return int(math.isqrt(int(0.9 * phys) // table_bytes(1, 1)))


def _hint(q: Any, seconds: Any, stored: bool, default_seconds: float | None = None,
          max_order: int | None = None, max_states: int | None = None) -> str | None:
    """What the user can do after a run that did not end with a final quotient, said only
    where it can help: nothing to raise after a proof of infinitude; a larger budget after a
    time budget (a rerun resumes: from the stored state, and from the last counting level
    stored); a larger ``--max-order`` after the order bound, a larger ``--max-states`` after a
    verification's state budget; otherwise that the methods here did not settle the heap."""
    note = q.note
    if getattr(q, "infinite_from", None) is not None:
        linear = "linear" in (getattr(q, "certificate", None) or {})
        return (f"no budget gives a finite quotient past this heap: Q_n is infinite for every n >= "
                f"{q.infinite_from} (proved; the certificate is in the --json output, and "
                "`cgtalg check` checks it" + ("" if linear else "; tools/quotient_rays.py prints its structure")
                + ")")
    if note is None:
        return None
    if getattr(q, "tie", None):
        return (f"the quotient is tied to normal play (above): a larger budget settles it only if the Grundy "
                f"sequence is certified periodic (`cgtalg period {q.game} --time 1h`), which no misère "
                "method decides")
    bound = getattr(q, "next_bound", None)
    exact = isinstance(bound, dict) and bool(bound.get("exact"))   # Q_(N+1) built past the order bound
    counted = bound is not None and not exact                # a counting level was proved (and stored)
    resume = (("; a rerun resumes from the store" + (" (after the last counting level)" if counted else ""))
              if stored else "; without --no-store a rerun would resume from the store")
    if "time budget" in note:
        if seconds is None:
            default = DEFAULT_SECONDS if default_seconds is None else default_seconds
            return f"the default budget of {default:.0f} s ended: extend it with --time 10m (or longer)" + resume
        return "the time budget ended: extend it with a larger --time, e.g. --time 10m" + resume
    if "memory" in note:
        if "machine's memory" in note:           # cgtalg.budget.memory_hint: no ceiling here helps
            return ("the next step needs more memory than this machine has (see the note): no option "
                    "changes that here")
        got = re.search(r"--memory (\d+G)", note)
        return (f"the memory ceiling was reached: raise it with --memory (e.g. --memory "
                f"{got.group(1) if got else '16G'})" + resume)
    if "max_states" in note:
        # a verification visited more option-set states than allowed (cgtalg.quotients.pretension)
        now = max_states if max_states is not None else 2_000_000
        return (f"a verification reached its state budget: raise it with --max-states (e.g. --max-states "
                f"{4 * now}; {now} now)" + resume)
    if "max_order" in note or "within order" in note:
        # the counting strategy's candidates may reach COUNTING_ORDER times --max-order: suggest
        # four times the bound given (or the default), whatever the note's order is
        now = max_order if max_order is not None else 5000
        fit = _largest_fitting_order()
        if exact:
            # the next quotient itself was built and verified past the bound: a bound above it
            # goes on from there (within what the machine's memory holds)
            built = int(bound["at_least"])
            more = max(4 * now, 2 * built)
            more = more if fit is None or fit <= built else min(more, fit)
            return (f"the order bound was reached with Q_{bound['heap']} built (order {bound['at_least']}): "
                    f"raise it with --max-order (e.g. --max-order {more})" + resume)
        if fit is not None and 4 * now >= fit - fit // 10:
            # counting's candidates already reach what this machine's memory holds (within a
            # tenth: a bound a few units larger is no suggestion)
            return (f"the order bound was reached: counting tried candidates up to order {4 * now}, and past "
                    f"about {fit} a candidate's table would not fit in this machine's memory: no option "
                    "changes that here")
        more = 4 * now if fit is None or 16 * now <= fit else max(now + 1, fit // 4)
        return (f"the order bound was reached: raise it with --max-order (e.g. --max-order {more}; counting "
                f"tries candidates up to four times the bound, {4 * now} now)" + resume)
    return ("the methods here did not settle this heap (see the note); a larger budget would not change "
            "that")


def quotient_text(q: Any, run_seconds: float | None = None) -> str:
    """The human-readable report of a quotient (``cgtalg quotient``); ``run_seconds``: this
    run's time (the quotient's own ``seconds`` add up every run that built it)."""
    pr = q.presentation()
    tail = getattr(q, "tail", None)
    if q.final and tail:
        n0, p = tail["grundy"]
        head = (f"{q.game}: misère quotient of the whole game (final by the normal tail: Φ verified to heap "
                f"{q.checked_to}; every heap above {tail['outside']} is played as in normal play, and the "
                f"Grundy sequence is periodic from heap {n0} with period {p})")
    elif q.final:
        n0, p = q.period
        head = (f"{q.game}: misère quotient of the whole game (final: Φ is periodic from heap {n0} "
                f"with period {p}, checked to heap {q.checked_to})")
    else:
        head = f"{q.game}: misère quotient Q_{q.max_heap} (heaps <= {q.max_heap})"
    tame = q.tame_index() if q.order <= 1026 else None
    lines = [head,
             f"|Q| = {q.order}, |P| = {len(q.p_portion)}" + (f", tame (T_{tame})" if tame is not None else ""),
             f"Q = {pr.text}",
             "P = {" + ", ".join(pr.words[x] for x in q.p_portion) + "}",
             f"Φ = {phi_text(q)}"]
    if q.final and tail:
        lines.append(f"    (Φ(n) for heaps 0..{q.checked_to}; a heap n > {q.checked_to} maps to the element of the "
                     "ideal whose nim-value is its Grundy value G(n))")
    elif q.final:
        n0, p = q.period
        lines.append(f"    (Φ(n) for heaps 0..{n0 - 1}, then the bracketed words repeat: "
                     f"Φ(n + {p}) = Φ(n) for n >= {n0})")
    if getattr(q, "tie", None):
        from cgtalg.quotients.result import tie_text

        lines.append(tie_text(q.tie) + " (proved; `cgtalg check` re-derives it from the --json output)")
    if q.note:
        lines.append(f"partial result: {q.note}")
    bound = getattr(q, "next_bound", None)
    if isinstance(bound, dict) and bound.get("exact"):
        from cgtalg.quotients.result import next_bound_text

        lines.append(next_bound_text(bound))
    if getattr(q, "infinite_from", None) is not None:
        lines.append(f"infinite: Q_n is infinite for every n >= {q.infinite_from} (proved)")
    if run_seconds is None:
        lines.append(f"({q.seconds:.2f} s of CPU)")
    else:
        lines.append(f"({run_seconds:.2f} s of CPU this run; {q.seconds:.2f} s of CPU in all the runs that "
                     "built it)")
    return "\n".join(lines)


def progress_line(label: str, info: dict, cpu: float) -> str:
    """A progress line of ``cgtalg quotient`` (stderr): heap, order, ``|P|`` and CPU so far."""
    return f"{label}: |Q| = {info['order']:>5}, |P| = {info['p_count']:>4}   ({cpu:.1f} s of CPU)"
