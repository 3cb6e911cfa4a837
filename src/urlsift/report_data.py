"""The figures of ``urlsift report``'s page, asked of DuckDB over a dataset's columns (issue 33).

Every number on the page is one of these queries' answers: DuckDB reads the Parquet (or JSON-lines)
files column by column and spills to disk past ``memory``, so a dataset of any size is summed up
in bounded memory, and Python holds only the answers (a few top-N lists). The one step that is
Python's is judging the rejected candidates by the other profile (``_other_profile``): DuckDB
hands it each distinct candidate once, in Arrow batches.
"""

from __future__ import annotations

import glob
import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .dates import WAYBACK
from .errors import Error
from .grammar import STRICT
from .hosts import ARCHIVED
from .rows import Filters
from .validate import validate

if TYPE_CHECKING:
    import duckdb

PER_DECADE = 10
"""The registered domains listed for each decade."""


RUN_FILE = "run.json"
"""A dataset's record of the run that wrote it: the counts (``Tally``), the profile, the command."""
REPORTS_FOLDER = "reports"
"""A dataset's reports (``rows.Report``'s columns), in a folder of their own: a query of the rows'
``DIR/*.parquet`` never meets them."""


@dataclass(frozen=True)
class Run:
    """What ``DIR/run.json`` records of the scan that wrote a dataset."""

    profile: str
    command: str
    version: str
    tally: dict[str, int]

    def save(self, directory: str) -> None:
        with open(os.path.join(directory, RUN_FILE), "w", encoding="utf-8") as out:
            json.dump(asdict(self), out, indent=1)

    @classmethod
    def load(cls, directory: str) -> Run | None:
        path = os.path.join(directory, RUN_FILE)
        if not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8") as held:
            found = json.load(held)
        return cls(str(found["profile"]), str(found["command"]), str(found["version"]), dict(found["tally"]))


class NoDataset(Error, ValueError):
    """``--from`` names nothing a dataset is made of (said in one line, exit 2)."""


@dataclass(frozen=True)
class Table:
    """A query's answer: its column names and rows (a top-N list: short)."""

    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]


@dataclass(frozen=True)
class Totals:
    """The page's first table. ``files_read`` ... are the scan's counts (``run.json``): None for a
    dataset that has none; the rest are counted in the rows."""

    urls: int
    distinct_urls: int
    hosts: int
    rejected: int
    files_with_rows: int
    messages_with_rows: int
    dated: int
    """Valid URLs whose message has a date (those the per-year figures count)."""
    problems: int | None
    damaged: int | None
    """Inputs (files or archive members) with a problem reported; None: the dataset has no reports."""
    lost: int | None
    """Of those, the ones where input went unscanned."""
    files_read: int | None = None
    messages_read: int | None = None
    bytes_read: int | None = None


@dataclass(frozen=True)
class Figures:
    """What the page shows, each an answer of the dataset's DuckDB queries."""

    totals: Totals
    profile: str
    top: int
    years: Table
    hosts: Table
    domains: Table
    decades: Table
    """The top registered domains of each decade (``_per_decade``)."""
    schemes: Table
    places: Table
    headers: Table
    reasons: Table
    other_profile: Table
    quote_depth: Table
    cited: Table
    report_kinds: Table
    report_files: Table
    host_decades: Table = Table((), [])
    """The top hosts of each decade."""
    run_command: str | None = None
    notes: list[str] = field(default_factory=list)


def figures(
    dataset: str,
    *,
    profile: str = STRICT.name,
    top: int = 20,
    memory: int = 500 * 10**6,
    kept: Filters | None = None,
    schemes: frozenset[str] | None = None,
) -> Figures:
    """The figures of ``dataset`` (a folder of Parquet files, one Parquet file or a JSON-lines
    file), whose rows were judged by ``profile``; each list ``top`` long; of its rows, those
    ``kept`` keeps (D38, on the columns) of ``schemes`` (None: all)."""
    import duckdb

    connection = duckdb.connect(config={"memory_limit": f"{max(memory // 10**6, 50)}MB"})
    try:
        with _temporary(connection):
            run, has_reports = _views(connection, dataset, _kept(kept, schemes))
            _check_dates(connection, dataset)
            if run is not None:
                profile = run.profile
            return _figures(connection, profile, top, run, has_reports)
    except duckdb.Error as error:  # columns missing or of other types, files not Parquet or JSON
        said = str(error).strip().splitlines()
        raise NoDataset(f"{dataset}: not a dataset urlsift wrote ({said[0] if said else error})") from None
    finally:
        connection.close()


