# PATE: the two commands a new user needs are `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PROTOS := $(shell find proto -name '*.proto' 2>/dev/null | sort)

.PHONY: install lock lock-check run test lint fmt typecheck imports deploy-lint proto alerts gitm-data bench chaos failover clean

LOCK := requirements-dev.lock
# make test runs the tests in this many processes (pytest-xdist); 0 runs them in this one
TEST_WORKERS ?= 2

# Installs are reproducible: every dependency at the version and hashes of the lock file
# (produced by uv from pyproject.toml: make lock), then PATE itself without touching them.
$(STAMP): pyproject.toml $(LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --require-hashes -r $(LOCK)
	$(PY) -m pip install -q --no-deps -e .
	touch $(STAMP)

install: $(STAMP)

## Re-resolve the lock files after a change to pyproject.toml's dependencies (keeps other pins).
lock: $(STAMP)
	$(VENV)/bin/uv pip compile --quiet --python-version 3.11 --generate-hashes --extra dev pyproject.toml -o requirements-dev.lock
	$(VENV)/bin/uv pip compile --quiet --python-version 3.11 --generate-hashes pyproject.toml -o requirements.lock
	$(PY) -c "import tomllib; print('\\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires']))" \
		| $(VENV)/bin/uv pip compile - --quiet --python-version 3.11 --generate-hashes -o requirements-build.lock

## Fail when the lock files do not match pyproject.toml (part of make test).
lock-check: $(STAMP)
	$(PY) -m pate.tools.lockcheck

## Regenerate the protobuf and gRPC code (committed; a test fails when stale).
proto: $(STAMP)
	$(PY) -m pate.tools.genproto

## Regenerate the Kubernetes PrometheusRule from deploy/prometheus/pate-alerts.yaml (a test fails when stale).
alerts: $(STAMP)
	$(PY) -m pate.tools.genalerts

## Regenerate proto/gitm/v1/contract.toml (the gitm.v1 cities, states and calendar; a test fails when stale).
gitm-data: $(STAMP)
	$(PY) -m pate.tools.gitmdata

## Start NATS (embedded), SQLite and the four services; play one demo turn.
run: $(STAMP)
	$(VENV)/bin/pate demo

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

fmt: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

typecheck: $(STAMP)
	$(VENV)/bin/mypy pate services

imports: $(STAMP)
	$(VENV)/bin/lint-imports

## The container image (hadolint) and the Kubernetes overlays (kubernetes-validate, strict).
deploy-lint: $(STAMP)
	$(VENV)/bin/hadolint deploy/Dockerfile
	$(PY) -m pate.tools.genalerts --check
	$(PY) -m pate.tools.k8scheck

test: $(STAMP) lint typecheck imports deploy-lint lock-check
	$(VENV)/bin/pytest -q -p no:cacheprovider --durations=25 -n $(TEST_WORKERS)

## Every benchmark module, the goals last: its table of each goal beside its figure ends the run
## (benchmarks/bench_goals.py; `python -m benchmarks goals` for the table alone).
bench: $(STAMP)
	$(PY) -m benchmarks

## Kill services and NATS nodes in the middle of turns (PostgreSQL + 3-node NATS); TRIALS=50.
TRIALS ?= 50
chaos: $(STAMP)
	$(PY) -m benchmarks.chaos --trials $(TRIALS) --max-seconds 1800

## Kill the PostgreSQL primary in the middle of turns and promote its synchronous replica.
failover: $(STAMP)
	$(PY) -m benchmarks.failover --campaigns 4

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .pytest_cache
