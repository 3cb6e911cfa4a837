"""Rows -> Parquet files (``--format parquet --output DIR``), typed for DuckDB, pandas and Spark:
the jsonl columns (``rows.FIELDS``) with ``date`` a timestamp (in UTC, with no zone: D38) and
``alternatives`` a list.
``pyarrow`` is an optional extra (``pip install urlsift[parquet]``); this module is imported only
when it is used.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .dates import utc
from .errors import MissingExtra
from .escaping import surrogates_escaped
from .rows import FIELDS, Row

if TYPE_CHECKING:
    import pandas

try:
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq
except ImportError as error:  # pragma: no cover (the extra is installed where tests run)
    raise MissingExtra(f"Parquet output needs pyarrow ({error})", "parquet") from None

SCHEMA = pa.schema(
    [
        ("url", pa.string()),
        ("alternatives", pa.list_(pa.field("element", pa.string()))),  # Parquet's name for an item
        ("valid", pa.bool_()),
        ("scheme", pa.string()),
        ("wrapper", pa.string()),
        ("naked", pa.bool_()),
        ("line", pa.int64()),
        ("column", pa.int64()),
        ("source", pa.string()),
        ("member", pa.string()),
        ("message", pa.int64()),
        ("offset", pa.int64()),
        ("message_id", pa.string()),
        # In UTC, with no zone: a zone made DuckDB's fetchall() need pytz, which no extra installs
        # (D38). Parquet has no seconds unit.
        ("date", pa.timestamp("us")),
        ("newsgroups", pa.string()),
        ("part", pa.string()),
        ("error", pa.string()),
        ("canonical", pa.string()),
        ("count", pa.int64()),
        ("start", pa.int64()),
        ("end", pa.int64()),
        ("quote_depth", pa.int64()),
        ("context", pa.string()),
        ("wayback", pa.string()),
        ("host", pa.string()),
        ("host_unicode", pa.string()),
        ("registered_domain", pa.string()),
        ("surt", pa.string()),
        ("date_header", pa.string()),
    ]
)
if tuple(SCHEMA.names) != FIELDS:  # one column list, the jsonl's
    raise ImportError("urlsift.parquet's columns are not rows.FIELDS")
_DATE = FIELDS.index("date")
ROW_GROUP = 1 << 16
FILE_ROWS = 1 << 20
"""Rows per file: a file is closed and the next begun after this many (``part-00000.parquet`` ...)."""


def table(rows: Sequence[Row]) -> pa.Table:
    """Rows as an Arrow table of SCHEMA."""
    columns = [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in FIELDS]
    columns[_DATE] = [utc(date) for date in columns[_DATE]]
    return pa.Table.from_arrays(
        [column(values, kind) for values, kind in zip(columns, SCHEMA.types, strict=True)], schema=SCHEMA
    )


def column(values: list[Any], kind: pa.DataType) -> pa.Array:
    """One column's values as an Arrow array of ``kind`` (``batches.Batch.to_arrow`` makes its
    columns with it too)."""
    try:
        return pa.array(values, type=kind)
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 holds it, the six characters "\udXXX" do
        return pa.array([_held(value) for value in values], type=kind)


def _held(value: Any) -> Any:
    """``value`` with its lone surrogates written as ``escaping.surrogates_escaped`` writes them."""
    if isinstance(value, str):
        return surrogates_escaped(value)
    if isinstance(value, tuple | list):
        return [_held(item) for item in value]
    return value


def frame(records: Sequence[dict[str, Any]]) -> pandas.DataFrame:
    """Row records (``Row._asdict``) as a pandas DataFrame with SCHEMA's types (Arrow-backed)."""
    import pandas

    rows = [Row(**{**found, "alternatives": tuple(found["alternatives"])}) for found in records]
    return table(rows).to_pandas(types_mapper=pandas.ArrowDtype)


def meta() -> pandas.DataFrame:
    """An empty frame with the columns and types of ``frame`` (what Dask needs to know of them)."""
    return frame([])


def kept(rows: pa.Table, schemes: frozenset[str] | None) -> tuple[pa.Table, bool]:
    """The rows of ``schemes`` (all when None: ``--schemes``, as ``output.Printing.selected``
    keeps them), and whether one of them is a valid URL."""
    if schemes is not None:
        rows = rows.filter(pc.is_in(rows["scheme"], value_set=pa.array(sorted(schemes), pa.string())))
    return rows, bool(pc.any(rows["valid"]).as_py())


class ParquetSink:
    """Writes rows to ``directory`` as ``part-00000.parquet``, ``part-00001.parquet`` ...,
    ``file_rows`` rows a file in row groups of ``row_group``. The directory must be new or empty,
    so that no file of an earlier run is read with this one's."""

    def __init__(self, directory: str, *, file_rows: int = FILE_ROWS, row_group: int = ROW_GROUP) -> None:
        if os.path.isdir(directory) and os.listdir(directory):
            raise FileExistsError(f"{directory}: the output folder is not empty")
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        self.file_rows, self.row_group = file_rows, row_group
        self.files = 0
        self._rows: list[Row] = []
        self._held: pa.Table | None = None  # rows given as a table (``write_table``), not written yet
        self._in_file = 0
        self._writer: pq.ParquetWriter | None = None

    def write(self, row: Row) -> None:
        self._rows.append(row)
        if len(self._rows) >= self.row_group:
            self._flush()

    def write_table(self, found: pa.Table) -> None:
        """Rows as an Arrow table of ``SCHEMA`` (``Batch.to_arrow``: no Python object a row), cut
        into the same row groups and files as ``write`` cuts rows given one at a time."""
        held = [] if self._held is None else [self._held]
        if self._rows:  # (a run gives its rows one way or the other; both, they stay in order)
            held.append(table(self._rows))
            self._rows = []
        joined = pa.concat_tables([*held, found])
        while joined.num_rows >= self.row_group:
            self._write(joined.slice(0, self.row_group))
            joined = joined.slice(self.row_group)
        self._held = joined

    def _flush(self) -> None:
        rows = table(self._rows)
        self._rows = []
        if self._held is not None:
            rows, self._held = pa.concat_tables([self._held, rows]), None
        self._write(rows)

    def _write(self, rows: pa.Table) -> None:
        if self._writer is None:
            name = os.path.join(self.directory, f"part-{self.files:05}.parquet")
            self._writer = pq.ParquetWriter(name, SCHEMA)
            self.files += 1
        self._writer.write_table(rows, row_group_size=self.row_group)
        self._in_file += rows.num_rows
        if self._in_file >= self.file_rows:
            self._writer.close()
            self._writer, self._in_file = None, 0

    def close(self) -> None:
        """Writes what is left; a run that found nothing leaves one file with no rows (and the
        columns), so that a query over the folder still runs."""
        if self._rows or (self._held is not None and self._held.num_rows) or self.files == 0:
            self._flush()
        if self._writer is not None:
            self._writer.close()
            self._writer = None
