"""Compressed files, folders (Maildir, MH, news spools) and the bad input they may hold."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from urlsift.cli import main
from urlsift.sources.mbox import messages

HARD_CASES = Path(__file__).parents[2] / "corpora" / "mail" / "mail-url-hard-cases.mbox"


def _output(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    status = main(["--no-filename", *argv])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
}


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_compressed_mboxes_read_as_streams(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = _output([str(HARD_CASES)], capsys)
    packed = tmp_path / f"list.mbox.{kind}"
    packed.write_bytes(COMPRESSORS[kind](HARD_CASES.read_bytes()))
    assert _output([str(packed)], capsys)[:2] == plain[:2]
    assert len(plain[1]) > 700


def test_a_truncated_stream_keeps_what_came_before_and_exits_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = gzip.compress(HARD_CASES.read_bytes())
    (tmp_path / "cut.mbox.gz").write_bytes(data[: len(data) // 2])
    (tmp_path / "junk.gz").write_bytes(b"\x1f\x8b" + os.urandom(200))
    status, lines, err = _output([str(tmp_path / "cut.mbox.gz"), str(tmp_path / "junk.gz")], capsys)
    assert status == 2
    assert 100 < len(lines) < 700
    # The message the cut falls in is read as far as it goes (its MIME structure is then broken).
    errors = [
        line
        for line in err.splitlines()
        if not any(f": {kind}: " in line for kind in ("unknown-charset", "malformed", "truncated"))
    ]
    assert errors[0].startswith(f"urlsift: {tmp_path / 'cut.mbox.gz'}: corrupt: Compressed file ended")
    assert errors[1].startswith(f"urlsift: {tmp_path / 'junk.gz'}: ")
    assert len(errors) == 2


def test_a_decompression_bomb_is_stopped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bomb.gz").write_bytes(gzip.compress(b"<URL:http://a/> " + b"a" * 30_000_000))
    status, lines, err = _output([str(tmp_path / "bomb.gz")], capsys)
    assert status == 2
    assert lines == ["http://a/"]
    assert "expands past" in err
    # A low --max-expand stops even a modest stream.
    (tmp_path / "small.gz").write_bytes(gzip.compress(b"x" * 5000 + b" http://b/"))
    assert _output(["--max-expand", "1K", str(tmp_path / "small.gz")], capsys)[0] == 2
    assert _output(["--max-expand", "1M", str(tmp_path / "small.gz")], capsys)[:2] == (0, ["http://b/"])


def test_bad_sizes_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["--max-expand", "lots", "x"])
    assert raised.value.code == 2
    assert "not a size: 'lots'" in capsys.readouterr().err


def _messages() -> list[bytes]:
    return [message.data for message in messages(io.BytesIO(HARD_CASES.read_bytes()))]


def test_a_maildir_reads_new_then_cur_and_skips_tmp(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    found = _messages()
    for sub in ("new", "cur", "tmp"):
        (tmp_path / sub).mkdir()
    (tmp_path / "cur" / "1.host:2,S").write_bytes(found[3])
    (tmp_path / "new" / "2.host").write_bytes(found[14])
    (tmp_path / "tmp" / "3.host").write_bytes(found[0])
    status, lines, _ = _output(["--format", "jsonl", str(tmp_path)], capsys)
    sources = [json.loads(line)["source"] for line in lines]
    assert status == 0
    assert sources[0].endswith("new/2.host")
    assert sources[-1].endswith("cur/1.host:2,S")
    assert not any(source.endswith("tmp/3.host") for source in sources)


def test_a_news_spool_reads_articles_in_numeric_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    group = tmp_path / "comp" / "infosystems"
    group.mkdir(parents=True)
    article = (
        b"Path: a!b\nNewsgroups: comp.infosystems\nMessage-ID: <%d@x>\nSubject: s\n\nsee <URL:http://a/%d>\n"
    )
    for number in (10, 9, 100):
        (group / str(number)).write_bytes(article % (number, number))
    (group / ".overview").write_bytes(b"not an article http://no/")
    status, lines, _ = _output([str(tmp_path)], capsys)
    assert (status, lines) == (0, ["http://a/9", "http://a/10", "http://a/100"])


def test_a_link_loop_is_reported_not_followed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "1").write_bytes(b"Subject: x\nFrom: y\n\nhttp://once/\n")
    os.symlink(tmp_path, tmp_path / "a" / "loop")
    status, lines, err = _output([str(tmp_path)], capsys)
    assert lines == ["http://once/"]
    assert status == 2
    assert "a link loop" in err


def test_a_news_batch_reads_each_article_by_its_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    articles = [
        b"Path: a!b\nNewsgroups: comp.x\nMessage-ID: <1@x>\n\nSee <URL:http://one.example/>\n",
        b"Path: a!b\nNewsgroups: comp.y\nMessage-ID: <2@x>\n\n#! rnews 99 in a body\nhttp://two.example/\n",
    ]
    batch = b"".join(b"#! rnews %d\n" % len(article) + article for article in articles)
    (tmp_path / "batch").write_bytes(batch)
    status, lines, err = _output(["--format", "jsonl", str(tmp_path / "batch")], capsys)
    rows = [json.loads(line) for line in lines]
    assert status == 0
    assert err == ""
    assert [(r["url"], r["message"], r["newsgroups"]) for r in rows] == [
        ("http://one.example/", 0, "comp.x"),
        ("http://two.example/", 1, "comp.y"),
    ]
    assert [r["offset"] for r in rows] == [0, batch.index(b"#! rnews %d" % len(articles[1]))]
    (tmp_path / "cut").write_bytes(batch[:-5])
    status, lines, err = _output([str(tmp_path / "cut")], capsys)
    assert (status, lines) == (2, ["http://one.example/"])
    second = batch.index(b"#! rnews %d" % len(articles[1]))
    assert err == (
        f"urlsift: {tmp_path / 'cut'}: corrupt: news batch: article 1 at byte {second} is cut: "
        f"5 of {len(articles[1])} bytes missing\n"
    )


def test_the_corpora_news_spool(capsys: pytest.CaptureFixture[str]) -> None:
    spool = Path(__file__).parents[2] / "corpora" / "news" / "spool"
    articles = sorted(path for path in spool.rglob("*") if path.is_file())
    status, lines, err = _output(["--format", "jsonl", "--stats", str(spool)], capsys)
    rows = [json.loads(line) for line in lines]
    assert status == 0
    assert "messages           21 = 21 scanned + 0 failed" in err
    # Each article is one message (index 0 in its file), read in folder then numeric order.
    faq = str(spool / "comp" / "protocols" / "tcp-ip" / "domains" / "12904")
    assert {row["source"] for row in rows} == {faq}  # the 1993 sci.space articles hold no URL
    groups = "comp.protocols.tcp-ip.domains,comp.answers,news.answers"
    assert all(row["message"] == 0 and row["newsgroups"] == groups for row in rows)
    assert all(row["message_id"] and row["part"] for row in rows)
    alone = [json.loads(line) for line in _output(["--format", "jsonl", faq], capsys)[1]]
    assert rows == alone
    assert len(rows) == 27
    assert len(articles) == 21
