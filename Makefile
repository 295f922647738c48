# Every target creates .venv itself, so one command sets up a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play terminal test lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,web,openspiel,pettingzoo]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/hexgames serve --open

terminal: $(STAMP)
	$(BIN)/hexgames play andantino

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy --strict src

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engines.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
