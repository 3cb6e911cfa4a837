"""``urlsift report`` (issue 33) from the command line: the page's numbers are DuckDB's answers
over the same Parquet, whichever way the dataset came (a scan, ``--dataset``, ``--from`` a Parquet
folder or file or JSON lines); the problems met are on it; what an archive holds is escaped; the
page needs nothing but itself; a missing extra or a wrong argument is one line, exit 2."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from report.conftest import CORPUS, ROOT, Made, Run

from urlsift import validate
from urlsift.parquet import SCHEMA
from urlsift.report_data import _wayback


class _Tables(HTMLParser):
    """Each table of a page, by its caption: its body's rows as cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._caption: str | None = None
        self._rows: list[list[str]] | None = None
        self._cell: list[str] | None = None
        self._in_caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._rows, self._caption = [], ""
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption":
            self._in_caption = False
        elif tag in ("td", "th") and self._cell is not None and self._rows:
            self._rows[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table" and self._rows is not None:
            self.tables[self._caption or ""] = list(self._rows[1:])  # less the heading
            self._rows = None

    def handle_data(self, data: str) -> None:
        if self._in_caption:
            self._caption = (self._caption or "") + data
        elif self._cell is not None:
            self._cell.append(data)


def tables(page: str) -> dict[str, list[list[str]]]:
    parser = _Tables()
    parser.feed(page)
    return parser.tables


def totals(page: str) -> dict[str, int | None]:
    """The totals table, by its data-total keys (None: not recorded)."""
    found = re.findall(r'data-total="(\w+)">([^<]*)<', page)
    assert found
    return {key: None if value == "\N{EN DASH}" else int(value.replace(",", "")) for key, value in found}


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _query(dataset: Path, sql: str) -> Any:
    """One value, of a query over the dataset's rows (``rows``) and reports (``reports``)."""
    connection = duckdb.connect()
    connection.execute(f"CREATE VIEW rows AS SELECT * FROM read_parquet('{dataset}/*.parquet')")
    connection.execute(f"CREATE VIEW reports AS SELECT * FROM read_parquet('{dataset}/reports/*.parquet')")
    found = connection.execute(sql).fetchone()
    connection.close()
    assert found is not None
    return found[0]


def _scan(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``urlsift ARGUMENTS`` (a scan) run from the repository's root."""
    command = [sys.executable, "-m", "urlsift", "--no-progress", *arguments]
    return subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)


def _all(sql: str) -> list[tuple[Any, ...]]:
    return duckdb.connect().execute(sql).fetchall()


def test_the_totals_on_the_page_are_duckdbs_over_the_same_parquet(made: Made) -> None:
    assert made.status == 0, made.stderr  # (warnings only: undecodable bytes, unknown charsets)
    shown = totals(made.page.read_text(encoding="utf-8"))
    asked = {
        "urls": "SELECT count(*) FROM rows WHERE valid",
        "distinct_urls": "SELECT count(DISTINCT url) FROM rows WHERE valid",
        "hosts": "SELECT count(DISTINCT host) FROM rows WHERE valid",
        "rejected": "SELECT count(*) FROM rows WHERE NOT valid",
        "dated": "SELECT count(*) FROM rows WHERE valid AND date IS NOT NULL",
        "files_with_rows": "SELECT count(DISTINCT source) FROM rows",
        "messages_with_rows": "SELECT count(*) FROM (SELECT DISTINCT source, member, message FROM rows)",
        "problems": "SELECT count(*) FROM reports",
        "damaged": "SELECT count(DISTINCT regexp_replace(place, '#[0-9]+$', '')) FROM reports",
        "lost": "SELECT count(DISTINCT regexp_replace(place, '#[0-9]+$', '')) FROM reports WHERE lost_input",
    }
    for key, sql in asked.items():
        assert shown[key] == _query(made.dataset, sql), key
    run = json.loads((made.dataset / "run.json").read_text(encoding="utf-8"))
    assert (shown["files_read"], shown["messages_read"]) == (run["tally"]["files"], run["tally"]["messages"])
    assert run["tally"]["urls"] == shown["urls"]
    assert run["tally"]["rejected"] == shown["rejected"]
    assert (shown["urls"] or 0) > 500
    assert (shown["rejected"] or 0) > 500
    assert shown["problems"]


def test_the_lists_are_duckdbs_too(made: Made) -> None:
    found = tables(made.page.read_text(encoding="utf-8"))
    hosts = found["The top hosts: URLs in bodies and in headers"]
    assert len(hosts) == 20
    top = _all(
        f"SELECT host, count(*) n FROM read_parquet('{made.dataset}/*.parquet') WHERE valid AND host IS NOT "
        "NULL GROUP BY host ORDER BY n DESC, host LIMIT 20"
    )
    assert [(row[0], _number(row[1])) for row in hosts] == top
    years = found["Per year"]
    assert sum(_number(row[1]) for row in years) == totals(made.page.read_text(encoding="utf-8"))["dated"]
    depth = found["URLs by quote depth (0: not quoted)"]
    assert sum(_number(row[1]) for row in depth) == _query(
        made.dataset, "SELECT count(*) FROM rows WHERE valid"
    )
    assert any(row[0] != "0" for row in depth)  # quoted mail is in the corpus
    places = {
        row[0]: _number(row[1]) for row in found["URLs and rejected candidates in headers and in bodies"]
    }
    headers = _query(
        made.dataset,
        "SELECT count(*) FROM rows WHERE valid AND part IS NOT NULL AND part NOT SIMILAR TO '[0-9]+ .*'",
    )
    assert places["headers"] == headers
    assert headers > 0
    for what, column in (("hosts", "host"), ("registered domains", "registered_domain")):
        first = found[f"The top {what} of each decade (URLs)"][0]  # rank 1: the earliest decade first
        rows = f"read_parquet('{made.dataset}/*.parquet') WHERE valid AND date IS NOT NULL"
        rows += f" AND {column} IS NOT NULL"
        best = _all(
            f"SELECT {column}, count(*) AS n FROM {rows} AND year(date) // 10 = "
            f"(SELECT min(year(date) // 10) FROM {rows}) GROUP BY ALL ORDER BY n DESC, {column} LIMIT 1"
        )
        assert first[1] == f"{best[0][0]} ({best[0][1]:,})", what
    cited = found["The 20 most cited URLs"]
    first = cited[0]
    most = _query(
        made.dataset, "SELECT count(*) AS n FROM rows WHERE valid GROUP BY url ORDER BY n DESC LIMIT 1"
    )
    assert _number(first[1]) == most


def test_the_strict_and_modern_table_counts_what_stats_counts(
    made: Made, report: Run, tmp_path: Path
) -> None:
    """Its modern-takes column sums to --stats' "of the rejected are valid by today's rules": the
    same candidates judged by the same rule, once by the scan and once by DuckDB's UDF."""
    text = _page(report, tmp_path / "all.html", "--from", str(made.dataset), "--top", "1000")
    rows = tables(text)["Strict and modern, by the strict reason"]
    taken = sum(_number(row[2]) for row in rows)
    assert all(_number(row[1]) == _number(row[2]) + _number(row[3]) for row in rows)
    stats = _scan("--stats", *CORPUS).stderr
    said = re.search(r"urlsift: +([\d,]+) of the rejected are valid by today's rules", stats)
    assert said is not None, stats
    assert taken == _number(said[1]) > 0


def test_a_jsonl_dataset_and_a_parquet_file_give_the_same_figures(
    made: Made, report: Run, tmp_path: Path
) -> None:
    lines = tmp_path / "rows.jsonl"
    _scan("--format", "jsonl", "--invalid", "--output", str(lines), *CORPUS)
    scanned = totals(made.page.read_text(encoding="utf-8"))
    for source in (lines, next(made.dataset.glob("part-*.parquet"))):
        text = _page(report, tmp_path / f"{source.name}.html", "--from", str(source))
        shown = totals(text)
        for key in (
            "urls",
            "distinct_urls",
            "hosts",
            "rejected",
            "dated",
            "files_with_rows",
            "messages_with_rows",
        ):
            assert shown[key] == scanned[key], (source, key)
        assert shown["files_read"] is None
        assert shown["problems"] is None
        assert "holds no record of the problems" in text


def _page(report: Run, page: Path, *arguments: str) -> str:
    """The page ``urlsift report ARGUMENTS -o PAGE`` writes (exit 0)."""
    done = report(*arguments, "-o", str(page))
    assert done.returncode == 0, done.stderr
    return page.read_text(encoding="utf-8")


def _main(page: str) -> str:
    """The page's sections but the last (the command line that made it)."""
    body = page[page.index("<main>") :]
    return body[: body.index('<section aria-labelledby="made">')]


def test_the_page_of_a_kept_dataset_is_the_page_of_its_scan(made: Made, report: Run, tmp_path: Path) -> None:
    again = _page(report, tmp_path / "again.html", "--from", str(made.dataset))
    assert _main(again) == _main(made.page.read_text(encoding="utf-8"))
    assert "The dataset was scanned by: " in again  # and by what command


def test_a_damaged_file_is_on_the_page_and_the_exit_status_says_it(report: Run, tmp_path: Path) -> None:
    packed = gzip.compress((ROOT / "corpora/mail/r-devel-1997-May.mbox").read_bytes())
    cut = tmp_path / "cut.mbox.gz"
    cut.write_bytes(packed[: len(packed) // 3])
    page = tmp_path / "cut.html"
    done = report("--no-progress", "-o", str(page), str(cut))
    assert done.returncode == 2, done.stderr
    text = page.read_text(encoding="utf-8")
    shown = totals(text)
    assert shown["lost"] == 1
    assert shown["damaged"] == 1
    assert shown["urls"]
    kinds = {row[0]: row for row in tables(text)["Problems by kind"]}
    assert kinds["corrupt"][3] == "yes"  # input lost
    assert tables(text)["The inputs with the most problems"][0][0] == str(cut)


def _two_rows(path: Path, **columns: list[Any]) -> Path:
    """A Parquet file of two valid rows with these columns (the others plain), as urlsift writes them."""
    rows: dict[str, list[Any]] = {name: [None, None] for name in SCHEMA.names}
    rows.update(alternatives=[[], []], valid=[True, True], naked=[True, True], line=[1, 2], column=[1, 1])
    rows.update(message=[0, 1], start=[0, 0], end=[1, 1], quote_depth=[0, 0], source=["a", "a"])
    rows.update(columns)
    pq.write_table(pa.table(rows, schema=SCHEMA), path)
    return path


def test_a_date_of_year_1_draws_no_thousand_empty_years(report: Run, tmp_path: Path) -> None:
    dates = [datetime(1, 1, 1), datetime(9999, 12, 31)]
    data = _two_rows(
        tmp_path / "dates.parquet", url=["http://a/", "http://b/"], scheme=["http"] * 2, date=dates
    )
    text = _page(report, tmp_path / "dates.html", "--from", str(data))
    assert [row[0] for row in tables(text)["Per year"]] == ["1", "9999"]
    assert len(text) < 150_000  # (with every year between: 4 MB)


def test_what_an_archive_holds_is_escaped_and_links_only_archive_addresses(
    report: Run, tmp_path: Path
) -> None:
    hostile = "<script>alert(1)</script>"
    data = _two_rows(
        tmp_path / "hostile.parquet",
        url=[f"http://x.example/{hostile}", f"javascript:{hostile}"],
        scheme=["http", "javascript"],
        source=[f"<b>{hostile}", "a"],
        message_id=[f'<"{hostile}@x>', "<y@x>"],
        date=[datetime(2001, 2, 3), datetime(1999, 1, 1)],
        part=[f"X-{hostile}", "0 text/plain"],
        host=[f"<img src=x onerror=alert(1)>{hostile}", None],
        registered_domain=[hostile, None],
    )
    text = _page(report, tmp_path / "hostile.html", "--from", str(data), "--title", hostile)
    assert "<script" not in text
    assert "<img" not in text
    assert "<b>" not in text
    assert text.count("&lt;script&gt;") > 5
    links = re.findall(r'href="([^"]*)"', text)
    assert links
    assert all(link.startswith(("#", "https://web.archive.org/web/")) for link in links), links
    assert "https://web.archive.org/web/20010203000000/http://x.example/" in text  # only the http one
    assert "javascript:" not in " ".join(links)


def test_the_page_needs_nothing_but_itself(made: Made) -> None:
    text = made.page.read_text(encoding="utf-8")
    assert "<script" not in text
    assert "<link" not in text
    assert "<img" not in text
    assert "@import" not in text
    assert not re.search(r"\bsrc=", text)
    assert set(re.findall(r"url\((.)", text)) <= {"#"}  # an SVG's clip paths, in the page itself
    assert text.count('<figure class="chart">') >= 8


def test_schemes_keeps_the_rows_of_those_schemes_as_a_scan_prints_them(report: Run, tmp_path: Path) -> None:
    text = _page(report, tmp_path / "ftp.html", "--schemes", "ftp,http", "corpora/rfc/rfc1738.txt")
    printed = _scan("--schemes", "ftp,http", "--invalid", "corpora/rfc/rfc1738.txt").stdout.splitlines()
    assert {row[0] for row in tables(text)["URLs by scheme"]} == {"ftp", "http"}
    shown = totals(text)
    assert (shown["urls"] or 0) + (shown["rejected"] or 0) == len(printed) > 0


def test_top_bounds_every_list(made: Made, report: Run, tmp_path: Path) -> None:
    text = _page(report, tmp_path / "three.html", "--from", str(made.dataset), "--top", "3")
    found = tables(text)
    for caption in (
        "The top hosts: URLs in bodies and in headers",
        "The top registered domains: URLs in bodies and in headers",
        "URLs in each header",
        "The 3 most cited URLs",
    ):
        assert len(found[caption]) == 3, caption


def test_a_modern_report_lists_what_strict_rejects(report: Run, tmp_path: Path) -> None:
    dataset, mbox = tmp_path / "modern", str(ROOT / "corpora/mail/r-devel-2000-May.mbox")
    text = _page(
        report, tmp_path / "m.html", "--profile", "modern", "--dataset", str(dataset), "--top", "500", mbox
    )
    rows = tables(text)["Strict and modern, by the strict reason"]
    urls = _all(f"SELECT url FROM read_parquet('{dataset}/*.parquet') WHERE valid")
    refused = sum(not validate(url).valid for (url,) in urls)  # the oracle: one URL at a time
    assert sum(_number(row[1]) for row in rows) == refused > 0


def test_wayback_addresses() -> None:
    when = datetime(1996, 12, 7, 6, 42, 36)
    assert _wayback("http://a/", "http", "a", when) == "https://web.archive.org/web/19961207064236/http://a/"
    assert _wayback("ftp://a/", "ftp", "a", None) == "https://web.archive.org/web/*/ftp://a/"
    assert _wayback("www.a.org/", None, "www.a.org", when) == (
        "https://web.archive.org/web/19961207064236/http://www.a.org/"
    )
    assert _wayback("mailto:a@b", "mailto", "b", when) is None


@pytest.mark.parametrize("missing", ["duckdb", "matplotlib"])
def test_a_missing_extra_is_one_line_naming_it(missing: str, tmp_path: Path) -> None:
    program = f"import sys; sys.modules[{missing!r}] = None; from urlsift.cli import main; sys.exit(main())"
    page = tmp_path / "page.html"
    for arguments in (["corpora/rfc/rfc1738.txt"], ["--from", "corpora/rfc/rfc1738.txt"]):
        done = subprocess.run(
            [sys.executable, "-c", program, "report", "-o", str(page), *arguments],
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
        )
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1, done.stderr
        assert "pip install 'urlsift[report]'" in done.stderr
        assert missing in done.stderr
        assert not page.exists()


def test_wrong_arguments_are_one_line(made: Made, report: Run, tmp_path: Path) -> None:
    page = str(tmp_path / "page.html")
    done = report("--from", str(made.dataset), "-o", page, "corpora/rfc")
    assert done.returncode == 2
    assert "--from reads a dataset written before" in done.stderr
    done = report("--dataset", str(made.dataset), "-o", page, "corpora/rfc")
    assert (done.returncode, done.stderr) == (
        2,
        f"urlsift: {made.dataset}: the dataset folder is not empty\n",
    )
    done = report("--from", str(tmp_path / "nothing"), "-o", page)
    assert (done.returncode, done.stderr) == (2, f"urlsift: {tmp_path / 'nothing'}: no such file or folder\n")
    done = report("--from", str(made.page), "-o", page)
    assert done.returncode == 2
    assert done.stderr.startswith(f"urlsift: {made.page}: not a dataset urlsift wrote")
    assert done.stderr.count("\n") == 1
    done = report("corpora/rfc")
    assert done.returncode == 2
    assert "-o/--output" in done.stderr
    assert not Path(page).exists()


def test_an_archive_with_no_url_makes_a_page_that_says_so(report: Run, tmp_path: Path) -> None:
    empty = tmp_path / "plain.txt"
    empty.write_text("No links here.\n", encoding="utf-8")
    page = tmp_path / "empty.html"
    done = report("-o", str(page), str(empty))
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert totals(text)["urls"] == 0
    assert totals(text)["files_read"] == 1
    assert "none in this dataset" in text
    assert "<figure" not in text


def test_chart_labels_are_plain_text_not_math() -> None:
    # A "$...$" in a label is what an archive holds: matplotlib's math text crashed on "$a__b$".
    from urlsift.report_page import _Charts

    def draw(figure: Any) -> None:
        axes = figure.subplots()
        axes.barh(["mailto:a@example.org?subject=$a__b$", "a$b$c"], [1, 2])

    drawn = re.findall(r"<text[^>]*>([^<]*)</text>", _Charts().svg(draw, "labels"))
    assert {"mailto:a@example.org?subject=$a__b$", "a$b$c"} <= set(drawn)


def test_a_dataset_of_another_schema_or_impossible_dates_is_one_line(report: Run, tmp_path: Path) -> None:
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"name": ["a"], "size": [1]}), other)
    dates = tmp_path / "dates.jsonl"
    dates.write_text(
        json.dumps({"url": "http://a/", "valid": True, "date": "-0001-01-01T00:00:00Z"}) + "\n",
        encoding="utf-8",
    )
    for dataset in (other, dates):
        done = report("--from", str(dataset), "-o", str(tmp_path / "page.html"))
        assert done.returncode == 2
        assert done.stderr.startswith(f"urlsift: {dataset}: not a dataset urlsift wrote ("), done.stderr
        assert done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "option", [["--no-naked"], ["-j", "2"], ["--input-format", "mbox"], ["--include", "*.x"]]
)
def test_from_refuses_the_scans_other_options(
    made: Made, report: Run, tmp_path: Path, option: list[str]
) -> None:
    page = tmp_path / "page.html"
    done = report("--from", str(made.dataset), *option, "-o", str(page))
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith("says how to scan, not what to show"), done.stderr
    assert not page.exists()


