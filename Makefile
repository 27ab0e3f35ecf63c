# The README's commands. Everything installs into .venv, so a fresh machine needs only python3.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup system run test check lint docs bench demo play

$(BIN)/lald: pyproject.toml setup.py $(wildcard src/lald/*/*.c) $(wildcard src/lald/*/*.h)
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[all]'
	touch $(BIN)/lald

setup: $(BIN)/lald

# Chromium, PostgreSQL and Node.js for the tests (apt-get, only when missing).
system:
	bash .ci/system-deps

run: setup
	$(BIN)/lald serve

demo: setup
	$(BIN)/lald demo

play: setup
	$(BIN)/lald play

lint: setup
	$(BIN)/ruff check src tests bench experiments
	$(BIN)/mypy

# The documentation site (mkdocs.yml), strict: a broken link or anchor fails. Output in site/.
# Not --quiet: under it mkdocs 1.6 counts no warnings, so --strict never fails.
docs: setup
	$(BIN)/mkdocs build --strict

# The fast loop while changing the game: lint, then the tests of the engine, the bots and the
# play loop (and their doctests) in two processes, the compiled twins required.
check: setup
	$(BIN)/ruff check src tests
	LALD_REQUIRE_COMPILED=1 $(BIN)/pytest -q -n 2 tests/core tests/bots tests/play src/lald/core src/lald/bots src/lald/play

test: setup system lint docs
	LALD_REQUIRE_COMPILED=1 $(BIN)/pytest -q -n 2 --dist loadfile --durations=30

bench: setup
	$(BIN)/python bench/engine.py
