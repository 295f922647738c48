# Every target creates .venv itself, so one command sets up a fresh machine. Installing
# builds the native core (Rust, by maturin) into src/hexgames/_native*.so; a change to
# the Rust sources rebuilds it on the next target.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
NATIVE := Cargo.toml $(wildcard Cargo.lock) $(shell find native -name '*.rs' -o -name Cargo.toml)
PLAY_STAMP := $(VENV)/.installed-play
TEST_STAMP := $(VENV)/.installed-test
DIST_STAMP := $(VENV)/.installed-dist
# The browser app's port for `make play` (`make play PORT=8100`).
PORT ?= 8000

.PHONY: play terminal test lint bench dist wheel-smoke shipped-docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# What playing needs: the package and the browser app's server.
$(PLAY_STAMP): pyproject.toml $(NATIVE) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $(PLAY_STAMP)

# Everything: the test tools, the research integrations, the Ray executor and self-play
# samples (pyarrow) as well.
$(TEST_STAMP): pyproject.toml $(NATIVE) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,web,openspiel,pettingzoo,rl,fuzz,cluster,selfplay]'
	touch $(TEST_STAMP) $(PLAY_STAMP)

# `@$(RUN_APP) COMMAND` runs an app command, shown as it is: tools/run_app.py (standard
# library only). Ctrl-C stops the app with exit status 130: a normal stop here (make said
# "Error 130"); any other failure stays one, with its own status. It passes on to the
# app the SIGTERM that make sends its recipe's process when make is killed (a shell in
# between died of it and left the app running).
RUN_APP = $(PYTHON) tools/run_app.py

play: $(PLAY_STAMP)
	@$(RUN_APP) $(BIN)/hexgames serve --open --port $(PORT)

terminal: $(PLAY_STAMP)
	@$(RUN_APP) $(BIN)/hexgames play andantino

test: $(TEST_STAMP)
	$(BIN)/python -m pytest

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks examples tools
	$(BIN)/mypy --strict src
	$(BIN)/python -m mypy.stubtest hexgames._native
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
	$(BIN)/biome check src/hexgames/web/static

bench: $(PLAY_STAMP)
	$(BIN)/python benchmarks/bench_engines.py

# The tools of a release: maturin, and zig (from PyPI) as the linker, so that the wheel
# runs on glibc 2.17 and newer (manylinux2014), whatever this machine's glibc is.
$(DIST_STAMP): | $(BIN)/python
	$(BIN)/python -m pip install --quiet 'maturin>=1.9,<2.0' 'ziglang>=0.13'
	touch $(DIST_STAMP)

# dist/: an abi3 wheel for Linux (CPython 3.11 and newer; maturin audits it against the
# manylinux2014 policy and refuses a wheel that does not keep it) and the sdist.
dist: $(DIST_STAMP)
	rm -rf dist
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/maturin build --release --zig \
		--compatibility manylinux2014 --out dist --quiet
	$(BIN)/maturin sdist --out dist

# Installs the wheel of dist/ into a fresh virtual environment with no Rust on the PATH
# and plays a game, searches and starts the app there (tools/wheel_smoke.py).
wheel-smoke: dist
	$(PYTHON) tools/wheel_smoke.py dist

# The documents the browser app serves players (GET /docs/<name>: the rulebook and what it
# links to) ship in the package as copies of docs/; tests/test_web_documents.py fails
# while a copy differs from its original, and this brings the copies up to date.
SHIPPED_DOCS := $(notdir $(wildcard src/hexgames/web/docs/*.md))

shipped-docs:
	cp $(addprefix docs/,$(SHIPPED_DOCS)) src/hexgames/web/docs/

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis target dist
	rm -f src/hexgames/_native*.so
