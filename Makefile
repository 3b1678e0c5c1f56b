# The two commands a newcomer needs: `make run` and `make test`. Everything else is here for CI and daily work.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml requirements.lock | sha1sum | cut -c1-12)

.PHONY: run test ci lint format typecheck migrations-check install bench load clean lock

$(STAMP): pyproject.toml requirements.lock
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c requirements.lock -e ".[dev]"
	rm -f $(VENV)/.installed-* && touch $(STAMP)

install: $(STAMP)

## Run the site with its demo data on the embedded defaults (SQLite, filesystem broker).
run: $(STAMP)
	mkdir -p var
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	@$(BIN)/python -c 'from config.env import env_port; print("Zverograd: http://127.0.0.1:%d (ZVEROGRAD_PORT sets the port; Ctrl-C stops it)" % env_port("ZVEROGRAD_PORT", 8000))'
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho start -f Procfile.dev

## Run the whole test suite (under CI=true against PostgreSQL, Redis, a real worker and Chromium).
test: $(STAMP)
	$(BIN)/python scripts/test.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: $(STAMP)
	$(BIN)/mypy

migrations-check: $(STAMP)
	DJANGO_SETTINGS_MODULE=config.settings.test $(BIN)/python manage.py makemigrations --check --dry-run

## What CI runs.
ci: lint typecheck migrations-check test

bench: $(STAMP)
	$(BIN)/python scripts/bench_rules.py
	$(BIN)/python scripts/bench_referee_limits.py
	$(BIN)/python scripts/bench_battle_replay.py
	$(BIN)/python scripts/bench_validator.py
	$(BIN)/python scripts/bench_validator_endpoint.py
	$(BIN)/python scripts/bench_pairing.py
	$(BIN)/python scripts/bench_pairing_service.py
	$(BIN)/python scripts/bench_standings.py
	$(BIN)/python scripts/bench_standings_page.py
	$(BIN)/python scripts/bench_dashboard.py
	$(BIN)/python scripts/bench_campaign_pages.py
	$(BIN)/python scripts/bench_campaign_page.py
	$(BIN)/python scripts/bench_round_page.py
	$(BIN)/python scripts/bench_baseline.py
	$(BIN)/python scripts/bench_exchange.py
	$(BIN)/python scripts/bench_import_limits.py
	$(BIN)/python scripts/bench_matchup.py

## The campaign-night load test on this machine's production setup (README "Benchmarks"); e.g. ARGS="--rates 5,20 --seconds 10".
load: $(STAMP)
	$(BIN)/python scripts/load_campaign_night.py $(ARGS)

clean:
	rm -rf var/celery var/test-db.sqlite3

## Refresh requirements.lock after changing the pins in pyproject.toml.
lock:
	rm -rf .venv-lock && $(PYTHON) -m venv .venv-lock
	.venv-lock/bin/pip install --quiet -e ".[dev]"
	.venv-lock/bin/pip freeze --exclude-editable | grep -v '^zverograd' > requirements.lock
	rm -rf .venv-lock
