# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test test-compiled lint unit bench engines golden browser-deps nginx-deps client client-test clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

# Opt-in: the engines (jokeapp/core, jokeapp/games/marble, jokeapp/games/dalmuti) compiled with
# mypyc into build/engines, rebuilt unless the build's manifest matches a digest of every source
# file (names and contents); used only with JOKEAPP_ENGINES=auto or compiled, and only while
# they match the sources exactly (jokeapp/compiled.py checks at import). A failed compile leaves
# no build, says so, and is not retried for the same sources. See docs/bots.md.
engines: $(STAMP)
	@JOKEAPP_ENGINES=pure $(BIN)/python -c 'import sys, jokeapp.compiled as c; sys.exit(c.main(["ensure"]))'

run: $(STAMP) client
	mkdir -p var
	$(BIN)/joke serve --host 127.0.0.1 --port 8000 --db var/joke.sqlite3

lint: $(STAMP)
	$(BIN)/ruff check jokeapp tests
	$(BIN)/ruff format --check jokeapp tests
	$(BIN)/mypy --strict jokeapp tests

# Debian's Chromium for the end-to-end tests (Playwright drives it; it cannot download one).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)
	@fc-list 2>/dev/null | grep -qi 'Noto Sans CJK' || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-noto-cjk fonts-noto-color-emoji)

# Debian's nginx for the load-balancer tests (tests/deploy, the cluster's): they run
# deploy/nginx.conf unprivileged on loopback ports (the package's own service is not used).
nginx-deps:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx)

# The web client (client/): installed and built into jokeapp/server/static/app.
# `npm install` rather than `npm ci`: vite lists an optional Windows-only package that the
# registry does not serve, which `npm ci` counts as a lock mismatch; `npm install` keeps the lock.
client/node_modules/.package-lock.json: client/package.json client/package-lock.json
	cd client && npm install --no-audit --no-fund
	touch $@

client: $(STAMP) client/node_modules/.package-lock.json
	cd client && npm run build

client-test: $(STAMP) client/node_modules/.package-lock.json
	cd client && npm test

# Two runs: Playwright's sync API keeps an event loop in the process, which the asyncio tests
# of the server cannot share, so the browser tests get a process of their own.
unit: $(STAMP)
	$(BIN)/pytest -m "not browser"
	$(BIN)/pytest -m browser tests/browser

test: lint client-test client browser-deps nginx-deps unit

# Opt-in: the engines' own suites on the compiled engines (docs/bots.md, "Compiled engines");
# the tests marked pure_engines, which look inside by patching, are skipped with a reason.
test-compiled: engines
	JOKEAPP_ENGINES=compiled $(BIN)/pytest -m "not browser" tests/core tests/marble tests/dalmuti tests/bots tests/golden tests/sim

bench: $(STAMP) engines
	$(BIN)/python -m jokeapp.bench --write BENCHMARKS.md

# Rewrites the golden playthroughs (tests/golden/*.txt) on purpose, after an intended change of
# rules, views, events or bots; review their diff before committing.
golden: $(STAMP)
	$(BIN)/python -m jokeapp.sim.golden --write tests/golden

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
