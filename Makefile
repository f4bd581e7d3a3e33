# Everything a fresh machine needs, from Python 3.11+ and make alone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
RUN_STAMP := $(VENV)/.run-stamp
PORT ?= 8000
NATIVE := $(wildcard tutepgn/native/*.c tutepgn/native/*.h)

.PHONY: run test test-slow bench bench-quick clean chromium fonts wrk

# The service alone: the package and its dependencies, none of the test tools.
$(RUN_STAMP): pyproject.toml setup.py $(NATIVE)
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $(RUN_STAMP)

# Everything the tests need (the service's install included).
$(STAMP): pyproject.toml setup.py $(NATIVE)
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP) $(RUN_STAMP)

## run: install what the service needs (not the test tools), then the main job: the service on
## http://127.0.0.1:$(PORT) (PORT=8000 unless given: make run PORT=8080) over the default archive, loaded with samples/;
## this machine records and imports with no key (the local admin key is kept beside the archive: docs/service.md)
run: $(RUN_STAMP)
	$(BIN)/tute serve --load samples/ --port $(PORT)

## test: install (with Debian's Chromium for the browser test), check the types (mypy: strict on tutepgn/, normal
## on api/ and cli/, through typecheck.py, which names them tutepgn.api and tutepgn.cli) and the lint (ruff), then
## run the whole test suite on TEST_WORKERS pytest-xdist workers (one per core unless given; TEST_WORKERS=0 runs it
## serially in one process, as a plain `.venv/bin/pytest` does)
TEST_WORKERS ?= auto
test: $(STAMP) chromium fonts
	$(BIN)/python typecheck.py
	$(BIN)/ruff check
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal

## test-slow: the long runs left out of `make test` (the hostile-input mutation test, 10,000 examples; 2,000
## simulated and 2,000 tampered deals per 2-player preset without their Stock; the replay fast path against the
## engine on 100,000 simulated and 20,000 tampered deals per preset; the 296 sample deals analysed on a Dask
## LocalCluster; the service over a dataset of 20,000 simulated deals; the analysis identity on 200 simulated deals per preset;
## the solver's fixed set, bench/data/: 1,000 deals per preset against their checked-in values)
test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow tests/hostile tests/test_solver_fixed_set.py tests/test_analysis.py tests/test_reconstruct.py tests/test_fastreplay.py tests/test_cluster.py tests/test_serve_dataset.py

## chromium: Debian's Chromium for tests/test_browser.py, installed with apt-get when missing (as root)
chromium:
	$(call debian,chromium,the browser test,the browser test will be skipped)

## fonts: Debian's DejaVu fonts for the PDF downloads (tutepgn/archive/printing.py: every character of a name
## printed), installed with apt-get when missing (as root)
fonts:
	$(call debian,fonts-dejavu-core,the PDF downloads,the PDFs use a core font: Latin-1 only,/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)

## bench: every benchmark, one table, raw figures in bench/out/results.json (about 25 minutes; needs wrk for the service load)
bench: $(STAMP) wrk
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python bench/run_all.py $(BENCH_ARGS)

## bench-quick: engine, parse, validate, the solver and the stock reconstruction only (3 minutes)
bench-quick: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python bench/run_all.py --quick $(BENCH_ARGS)

## wrk: Debian's HTTP load generator for bench/serve_load.py, installed with apt-get when missing (as root)
wrk:
	$(call debian,wrk,the service benchmark,the service benchmark uses its Python clients)

# $(call debian,PACKAGE,WHAT NEEDS IT,WHAT HAPPENS WITHOUT IT[,FILE]): install a Debian package (its command has
# the same name, or it puts FILE in place) with apt-get when it is missing and we are root; otherwise say what
# happens without it.
define debian
@$(if $(4),test -e $(4),command -v $(1) >/dev/null 2>&1) || { \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
    echo "installing $(1) for $(2)"; \
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null; \
  else \
    echo "note: $(1) is missing, so $(3) (install it: apt-get install $(1))"; \
  fi; }
endef

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
