"""Robustness suite: hostile input files and queries, index faults, state faults.

Fast variants run by default; the long variants are marked ``slow`` (run with --long).
"""
