"""Guess-free generation: an independent oracle of guess-free layouts and the uniformity tests."""
