# Everything a fresh machine needs, from Python 3.11+ and make alone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench bench-quick clean chromium wrk

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

## run: install, then the main job: the service on http://127.0.0.1:8000 over the default archive, loaded with samples/
run: $(STAMP)
	$(BIN)/tute serve --load samples/

## test: install (with Debian's Chromium for the browser test), then run the whole test suite
test: $(STAMP) chromium
	$(BIN)/python -m pytest

## chromium: Debian's Chromium for tests/test_browser.py, installed with apt-get when missing (as root)
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing chromium for the browser test"; \
	    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "note: chromium is missing, so the browser test will be skipped (install it: apt-get install chromium)"; \
	  fi; }

## bench: every benchmark, one table, raw figures in bench/out/results.json (about 25 minutes; needs wrk for the service load)
bench: $(STAMP) wrk
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python bench/run_all.py $(BENCH_ARGS)

## bench-quick: engine, parse and validate only (2 minutes)
bench-quick: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python bench/run_all.py --quick $(BENCH_ARGS)

## wrk: Debian's HTTP load generator for bench/serve_load.py, installed with apt-get when missing (as root)
wrk:
	@command -v wrk >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing wrk for the service benchmark"; \
	    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; \
	  else \
	    echo "note: wrk is missing, so the service benchmark uses its Python clients (install it: apt-get install wrk)"; \
	  fi; }

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
