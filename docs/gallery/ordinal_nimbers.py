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
# # Ordinal nimbers: nim-multiplication, Lenstra's products and the α_p table
#
# Nim-addition `⊕` and nim-multiplication `⊗`, defined by mex rules, make the ordinals a
# field, `On₂` (Conway, ONAG ch. 6; seed 004, *The Nimber FIELD*). Below ω the finite fields
# are the numbers below the Fermat 2-powers `2^(2^n)`; ω itself is the cube root of 2, and
# beyond it Lenstra ("Nim multiplication", 1977) describes the field below `ω^(ω^ω)` by the
# elements `κ_q` and the constants `α_p = κ_p^⊗p`. This notebook checks seed 004's facts and
# shows the α_p table.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
from IPython.display import HTML, display

import cgtalg as cg
from cgtalg.nimbers import nim_mul

# %% [markdown]
# ## Finite nimbers
#
# Distinct Fermat 2-powers multiply as ordinary numbers, and a Fermat 2-power squared is
# `3/2` of itself: `2 ⊗ 2 = 3`, `16 ⊗ 16 = 24`. The multiplication table of the field of 16
# elements (0..15) as a picture:

# %%
assert (nim_mul(2, 2), nim_mul(16, 16), nim_mul(2, 3)) == (3, 24, 1)   # 1/2 = 3 (seed 004)
table = [[nim_mul(a, b) for b in range(16)] for a in range(16)]
fig, ax = plt.subplots(figsize=(4.2, 3.6))
im = ax.imshow(table, cmap="viridis")
ax.set_xlabel("b"); ax.set_ylabel("a"); ax.set_title("a ⊗ b in GF(16)")
fig.colorbar(im, ax=ax)
plt.show()

# %% [markdown]
# **What you should see:** every row but row 0 is a permutation of 0..15 (a field: every
# nonzero element has an inverse), and the top-left 4×4 block is GF(4).
#
# ## Transfinite nimbers (seed 004)
#
# Seed 004 proves: `n ⊗ ω = ω·n` for finite `n`, `ω ⊗ ω = ω²`, `ω ⊗ ω² = 2` ("That's not a
# typo"), so ω is a cube root of 2; it asks for the other cube roots of 2; and states
# `(ω³)^⊗3 = ω`.

# %%
w = cg.Nimber("w")
facts = {
    "3 ⊗ ω": cg.Nimber(3) * w,
    "ω ⊗ ω": w * w,
    "ω ⊗ ω²": w * w ** 2,
    "(ω³)^⊗3": cg.Nimber("w^3") ** 3,
    "ω^⊗-1": w ** -1,
    "√ω": w.sqrt(),
}
display(HTML("<table>" + "".join(f"<tr><th>{k}</th><td>{v._repr_html_()}</td></tr>" for k, v in facts.items()) + "</table>"))
assert (facts["ω ⊗ ω²"], facts["(ω³)^⊗3"]) == (cg.Nimber(2), w)
cube_roots_of_2 = [r for r in (w, w * 2, w * 3) if r ** 3 == 2]
display(*cube_roots_of_2)

# %% [markdown]
# **What you should see:** `*(ω·3)`, `*ω²`, `*2`, `*ω`, and the three cube roots of 2:
# `ω`, `ω⊗2 = ω·2` and `ω⊗3 = ω·3` (the answer to the seed's exercise: ω times the cube
# roots of 1 in GF(4), which are 1, 2, 3).
#
# ## Lenstra's κ_p and the α_p table
#
# For the k-th odd prime p, `κ_p = ω^(ω^(k−1))` and `α_p = κ_p^⊗p` is the least element of
# the field below `κ_p` without a p-th root. The library ships the table for p ≤ 709 (OEIS
# A380496: Conway for p ≤ 7, Lenstra to 43, later authors beyond) and computes products from
# it; for the first primes we check `κ_p^⊗p = α_p` by multiplying out.

# %%
primes = [3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47]
rows = []
for p in primes:
    kappa, alpha = cg.nimbers.kappa(p), cg.nimbers.alpha(p)
    rows.append(f"<tr><td>{p}</td><td>{cg.Nimber(kappa)._repr_html_()}</td><td>{cg.Nimber(alpha)._repr_html_()}</td></tr>")
display(HTML("<table><tr><th>p</th><th>κ<sub>p</sub></th><th>α<sub>p</sub> = κ<sub>p</sub><sup>⊗p</sup></th></tr>" + "".join(rows) + "</table>"))
for p in (3, 5, 7):
    assert cg.Nimber(cg.nimbers.kappa(p)) ** p == cg.Nimber(cg.nimbers.alpha(p)), p
print(cg.nimbers.alpha_provenance().splitlines()[1])

# %% [markdown]
# **What you should see:** `α_3 = 2` (ω³ = 2), `α_5 = 4`, `α_7 = ω + 1`, `α_11 = ω^ω + 1`,
# `α_13 = ω + 4`, `α_17 = 16`, …, `α_47 = ω^(ω^7) + 1`, as in Lenstra's table (and CGSuite's
# nim-field constants).
#
# ## A product that needs the table
#
# `(ω + 1) ⊗ (ω² + ω + 5)`, `ω^ω ⊗ ω^ω`, and the inverse of `ω^ω + 1` — each checked by
# multiplying back:

# %%
a = (w + 1) * cg.Nimber("w^2+w+5")
ww = cg.Nimber("w^w")
inv = (ww + 1) ** -1
print("(ω+1) ⊗ (ω²+ω+5) =", a)
print("ω^ω ⊗ ω^ω =", ww * ww)
print("(ω^ω + 1)^-1 =", inv)
assert (ww + 1) * inv == 1
assert str(a) == "*(ω·4+7)"
ww ** 5   # κ_5^⊗5 = α_5 = 4
