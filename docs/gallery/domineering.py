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
# # Domineering and its thermographs
#
# Domineering: Left places vertical dominoes, Right horizontal ones; in normal play the player
# who cannot place one loses. A position's value is a partizan game in canonical form (ONAG
# ch. 10; Siegel, *CGT* II.2). How *hot* a position is — how much a player gains by moving
# first — is read from its thermograph (Winning Ways ch. 6; *CGT* II.5): the walls show the
# Left and Right stops of the position cooled by `t`, and they meet at the mast, whose value is
# the mean and whose height is the temperature.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
from IPython.display import display

import cgtalg as cg

# %% [markdown]
# ## Values of small boards
#
# CGSuite's values: the 2×2 board is `±1` (whoever moves first gets one move ahead), the
# 4×4 board is `±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}`. Rows are `.` (empty) and `#` (filled),
# separated by `|`.

# %%
boards = ["2x2", "2x3", "3x2", "3x3", "4x4", "#...|....|....", "#..|...|..."]
for b in boards:
    p = cg.position("domineering", b)
    print(f"{b:15} {cg.outcome(p)}  {cg.canonical_form(p)}")
assert str(cg.canonical_form(cg.position("domineering", "4x4"))) == "±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}"
assert str(cg.canonical_form(cg.position("domineering", "2x2"))) == "±1"

# %% [markdown]
# The canonical form of a board displays itself (form, birthday and options):

# %%
G = cg.canonical_form(cg.position("domineering", "#...|....|...."))
G

# %% [markdown]
# ## Stops, mean, temperature
#
# For the 3×4 board with its corner filled, `{3/2|-1/2||-1|-3}`: with both players playing
# well, play stops at `-1/2` when Left starts and at `-1` when Right starts (the stops); the
# mean is `-3/4` and the temperature `5/4`.

# %%
print("left stop", cg.left_stop(G), " right stop", cg.right_stop(G))
print("mean", cg.mean(G), " temperature", cg.temperature(G))
print("cooled by its temperature:", cg.cool(G, cg.temperature(G)))
assert [str(x) for x in (cg.left_stop(G), cg.right_stop(G), cg.mean(G), cg.temperature(G))] == ["-1/2", "-1", "-3/4", "5/4"]

# %% [markdown]
# ## Thermographs
#
# `cg.thermograph(G)` gives the exact walls (fractions); `str` prints them as CGSuite does and
# `plot()` draws them with Left's side (larger values) on the left, as in Winning Ways.

# %%
th = cg.thermograph(G)
print(th)
th.plot(top=2)
plt.title("Domineering #...|....|....  =  {3/2|-1/2||-1|-3}")
plt.show()

# %% [markdown]
# **What you should see:** the two walls start at the stops at `t = 0` (Left's wall at the
# left stop, Right's at the right stop), lean towards each other as `t` grows, and merge at
# temperature `5/4` into a vertical mast at the mean `-3/4`.
#
# Three boards side by side: the 2×3 board `{2|-1/2}` (a simple switch, mean `3/4`), the
# 3×3 board with a corner filled `±3/2` (mean 0), and the 4×4 board, whose value is an
# infinitesimal around 0: its thermograph is a mast at 0 from `t = 0`.

# %%
fig, axes = plt.subplots(1, 3, figsize=(11, 3.2))
for ax, b in zip(axes, ["2x3", "#..|...|...", "4x4"]):
    p = cg.position("domineering", b)
    cg.thermograph(p).plot(ax=ax, top=2)
    ax.set_title(f"{b}: {cg.canonical_form(p)}", fontsize=8)
fig.tight_layout()
plt.show()
assert cg.temperature(cg.position("domineering", "2x3")) == cg.temperature(cg.parse("{2|-1/2}"))

# %% [markdown]
# ## Sums
#
# Values add: the sum of two boards is the sum of their values, and its mean is the sum of
# the means (the mean is additive, the temperature is not).

# %%
A = cg.canonical_form(cg.position("domineering", "2x3"))
B = cg.canonical_form(cg.position("domineering", "#..|...|..."))
S = cg.canonical_form(A + B)
print(f"{A} + {B} = {S}")
print("means:", cg.mean(A), "+", cg.mean(B), "=", cg.mean(S))
assert cg.mean(S) == cg.mean(A) + cg.mean(B)
S

# %% [markdown]
# ## Exploring the game tree
#
# `cg.GameExplorer` is the game tree to click through: every position coloured by its outcome
# (blue: Left wins, orange: Right wins, green: the first player wins, red: the second player
# wins), its canonical value beside it, Left's options (vertical dominoes) and Right's
# (horizontal ones) in two groups. In Jupyter the options of a position are asked of Python
# when it is opened, so a board of any size can be explored; on this page, with no Python
# behind it, the static copy below holds the first two moves. A board reached by two lines of
# play is one position, marked "↺ shared" where it appears again.
#
# **What you should see:** the 2×3 board, green with `{2|-1/2}`; Left's two options `±1` and
# `2`, Right's four `-1/2`; click one to open it.

# %%
explorer = cg.GameExplorer(cg.position("domineering", "2x3"), html_depth=2)
root = explorer.nodes[explorer.root]
assert root["outcome"]["normal"] == "N" and root["value"]["normal"] == "{2|-1/2}"
explorer

# %% [markdown]
# The same explorer as a page of its own, two moves deep (`explorer.to_html("2x3.html")` writes
# it to share; it needs no Python):

# %%
explorer.static_view()
