# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Guy's parity subtraction game
#
# Richard Guy, "A Parity Subtraction Game" (seed 003), after a St. Petersburg Olympiad
# problem: *a heap of 25 beans; players alternately take 1, 2 or 3 and keep them; when the
# heap is empty, the player holding an even number of beans wins.* The game is not impartial
# (the mover's holding grows) and its end rule mixes normal and misère play, so neither
# Sprague–Grundy nor Conway's theory applies directly. Guy solves it by drawing the condensed
# game tree; here the generic solver does the same search.
#
# Guy's answer: with `8k + 3`, `8k + 5` or `8k + 7` beans the first player wins; with
# `8k + 1` beans the second player wins — so with 25 beans, the **second** player wins.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
from matplotlib.colors import ListedColormap
from IPython.display import display

import cgtalg as cg

parity = cg.ParityGame()

# %% [markdown]
# ## 25 beans

# %%
solution = cg.solve(parity, parity.start(25))
assert solution.outcome == "P"
solution

# %% [markdown]
# **What you should see:** P, the second player wins, and for each of the three first moves
# the reply Guy gives: `24(e,d) → 21(d,d)`, `23(e,e) → 20(e,d)`, `22(e,d) → 21(d,d)`, in his
# notation `b(f, s)` (beans left; holdings of the next and the previous player, `e` even,
# `d` odd).
#
# ## Every odd heap
#
# The first player wins from `8k + 3`, `8k + 5`, `8k + 7` beans and loses from `8k + 1`:

# %%
starts = {n: cg.solve(parity, parity.start(n)).outcome for n in range(1, 42, 2)}
print(" ".join(f"{n}:{o}" for n, o in starts.items()))
assert all(o == ("P" if n % 8 == 1 else "N") for n, o in starts.items())

# %% [markdown]
# ## Guy's class table
#
# Guy's solution lists the class of every position `b(f, s)` (columns `(e,e)`, `(d,d)`,
# `(d,e)`, `(e,d)`; a dot where `b + f + s` is even, which never occurs). His claims: the
# P-positions are `8k+1(e,e)`, `8k+5(d,d)`, `8k+4(e,d)` and `8k(d,e)`; everything else is N.

# %%
table = parity.class_table(40)
print(parity.format_class_table(table[:17]))
expected_p = {(1, 0), (5, 1), (4, 3), (0, 2)}   # (b mod 8, column) of Guy's P-positions
for b, row in enumerate(table):
    for col, cls in enumerate(row):
        if cls is not None:
            assert (cls == "P") == ((b % 8, col) in expected_p), (b, col, cls)

# %% [markdown]
# The table is periodic with period 8 from the start ("copy the strategy from 8 beans back"):

# %%
period = cg.find_period(table)
assert (period.period, period.preperiod) == (8, 0)
period

# %%
codes = [[{"P": 2, "N": 1, None: 0}[c] for c in row] for row in table]
fig, ax = plt.subplots(figsize=(9, 2.6))
ax.imshow([list(col) for col in zip(*codes)], aspect="auto", interpolation="nearest",
          cmap=ListedColormap(["white", "tab:green", "tab:red"]))
ax.set_yticks(range(4), ["(e,e)", "(d,d)", "(d,e)", "(e,d)"])
ax.set_xlabel("beans left b")
ax.set_title("Guy's classes b(f,s): red P, green N, white: not a position")
plt.show()

# %% [markdown]
# **What you should see:** the same column pattern every 8 rows: red (P) at `b ≡ 1` in
# `(e,e)`, `b ≡ 5` in `(d,d)`, `b ≡ 4` in `(e,d)` and `b ≡ 0` in `(d,e)`.
