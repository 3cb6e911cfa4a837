"""``urlsift report``'s page (issue 33): ``report_data.Figures`` as one self-contained HTML file.

No script, no font, no file or address the page needs besides itself: the styles are inline, each
chart is an inline SVG drawn by matplotlib (text left as text, so that it is searchable, readable
by a screen reader, and set in the page's font), and each chart has a plain table beside it with
the same numbers. Colours are the Okabe-Ito palette (told apart by colour-blind readers), two
series differ in lightness and hatching too (grey print). The layout is one column of sections
under a table of contents; a chart and its table sit side by side on a wide screen, one under the
other below 900 px, and print one section after another.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from ._version import __version__
from .report_data import Figures, Table

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

DARK = "#0072B2"
"""Okabe-Ito blue: a chart's one series, or the first of two (dark in grey print)."""
LIGHT = "#E69F00"
"""Okabe-Ito orange: the second series (light in grey print, and hatched)."""
INK = "#1a1a1a"
NARROW, WIDE = 6.4, 10.0
"""A chart's width beside a table, and across the page (inches: its text comes out the same size)."""
MAX_SPAN = 200
"""The most years the years' chart spans, empty ones included."""
FIRST_YEAR = 1970
"""No mail or news message is older: a Date header before it (year 1, the Unix epoch's 0 read as a
year) is a wrong one, left out of the years' chart (not of its table)."""
OUTLIERS = 0.001
"""The share of dated URLs the years' chart may leave out at its two ends together, as outliers."""
_NONE = "\N{EN DASH}"
"""A cell with no value."""
_LABEL = 42
"""A chart's label longer than this is cut (the table beside it has it whole)."""

_SECTIONS = (
    ("about", "How to read this page"),
    ("totals", "Totals"),
    ("years", "Links per year"),
    ("hosts", "Hosts and domains"),
    ("schemes", "Schemes"),
    ("places", "Headers and bodies"),
    ("rejected", "Rejected candidates"),
    ("profiles", "Strict and modern"),
    ("quoting", "Quote depth"),
    ("cited", "Most cited URLs"),
    ("problems", "Problems met"),
    ("made", "How this page was made"),
)

_STYLE = """
:root { color-scheme: light; }
body { font: 16px/1.5 system-ui, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1a1a1a;
  background: #fff; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.8rem; margin: .5rem 0 0; }
h2 { font-size: 1.35rem; margin: 2.5rem 0 .5rem; padding-top: .5rem; border-top: 2px solid #1a1a1a; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 .4rem; }
p, li { max-width: 48rem; }
a { color: #005a8c; }
nav ol { columns: 2; max-width: 40rem; }
.pair { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1.5rem;
  align-items: start; }
@media (max-width: 900px) { .pair { grid-template-columns: minmax(0, 1fr); } }
figure { margin: 0; }
figure svg { display: block; width: 100%; height: auto; }
figcaption { font-size: .9rem; color: #444; }
table { border-collapse: collapse; width: 100%; font-size: .88rem; margin: .25rem 0 1rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .25rem; }
th, td { text-align: left; vertical-align: top; padding: .2rem .45rem; border-bottom: 1px solid #c8c8c8;
  overflow-wrap: anywhere; }
thead th { border-bottom: 2px solid #1a1a1a; }
.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; overflow-wrap: normal; }
.wide { overflow-x: auto; }
table.totals { width: auto; min-width: 28rem; max-width: 100%; }
.note { background: #f3f3f3; border-left: 4px solid #1a1a1a; padding: .4rem .8rem; }
code, .command { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .88rem; }
.command { display: block; white-space: pre-wrap; overflow-wrap: anywhere; background: #f3f3f3;
  padding: .5rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  nav ol { columns: 3; }
  h2 { break-after: avoid; }
  figure, tr { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
  .pair { grid-template-columns: minmax(0, 1fr); }
}
"""


