# Commands for the Marriage ledger. `make run` and `make test` work from a clean clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SERVING_STAMP := $(VENV)/.serving-stamp
LEDGER := $(BIN)/marriage-ledger
PORT ?= 5000

.PHONY: venv serving-venv system-deps node-deps translations translations-update run run-local \
	test test-fast check lint bench rules-doc fonts lighthouse

venv: $(STAMP)
serving-venv: $(SERVING_STAMP)

# Re-install only when pyproject.toml changes (or the venv is missing). Serving needs the
# package alone; the tests and checks add the test extras (Playwright, mypy, ...) on top.
$(SERVING_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e .
	touch $(SERVING_STAMP)

$(STAMP): pyproject.toml $(SERVING_STAMP)
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

system-deps:
	@bash scripts/install-system-deps.sh

# axe-core, for the accessibility checks of the browser tests: installed from the npm
# registry into tests/a11y/node_modules (git-ignored), at the version its lock file pins.
AXE := tests/a11y/node_modules/axe-core/axe.min.js

node-deps: $(AXE)

$(AXE): tests/a11y/package.json tests/a11y/package-lock.json
	npm ci --prefix tests/a11y --no-audit --no-fund --loglevel=error
	touch $@

# The compiled catalogues (.mo, git-ignored) are built from the .po files in the tree.
TRANSLATIONS := ledger/translations
PO_FILES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
MO_FILES := $(PO_FILES:.po=.mo)

translations: $(MO_FILES)

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po $(SERVING_STAMP)
	$(BIN)/pybabel -q compile -l $* -i $< -o $@

# For developers: extract every marked string into messages.pot and merge it into the
# .po files (then translate what is new: tests/i18n checks nothing is left out).
BABEL_KEYWORDS := -k _ -k gettext -k ngettext:1,2 -k lazy_gettext -k _l -k N_ -k tr \
	-k Msg -k PluralMsg:1,2 -k trn:1,2 -k fail:2 -k refuse:3 -k refusal:2 -k FieldError:2 -k CardError:1 -k pgettext:1c,2 -k npgettext:1c,2,3 \
	--add-comments=TRANSLATORS:

translations-update: venv
	$(BIN)/pybabel extract -F babel.cfg $(BABEL_KEYWORDS) --no-location --sort-output \
		--project=marriage-ledger --copyright-holder="Marriage ledger" \
		--msgid-bugs-address=none -o $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) \
		--no-fuzzy-matching --ignore-obsolete
	$(MAKE) translations

# At the table: waitress on this computer's LAN address and 127.0.0.1, the SQLite
# database in instance/; prints the address and QR code the phones open.
run: serving-venv translations
	$(LEDGER) init-db
	$(LEDGER) serve --port $(PORT) --quiet

# This computer only.
run-local: serving-venv translations
	$(LEDGER) init-db
	$(LEDGER) serve --host 127.0.0.1 --port $(PORT)

# The whole suite twice: on SQLite, then on a PostgreSQL cluster the tests start.
test: venv system-deps node-deps translations
	$(BIN)/pytest -q
	$(BIN)/pytest -q --db=postgresql

# The one-minute loop: `make check`, then `make test-fast` (no browser, no other
# process, no wheel: the tests marked `browser` or `slow` wait for `make test`).
check: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

test-fast: venv translations
	$(BIN)/pytest -q -m "not slow and not browser" -n auto

lint: venv
	$(BIN)/ruff check .

bench: venv system-deps translations
	$(BIN)/python bench/run.py

# docs/rules.md's tables, written from the engine (tests/docs/test_rules_doc.py checks them).
rules-doc: venv
	$(BIN)/python scripts/rules_doc.py

# The pages' web fonts (static/fonts/web/*.woff2 and static/css/fonts.css, committed), rebuilt
# from the vendored TTFs after a template, catalogue or font changes (tests/web/test_fonts.py
# says when). Fetches three Debian font packages to measure the fallbacks (installs nothing).
fonts: venv
	$(BIN)/python scripts/build_fonts.py

# Lighthouse's mobile performance audit of the home, match and new-hand pages, served by
# waitress on loopback. Lighthouse is installed from npm into .lighthouse/ (git-ignored);
# 12.2.3 is the last release that runs on Node 20. `make lighthouse LANG_ARG="--lang ne"`
# audits the Nepali pages.
LIGHTHOUSE_VERSION := 12.2.3
LIGHTHOUSE_CLI := .lighthouse/node_modules/lighthouse/cli/index.js

$(LIGHTHOUSE_CLI):
	mkdir -p .lighthouse
	npm install --prefix .lighthouse --no-audit --no-fund --save-exact lighthouse@$(LIGHTHOUSE_VERSION)

lighthouse: venv translations $(LIGHTHOUSE_CLI)
	CHROME_PATH=/usr/bin/chromium $(BIN)/python bench/lighthouse_bench.py $(LANG_ARG)
