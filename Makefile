# Two commands matter: `make run` (serve the demo site on SQLite, tasks eager)
# and `make test` (install everything, lint, type-check, run every test).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: install lint test run serve bench clean

# two test processes (the machines have two cores); the tests of the real broker share one
# process (tests/conftest.py groups them). PYTEST_ARGS= runs them in one process.
PYTEST_ARGS ?= -n 2 --dist loadgroup

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The zh-Hans catalogue is compiled with polib (manage.py compilemessages is the project's
# own, so no GNU gettext is needed); the .mo files are build output, not committed.
install: $(STAMP)
	$(BIN)/python manage.py compilemessages -v0

lint: install
	$(BIN)/ruff check xuezhan config records analysis tests manage.py $(wildcard benchmarks)
	$(BIN)/mypy
	$(BIN)/mypy --config-file config/mypy.ini

test: lint
	@$(BIN)/python -c "import shutil, sys; sys.exit(0 if any(map(shutil.which, ('chromium', 'chromium-browser'))) else 1)" || \
	  echo "note: no chromium: the browser tests (tests/browser) will be skipped; 'apt-get install -y chromium fonts-noto-cjk' runs them"
	$(BIN)/python -m pytest $(PYTEST_ARGS)

run: install
	mkdir -p var  # the SQLite file's folder (the settings never write on import)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# Production serving (docs/deploy.md): gunicorn with the production settings, which take
# SECRET_KEY, DATABASE_URL, CELERY_BROKER_URL, CACHE_URL and ALLOWED_HOSTS from the
# environment (or NAME_FILE). Workers: `celery -A config worker`, and one beat.
PROD := env DJANGO_SETTINGS_MODULE=config.production
serve: install
	$(PROD) $(BIN)/python manage.py migrate --noinput
	$(PROD) $(BIN)/python manage.py collectstatic --noinput
	$(PROD) $(BIN)/gunicorn -c deploy/gunicorn.conf.py

bench: install
	$(BIN)/python benchmarks/bench_hand.py
	$(BIN)/python benchmarks/bench_shanten.py
	$(BIN)/python benchmarks/bench_replay.py
	$(BIN)/python benchmarks/bench_reject.py
	@echo "bench_pipeline needs PostgreSQL and Redis on loopback (as .ci/run starts them)"
	$(BIN)/python benchmarks/bench_pipeline.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
