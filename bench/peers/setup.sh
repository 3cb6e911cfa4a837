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
    [ -f package.json ] || echo '{"private": true}' > package.json
    npm install --silent --no-audit --no-fund linkify-it >/dev/null || note "linkify-it (npm) did not install: skipped"
else
    note "no npm: linkify-it skipped"
fi
