# Two commands on a fresh clone:
#   make serve   build dist/ and serve it on http://localhost:8000
#   make test    install what the tests need, build dist/, run every test
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
SOURCES := index.html app.py $(wildcard ngram_core/*.py ngram_core/*/*.py) $(wildcard ngram_page/*.py) $(shell find static -type f 2>/dev/null) scripts/build_site.py $(wildcard scripts/*.mjs) $(wildcard scripts/*.js) package-lock.json

.PHONY: serve test dist bench chromium clean

serve: dist
	@echo "Serving dist/ on http://localhost:$(PORT) (Ctrl-C to stop)"
	$(PYTHON) -m http.server $(PORT) --bind 127.0.0.1 -d dist

dist: dist/.built

dist/.built: node_modules/.installed $(SOURCES)
	$(PYTHON) scripts/build_site.py
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

$(VENV)/.installed: requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

# Debian's Chromium for the end-to-end tests (Playwright drives it; it never downloads a browser).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

test: $(VENV)/.installed dist chromium
	$(PY) -m mypy
	$(PY) -m pytest

# About 55 minutes on 2 cores; bench_speed is #48's table (B of 200 MB streamed and a
# 2 MB x 2 MB pair against lm-evaluation-harness's janitor, with profiles; the page's
# start against Pyodide's bare start is in bench_browser); bench_faults is #34's (memory by shape of B, a frozen Dask
# worker); bench_long_row #44's (one 2 MB row against 2 MB of B, linear in the row); bench_dask is #20's run (about 30 of them): A of 2 MB,
# English-like B of 200 MB and 2 GB (Dask up to 1 GB), Chinese-like B of 200 MB,
# the command, Dask and lm-evaluation-harness's janitor streaming the same B.
bench: $(VENV)/.installed dist chromium
	$(PY) -m benchmarks.bench_speed
	$(PY) -m benchmarks.bench_core
	$(PY) -m benchmarks.bench_browser --pathological
	$(PY) -m benchmarks.bench_faults
	$(PY) -m benchmarks.bench_long_row
	$(PY) -m benchmarks.bench_suite
	$(PY) -m benchmarks.bench_dask --a-mb 2 --sizes 200,2000 --shard-mb 20 --dask-max-mb 1000 --zh-sizes 200

clean:
	rm -rf dist $(VENV) node_modules
