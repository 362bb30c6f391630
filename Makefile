# PATE: the two commands a new user needs are `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PROTOS := $(shell find proto -name '*.proto' 2>/dev/null | sort)

.PHONY: install run test lint fmt typecheck imports deploy-lint proto bench chaos clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## Regenerate the protobuf and gRPC code (committed; a test fails when stale).
proto: $(STAMP)
	$(PY) -m pate.tools.genproto

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
	$(PY) -m pate.tools.k8scheck

test: $(STAMP) lint typecheck imports deploy-lint
	$(VENV)/bin/pytest -q -p no:cacheprovider

bench: $(STAMP)
	$(PY) -m benchmarks

## Kill services and NATS nodes in the middle of turns (PostgreSQL + 3-node NATS); TRIALS=50.
TRIALS ?= 50
chaos: $(STAMP)
	$(PY) -m benchmarks.chaos --trials $(TRIALS) --max-seconds 1800

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .pytest_cache
