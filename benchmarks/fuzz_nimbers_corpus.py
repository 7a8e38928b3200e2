"""Fixed fuzz corpus for the nimber parsers and ``cgtalg nim`` (issue 7): counts, per target,
inputs that raise a non-cgtalg exception and inputs that take more than 5 s.

Each input runs in a worker process that is killed and restarted on a timeout (a huge ``**``
in C cannot be interrupted by a signal). Run against another tree with PYTHONPATH::

    PYTHONPATH=/path/to/tree python benchmarks/fuzz_nimbers_corpus.py [N] [TIMEOUT]
"""

from __future__ import annotations

import multiprocessing as mp
import random
import sys
import time

TOKENS = ["w", "ω", "x", "0", "1", "2", "9", "12", "99999999999", "+", "*", "·", "^", "**",
          "(", ")", " ", "²", "１", "☃", "-", "/", "e", "\x00", "1" * 400]


def corpus(n: int, seed: int = 7) -> list[tuple[str, tuple[str, ...]]]:
    """``n`` (target, args) pairs; target is "ordinal", "poly" or "cli"."""
    rng = random.Random(seed)
    out: list[tuple[str, tuple[str, ...]]] = []
    structured = [
        lambda: "(" * rng.choice([10, 100, 1000, 100_000]) + "1" + ")" * rng.choice([0, 10, 100_000]),
        lambda: "^".join([str(rng.randint(2, 9))] * rng.randint(2, 5000)),
        lambda: f"{rng.randint(2, 99)}^{rng.randint(2, 99)}^{rng.randint(2, 99)}",
        lambda: f"(w+{rng.randint(1, 9)})^{10 ** rng.randint(1, 12)}",
        lambda: f"{rng.randint(2, 9)}^(w+{10 ** rng.randint(1, 12)})",
        lambda: "w^" * rng.randint(1, 200) + "w",
        lambda: "+".join(["w"] * rng.randint(1, 30000)),
        lambda: "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 6000))),
        lambda: f"x^{10 ** rng.randint(1, 14)}+1",
        lambda: f"x^{rng.randint(2, 400)}+x+w",
    ]
    for i in range(n):
        if rng.random() < 0.25:
            text = rng.choice(structured)()
        else:
            text = "".join(rng.choice(TOKENS) for _ in range(rng.randint(0, 12)))
        kind = i % 3
        if kind == 0:
            out.append(("ordinal", (text,)))
        elif kind == 1:
            out.append(("poly", (text,)))
        else:
            cmd = rng.choice(["add", "mul", "div", "inv", "pow", "sqrt", "root", "solve", "play"])
            if cmd in ("add", "mul", "div"):
                args = ("nim", cmd, text, rng.choice(["w", "3", text]))
            elif cmd in ("pow", "root"):
                args = ("nim", cmd, text, rng.choice(["3", "-1", "99999999999", "0"]))
            else:
                args = ("nim", cmd, text)
            out.append(("cli", args))
    return out


def _worker(conn) -> None:
    import contextlib
    import io

    from cgtalg.errors import CgtalgError

    while True:
        target, args = conn.recv()
        try:
            if target == "ordinal":
                from cgtalg.nimbers.ordinal import ordinal

                ordinal(*args)
            elif target == "poly":
                from cgtalg.nimbers.polynomials import parse_nim_polynomial

                parse_nim_polynomial(*args)
            else:
                from cgtalg.cli.main import main

                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    main(list(args))
            conn.send(None)
        except CgtalgError:
            conn.send(None)
        except BaseException as exc:  # noqa: BLE001 - this is what we count
            conn.send(type(exc).__name__)


def run(n: int, timeout: float) -> None:
    ctx = mp.get_context("fork")
    generic: dict[str, int] = {}
    hangs: dict[str, int] = {}
    kinds: dict[str, int] = {}

    def start():
        a, b = ctx.Pipe()
        p = ctx.Process(target=_worker, args=(b,), daemon=True)
        p.start()
        return p, a

    proc, conn = start()
    t0 = time.time()
    for i, (target, args) in enumerate(corpus(n)):
        if i and i % 500 == 0:
            print(f"  after {i}: generic {sum(generic.values())} {kinds}, hangs {sum(hangs.values())} {hangs}",
                  flush=True)
        conn.send((target, args))
        if conn.poll(timeout):
            res = conn.recv()
            if res is not None:
                generic[target] = generic.get(target, 0) + 1
                kinds[res] = kinds.get(res, 0) + 1
        else:
            hangs[target] = hangs.get(target, 0) + 1
            print(f"  hang: {target} {[a[:50] for a in args]}", file=sys.stderr, flush=True)
            proc.kill()
            proc.join()
            proc, conn = start()
    proc.kill()
    print(f"inputs: {n}, timeout {timeout} s, wall {time.time() - t0:.0f} s")
    print(f"generic exceptions: {sum(generic.values())} {generic} {kinds}")
    print(f"hangs > {timeout} s: {sum(hangs.values())} {hangs}")


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000, float(sys.argv[2]) if len(sys.argv) > 2 else 5.0)