@pytest.mark.parametrize(
    "option",
    [
        ["--host", "stat.math.ethz.ch", "--host", "r-project.org"],
        ["--since-date", "2000", "--until-date", "2020-06"],
        ["--schemes", "ftp,mailto"],
        ["--parts", "headers"],
        ["--parts", "body"],
        ["--max-quote-depth", "0"],
    ],
)
def test_from_keeps_the_rows_a_scan_with_the_same_filters_keeps(
    made: Made, report: Run, tmp_path: Path, option: list[str]
) -> None:
    text = _page(report, tmp_path / "page.html", "--from", str(made.dataset), *option)
    scanned = [
        json.loads(line)
        for line in _scan("--format", "jsonl", "--invalid", *option, *CORPUS).stdout.splitlines()
    ]
    valid = sum(row["valid"] for row in scanned)
    assert valid
    assert (totals(text)["urls"], totals(text)["rejected"]) == (valid, len(scanned) - valid)
    assert valid < totals(made.page.read_text(encoding="utf-8"))["urls"]  # (the filter filtered)


def test_the_page_never_replaces_an_input(report: Run, tmp_path: Path) -> None:
    mbox = tmp_path / "in.mbox"
    mbox.write_bytes((ROOT / "corpora/rfc/rfc1738.txt").read_bytes())
    data = _two_rows(tmp_path / "rows.parquet", url=["http://a/", "http://b/"], scheme=["http"] * 2)
    kept = data.read_bytes()
    for arguments in (
        [str(mbox), "-o", str(mbox)],
        [str(tmp_path), "-o", str(mbox)],
        ["--from", str(data), "-o", str(data)],
        ["--from", str(tmp_path), "-o", str(data)],
    ):
        done = report("--no-progress", *arguments)
        assert done.returncode == 2
        assert "the page would replace what it is made of" in done.stderr.splitlines()[-1], done.stderr
    assert mbox.read_bytes() == (ROOT / "corpora/rfc/rfc1738.txt").read_bytes()
    assert data.read_bytes() == kept


