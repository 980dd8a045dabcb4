"""Tests of the web app: a package, so its modules share conftest helpers by relative import
and keep names apart from tests/analysis/test_games.py and tests/formats/test_load.py."""
