# Everything a fresh machine needs, from Python 3.11+ and make alone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench clean chromium

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

## bench: the quick benchmarks (engine, parse, validate); see docs/performance.md for the archive and service ones
bench: $(STAMP)
	$(BIN)/python bench/engine_replay.py
	$(BIN)/python bench/parse.py
	$(BIN)/python bench/validate.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