class _temporary:
    """DuckDB's spill folder: a temporary one, removed at the end."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        import tempfile

        self.connection = connection
        self.folder = tempfile.TemporaryDirectory(prefix="urlsift-duckdb-")

    def __enter__(self) -> None:
        self.connection.execute(f"SET temp_directory = '{_quoted(self.folder.name)}'")
        self.connection.execute("SET preserve_insertion_order = false")

    def __exit__(self, *exc: object) -> None:
        self.folder.cleanup()


def _quoted(text: str) -> str:
    return text.replace("'", "''")


_PARQUET_COLUMNS = (
    "url, valid, scheme, host, registered_domain, date, source, member, message, message_id, part, error, "
    "quote_depth"
)

_JSON_COLUMNS = {
    "url": "VARCHAR",
    "valid": "BOOLEAN",
    "scheme": "VARCHAR",
    "host": "VARCHAR",
    "registered_domain": "VARCHAR",
    "date": "VARCHAR",
    "source": "VARCHAR",
    "member": "VARCHAR",
    "message": "BIGINT",
    "message_id": "VARCHAR",
    "part": "VARCHAR",
    "error": "VARCHAR",
    "quote_depth": "BIGINT",
}


def _kept(kept: Filters | None, schemes: frozenset[str] | None) -> str:
    """The SQL condition of the rows a scan with these filters (``rows.Filters``) and ``--schemes``
    would have kept, over a dataset's columns; "true" with none."""
    said = []
    if schemes is not None:  # (a row with no scheme is left out, as a scan's --schemes leaves it)
        said.append(f"scheme IN ({', '.join(_literal(scheme) for scheme in sorted(schemes))})")
    if kept is not None:
        if kept.parts != "all":
            said.append("in_header" if kept.parts == "headers" else "NOT in_header")
        if kept.hosts:
            hosts = " OR ".join(
                f"host = {_literal(host)} OR ends_with(host, {_literal('.' + host)})" for host in kept.hosts
            )
            said.append(f"coalesce({hosts}, false)")
        for bound, sign in ((kept.since, ">="), (kept.until, "<")):
            if bound is not None:  # (the dates are UTC, with no zone, as parquet.SCHEMA has them)
                naive = bound.astimezone(UTC).replace(tzinfo=None) if bound.tzinfo else bound
                said.append(f"coalesce(date {sign} TIMESTAMP '{naive.isoformat(sep=' ')}', false)")
        if kept.max_quote_depth is not None:
            said.append(f"coalesce(quote_depth <= {int(kept.max_quote_depth)}, true)")
    return " AND ".join(f"({condition})" for condition in said) or "true"


def _literal(text: str) -> str:
    return f"'{_quoted(text)}'"


def _views(
    connection: duckdb.DuckDBPyConnection, dataset: str, kept: str = "true"
) -> tuple[Run | None, bool]:
    """The views ``found`` (the rows ``kept`` keeps, typed as the Parquet output types them) and
    ``reports``; the run's record and whether there are reports, where the dataset has them."""
    run: Run | None = None
    reports: list[str] = []
    if os.path.isdir(dataset):
        files = sorted(glob.glob(os.path.join(glob.escape(dataset), "*.parquet")))
        if not files:
            raise NoDataset(
                f"{dataset}: no Parquet files in this folder (urlsift --format parquet writes them)"
            )
        rows = f"read_parquet({_list(files)})"
        run = Run.load(dataset)
        reports = sorted(glob.glob(os.path.join(glob.escape(dataset), REPORTS_FOLDER, "*.parquet")))
    elif not os.path.isfile(dataset):
        raise NoDataset(f"{dataset}: no such file or folder")
    elif dataset.endswith(".parquet"):
        rows = f"read_parquet({_list([dataset])})"
    else:
        columns = ", ".join(f"{name}: '{kind}'" for name, kind in _JSON_COLUMNS.items())
        rows = (
            f"(SELECT * REPLACE (TRY_CAST(replace(date, 'Z', '') AS TIMESTAMP) AS date) FROM "
            f"read_json('{_quoted(dataset)}', format = 'newline_delimited', columns = {{{columns}}}))"
        )
    # in_header: a header's URL (the part column names the header; a MIME part is "N type").
    connection.execute(
        f"CREATE VIEW found AS SELECT * FROM (SELECT {_PARQUET_COLUMNS}, "
        "coalesce(part IS NOT NULL AND NOT regexp_matches(part, '^[0-9]+ '), false) AS in_header "
        f"FROM {rows}) WHERE {kept}"
    )
    if reports:
        connection.execute(
            "CREATE VIEW reports AS SELECT *, regexp_replace(place, '#[0-9]+$', '') AS input "
            f"FROM read_parquet({_list(reports)})"
        )
    return run, bool(reports) or run is not None


