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
# # Spindler's equivalence classes of Nim positions in misère play
#
# Mark Spindler, "Equality classes of Nim positions under misère play" (Integers 16 (2016);
# seed 002), answers: when are two sums of nim-heaps interchangeable in every misère sum?
#
# - among **impartial** games, exactly when their *reduced forms* (Definition 5) agree
#   (Theorem 6): the only identifications come from `*n + *1 ≡ *(n ⊕ 1)` (Theorem 5);
# - among **all partizan** games, only when they are isomorphic (Theorem 4).
#
# This notebook checks both statements with proofs the library produces and re-checks.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
from IPython.display import HTML, display

import cgtalg as cg
from cgtalg.misere import check_nim_position_classes, nim_position_game, nim_reduced_form

# %% [markdown]
# ## Reduced forms (Definition 5)
#
# A position is the nondecreasing sequence of its nonzero heaps. Reduce: lower the lowest
# pair of odd heaps by one while two are odd; lower a single odd heap that is not the largest
# and raise a largest heap; drop empty heaps. The paper's examples: `4 + 1 + 0 + 1` reduces to
# `(4)`; a reduced form has at most one odd heap, and then it is the unique largest.

# %%
for heaps in ([4, 1, 0, 1], [3, 5, 2], [3, 4], [1, 1, 1], [2, 2, 3, 3]):
    print(f"{heaps!s:15} -> {nim_reduced_form(heaps)}")
assert nim_reduced_form([4, 1, 0, 1]) == (4,)
assert nim_reduced_form([3, 4]) == (2, 5)

# %% [markdown]
# ## Theorem 5, with its proof
#
# `*3 + *4` and `*2 + *5` have the same reduced form `(2, 5)`, so they are impartially
# equivalent. `cg.equivalent` proves it with the linked test of Theorem 1 (Siegel, CGT V.3.5
# and V.3.6) and returns a certificate that `check_proof` re-verifies independently:

# %%
proof = cg.equivalent(nim_position_game([3, 4]), nim_position_game([2, 5]))
assert proof.holds and cg.check_proof(proof)
proof

# %% [markdown]
# ## Theorem 6 for every position of size at most 10
#
# `check_nim_position_classes(n)` proves, for all positions with at most `n` counters, that
# each is equivalent to its reduced form and that distinct reduced forms are inequivalent
# (with a distinguishing game for each pair of equal normal value).

# %%
check = check_nim_position_classes(10)
assert (check.holds, check.positions, check.num_classes) == (True, 139, 31)
print(f"{check.positions} positions, {check.num_classes} classes, theorem holds: {check.holds}")
rows = "".join(
    f"<tr><td>{' + '.join(map(str, rep)) or '0'}</td><td>{len(members)}</td>"
    f"<td>{'; '.join(' + '.join(map(str, m)) or '0' for m in members[:6])}{' …' if len(members) > 6 else ''}</td></tr>"
    for rep, members in list(check.classes.items())[:16]
)
display(HTML("<table><tr><th>reduced form</th><th>positions</th><th>members</th></tr>" + rows + "</table>"))

# %% [markdown]
# **What you should see:** 139 positions in 31 classes; `0 ≡ *1 + *1`, `*2 ≡ *1 + *3`,
# `*2 + *2 ≡ *3 + *3 ≡ *1 + *2 + *3`, and classes such as `*6` or `*2 + *4` with a single
# member. One of the distinctions, with its distinguishing game:

# %%
first, second, result = check.distinctions[0]
result

# %% [markdown]
# Each size `n` brings `p(n // 2)` new classes (a reduced form of even size has only even
# heaps; `p` the partition function), which the counts below follow:

# %%
sizes = range(0, 11)
per_size = [sum(1 for rep in check.classes if sum(rep) == n) for n in sizes]
positions_per_size = [sum(1 for members in check.classes.values() for m in members if sum(m) == n) for n in sizes]
fig, ax = plt.subplots(figsize=(7, 3))
ax.bar([n - 0.2 for n in sizes], positions_per_size, width=0.4, label="positions")
ax.bar([n + 0.2 for n in sizes], per_size, width=0.4, label="classes (reduced forms)")
ax.set_xlabel("size (counters)")
ax.set_title("Nim positions and their misère classes (impartial universe)")
ax.legend()
plt.show()
print("classes per size:", per_size)
assert per_size == [1, 1, 1, 1, 2, 2, 3, 3, 5, 5, 7]   # p(n // 2)

# %% [markdown]
# ## Theorem 4: among partizan games nothing merges
#
# `*1 + *1` is impartially equivalent to `0`, but in the universe of all games a partizan
# `T` tells them apart; likewise `*2 + *2` and `*3 + *3`.

# %%
c = cg.compare(nim_position_game([1, 1]), "0", misere=True, universe="all")
assert c.relation == "||"
c

# %%
impartial = cg.compare(nim_position_game([2, 2]), nim_position_game([3, 3]), misere=True)
partizan = cg.compare(nim_position_game([2, 2]), nim_position_game([3, 3]), misere=True, universe="all")
assert (impartial.relation, partizan.relation) == ("=", "||")
display(impartial, partizan)
