"""Partizan rulesets: Domineering and the grid games, Konane, Amazons, Snort and Col,
Hackenbush on graphs, Toppling Dominoes, and forms written in partizan notation.

Public names are re-exported by :mod:`cgtalg.rulesets` and the package root.
"""
