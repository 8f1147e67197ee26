# One Makefile for people and CI. `make run` starts the console chat, `make test` runs everything.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install run serve test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade --quiet "pip>=24"

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

run: install
	$(BIN)/lembra chat

serve: install
	$(BIN)/lembra serve

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy agent storage config

pytest: install
	$(BIN)/pytest -q

test: lint typecheck pytest

bench: install
	$(BIN)/python bench/storage.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
