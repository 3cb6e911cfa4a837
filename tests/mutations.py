"""Real messages and ways to damage them, for the reader's fuzz tests: the corpus's hard cases
(and a generated MIME message) cut, spliced, overwritten and truncated at random."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import strategies as st

from urlsift.sources.mbox import messages

CORPUS = Path(__file__).parents[1] / "corpora" / "mail" / "mail-url-hard-cases.mbox"
SEEDS = [m.data for m in messages(io.BytesIO(CORPUS.read_bytes()))][:12]
SEEDS.append(
    b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain; charset=x-none\n"
    b"Content-Transfer-Encoding: base64\n\naHR0cDovL2guZXhhbXBsZS8=\n--b\nContent-Type: text/html\n"
    b'Content-Transfer-Encoding: quoted-printable\n\n<a href=3D"http://h/">x</a>=\n--b--\n'
)
SPLICES = [
    b"--", b"\n\n", b"\n", b"From x@y Thu Jan  1 00:00:00 1970\n", b"=?utf-8?b?", b"?=", b"=\n", b"=XY",
    b"Content-Transfer-Encoding: base64\n", b"Content-Type: multipart/mixed; boundary=\"",
    b"; charset=x-unknown", b"\xff\xfe", b"\x00", b"<URL:", b"\r\n", b": ", b"\t",
]  # fmt: skip


def mutate(draw: st.DrawFn, message: bytes) -> bytes:
    """``message`` with one to six cuts, splices, overwrites or a truncation."""
    data = bytearray(message)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        match draw(st.sampled_from(["cut", "splice", "overwrite", "truncate"])):
            case "cut":
                del data[at : at + draw(st.integers(1, 200))]
            case "splice":
                data[at:at] = draw(st.sampled_from(SPLICES))
            case "overwrite":
                data[at : at + 8] = draw(st.binary(min_size=1, max_size=8))
            case _:
                del data[at:]
    return bytes(data)


@st.composite
def mutated_mbox(draw: st.DrawFn) -> bytes:
    data = mutate(draw, draw(st.sampled_from(SEEDS)))
    second = draw(st.sampled_from(SEEDS))
    separator = b"From a@b Thu Jan  1 00:00:00 1970\n"
    return separator + data + b"\n" + separator + second
