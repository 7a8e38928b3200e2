"""Heap games: the heap-ruleset base class and its protocol facts, take-and-break (octal and
hexadecimal) codes, subtraction and Grundy's game, the Grundy engine (the sparse-space numba
kernels, with a plain-Python mode for small heaps), periodicity and its certificates, and misère
play and genus of heap positions.

Public names are re-exported by :mod:`cgtalg.rulesets` (``cgtalg.rulesets.TakeAndBreak``).
"""
