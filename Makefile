# Commands for the Marriage ledger. `make run` and `make test` work from a clean clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
FLASK := $(BIN)/flask --app ledger

.PHONY: venv system-deps run test lint bench

venv: $(STAMP)

# Re-install only when pyproject.toml changes (or the venv is missing).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

system-deps:
	@bash scripts/install-system-deps.sh

run: venv
	$(FLASK) init-db
	$(FLASK) run --host 127.0.0.1 --port 5000

test: venv system-deps
	$(BIN)/pytest -q

lint: venv
	$(BIN)/ruff check .

bench: venv
	$(BIN)/python bench/run.py
