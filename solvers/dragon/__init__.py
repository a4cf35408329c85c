"""Bomb the Dragon (Dragon Bomb): cards, reference rules, Numba kernel, strategies, studies."""
