#!/usr/bin/env bash
# Installs the peers beside urlsift, each from its own registry; one that cannot be installed is
# skipped with a note (compare.py then reports it as missing). Run from anywhere:
#     bash bench/peers/setup.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
note() { echo "peers: $*" >&2; }

python3 -m venv .venv || { note "no venv: the PyPI peers are skipped"; }
if [ -x .venv/bin/pip ]; then
    # iocextract imports requests without declaring it (seen with 1.16.1).
    for package in urlextract linkify-it-py iocextract requests urlscan; do
        .venv/bin/pip install -q "$package" || note "$package did not install: skipped"
    done
fi

if ! command -v urifind >/dev/null; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && apt-get install -y -qq liburi-find-perl >/dev/null) \
            || note "liburi-find-perl did not install: urifind skipped"
    else
        note "urifind needs Debian's liburi-find-perl (apt-get as root): skipped"
    fi
fi

if command -v npm >/dev/null; then
    # A machine without the npm registry (issue 31's) would hang on npm's retries: ask once, briefly.
    if ! timeout 15 npm ping --fetch-timeout=5000 --fetch-retries=0 >/dev/null 2>&1; then
        note "the npm registry is not reachable: linkify-it skipped"
    else
        [ -f package.json ] || echo '{"private": true}' > package.json
        timeout 300 npm install --silent --no-audit --no-fund --fetch-retries=1 linkify-it >/dev/null \
            || note "linkify-it (npm) did not install: skipped"
    fi
else
    note "no npm: linkify-it skipped"
fi