def test_the_problems_are_said_on_stderr_as_a_scan_says_them(report: Run, tmp_path: Path) -> None:
    packed = gzip.compress((ROOT / "corpora/mail/r-devel-1997-May.mbox").read_bytes())
    cut = tmp_path / "cut.mbox.gz"
    cut.write_bytes(packed[: len(packed) // 3])
    missing = tmp_path / "missing.mbox"
    done = report("--no-progress", "-o", str(tmp_path / "page.html"), str(cut), str(missing))
    scan = subprocess.run(
        [sys.executable, "-m", "urlsift", str(cut), str(missing)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == scan.returncode == 2
    said = {line for line in scan.stderr.splitlines() if "more warning" not in line}
    assert said
    assert said <= set(done.stderr.splitlines()), done.stderr


def test_an_outlying_year_is_left_out_of_the_chart_and_said(report: Run, tmp_path: Path) -> None:
    mbox = tmp_path / "outlier.mbox"
    mbox.write_text(
        "".join(
            f"From a@example.org Thu Jan  1 00:00:00 1998\nDate: Thu, 1 Jan {year} 00:00:00 +0000\n\n"
            f"<http://example.org/{year}>\n\n"
            for year in (1998, 1998, 2001, 9998)
        ),
        encoding="utf-8",
    )
    page = tmp_path / "outlier.html"
    done = report("--no-progress", "-o", str(page), str(mbox))
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert [row[0] for row in tables(text)["Per year"]] == ["1998", "2001", "9998"]
    chart = text[text.index('id="years"') :]
    chart = chart[: chart.index("</svg>")]
    ticks = [int(label) for label in re.findall(r"<text[^>]*>(\d+)</text>", chart)]
    assert 1998 in ticks
    assert max(ticks) <= 2001
    assert "The chart shows the years 1998 to 2001: 1 URL in messages dated outside them (years 9998" in text
    assert "9990s" not in text  # nor in the decades' lists


def test_the_page_to_standard_output_and_bounds_of_the_arguments(report: Run, tmp_path: Path) -> None:
    done = report("--no-progress", "-o", "-", "corpora/rfc/rfc1738.txt")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<!DOCTYPE html>")
    assert totals(done.stdout)["urls"]
    for arguments, said in (
        (["--top", "1001"], "(1 to 1,000)"),
        (["--from", "-"], "not standard input"),
    ):
        done = report(*arguments, "-o", str(tmp_path / "page.html"))
        assert done.returncode == 2
        assert said in done.stderr.splitlines()[-1], done.stderr


def test_sigterm_removes_the_temporary_dataset_as_ctrl_c_does(tmp_path: Path) -> None:
    import os
    import signal
    import time

    env = {**os.environ, "TMPDIR": str(tmp_path)}
    command = [
        sys.executable,
        "-m",
        "urlsift",
        "report",
        "--no-progress",
        "-o",
        str(tmp_path / "p.html"),
        "-",
    ]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env
    ) as running:
        assert running.stdin is not None
        running.stdin.write(b"http://example.org/\n")  # (and the pipe held open: the scan waits)
        running.stdin.flush()
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob("urlsift-report-*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list(tmp_path.glob("urlsift-report-*"))
        running.send_signal(signal.SIGTERM)
        running.wait(timeout=60)
    assert running.returncode != 0
    assert not list(tmp_path.glob("urlsift-report-*"))
    assert not (tmp_path / "p.html").exists()


def test_a_dataset_inside_a_scanned_folder_is_refused(report: Run, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("http://example.org/\n", encoding="utf-8")
    done = report(
        "--no-progress", "--dataset", str(tmp_path / "ds"), "-o", str(tmp_path / "p.html"), str(tmp_path)
    )
    assert done.returncode == 2
    assert "it would be scanned as it is written" in done.stderr.splitlines()[-1], done.stderr
    assert not (tmp_path / "ds").exists()


def test_a_dataset_with_no_record_says_its_profile_is_the_options(report: Run, tmp_path: Path) -> None:
    data = _two_rows(tmp_path / "rows.parquet", url=["http://a/", "http://b/"], scheme=["http"] * 2)
    text = _page(report, tmp_path / "p.html", "--from", str(data))
    assert "judged by the strict profile (as --profile says: the dataset does not record which" in text


def test_a_binary_file_met_in_a_folder_is_skipped_unsaid_as_a_scan_skips_it(
    report: Run, tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("http://example.org/\n", encoding="utf-8")
    (folder / "b.bin").write_bytes(b"http://example.org/\0\1\2")
    done = report("--no-progress", "-j", "999", "-o", str(tmp_path / "p.html"), str(folder))
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"urlsift: -j 999: more processes than the {os.cpu_count()} cores here"
    ]
    done = report("--no-progress", "-o", str(tmp_path / "p.html"), str(folder / "b.bin"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"urlsift: {folder / 'b.bin'}: binary: ")
