# midgardc — the two commands a new user needs are `make run` and `make test`.
# Everything else builds on `setup`, which creates .venv and installs the project.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
SPEC   ?= specs/midgard.yaml
GAMES  ?= 200
FUZZ_CASES ?= 10000

.PHONY: setup run build test bench check-generated generate clean fuzz

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,cluster]'
	@touch $(STAMP)

setup: $(STAMP)  ## create .venv and install midgardc with its test tools

build: setup  ## generate and compile the engines of every spec and variant (cached)
	$(BIN)/midgardc build specs/*.yaml specs/*/*.yaml --all-variants

run: build  ## build, then play a match of random against greedy
	$(BIN)/midgardc match $(SPEC) --players random,greedy --games $(GAMES) --seed 1 --engine compiled

test: setup  ## the whole suite (builds the engines it needs)
	$(BIN)/python -m pytest -q

bench: setup  ## every spec and variant: random playouts/s of both engines and their ratio (median of 3)
	$(BIN)/midgardc bench --all --engine both --runs 3 --playouts 50000

fuzz: setup  ## long fuzz campaign over every spec and the command line ($(FUZZ_CASES) cases)
	$(BIN)/python -m midgardc.safety.fuzz --cases $(FUZZ_CASES)

generate: setup  ## rewrite generated/ from the specs
	$(BIN)/midgardc generate

check-generated: setup  ## fail when generated/ is stale
	$(BIN)/midgardc generate --check

clean:
	rm -rf build .pytest_cache .hypothesis