def page(figures: Figures, *, title: str, command: str) -> str:
    """The page, as one string of HTML."""
    charts = _Charts()
    body = [
        _about(figures),
        _totals(figures),
        _years(figures, charts),
        _hosts(figures, charts),
        _schemes(figures, charts),
        _places(figures, charts),
        _rejected(figures, charts),
        _profiles(figures, charts),
        _quoting(figures, charts),
        _cited(figures),
        _problems(figures, charts),
        _made(figures, command),
    ]
    contents = "".join(f'<li><a href="#{key}">{html.escape(name)}</a></li>' for key, name in _SECTIONS)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        # Nothing but the page itself: no script, no request, whatever an archive's text slips in.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src '
        "'unsafe-inline'; img-src data:\">\n"
        f'<meta name="generator" content="urlsift {html.escape(__version__)}">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{html.escape(title)}</h1>\n"
        f"<p>{_n(figures.totals.urls)} URLs found, {_n(figures.totals.rejected)} candidates rejected, "
        f"judged by the {html.escape(figures.profile)} profile{_unrecorded(figures)}.</p></header>\n"
        f'<nav aria-label="Contents"><h2 id="contents">Contents</h2><ol>{contents}</ol></nav>\n'
        "<main>\n" + "\n".join(body) + "\n</main>\n</body>\n</html>\n"
    )


def _n(number: int | None) -> str:
    return _NONE if number is None else f"{number:,}"


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, datetime):
        return f"{value:%Y-%m-%d %H:%M}"
    return _NONE if value is None else html.escape(str(value))


def _numeric(table: Table, k: int) -> bool:
    return bool(table.rows) and all(
        isinstance(row[k], int) and not isinstance(row[k], bool) for row in table.rows
    )


_HEADINGS = {
    "urls": "URLs",
    "distinct_urls": "distinct URLs",
    "in_bodies": "in bodies",
    "in_headers": "in headers",
    "registered_domain": "registered domain",
    "distinct_candidates": "distinct",
    "modern_takes": "modern takes",
    "strict_rejects": "strict rejects",
    "quote_depth": "quote depth",
    "first_message_id": "first Message-ID",
    "last_message_id": "last Message-ID",
    "input_lost": "input lost",
}


def _table(table: Table, caption: str, cells: dict[str, Callable[[Any], str]] | None = None) -> str:
    """``table`` as HTML, numbers right-aligned; ``cells`` writes some columns' cells its own way."""
    if not table.rows:
        return f'<p class="note">{html.escape(caption)}: none in this dataset.</p>'
    numeric = [_numeric(table, k) for k in range(len(table.columns))]
    names = [html.escape(_HEADINGS.get(name, name.replace("_", " "))) for name in table.columns]
    head = "".join(
        f'<th scope="col"{" class=n" if number else ""}>{name}</th>'
        for name, number in zip(names, numeric, strict=True)
    )
    lines = []
    for row in table.rows:
        cells_of_row = []
        for name, value, number in zip(table.columns, row, numeric, strict=True):
            shown = cells[name](value) if cells and name in cells else _cell(value)
            cells_of_row.append(f"<td{' class=n' if number else ''}>{shown}</td>")
        lines.append("<tr>" + "".join(cells_of_row) + "</tr>")
    return (
        f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(lines)}</tbody></table>"
    )


def _pair(chart: str, table: str) -> str:
    return f'<div class="pair">{chart}<div>{table}</div></div>'


def _section(key: str, *parts: str) -> str:
    name = dict(_SECTIONS)[key]
    return (
        f'<section aria-labelledby="{key}"><h2 id="{key}">{html.escape(name)}</h2>\n'
        + "\n".join(parts)
        + "</section>"
    )


def _p(text: str) -> str:
    return f"<p>{text}</p>"


# --- the charts ------------------------------------------------------------------------------


