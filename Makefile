# `make run`: set up the local venv and start the web app (mineproof play).
# `make test`: set up the local venv and run the tests, ruff and mypy --strict.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean catalogs

# The modules mypyc compiles (pyproject.toml, [tool.mineproof] compiled): a change to one of them
# rebuilds the package, so that the tests never run a stale compiled module.
COMPILED := $(shell $(PYTHON) -c "import tomllib; print(*(f'src/{m.replace(\".\", \"/\")}.py' for m in tomllib.load(open('pyproject.toml', 'rb'))['tool']['mineproof']['compiled']))")

$(STAMP): pyproject.toml setup.py $(COMPILED)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/mineproof play

test: $(STAMP)
	$(BIN)/python -m pytest
	$(BIN)/ruff check src tests benchmarks setup.py
	$(BIN)/ruff format --check src tests benchmarks setup.py
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_analysis.py

clean:
	rm -rf $(VENV) build src/*.egg-info
	find src -name '*.so' -delete

# Re-extract the English messages and compile every catalog (Babel, a development dependency).
LOCALES := src/mineproof/explain/locales
catalogs: $(STAMP)
	$(BIN)/pybabel extract --no-location --omit-header --sort-output -k gettext -k ngettext:1,2 -k pgettext:1c,2 \
		-o $(LOCALES)/mineproof.pot src/mineproof/explain/text.py src/mineproof/web/strings.py \
		src/mineproof/review/judgement.py src/mineproof/review/game.py \
		src/mineproof/review/postmortem.py
	$(BIN)/pybabel update -D mineproof -i $(LOCALES)/mineproof.pot -d $(LOCALES) --no-fuzzy-matching \
		--ignore-pot-creation-date
	$(BIN)/pybabel compile -D mineproof -d $(LOCALES) --statistics
