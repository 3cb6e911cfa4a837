#!/usr/bin/env bash
# Runs each libFuzzer target of the native core for a fixed budget (issue 31):
#   rust/fuzz/run.sh [SECONDS] [TARGET...]      (default: 60 seconds each, every target)
# Stable Rust with RUSTC_BOOTSTRAP=1 for the sanitizer-coverage flags cargo-fuzz would pass (no
# AddressSanitizer: the core is forbid(unsafe_code)); the plans of both profiles are dumped from
# Python first (the grammar stays stated once, in src/urlsift/grammar). Needs the project's venv
# (.venv) and a C++ compiler (libfuzzer-sys builds libFuzzer). What a run finds stays under
# target/fuzz/artifacts/TARGET/; the corpora it grew under target/fuzz/corpus/TARGET/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${1:-60}
shift || true
targets=("${@:-scan}")
[ $# -gt 0 ] || targets=(scan grammar mbox message)
work=$root/target/fuzz
mkdir -p "$work/plans"
"$root/.venv/bin/python" - "$work/plans" <<'PY'
import sys
from pathlib import Path

from urlsift import PROFILES
from urlsift.grammar import export

for name, profile in PROFILES.items():
    plan = export.plan(syntax.rule for syntax in profile.syntaxes())
    lines = (f"{key}\t{','.join(parts)}\t{pattern}\n" for key, pattern, parts in plan)
    Path(sys.argv[1], f"{name}.plan").write_text("".join(lines), encoding="utf-8")
PY
export URLSIFT_FUZZ_PLANS=$work/plans
export RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=$work/build
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# An explicit --target keeps RUSTFLAGS off the build scripts, as cargo-fuzz does.
host=$(rustc -vV | sed -n 's/^host: //p')
cargo build --release --manifest-path "$here/Cargo.toml" --bins --target "$host"
for target in "${targets[@]}"; do
    corpus=$work/corpus/$target artifacts=$work/artifacts/$target
    mkdir -p "$corpus" "$artifacts"
    # Seeds: pieces of the corpora's texts (a first byte of options each); for the grammar, the
    # URLs the tests expect, each with a production-picking first byte.
    "$root/.venv/bin/python" - "$target" "$corpus" "$root" <<'PY'
import json
import sys
from pathlib import Path

target, corpus, root = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
if target == "scan":
    texts = [p.read_bytes()[:4096] for p in sorted((root / "corpora").rglob("*")) if p.is_file()]
elif target == "mbox":  # pieces of each mbox, from its start and from a message's
    texts = [p.read_bytes()[k : k + 4096] for p in sorted((root / "corpora").rglob("*.mbox")) for k in (0, 9000)]
elif target == "message":  # whole messages of the mail and news corpora, as they are
    from urlsift.sources.mbox import messages

    mboxes = sorted((root / "corpora").rglob("*.mbox"))
    found = [m.data[:8192] for p in mboxes for m in messages(p.open("rb"))]
    texts = found[::10]
    texts += [b"Content-Type: text/html\n\n<p>a &amp;&notit;&#x41;<a href='x'>b</a><script>c</script", b"Subject: =?utf-8?q?a_b?= =?latin-1?b?6Q?=\n\nx"]
else:
    urls = {
        json.loads(line)["url"].encode()
        for p in sorted((root / "tests/expected").rglob("*.jsonl"))
        for line in p.read_text(encoding="utf-8").splitlines()
        if line.strip()
    }
    texts = sorted(urls)
for k, text in enumerate(texts):
    (corpus / f"seed-{k}").write_bytes(bytes([k % 256]) + text)
PY
    echo "== $target: $seconds s"
    "$work/build/$host/release/$target" "$corpus" -max_total_time="$seconds" -artifact_prefix="$artifacts/" \
        -max_len=8192 -timeout=10 -print_final_stats=1 2>&1 | tail -n 25
done
