"""Coverage-guided fuzzing with atheris (libFuzzer), beside the hypothesis tests of
tests/scan/test_fuzz.py. Not part of CI: run it by hand, and put what it finds in that file's
REGRESSIONS or READER_REGRESSIONS.

    pip install atheris
    python fuzz/atheris_targets.py extract -max_total_time=60
    python fuzz/atheris_targets.py reader -max_total_time=60
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    import urlsift
    from urlsift._model import Provenance
    from urlsift.extract import extract_each
    from urlsift.sources import mime
    from urlsift.sources.mbox import messages


def extract_target(data: bytes) -> None:
    text = atheris.FuzzedDataProvider(data).ConsumeUnicode(len(data))
    every = list(urlsift.extract(text, invalid=True))
    for match in every:
        if "".join(text[s:e] for s, e in match.pieces) != match.url:
            raise AssertionError(f"pieces do not make the URL: {match!r}")
        edges = [match.span[0], *(x for piece in match.pieces for x in piece), match.span[1]]
        if edges != sorted(edges):  # (a wrapper left open with nothing in it has no piece)
            raise AssertionError(f"pieces out of order or outside the span: {match!r}")
    if [m for m in every if m.valid] != list(urlsift.extract(text)):
        raise AssertionError("valid matches differ with invalid=True")
    verdict = urlsift.validate(text)
    if verdict.error is not None and not 0 <= verdict.error.position <= len(text):
        raise AssertionError(f"error position outside the string: {verdict.error}")


def reader_target(data: bytes) -> None:
    import io

    found = mime.read(data, Provenance("fuzz"))  # one message, and the same bytes as an mbox
    for _ in extract_each(found.texts, invalid=True):
        pass
    for raw in messages(io.BytesIO(b"From a@b Thu Jan  1 00:00:00 1970\n" + data), 10**6):
        found = mime.read(raw.data, Provenance("fuzz"))
        for _ in extract_each(found.texts, invalid=True):
            pass


if __name__ == "__main__":
    target = {"extract": extract_target, "reader": reader_target}[sys.argv.pop(1)]
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()