def _check_dates(connection: duckdb.DuckDBPyConnection, dataset: str) -> None:
    """NoDataset when a date lies outside years 1 to 9999: no message's Date header gives one
    (``dates`` drops them), and Python's datetime holds none."""
    found = connection.execute(
        "SELECT min(date) FROM found WHERE date IS NOT NULL AND NOT (year(date) BETWEEN 1 AND 9999)"
    ).fetchone()
    if found is not None and found[0] is not None:
        raise NoDataset(
            f"{dataset}: not a dataset urlsift wrote (a date outside years 1 to 9999: {found[0]})"
        )


def _list(paths: Sequence[str]) -> str:
    return "[" + ", ".join(f"'{_quoted(path)}'" for path in paths) + "]"


def _table(connection: duckdb.DuckDBPyConnection, sql: str, parameters: Sequence[Any] = ()) -> Table:
    result = connection.execute(sql, list(parameters))
    columns = tuple(column[0] for column in result.description or ())
    return Table(columns, result.fetchall())


def _one(connection: duckdb.DuckDBPyConnection, sql: str) -> tuple[Any, ...]:
    found = connection.execute(sql).fetchone()
    assert found is not None  # (an aggregate without GROUP BY has one row)
    return tuple(found)


_REASON = "regexp_replace(error, '^at [0-9]+ ', '')"
"""A rejected candidate's error less its position: what was wrong, and in which production."""


