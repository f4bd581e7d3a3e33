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

## run: install, then the main job (for now: simulate deals and print their score sheets)
run: $(STAMP)
	$(BIN)/tute simulate --rules ludoteka-pairs --deals 3 --seed 1 --sheet

## test: install, then run the whole test suite
test: $(STAMP)
	$(BIN)/python -m pytest

## bench: every benchmark in bench/, printing its figures
bench: $(STAMP)
	$(BIN)/python bench/engine_replay.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