class _Charts:
    """matplotlib figures as inline SVG: text kept as text, no date, ids made unique to each chart
    (every chart is in one document)."""

    def __init__(self) -> None:
        import matplotlib

        self.matplotlib = matplotlib
        self.count = 0

    def svg(
        self, draw: Callable[[Figure], None], caption: str, height: float = 3.2, width: float = 6.4
    ) -> str:
        """A chart drawn by ``draw`` on a figure of this size (inches: 6.4 beside a table, 10 for
        the page's width, so that its text comes out the same size)."""
        import warnings

        from matplotlib.figure import Figure

        self.count += 1
        key = f"chart{self.count}"
        style: dict[str, Any] = {
            "svg.fonttype": "none",
            "text.parse_math": False,  # labels are what an archive holds: "$a$" is no formula
            "svg.hashsalt": key,
            "font.family": "DejaVu Sans",
            "font.size": 9,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.edgecolor": INK,
            "text.color": INK,
            "axes.labelcolor": INK,
            "xtick.color": INK,
            "ytick.color": INK,
            "hatch.color": "#5a3c00",
        }
        with self.matplotlib.rc_context(cast(Any, style)):  # (its keys are typed as literals)
            figure = Figure(figsize=(width, height), layout="constrained")
            draw(figure)
            out = io.StringIO()
            with warnings.catch_warnings():  # a glyph the layout's font lacks: the browser's has it
                warnings.simplefilter("ignore", UserWarning)
                figure.savefig(out, format="svg", metadata={"Date": None})
        drawn = out.getvalue()
        drawn = drawn[drawn.index("<svg") :]
        drawn = re.sub(r'<svg ([^>]*?)width="[^"]*" height="[^"]*"', r"<svg \1", drawn, count=1)
        drawn = drawn.replace("<svg ", f'<svg role="img" aria-labelledby="{key}-caption" ', 1)
        # Ids unique in the page: matplotlib's are unique in one chart only.
        drawn = re.sub(r'id="([^"]+)"', rf'id="{key}-\1"', drawn)
        drawn = re.sub(r'(href|xlink:href)="#([^"]+)"', rf'\1="#{key}-\2"', drawn)
        drawn = re.sub(r"url\(#([^)]+)\)", rf"url(#{key}-\1)", drawn)
        said = f'<figcaption id="{key}-caption">{html.escape(caption)}</figcaption>'
        return f'<figure class="chart">{drawn}{said}</figure>'


def _cut(label: Any) -> str:
    text = str(label)
    return text if len(text) <= _LABEL else text[: _LABEL - 1] + "…"


def _bars(
    labels: Sequence[Any],
    series: Sequence[tuple[str, Sequence[int]]],
    *,
    horizontal: bool = True,
    xlabel: str = "",
) -> Callable[[Figure], None]:
    """Bars of one series, or two stacked (the second light and hatched), with a legend for two."""

    def draw(figure: Figure) -> None:
        axes: Axes = figure.subplots()
        places = list(range(len(labels)))
        base = [0] * len(labels)
        for k, (name, values) in enumerate(series):
            colour, hatch = (DARK, None) if k == 0 else (LIGHT, "///")
            if horizontal:
                axes.barh(places, values, left=base, color=colour, hatch=hatch, label=name, edgecolor="white")
            else:
                axes.bar(
                    places, values, bottom=base, color=colour, hatch=hatch, label=name, edgecolor="white"
                )
            base = [b + v for b, v in zip(base, values, strict=True)]
        shown = [_cut(label) for label in labels]
        if horizontal:
            axes.set_yticks(places, shown)
            axes.invert_yaxis()  # the first (largest) at the top, as the table has it
            axes.set_xlabel(xlabel)
            axes.xaxis.set_major_formatter(_thousands())
        else:
            axes.set_xticks(places, shown, rotation=90 if len(labels) > 12 else 0)
            axes.set_ylabel(xlabel)
            axes.yaxis.set_major_formatter(_thousands())
        if len(series) > 1:
            axes.legend(frameon=False)

    return draw


def _thousands() -> Any:
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda value, _: f"{value:,.0f}")


def _height(rows: int) -> float:
    return max(1.6, 0.6 + 0.22 * rows)


# --- the sections ----------------------------------------------------------------------------


