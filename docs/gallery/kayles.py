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
# # Kayles: from the genus to the misère quotient and a solved position
#
# Kayles is the octal game **0.77**: knock down one pin or two adjacent pins from a row,
# possibly splitting it in two (seed 004, *A Strategy for Kayles*). This notebook goes the
# whole way from the normal-play Grundy values to misère play:
#
# 1. the Grundy sequence and its certified period (seed 004's table of `K(12a+b)`);
# 2. the genus sequence (Winning Ways ch. 13), where misère play starts to differ;
# 3. the misère quotient of the whole game (Plambeck and Siegel: order 40);
# 4. a multi-heap misère position, its outcome and every winning move.
#
# Everything below is computed when the notebook runs; the `assert` lines check the figures
# against the sources, so the notebook fails if the library ever disagrees with them.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
from IPython.display import HTML, display

import cgtalg as cg
from cgtalg.misere import misere_class, misere_phylum

kayles = cg.TakeAndBreak("0.77")
kayles

# %% [markdown]
# ## 1. Normal play: the Grundy sequence
#
# Seed 004 prints `G(K_n)` in rows of twelve, `n = 12a + b`. The first row reads
# `0 1 2 3 1 4 3 2 1 4 2 6` and, from row 6 on, every row is `4 1 2 8 1 4 7 2 1 8 2 7`
# (the last exceptional value is `G(70)`). The library's sequence, in the same layout:

# %%
g = kayles.grundy_sequence(180)
rows = ["<tr><th>a \\ b</th>" + "".join(f"<th>{b}</th>" for b in range(12)) + "</tr>"]
for a in range(15):
    rows.append(f"<tr><th>{a}</th>" + "".join(f"<td>{int(g[12 * a + b])}</td>" for b in range(12)) + "</tr>")
display(HTML("<table>" + "".join(rows) + "</table>"))
assert [int(x) for x in g[:12]] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]          # seed 004, row 0
assert [int(x) for x in g[12 * 6:12 * 7]] == [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]  # seed 004, rows 6 on

# %% [markdown]
# The Guy–Smith periodicity theorem turns the repetition into a proof: with `k = 2`, period
# `p = 12` and preperiod `i = 71`, it is enough to check `G(n) = G(n + 12)` for
# `71 ≤ n < 2·71 + 12 + 2` (seed 004 works out the bound 168). `periodicity()` certifies it:

# %%
per = kayles.periodicity()
assert (per.certified, per.period, per.preperiod) == (True, 12, 71)
per

# %%
fig, ax = plt.subplots(figsize=(9, 2.8))
ax.scatter(range(len(g)), g, s=8, c=["tab:red" if n < 71 else "tab:blue" for n in range(len(g))])
ax.axvline(70.5, color="grey", lw=0.8, ls="--")
ax.set_xlabel("heap n (pins in a row)")
ax.set_ylabel("G(K_n)")
ax.set_title("Kayles (0.77): Grundy values; red = preperiod, blue = period 12")
plt.show()

# %% [markdown]
# **What you should see:** values below 9 everywhere, irregular (red) up to heap 70, then
# the twelve values `4 1 2 8 1 4 7 2 1 8 2 7` repeated.
#
# ## 2. Misère play: the genus sequence
#
# The genus `g^{γ0γ1…}` of a heap records its normal value `g` and the misère values `γn` of
# the heap plus `n` copies of `*2` (Winning Ways ch. 13). Where `g^{γ0…}` is the genus of a
# nim-heap, the heap behaves like that nim-heap in misère sums with nim-heaps.

# %%
genera = kayles.genus_sequence(36)
cells = "".join(
    f"<tr><th>{n}</th><td>{int(g[n])}</td><td>{x._repr_html_()}</td><td>{x.genus_class}</td></tr>"
    for n, x in enumerate(genera)
)
display(HTML("<table><tr><th>heap</th><th>G</th><th>genus</th><th>kind of the symbol</th></tr>" + cells + "</table>"))

# %% [markdown]
# **What you should see:** heaps 0–4 have the genera of nim-heaps (`0^{120}`, `1^{031}`,
# `2^{20}`, `3^{31}`, `1^{031}`); heap 5 is the first whose genus, `4^{146}`, is not a
# nim-heap's (a nim-heap `*4` has genus `4^{46}`): its misère value is 1, not 4. The misère
# values `γ0` of heaps 1–10 are `0 2 3 0 1 3 2 1 0 2`, and heaps 7, 14 and 19 all read `2^{20}`
# (Winning Ways ch. 13, Kayles).

# %%
assert [x.misere_grundy for x in genera[1:11]] == [0, 2, 3, 0, 1, 3, 2, 1, 0, 2]
assert [str(genera[n]) for n in (7, 14, 19)] == ["2^20"] * 3
first_non_nim = next(n for n, x in enumerate(genera) if x != cg.genus(cg.nim(int(g[n]))))
assert (first_non_nim, str(genera[5]), str(cg.genus(cg.nim(4)))) == (5, "4^146", "4^46")
assert (misere_phylum(kayles.misere_canonical_heap(16)).name, misere_class(kayles.misere_canonical_heap(16))) == ("TAMEABLE", "wild")
genera[16]

# %% [markdown]
# Heap 16 shows why the genus alone does not settle misère play: its symbol `1^{13}` looks
# tame, yet the heap is not a tame game (it is only *tameable*), so a table of genera cannot
# play sums of Kayles heaps. The misère quotient can.
#
# ## 3. The misère quotient
#
# Plambeck's quotient `Q` of Kayles: positions are identified when no Kayles position added to
# them tells them apart. `Q` is a commutative monoid with a P-portion, and the *pretending
# function* Φ maps each heap to its element. Plambeck and Siegel ("Misère quotients for
# impartial games", JCTA 2008) give the Kayles quotient: order 40, with 9 P-elements. The
# computation below verifies every candidate and certifies the result by the misère
# periodicity theorem.

# %%
q = cg.misere_quotient("0.77")
assert (q.order, len(q.p_portion), q.final) == (40, 9, True)
q

# %% [markdown]
# **What you should see:** `|Q| = 40`, `|P| = 9`, the presentation on seven generators
# `a, …, g`, the P-portion and the table of Φ (heap → element). A position is a misère
# P-position exactly when the product of the Φ of its heaps lies in P.
#
# ## 4. A solved position
#
# Misère Kayles with rows of 7, 9, 11 and 13 pins. The outcome and every winning move are
# read from the quotient (one table look-up per heap):

# %%
position = [7, 9, 11, 13]
print("misère outcome:", kayles.outcome(position, misere=True))
print("normal outcome:", kayles.outcome(position))
moves = kayles.winning_moves(position, misere=True)
for m in moves:
    print(m)

# %% [markdown]
# **What you should see:** an N-position in misère play (the player to move wins) with five
# winning moves: from the row of 7 (take one pin at the end, or split it into 2 + 4) and from
# the row of 13 (three splits). Each leaves a misère P-position, which the quotient confirms
# move by move:

# %%
assert kayles.outcome(position, misere=True) == "N"
for m in moves:
    after = [h for i, h in enumerate(position) if i != m.heap_index] + list(m.parts)
    assert q.is_p(after), after
    print(sorted(after), "is a misère P-position:", q.is_p(after))
