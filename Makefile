# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format bench golden clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# The C kernel is compiled by the install: a change to its source reinstalls.
KERNEL_SRC := asobiba/games/mancala/_kernel.c

$(VENV)/.installed: pyproject.toml $(KERNEL_SRC) | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(KERNEL_SRC) | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $(VENV)/.installed $@

run: $(VENV)/.installed
	$(BIN)/asobiba serve --host $(HOST) --port $(PORT)

# Debian's Chromium drives tests/e2e (Playwright's own browser download cannot work here), with
# the fonts people's phones and desktops have: a Japanese font and a colour emoji font, so pages
# are laid out in the tests as people see them. Installed when missing and we may; without the
# browser the e2e tests skip, except under CI=true.
BROWSER_PACKAGES := chromium fonts-noto-cjk fonts-noto-color-emoji
browser:
	@dpkg -s $(BROWSER_PACKAGES) >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(BROWSER_PACKAGES))

# The suite runs in parallel (pytest-xdist, a file to a worker: most tests wait on real servers,
# processes and the browser, not on the CPU), then the few that measure time to the millisecond
# run alone, where no other worker can delay them.
TEST_WORKERS ?= 3
test: lint browser
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile -m "not serial"
	$(BIN)/python -m pytest -q -m serial

lint: $(VENV)/.installed-test
	$(BIN)/ruff check asobiba tests bench
	$(BIN)/ruff format --check asobiba tests bench
	$(BIN)/mypy

format: $(VENV)/.installed-test
	$(BIN)/ruff format asobiba tests bench
	$(BIN)/ruff check --fix asobiba tests bench

golden: $(VENV)/.installed-test
	$(BIN)/python -m tests.golden.regenerate

bench: $(VENV)/.installed-test
	$(BIN)/python bench/mancala_speed.py
	$(BIN)/python bench/load.py

clean:
	rm -rf $(VENV) .pytest_cache
