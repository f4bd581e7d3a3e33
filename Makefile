# Everything a fresh machine needs, from Python 3.11+ and make alone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

## run: install, then the main job: the service on http://127.0.0.1:8000 over the default archive, loaded with samples/
run: $(STAMP)
	$(BIN)/tute serve --load samples/

## test: install, then run the whole test suite
test: $(STAMP)
	$(BIN)/python -m pytest

## bench: every benchmark in bench/, printing its figures
bench: $(STAMP)
	$(BIN)/python bench/engine_replay.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