def _figures(
    connection: duckdb.DuckDBPyConnection, profile: str, top: int, run: Run | None, has_reports: bool
) -> Figures:
    (urls, distinct, hosts, rejected, files, messages, dated) = _one(
        connection,
        "SELECT count(*) FILTER (valid), count(DISTINCT url) FILTER (valid), "
        "count(DISTINCT host) FILTER (valid), count(*) FILTER (NOT valid), count(DISTINCT source), "
        "count(DISTINCT (source, member, message)), count(*) FILTER (valid AND date IS NOT NULL) FROM found",
    )
    problems = damaged = lost = None
    if has_reports:
        problems, damaged, lost = 0, 0, 0
        if _exists(connection, "reports"):
            problems, damaged, lost = _one(
                connection,
                "SELECT count(*), count(DISTINCT input), count(DISTINCT input) FILTER (lost_input) "
                "FROM reports",
            )
    tally = run.tally if run is not None else {}
    totals = Totals(
        urls,
        distinct,
        hosts,
        rejected,
        files,
        messages,
        dated,
        problems,
        damaged,
        lost,
        tally.get("files"),
        tally.get("messages"),
        tally.get("bytes"),
    )
    years = _table(
        connection,
        "SELECT year(date) AS year, count(*) AS urls, count(DISTINCT url) AS distinct_urls, "
        "count(DISTINCT host) AS hosts FROM found WHERE valid AND date IS NOT NULL "
        "GROUP BY year ORDER BY year",
    )
    by = (
        "SELECT {0}, count(*) AS urls, count(*) FILTER (NOT in_header) AS in_bodies, "
        "count(*) FILTER (in_header)"
    )
    hosts_table = _table(
        connection,
        by.format("host") + " AS in_headers FROM found WHERE valid AND host IS NOT NULL GROUP BY host "
        "ORDER BY urls DESC, host LIMIT ?",
        [top],
    )
    domains = _table(
        connection,
        by.format("registered_domain") + " AS in_headers FROM found WHERE valid AND registered_domain IS NOT "
        "NULL GROUP BY registered_domain ORDER BY urls DESC, registered_domain LIMIT ?",
        [top],
    )
    decades, host_decades = (_per_decade(connection, column) for column in ("registered_domain", "host"))
    schemes = _table(
        connection,
        "SELECT coalesce(scheme, '(none: www.)') AS scheme, count(*) AS urls, count(DISTINCT url) AS "
        "distinct_urls FROM found WHERE valid GROUP BY ALL ORDER BY urls DESC, scheme",
    )
    places = _table(
        connection,
        "SELECT CASE WHEN in_header THEN 'headers' ELSE 'bodies' END AS place, count(*) FILTER (valid) AS "
        "urls, count(DISTINCT url) FILTER (valid) AS distinct_urls, count(*) FILTER (NOT valid) AS "
        "rejected FROM found GROUP BY ALL ORDER BY place",
    )
    headers = _table(
        connection,
        "SELECT part AS header, count(*) AS urls, count(DISTINCT url) AS distinct_urls FROM found "
        "WHERE valid AND in_header GROUP BY ALL ORDER BY urls DESC, header LIMIT ?",
        [top],
    )
    reasons = _table(
        connection,
        f"SELECT {_REASON} AS reason, count(*) AS candidates, count(DISTINCT url) AS distinct_candidates "
        "FROM found WHERE NOT valid GROUP BY ALL ORDER BY candidates DESC, reason LIMIT ?",
        [top],
    )
    quote_depth = _table(
        connection,
        "SELECT quote_depth, count(*) AS urls, count(DISTINCT url) AS distinct_urls FROM found WHERE valid "
        "GROUP BY ALL ORDER BY quote_depth",
    )
    cited = _cited(connection, top)
    other = _other_profile(connection, profile, top)
    if has_reports and _exists(connection, "reports"):
        kinds = _table(
            connection,
            "SELECT kind, count(*) AS reports, count(DISTINCT input) AS inputs, bool_or(lost_input) AS "
            "input_lost FROM reports GROUP BY ALL ORDER BY reports DESC, kind",
        )
        files_table = _table(
            connection,
            "SELECT input, count(*) AS reports, string_agg(DISTINCT kind, ', ' ORDER BY kind) AS kinds, "
            "bool_or(lost_input) AS input_lost FROM reports GROUP BY ALL "
            "ORDER BY reports DESC, input LIMIT ?",
            [top],
        )
    else:
        kinds = Table(("kind", "reports", "inputs", "input_lost"), [])
        files_table = Table(("input", "reports", "kinds", "input_lost"), [])
    notes = []
    if not has_reports:
        notes.append(
            "This dataset holds no record of the problems met while it was read (only urlsift report's "
            "--dataset keeps them): the problems section is empty."
        )
    if rejected == 0:
        notes.append(
            "This dataset holds no rejected candidates: it was written without --invalid, or every "
            "candidate was valid."
        )
    return Figures(
        totals,
        profile,
        top,
        years,
        hosts_table,
        domains,
        decades,
        schemes,
        places,
        headers,
        reasons,
        other,
        quote_depth,
        cited,
        kinds,
        files_table,
        host_decades,
        None if run is None else run.command,
        notes,
    )


def _per_decade(connection: duckdb.DuckDBPyConnection, column: str) -> Table:
    """The top ``PER_DECADE`` values of ``column`` (a host or a registered domain) in each decade
    of the messages' dates: decade, value, URLs."""
    return _table(
        connection,
        f"SELECT decade, {column}, urls FROM (SELECT decade, {column}, urls, row_number() OVER (PARTITION "
        f"BY decade ORDER BY urls DESC, {column}) AS rank FROM (SELECT year(date) // 10 * 10 AS decade, "
        f"{column}, count(*) AS urls FROM found WHERE valid AND date IS NOT NULL AND {column} IS NOT NULL "
        f"GROUP BY ALL)) WHERE rank <= ? ORDER BY decade, urls DESC, {column}",
        [PER_DECADE],
    )


