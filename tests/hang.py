"""One bound for the tests that check a computation *ends* (a budget, a refusal, Ctrl-C):
only a hang exceeds it, never a slow machine. How fast those answers come (Ctrl-C within a
second, a refusal at once) is measured and recorded in docs/performance.md, never asserted:
the suite runs on two loaded cores."""

HANG_SECONDS = 45.0