def _about(figures: Figures) -> str:
    other = "modern" if figures.profile == "strict" else "strict"
    notes = "".join(f'<p class="note">{html.escape(note)}</p>' for note in figures.notes)
    return _section(
        "about",
        _p(
            "This page sums up the links found in an archive by <code>urlsift</code>. A <em>URL</em> is a "
            f"candidate the {html.escape(figures.profile)} profile judged valid; a <em>rejected "
            "candidate</em> looked like a URL but is not one by that profile's rules (its reason is given). "
            "A <em>citation</em> is one occurrence: a URL written in three messages counts three times, "
            "and <em>distinct URLs</em> counts it once."
        ),
        _p(
            "Years and decades are those of each message's <code>Date</code> header, in UTC; texts with "
            "no date (plain files, undated messages) are counted in the totals but not per year. "
            "<em>Headers</em> are URLs in mail or news headers (<code>List-Archive</code>, "
            "<code>Archived-At</code> ...), often written by the list server itself; <em>bodies</em> are "
            "the messages' text, what people wrote and what a list server appends (its footer). "
            "<em>Quote depth</em> is how many <code>&gt;</code> marks the line had: "
            "0 is new text, 1 or more a URL quoted again in a reply."
        ),
        _p(
            f"Every list is the top {figures.top:,}; each chart has a table of the same numbers beside or "
            f'under it. The <a href="#profiles">strict and modern</a> section judges again by the {other} '
            "profile. The Wayback links open the Internet Archive's copy nearest the first citation."
        ),
        notes,
    )


_TOTALS = {
    "files_read": "files read",
    "messages_read": "messages read",
    "files_with_rows": "files with a URL or candidate",
    "messages_with_rows": "messages (or texts) with a URL or candidate",
    "urls": "URLs (citations)",
    "distinct_urls": "distinct URLs",
    "hosts": "distinct hosts",
    "dated": "URLs in dated messages",
    "rejected": "rejected candidates",
    "problems": "problems reported",
    "damaged": "damaged inputs (files or members with a problem)",
    "lost": "inputs with some of it unread",
}
"""The totals table's lines: ``report_data.Totals``' fields, and what each says."""


def _totals(figures: Figures) -> str:
    totals = figures.totals
    lines = [(key, name, getattr(totals, key)) for key, name in _TOTALS.items()]
    rows = "".join(
        f'<tr><th scope="row">{html.escape(name)}</th><td class="n" data-total="{key}">{_n(value)}</td></tr>'
        for key, name, value in lines
    )
    unknown = (
        _p(f"{_NONE}: not recorded in this dataset (only a scan by <code>urlsift report</code> records it).")
        if totals.files_read is None
        else ""
    )
    return _section(
        "totals",
        f'<table class="totals"><caption>The archive in numbers</caption><tbody>{rows}</tbody></table>',
        unknown,
    )


def _years(figures: Figures, charts: _Charts) -> str:
    table = figures.years
    if not table.rows:
        return _section("years", _p("No URL in this dataset has a dated message."))
    first, last = _charted_years(table.rows)
    held = {row[0]: row for row in table.rows if first <= row[0] <= last}
    # Every year of the span, those with none at 0; but where the outliers are not clipped (every
    # year is one) a long span would draw thousands of empty years: then only the years there are.
    years = list(range(first, last + 1)) if last - first <= MAX_SPAN else sorted(held)
    urls = [held[year][1] if year in held else 0 for year in years]
    hosts = [held[year][3] if year in held else 0 for year in years]

    def draw(figure: Figure) -> None:
        top, bottom = figure.subplots(2, 1, sharex=True)
        for axes, values, name in ((top, urls, "URLs"), (bottom, hosts, "distinct hosts")):
            axes.bar(years, values, color=DARK, width=0.8)
            axes.set_ylabel(name)
            axes.yaxis.set_major_formatter(_thousands())
        bottom.set_xlabel("year of the message's Date (UTC)")
        bottom.xaxis.get_major_locator().set_params(integer=True)

    chart = charts.svg(draw, "URLs (top) and distinct hosts (bottom) per year", height=3.6)
    said = [f"{_n(figures.totals.dated)} of {_n(figures.totals.urls)} URLs are in dated messages."]
    left = [row for row in table.rows if not first <= row[0] <= last]
    if left:
        named = ", ".join(str(row[0]) for row in left[:10]) + (", ..." if len(left) > 10 else "")
        said.append(
            f"The chart shows the years {first} to {last}: {_urls(sum(row[1] for row in left))} in "
            f"messages dated outside them (years {named}; dates no message of an archive has, or few "
            "enough to be outliers) are in the table only, and in no decade's list below."
        )
    return _section("years", _pair(chart, _table(table, "Per year", {"year": str})), _p(" ".join(said)))


def _urls(count: int) -> str:
    return f"{count:,} URL" if count == 1 else f"{count:,} URLs"


