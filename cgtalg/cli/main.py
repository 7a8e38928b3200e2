"""The ``cgtalg`` console command (the entry point ``cgtalg.cli.main:main``).

:func:`main` first offers the command to the click-free fast paths of :mod:`cgtalg.cli.fast` (a
fresh ``cgtalg quotient 0.123`` is answered without importing click or numpy, issue 35), and
otherwise runs the click application of :mod:`cgtalg.cli.app`. The names of that application
(``cli``, ``LAZY_COMMANDS``, ...) are served from here too, imported on first use.
"""

from __future__ import annotations

import os
import sys
from typing import Any

__all__ = ["main"]  # and, through __getattr__, the application's names (cli, ...)

#: what Ctrl-C prints on stderr, and the exit status it gives (128 + SIGINT, as shells report a
#: program that Ctrl-C stopped), in the application and in the fast paths alike
INTERRUPTED = "cgtalg: interrupted"
EXIT_INTERRUPTED = 130


def main(argv: list[str] | None = None) -> int:
    """Entry point: the fast path when it serves the command, else the click application
    (:func:`cgtalg.cli.app.main`, which documents the error boundary and the exit statuses)."""
    if argv is None:
        from cgtalg.cli.fast import run_fast

        code = run_fast(sys.argv[1:])
        if code is not None:
            # answered: a real process ends here, as the application's Ctrl-C does (tearing
            # down the interpreter module by module would cost a quarter of this path's CPU)
            _exit_now(code)
    from cgtalg.cli.app import main as app_main

    return app_main(argv)


def _exit_now(code: int) -> None:
    """Flush the output and end the process at once (``os._exit``): the store's transactions
    are closed (after an interrupt, or once the fast path has answered), and freeing a large
    search's memory object by object would keep the user waiting for seconds."""
    mp_util = sys.modules.get("multiprocessing.util")
    if mp_util is not None:  # a census's cluster: release its semaphores (else warnings at exit)
        try:
            mp_util._exit_function()
        except Exception:  # noqa: BLE001 - leaving anyway
            pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # pragma: no cover - a closed pipe
            pass
    os._exit(code)


def __getattr__(name: str) -> Any:
    """``cli``, ``LAZY_COMMANDS``, ``_register`` ...: the click application's names."""
    if name.startswith("__"):
        raise AttributeError(name)
    from cgtalg.cli import app

    try:
        return getattr(app, name)
    except AttributeError:
        raise AttributeError(f"module 'cgtalg.cli.main' has no attribute {name!r}") from None


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
