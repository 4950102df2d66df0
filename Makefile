# Two commands matter: `make run` (serve the demo site on SQLite, tasks eager)
# and `make test` (install everything, lint, type-check, run every test).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: install lint test run bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check xuezhan records analysis tests manage.py $(wildcard benchmarks)
	$(BIN)/mypy
	$(BIN)/mypy --config-file xuezhan/config/mypy.ini

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

bench: install
	$(BIN)/python benchmarks/bench_hand.py
	$(BIN)/python benchmarks/bench_shanten.py
	$(BIN)/python benchmarks/bench_replay.py
	$(BIN)/python benchmarks/bench_reject.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