def _exists(connection: duckdb.DuckDBPyConnection, view: str) -> bool:
    found = connection.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [view]
    ).fetchone()
    return found is not None and found[0] > 0


def _cited(connection: duckdb.DuckDBPyConnection, top: int) -> Table:
    """The most cited valid URLs: how often, in how many messages, first and last (by date), the
    Message-IDs of the first and last message, and the Wayback Machine's address as of the first."""
    found = _table(
        connection,
        "WITH top AS (SELECT url, count(*) AS citations FROM found WHERE valid GROUP BY url "
        "ORDER BY citations DESC, url LIMIT ?) "
        "SELECT url, any_value(citations) AS citations, count(DISTINCT (source, member, message)) AS "
        "messages, min(date) AS first, max(date) AS last, arg_min(message_id, date) AS first_message_id, "
        "arg_max(message_id, date) AS last_message_id, any_value(scheme) AS scheme, any_value(host) AS host "
        "FROM found JOIN top USING (url) WHERE valid GROUP BY url ORDER BY citations DESC, url",
        [top],
    )
    rows = [(*row[:7], _wayback(row[0], row[7], row[8], row[3])) for row in found.rows]
    return Table((*found.columns[:7], "wayback"), rows)


def _wayback(url: str, scheme: str | None, host: str | None, first: datetime | None) -> str | None:
    """The Wayback Machine's address of ``url`` as of ``first`` (its list of copies with no date),
    for the schemes it holds; a modern ``www.`` URL is the http URL it stands for."""
    if scheme is None and host is not None:
        url = "http://" + url
    elif scheme not in ARCHIVED:
        return None
    when = "*" if first is None else f"{first.year:04}{first:%m%d%H%M%S}"
    return f"{WAYBACK}{when}/{url}"


def _other_profile(connection: duckdb.DuckDBPyConnection, profile: str, top: int) -> Table:
    """Strict against modern, by the strict profile's reason: with a strict dataset, of the rejected
    candidates (but for wrappers never closed, which no profile takes), those the modern profile
    takes; with a modern one, of its valid URLs, those strict rejects. Each distinct URL is judged
    once, by ``validate``, in DuckDB's Arrow batches."""
    import pyarrow as pa
    from duckdb.func import PythonUDFType

    other = "modern" if profile == STRICT.name else STRICT.name

    def judged(urls: Any) -> Any:  # (DuckDB reads these hints: no names of TYPE_CHECKING here)
        # "" where the other profile takes the URL, else its reason (DuckDB's UDFs return no NULL).
        said = []
        for url in urls.to_pylist():
            verdict = validate(url, profile=other)
            error = verdict.error
            said.append("" if error is None else f"({error.production}): {error.message}")
        return pa.array(said, pa.string())

    connection.create_function(
        "judged", judged, ["VARCHAR"], "VARCHAR", type=PythonUDFType.ARROW, side_effects=False
    )
    try:
        if profile == STRICT.name:
            sql = (
                "WITH rejected AS (SELECT url, " + _REASON + " AS reason FROM found WHERE NOT valid AND "
                "error NOT LIKE '% (wrapper): %'), judged AS (SELECT url, judged(url) AS other FROM "
                "(SELECT DISTINCT url FROM rejected)) SELECT reason, count(*) AS rejected, count(*) "
                "FILTER (other = '') AS modern_takes, count(*) FILTER (other <> '') AS rejected_by_both "
                "FROM rejected JOIN judged USING (url) GROUP BY ALL "
                "ORDER BY modern_takes DESC, rejected DESC, reason LIMIT ?"
            )
        else:
            sql = (
                "WITH judged AS (SELECT url, judged(url) AS other FROM (SELECT DISTINCT url FROM found "
                "WHERE valid)) SELECT other AS reason, count(*) AS strict_rejects FROM "
                "found JOIN judged USING (url) WHERE valid AND other <> '' GROUP BY ALL "
                "ORDER BY strict_rejects DESC, reason LIMIT ?"
            )
        return _table(connection, sql, [top])
    finally:
        connection.remove_function("judged")
