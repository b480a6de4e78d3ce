#!/usr/bin/env bash
# Installs the Debian packages the tests need, only those that are missing:
#   chromium         headless browser tests (Playwright drives /usr/bin/chromium)
#   poppler-utils    pdftoppm, to render PDFs in tests
#   WeasyPrint's libraries (Pango, HarfBuzz subsetting)
#   postgresql       the server binaries (initdb, pg_ctl) for the suite's PostgreSQL pass
#   redis-server     a Redis server for the tests of the rate limits shared by processes
#   nodejs, npm      only where no npm is on the PATH: `make node-deps` installs axe-core
#                    (the accessibility checks of the browser tests) with it
# Idempotent: says nothing and does nothing when everything is present.
set -euo pipefail

wanted=(chromium poppler-utils libpango-1.0-0 libpangoft2-1.0-0 postgresql redis-server)
command -v npm >/dev/null 2>&1 || wanted+=(nodejs npm)
optional=(libharfbuzz-subset0)  # only on releases that package it

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "install-system-deps: not a Debian-like system; install ${wanted[*]} yourself." >&2
    exit 0
fi

missing=()
for pkg in "${wanted[@]}"; do
    is_installed "$pkg" || missing+=("$pkg")
done
missing_optional=()
for pkg in "${optional[@]}"; do
    is_installed "$pkg" || missing_optional+=("$pkg")
done

# An optional package counts only if this release has it.
if [ ${#missing[@]} -eq 0 ]; then
    available=0
    for pkg in "${missing_optional[@]}"; do
        apt-cache show "$pkg" >/dev/null 2>&1 && available=1
    done
    [ "$available" -eq 0 ] && exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
else
    SUDO=(sudo)
fi

echo "install-system-deps: installing ${missing[*]} ${missing_optional[*]}" >&2
"${SUDO[@]}" apt-get update -q >/dev/null
for pkg in "${missing_optional[@]}"; do
    if apt-cache show "$pkg" >/dev/null 2>&1; then
        missing+=("$pkg")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -q --no-install-recommends \
        "${missing[@]}"
fi
