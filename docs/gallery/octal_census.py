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
# # An octal census: every one-digit code
#
# An octal code `0.d1d2…` says, digit by digit, how many tokens may be taken and how many heaps
# may be left (seed 001, *Octal Games*; seed 004: bit 1 of a digit allows leaving no heap,
# bit 2 one heap, bit 4 two heaps). A *census* runs every code of a given length: it groups the
# codes into classes by standard form (codes whose Grundy sequences are shifts of one
# another: "cousins"), computes each class's Grundy sequence, certifies its period by the
# Guy–Smith theorem where it can, and in misère play adds the genus and the misère quotient.
#
# The one-digit census is small enough to run here in a few seconds, in this process
# (`scheduler="serial"`; without it the census runs on Dask workers).

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
from IPython.display import HTML, display

import cgtalg as cg

census = cg.octal_census(digits=1, values=2**12, scheduler="serial")
print(census.summary())

# %% [markdown]
# ## The table

# %%
columns = ["code", "standard_form", "cousins", "status", "period", "preperiod", "max_value",
           "values", "first_non_nim", "quotient"]
html = ["<table><tr>" + "".join(f"<th>{c}</th>" for c in columns) + "</tr>"]
for row in census.rows:
    cells = []
    for c in columns:
        v = getattr(row, c)
        cells.append(" ".join(v) if isinstance(v, tuple) else ("" if v is None else str(v)))
    html.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
display(HTML("".join(html) + "</table>"))

# %% [markdown]
# **What you should see:** seven codes in six classes (`0.2` and `0.3` are cousins). Six are
# solved: `0.1` (period 1), `0.2`, `0.3`, `0.5`, `0.7` (period 2) and **`0.4`**, whose
# standard form is Dawson's chess `0.137` — period 34, preperiod 54 for `0.4` (`0.137` itself
# has preperiod 52; docs/census.md). `0.6` is the famous open case (seed 004: "no one has any
# idea how to prove non-periodicity"): unsolved at every length computed. In misère play the
# quotient of each tame code has order 2 (`⟨a | a²=1⟩`, misère Nim of `*1`s); `0.4` and `0.6`
# have wild heaps and only partial quotients.

# %%
row = {r.code: r for r in census.rows}
assert (row["0.4"].standard_form, row["0.4"].period, row["0.4"].preperiod) == ("0.137", 34, 54)
assert row["0.6"].status == "unsolved"
assert set(row["0.2"].cousins) == {"0.3"}
assert all(row[c].quotient.startswith("final |Q|=2 ⟨a | a²=1⟩") for c in ("0.1", "0.2", "0.3", "0.5", "0.7"))
census.counts()

# %% [markdown]
# ## The sequences
#
# The first 120 values of each code (the census computes 4,096):

# %%
fig, axes = plt.subplots(len(census.rows), 1, figsize=(9, 1.1 * len(census.rows)), sharex=True)
for ax, r in zip(axes, census.rows):
    values = cg.TakeAndBreak(r.code).grundy_sequence(120)
    ax.plot(range(len(values)), values, ".", ms=3)
    ax.set_ylabel(r.code, rotation=0, labelpad=18)
    ax.set_yticks([0, max(1, int(values.max()))])
axes[-1].set_xlabel("heap n")
fig.suptitle("Grundy values of the one-digit octal games")
fig.tight_layout()
plt.show()

# %% [markdown]
# **What you should see:** `0.1`, `0.2`, `0.3`, `0.5`, `0.7` alternate between 0 and 1; `0.4`
# settles into Dawson's-chess period of 34; `0.6` keeps growing slowly with no visible period.
#
# The certified period of `0.4`, with the bound the Guy–Smith theorem needs:

# %%
cg.TakeAndBreak("0.4").periodicity()

# %% [markdown]
# The census can also be written as CSV, JSON or a standalone HTML page with plots
# (`census.to_csv()`, `census.to_json()`, `census.to_html(path)`), and from the shell:
# `cgtalg census octal --digits 1 --values 2^12 --scheduler serial`.

# %%
print(census.to_csv().splitlines()[0])
