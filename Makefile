# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint bench unit browser-deps client client-test clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/joke simulate marble --games 1 --players 4 --seed 1 --bot heuristic

lint: $(STAMP)
	$(BIN)/ruff check jokeapp tests
	$(BIN)/mypy --strict jokeapp/core jokeapp/games

unit: $(STAMP)
	$(BIN)/pytest

test: lint unit

bench: $(STAMP)
	$(BIN)/python -m jokeapp.bench --write BENCHMARKS.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
