# One Makefile for people and CI. `make run` starts the console chat, `make test` runs everything.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: install install-runtime run serve test test-loaded docker-test lint typecheck pytest bench lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade --quiet "pip>=24"

# Runtime dependencies come pinned (with hashes) from requirements.lock; the
# package itself goes on top without resolving anything again.
$(VENV)/.runtime: requirements.lock pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# Development adds the dev extras (tests, linters) over the same pinned runtime.
$(VENV)/.installed: $(VENV)/.runtime
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install-runtime: $(VENV)/.runtime

install: $(VENV)/.installed

run: install-runtime
	$(BIN)/lembra chat

serve: install-runtime
	$(BIN)/lembra serve

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy agent storage config bot

pytest: install
	$(BIN)/pytest -q -n auto --maxprocesses 4

test: lint typecheck pytest

# The suite with a CPU hog beside it: two busy processes per core keep the load average at
# or above twice the cores, as on a shared CI machine. Every test must pass loaded as well
# as idle (no sub-second real-time leases, no sleeps standing in for an event: issue 45).
test-loaded: install
	$(BIN)/python tests/support/cpuhog.py --per-core 2 -- $(MAKE) pytest

# Builds the image and checks that it starts and answers /healthz and /readyz; skipped
# (not failed) where no Docker engine answers (tests/test_docker.py).
docker-test: install
	LEMBRA_DOCKER_TEST=1 $(BIN)/pytest -q -p no:randomly tests/test_docker.py

bench: install
	$(BIN)/python bench/storage.py

# Regenerate requirements.lock after changing the runtime dependencies in pyproject.toml.
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes --quiet -o requirements.lock

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