def _charted_years(rows: list[tuple[Any, ...]]) -> tuple[int, int]:
    """The first and last year the years' chart shows, of ``rows`` (year, URLs, ...; by year): from
    FIRST_YEAR to the next year, less the OUTLIERS at either end; all of them where none is left."""
    plausible = [row for row in rows if FIRST_YEAR <= row[0] <= datetime.now(UTC).year + 1]
    if not plausible:
        return rows[0][0], rows[-1][0]
    allowed = sum(row[1] for row in rows) * OUTLIERS / 2
    ends = []
    for ordered in (plausible, plausible[::-1]):
        cut, index = 0, 0
        while index < len(ordered) - 1 and cut + ordered[index][1] <= allowed:
            cut, index = cut + ordered[index][1], index + 1
        ends.append(ordered[index][0])
    if ends[0] > ends[1]:  # (the outliers' share is of all rows: the plausible ones may be fewer)
        return plausible[0][0], plausible[-1][0]
    return ends[0], ends[1]


def _charted(
    charts: _Charts,
    table: Table,
    columns: Sequence[tuple[str, int]],
    caption: str,
    *,
    xlabel: str,
    wide: bool = False,
    horizontal: bool = True,
) -> str:
    """A bar chart of ``table``'s ``columns`` (a name and an index each; two are stacked) by its
    first column, with the table beside it (under it when ``wide``: long labels)."""
    if not table.rows:
        return _table(table, caption)
    labels = [row[0] for row in table.rows]
    series = [(name, [row[k] for row in table.rows]) for name, k in columns]
    height = _height(len(labels)) if horizontal else 2.6
    drawn = _bars(labels, series, horizontal=horizontal, xlabel=xlabel)
    chart = charts.svg(drawn, caption, height, WIDE if wide else NARROW)
    shown = _table(table, caption)
    return chart + shown if wide else _pair(chart, shown)


def _hosts(figures: Figures, charts: _Charts) -> str:
    parts = []
    for table, what in ((figures.hosts, "host"), (figures.domains, "registered domain")):
        parts.append(f"<h3>By {what}</h3>")
        parts.append(
            _charted(
                charts,
                table,
                [("in bodies", 2), ("in headers", 3)],
                f"The top {what}s: URLs in bodies and in headers",
                xlabel="URLs",
            )
        )
    parts.append("<h3>Per decade</h3>")
    span = _charted_years(figures.years.rows) if figures.years.rows else (0, 0)
    parts.append(_decades(figures.decades, "registered domains", span))
    parts.append(_decades(figures.host_decades, "hosts", span))
    return _section(
        "hosts",
        _p(
            "A host is the name or address in a URL; its registered domain is the part a registrar sold "
            "(by the Public Suffix List). Headers' URLs are shown apart: a list server writes its own in "
            "every message."
        ),
        *parts,
    )


def _decades(table: Table, what: str, span: tuple[int, int]) -> str:
    """The top ``what`` of each decade of the years' chart (``span``: its first and last year)."""
    if not table.rows:
        return _p("No URL in this dataset has a dated message.")
    by: dict[int, list[tuple[str, int]]] = {}
    for decade, domain, urls in table.rows:
        if span[0] // 10 * 10 <= decade <= span[1]:
            by.setdefault(decade, []).append((domain, urls))
    if not by:
        return _p(f"No URL in the years charted has {what}.")
    decades = sorted(by)
    depth = max(len(found) for found in by.values())
    head = "".join(f'<th scope="col">{decade}s</th>' for decade in decades)
    lines = []
    for rank in range(depth):
        cells = []
        for decade in decades:
            found = by[decade]
            cells.append(
                f"<td>{html.escape(found[rank][0])} ({found[rank][1]:,})</td>"
                if rank < len(found)
                else "<td></td>"
            )
        lines.append(f'<tr><th scope="row" class="n">{rank + 1}</th>{"".join(cells)}</tr>')
    return (
        f'<div class="wide"><table><caption>The top {what} of each decade (URLs)</caption><thead><tr>'
        f'<th scope="col">rank</th>{head}</tr></thead><tbody>{"".join(lines)}</tbody></table></div>'
    )


def _schemes(figures: Figures, charts: _Charts) -> str:
    return _section(
        "schemes", _charted(charts, figures.schemes, [("URLs", 1)], "URLs by scheme", xlabel="URLs")
    )


