"""Tests of the exact analysis: brute force, ms-toollib, budgets, JSON."""
