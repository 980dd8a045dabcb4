"""Fuzz targets: every input ends in a result or a clean error, never a traceback or a hang.

A package, so the targets share :mod:`.harness` by relative import.
"""
