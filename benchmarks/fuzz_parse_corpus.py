"""Run a fixed fuzz corpus against ``cgtalg.parse`` and count the failures issue 7 names.

The corpus (``--n`` inputs, default 20,000, from ``--seed``) is the same in every run: random
unicode text, text over the grammar's alphabet (with unicode digits and identifiers), valid
game texts mutated by inserting/deleting/replacing characters, deep nesting, and heap sizes
from 1 to 6,000 digits. Each input gets ``--bound`` seconds (an alarm); the script prints how
many inputs gave a form, a ``CgtalgError``, a generic Python exception (by type), a hang
(the alarm fired), or a crash of the interpreter (the input is then skipped and a fresh
process continues with the next one).

Compare two trees by pointing PYTHONPATH at each, e.g.::

    PYTHONPATH=/work/main python benchmarks/fuzz_parse_corpus.py
    PYTHONPATH=. python benchmarks/fuzz_parse_corpus.py
"""

from __future__ import annotations

import argparse
import collections
import random
import resource
import signal
import sys
import time

ALPHABET = list("{}[](),+*#| 0123456789-.^_") + ["²", "٣", "৪", "½", "\u2003", "kayles", "foo", "x", "\n"]


def _valid(rng: random.Random, depth: int = 0) -> str:
    r = rng.random()
    if depth > 4 or r < 0.35:
        return rng.choice(["0", "*", f"*{rng.randint(0, 12)}", f"*[{rng.randint(0, 99)}#]", "kayles(3)"])
    if r < 0.6:
        return "{" + ", ".join(_valid(rng, depth + 1) for _ in range(rng.randint(0, 3))) + "}"
    if r < 0.8:
        return _valid(rng, depth + 1) + "+" + _valid(rng, depth + 1)
    if r < 0.9:
        return "(" + _valid(rng, depth + 1) + ")"
    return "*[" + ",".join(str(rng.randint(0, 20)) for _ in range(rng.randint(1, 3))) + "]"


def corpus(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = rng.random()
        if kind < 0.25:  # arbitrary unicode
            out.append("".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(0, 30))))
        elif kind < 0.5:  # the grammar's alphabet
            out.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 30))))
        elif kind < 0.97:  # mutated valid texts
            t = _valid(rng)
            for _ in range(rng.randint(0, 3)):
                j = rng.randint(0, len(t))
                ch = rng.choice(ALPHABET)
                op = rng.randint(0, 2)
                t = t[:j] + ch + t[j:] if op == 0 else (t[:j] + t[j + 1:] if op == 1 else t[:j] + ch + t[j + 1:])
            out.append(t)
        elif kind < 0.995:  # deep nesting
            o, c = rng.choice([("{", "}"), ("(", ")"), ("*[", "]"), ("[", "]")])
            d = rng.choice([10, 1000, 20_000, 100_000])
            out.append(o * d + rng.choice(["", "0", "*2"]) + c * rng.choice([d, d - 1, 0]))
        else:  # big heap sizes (the issue's *10000, *99999999999, 5000 digits)
            digits = rng.choice([4, 5, 11, 19, 4400, 6000])
            out.append("*" + "".join(rng.choice("123456789") for _ in range(digits)))
    return out


class _Hang(Exception):
    pass


def child(args: argparse.Namespace) -> None:
    """Parse inputs ``args.start ..`` of the corpus, one result line per input (flushed)."""
    limit = int(args.memory_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    import cgtalg as cg
    from cgtalg.errors import CgtalgError

    def alarm(signum, frame):
        raise _Hang()

    signal.signal(signal.SIGALRM, alarm)
    texts = corpus(args.n, args.seed)
    for i in range(args.start, args.n):
        signal.setitimer(signal.ITIMER_REAL, args.bound)
        try:
            cg.parse(texts[i])
            kind, name = "form", ""
        except CgtalgError:
            kind, name = "cgtalg error", ""
        except _Hang:
            kind, name = "hang", ""
        except BaseException as exc:  # noqa: BLE001 - counting exactly these
            kind, name = "generic exception", type(exc).__name__
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        print(f"{i}\t{kind}\t{name}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bound", type=float, default=5.0, help="seconds per input")
    ap.add_argument("--memory-gb", type=float, default=6.0, help="address-space limit per process")
    ap.add_argument("--start", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.start is not None:
        child(args)
        return
    # the driver: runs children, restarting after an input that crashes the interpreter
    import subprocess

    texts = corpus(args.n, args.seed)
    counts: collections.Counter = collections.Counter()
    generic: collections.Counter = collections.Counter()
    examples: dict[str, str] = {}
    start = time.perf_counter()
    i = 0
    while i < args.n:
        cmd = [sys.executable, __file__, "--n", str(args.n), "--seed", str(args.seed), "--bound",
               str(args.bound), "--memory-gb", str(args.memory_gb), "--start", str(i)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in proc.stdout:
            k, kind, name = line.rstrip("\n").split("\t")
            i = int(k) + 1
            counts[kind] += 1
            if kind == "generic exception":
                generic[name] += 1
                examples.setdefault(name, texts[int(k)][:60])
            elif kind == "hang":
                examples.setdefault("hang", texts[int(k)][:60])
        rc = proc.wait()
        if i < args.n:  # the child died on input i
            counts["crash"] += 1
            examples.setdefault("crash", f"{texts[i][:60]!r} (exit status {rc})")
            i += 1
    total = time.perf_counter() - start
    print(f"inputs: {args.n} (seed {args.seed}), {total:.1f} s, alarm {args.bound:g} s per input")
    for k in ("form", "cgtalg error", "generic exception", "hang", "crash"):
        print(f"  {k:20s} {counts[k]}")
    for name, c in generic.most_common():
        print(f"    {name}: {c}  e.g. {examples[name]!r}")
    for k in ("hang", "crash"):
        if k in examples:
            print(f"    {k} e.g. {examples[k]!r}")


if __name__ == "__main__":
    main()
