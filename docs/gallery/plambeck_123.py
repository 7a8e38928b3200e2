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
# # How to lose at .123: Plambeck's worked example
#
# Thane Plambeck's note "How to lose at .123" (seed 000) solves misère play of the octal game
# **0.123**: take three counters from any heap, two from a heap of more than two, one only
# from a heap of exactly one. This notebook recomputes each of its tables — the normal values
# (Table 1), the genera (Table 2), the two-heap genera (Table 3), the adders and the heap
# equivalences (Tables S1, S2) — then the misère quotient of order 20 that lies behind the
# reduction rules, and Example 1 with its three winning moves.

# %%
from IPython.display import HTML, display

import cgtalg as cg
from cgtalg.misere import adder_description, misere_class

game = cg.TakeAndBreak("0.123")

# %% [markdown]
# ## Tables 1 and 2: normal values and genera
#
# Table 1: `G(n)` is `1 0 2 2 1` for heaps 1–5, then `0 0 2 1 1` with period 5. Table 2 gives
# the genera, with `2^{1420}` at heaps 8, 13, … and `1^{20}` at heaps 9, 14, … (Plambeck
# abbreviates the nim-heaps' genera to plain `0`, `1`, `2`).

# %%
values = game.grundy_sequence(21)
genera = game.genus_sequence(21)
display(HTML(
    "<table><tr><th>heap</th>" + "".join(f"<th>{n}</th>" for n in range(1, 21)) + "</tr>"
    + "<tr><th>G</th>" + "".join(f"<td>{int(values[n])}</td>" for n in range(1, 21)) + "</tr>"
    + "<tr><th>genus</th>" + "".join(f"<td>{genera[n]._repr_html_()}</td>" for n in range(1, 21)) + "</tr></table>"
))
assert [int(v) for v in values[1:11]] == [1, 0, 2, 2, 1, 0, 0, 2, 1, 1]          # Table 1
assert [str(genera[n]) for n in (6, 8, 9, 11, 13, 14)] == ["0^02", "2^1420", "1^20"] * 2   # Table 2

# %% [markdown]
# **What you should see:** the first superscript `γ0` is 0 exactly at heaps 1, 5, 6, 10, 11,
# 15, 16, …: the single-heap misère P-positions the note lists.

# %%
single_p = [n for n in range(1, 21) if genera[n].misere_grundy == 0]
assert single_p == [1, 5, 6, 10, 11, 15, 16, 20]
single_p

# %% [markdown]
# ## Table 3: genera of two-heap positions
#
# The note computes `genus(h8 + h5) = 3^{0531}` by the mex rule with `(γ, γ+1)`-carrying. The
# whole triangle for heaps up to 9:

# %%
rows = ["<tr><th></th>" + "".join(f"<th>h{j}</th>" for j in range(1, 10)) + "</tr>"]
for i in range(1, 10):
    rows.append(f"<tr><th>h{i}</th>" + "".join(
        f"<td>{game.genus([i, j])._repr_html_()}</td>" if j >= i else "<td></td>" for j in range(1, 10)) + "</tr>")
display(HTML("<table>" + "".join(rows) + "</table>"))
assert str(game.genus([8, 5])) == "3^0531"

# Table 3 as printed in the note: a plain g is a nim-heap's genus; superscripts are the
# first superscripts of the genus (the note writes h8 + h8 as 0^12 for 0^{1202…})
table3 = """0 1 3 3 0 1^13 1 3^0531 0^31
            0 2 2 1 0^0 0 2^1420 1^20
            0^0 0^0 3 2^20 2 0^420 3^02
            0^0 3 2^20 2 0^420 3^02
            0 1^13 1 3^0531 0^31
            0^0 0^0 2^20 1^13
            0 2^1420 1^20
            0^12 3^02
            0^02"""
for i, line in enumerate(table3.splitlines(), start=1):
    for j, symbol in enumerate(line.split(), start=i):
        got = game.genus([i, j])
        g, _, sup = symbol.partition("^")
        assert got.g == int(g) and got.superscripts(len(sup)) == tuple(map(int, sup)), (i, j, symbol)
        if not sup:
            assert got == cg.Genus.parse(symbol), (i, j, symbol)
assert (str(game.genus([9, 6])), str(game.genus([9, 3, 3]))) == ("1^13", "1^20")   # the note's warning

# %% [markdown]
# **What you should see:** Table 3 entry by entry (the library prints a nim-heap's genus in
# full, e.g. `0^{120}` where the note writes `0`, and the superscripts up to the period-2
# tail: `0^{120}` for `h8 + h8`, which the note prints `0^{12}`). The last line is the note's warning:
# `h6` has the genus `0^{02}` of the adder `:4 = h3 + h3`, yet `h9 + h6` (`1^{13}`) and
# `h9 + h3 + h3` (`1^{20}`) differ.
#
# ## Tame, restive, restless
#
# The note classifies `h6` as tame, `h8` as restless and `h9` as restive. The library
# classifies each heap from its misère canonical form, with the reason:

# %%
for n in (6, 8, 9, 11):
    display(cg.misere_classification(game.misere_canonical_heap(n)))
assert [misere_class(game.misere_canonical_heap(n)) for n in (6, 8, 9, 11)] == ["tame", "restless", "restive", "tame"]

# %% [markdown]
# ## Adders and Table S1
#
# Plambeck's adders `:a` (`:0 = 0`, `:1 = *1`, `:2 = *2`, `:(2a) = a·:2`,
# `:(2a+1) = :(2a) + :1`); Table S1 names every heap by the adder it equals, or by a letter
# C, A, B for the three special genera of Table S2.

# %%
desc = adder_description(game, 16, letters="CAB")
print(desc.table())
print("Table S2:", desc.specials)
assert desc.specials == {"C": "0^02", "A": "2^1420", "B": "1^20"}

# %% [markdown]
# ## The misère quotient
#
# The reduction rules S3 and S4 are the multiplication of a finite commutative monoid: the
# misère quotient of .123, of order 20 with 5 P-elements. Φ (heap → element) is periodic with
# period 5 from heap 5, as Table S1 is.

# %%
q = cg.misere_quotient(game)
assert (q.order, len(q.p_portion), q.final, q.period) == (20, 5, True, (5, 5))
q

# %% [markdown]
# **What you should see:** `|Q| = 20`, `|P| = 5`, the presentation on five generators, and Φ
# reading `1 a 1 b b a c 1 d e a c 1 d e …`: `a`, `b` are the nim-heaps `*1`, `*2`, and `c`,
# `d`, `e` play the roles of C, A, B.
#
# ## Example 1: heaps 9, 8, 5, 3
#
# The note reduces `{9, 8, 5, 3}` to `B + :5`, an N-position, and finds three winning moves:
# `8 → 5`, `5 → 3`, `3 → 1`.

# %%
heaps = [9, 8, 5, 3]
print("outcome:", game.outcome(heaps, misere=True))
moves = game.winning_moves(heaps, misere=True)
for m in moves:
    print(m)
assert [(m.heap, m.parts) for m in moves] == [(8, (5,)), (5, (3,)), (3, (1,))]

# %% [markdown]
# The same from the quotient by hand: the product of the Φ of the heaps, and whether it lies
# in P, for the position and its eight options (the note's table of options).

# %%
options = [[7, 8, 5, 3], [6, 8, 5, 3], [9, 6, 5, 3], [9, 5, 5, 3], [9, 8, 3, 3], [9, 8, 2, 3], [9, 8, 5, 1], [9, 8, 5, 0]]
for position in [heaps] + options:
    print(position, q.word(q.image(position)), "P" if q.is_p(position) else "N")
