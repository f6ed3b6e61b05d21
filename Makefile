# midgardc — the two commands a new user needs are `make run` and `make test`.
# Everything else builds on `setup`, which creates .venv and installs the project.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
SPEC   ?= specs/midgard.yaml
GAMES  ?= 200
FUZZ_CASES ?= 10000
TEST_JOBS ?= 2   # make test's processes (pytest-xdist, a test file per process at a time; 0: one process)

.PHONY: setup run build test bench bench-peers bench-open bench-first-board check-generated generate clean fuzz browser playthroughs screenshots

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@# pip 21.3 and later install a pyproject project editable (PEP 660): a newer one is kept (its upgrade took 8 s of make test's budget)
	@$(BIN)/python -c 'import sys, pip; sys.exit(tuple(int(p) for p in pip.__version__.split(".")[:2]) < (21, 3))' 2>/dev/null \
		|| $(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,cluster,research]'
	@touch $(STAMP)

setup: $(STAMP)  ## create .venv and install midgardc with its test tools

build: setup  ## generate and compile the engines of every spec and variant (cached; --jobs: every core)
	$(BIN)/midgardc build specs/*.yaml specs/*/*.yaml --all-variants

run: setup  ## build only the engine of $(SPEC), then play a match of random against greedy
	$(BIN)/midgardc build $(SPEC)
	$(BIN)/midgardc match $(SPEC) --players random,greedy --games $(GAMES) --seed 1 --engine compiled

test: setup browser  ## the whole suite (builds the engines it needs)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) --dist loadfile

# The HTML report test drives Debian's chromium headless. Install it when missing and we can
# (root or passwordless sudo); otherwise say why that test will be skipped. Never fails.
APT_CHROMIUM = env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null

browser:  ## make sure chromium and chromedriver are there for the browser test (installs them if it can)
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then \
		exit 0; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
		echo "note: chromium/chromedriver missing and no apt-get here: the browser test will be skipped"; \
	elif [ "$$(id -u)" = 0 ]; then \
		{ $(APT_CHROMIUM) || { apt-get update -q >/dev/null && $(APT_CHROMIUM); }; } \
			|| echo "note: installing chromium failed: the browser test will be skipped"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
		{ sudo -n $(APT_CHROMIUM) || { sudo -n apt-get update -q >/dev/null && sudo -n $(APT_CHROMIUM); }; } \
			|| echo "note: installing chromium failed: the browser test will be skipped"; \
	else \
		echo "note: chromium/chromedriver missing and installing needs root: the browser test will be skipped"; \
		echo "      (sudo apt-get install chromium chromium-driver)"; \
	fi

screenshots: setup browser  ## every spec in specs/ at the start, mid-game and end, 1400 and 400 px wide, in chromium (midgardc serve): docs/screenshots/*.png
	rm -f docs/screenshots/*.png
	MIDGARDC_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -q tests/test_screenshots.py -k screenshots

bench: setup  ## every spec and variant: random playouts/s of both engines and their ratio (median of 3)
	$(BIN)/midgardc bench --all --engine both --runs 3 --playouts 50000
	$(BIN)/python benchmarks/wordings.py  # equal wordings of a rule: their speed ratio (within 1.2x)

bench-peers: setup  ## the classics and Midgard (compiled) beside the peers' figures from issue 15, with the ratios
	$(BIN)/python benchmarks/peers.py

bench-open: setup  ## a new process opening the cached Midgard engine + one playout, interleaved with the interpreter's open (target: 0.5 s)
	$(BIN)/python benchmarks/engine_open.py specs/midgard.yaml --runs 7

bench-first-board: setup  ## the first board of `play` (in a pty) and `serve` (page + board JSON) on an empty engine cache: tic-tac-toe and Midgard, 5 runs interleaved (target: 3 s)
	$(BIN)/python benchmarks/first_board.py --runs 5

fuzz: setup  ## long fuzz campaign over every spec and the command line ($(FUZZ_CASES) cases)
	$(BIN)/python -m midgardc.safety.fuzz --cases $(FUZZ_CASES)

playthroughs: setup  ## rewrite the golden playthroughs in tests/playthroughs/ (after an intended rule change: review the diff)
	$(BIN)/midgardc playthrough --all --update

generate: setup  ## rewrite generated/ from the specs
	$(BIN)/midgardc generate

check-generated: setup  ## fail when generated/ is stale
	$(BIN)/midgardc generate --check

clean:
	rm -rf build .pytest_cache .hypothesis