def _places(figures: Figures, charts: _Charts) -> str:
    return _section(
        "places",
        _charted(
            charts,
            figures.places,
            [("URLs", 1), ("rejected", 3)],
            "URLs and rejected candidates in headers and in bodies",
            xlabel="URLs and rejected candidates",
        ),
        "<h3>By header</h3>",
        _table(figures.headers, "URLs in each header"),
    )


def _rejected(figures: Figures, charts: _Charts) -> str:
    intro = _p(
        f"{_n(figures.totals.rejected)} candidates were rejected by the {html.escape(figures.profile)} "
        "profile. The reason names the grammar's production that could not be read (in brackets) and "
        "what was there; the top reasons:"
    )
    chart = _charted(
        charts,
        figures.reasons,
        [("candidates", 1)],
        "Rejected candidates by reason",
        xlabel="candidates",
        wide=True,
    )
    return _section("rejected", intro, chart)


def _profiles(figures: Figures, charts: _Charts) -> str:
    if figures.profile == "strict":
        intro = _p(
            "Of the candidates strict RFC 1738 rejects (but for wrappers never closed), those today's rules "
            "(RFC 3986, 3987 and the scheme RFCs after 1738: <code>--profile modern</code>) would take, by "
            "the strict reason:"
        )
        series = [("modern takes", 2), ("rejected by both", 3)]
    else:
        intro = _p(
            "Of the URLs the modern profile takes, those strict RFC 1738 rejects, by the strict reason:"
        )
        series = [("strict rejects", 1)]
    caption = "Strict and modern, by the strict reason"
    chart = _charted(charts, figures.other_profile, series, caption, xlabel="candidates", wide=True)
    return _section("profiles", intro, chart)


def _quoting(figures: Figures, charts: _Charts) -> str:
    table = figures.quote_depth
    quoted = sum(row[1] for row in table.rows if row[0] > 0)
    total = sum(row[1] for row in table.rows)
    share = f"{100 * quoted / total:.1f}" if total else "0"
    return _section(
        "quoting",
        _p(f"{quoted:,} of {total:,} URLs ({share}%) are in quoted text: links re-cited in replies."),
        _charted(
            charts,
            table,
            [("URLs", 1)],
            "URLs by quote depth (0: not quoted)",
            xlabel="URLs",
            horizontal=False,
        ),
    )


def _link(url: str | None, text: str | None = None) -> str:
    if url is None:
        return _NONE
    return f'<a href="{html.escape(url)}" rel="noreferrer">{html.escape(text or url)}</a>'


def _cited(figures: Figures) -> str:
    table = figures.cited
    return _section(
        "cited",
        _p(
            "The URLs cited most often, with the first and last message that cites each (by date) and the "
            "Wayback Machine's copy nearest the first (http, https and ftp)."
        ),
        _table(
            table,
            f"The {len(table.rows):,} most cited URLs" if table.rows else "The most cited URLs",
            {"wayback": lambda url: _link(url, "Wayback") if url else _NONE},
        ),
    )


def _problems(figures: Figures, charts: _Charts) -> str:
    return _section(
        "problems",
        _p(
            "What could not be read, or was read with a repair: a damaged archive, a message cut short, "
            "bytes of no charset. <em>Input lost</em> means some of it was not scanned."
        ),
        _charted(charts, figures.report_kinds, [("reports", 1)], "Problems by kind", xlabel="reports"),
        "<h3>By input</h3>",
        _table(figures.report_files, "The inputs with the most problems"),
    )


def _unrecorded(figures: Figures) -> str:
    """What the page says of a dataset that records no run (``run.json``): its profile is --profile's."""
    if figures.run_command is not None:
        return ""
    return " (as --profile says: the dataset does not record which profile scanned it)"


def _command(command: str) -> str:
    return f'<code class="command">{html.escape(command)}</code>'


def _made(figures: Figures, command: str) -> str:
    scanned = (
        _p("The dataset was scanned by: " + _command(figures.run_command))
        if figures.run_command and figures.run_command != command
        else ""
    )
    return _section(
        "made",
        _p(f"Made by urlsift {html.escape(__version__)} with: " + _command(command)),
        scanned,
    )
