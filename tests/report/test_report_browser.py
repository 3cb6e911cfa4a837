"""``urlsift report``'s page in a real browser (issue 33): Debian's chromium, headless, driven by
Selenium through the system's chromedriver (no browser is downloaded). The page loads with no
console message and asks the network for nothing; every chart has drawn content and a table of
its numbers; the totals it shows are DuckDB's over the same Parquet; at 1024 px nothing runs off
the side; the table of contents leads to every section; a screenshot is written for the record.

Where chromium is not installed the tests are skipped, visibly; on CI (``CI`` set) that is a
failure: ``.ci/run`` installs it."""

from __future__ import annotations

import base64
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import pytest
from report.conftest import Made

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        if os.environ.get("CI"):
            pytest.fail("chromium and chromedriver are not installed (.ci/run installs them)")
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager: never fetch a driver or a browser
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1024,800")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


class Opened(NamedTuple):
    page: Any
    """The driver, on the page."""
    console: list[dict[str, Any]]
    """What the page wrote to the console as it loaded."""
    network: list[dict[str, Any]]
    """The DevTools Network and Page events of its loading."""


@pytest.fixture(scope="module")
def opened(browser: Any, made: Made) -> Opened:
    """The report of the corpus, loaded, and its logs."""
    browser.get(made.page.as_uri())
    events = [json.loads(entry["message"])["message"] for entry in browser.get_log("performance")]
    return Opened(browser, browser.get_log("browser"), events)


def test_the_page_loads_with_no_console_message_and_no_network_request(opened: Opened, made: Made) -> None:
    assert opened.console == []
    requested = [
        event["params"]["request"]["url"]
        for event in opened.network
        if event["method"] == "Network.requestWillBeSent"
    ]
    assert requested == [made.page.as_uri()]  # the page itself, and nothing else
    assert opened.page.title.startswith("The links of ")


def test_every_chart_has_drawn_content_and_a_table_beside_it(opened: Opened) -> None:
    charts = opened.page.execute_script(
        """
        return [...document.querySelectorAll('figure.chart')].map(figure => {
            const svg = figure.querySelector('svg');
            const box = svg.getBoundingClientRect();
            const shapes = [...svg.querySelectorAll('path, rect, use')].filter(shape => {
                const drawn = shape.getBoundingClientRect();
                return drawn.width > 0 && drawn.height > 0;
            });
            const holder = figure.closest('.pair');
            const table = holder ? holder.querySelector('table')
                : (figure.nextElementSibling && figure.nextElementSibling.tagName === 'TABLE'
                   ? figure.nextElementSibling : null);
            const bars = [...svg.querySelectorAll('g[id*="patch_"] path')].filter(bar => {
                const drawn = bar.getBoundingClientRect();
                return drawn.width > 1 && drawn.height > 1;
            });
            return {width: box.width, height: box.height, shapes: shapes.length, bars: bars.length,
                    texts: svg.querySelectorAll('text').length,
                    caption: figure.querySelector('figcaption').textContent,
                    labelled: svg.getAttribute('aria-labelledby'),
                    rows: table ? table.querySelectorAll('tbody tr').length : 0};
        });
        """
    )
    assert len(charts) >= 8
    for chart in charts:
        assert chart["width"] > 300, chart
        assert chart["height"] > 80, chart
        # Bars (and the axes' background, a patch too), axes and ticks; the labels as text.
        assert chart["bars"] >= 2, chart
        assert chart["shapes"] >= chart["bars"], chart
        assert chart["texts"] > 3, chart
        assert chart["rows"] > 0, chart
        assert chart["labelled"].endswith("-caption"), chart


def test_the_totals_shown_are_duckdbs(opened: Opened, made: Made) -> None:
    shown = opened.page.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('[data-total]')]"
        ".map(cell => [cell.dataset.total, cell.textContent]));"
    )
    rows = f"read_parquet('{made.dataset}/*.parquet')"
    asked = {
        "urls": f"SELECT count(*) FROM {rows} WHERE valid",
        "distinct_urls": f"SELECT count(DISTINCT url) FROM {rows} WHERE valid",
        "rejected": f"SELECT count(*) FROM {rows} WHERE NOT valid",
        "hosts": f"SELECT count(DISTINCT host) FROM {rows} WHERE valid",
        "problems": f"SELECT count(*) FROM read_parquet('{made.dataset}/reports/*.parquet')",
    }
    for key, sql in asked.items():
        assert int(shown[key].replace(",", "")) == duckdb.connect().execute(sql).fetchall()[0][0], key


def test_nothing_runs_off_the_side_at_1024_px_and_the_contents_lead_to_each_section(opened: Opened) -> None:
    width = opened.page.execute_script("return [document.documentElement.scrollWidth, window.innerWidth];")
    assert width[0] <= width[1] == 1024 - (1024 - width[1])  # (the window's inner width, less no scroll)
    wide = opened.page.execute_script(
        "return [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > "
        "document.documentElement.clientWidth + 1).map(e => e.tagName + ' ' + e.className);"
    )
    assert wide == []
    targets = opened.page.execute_script(
        "return [...document.querySelectorAll('nav a')].map(a => "
        "!!document.getElementById(a.getAttribute('href').slice(1)));"
    )
    assert len(targets) == 12
    assert all(targets)
    headings = opened.page.execute_script("return [...document.querySelectorAll('h1')].length;")
    assert headings == 1


def test_a_screenshot_is_written(opened: Opened, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    assert opened.page.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 20_000


def test_the_page_prints_in_one_column_within_the_paper(opened: Opened) -> None:
    """Print media (in the 1024 px window, where the screen's layout has two columns): a chart and
    its table one under the other, nothing past the side, and chromium's PDF of it made."""
    driver = opened.page
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        columns = driver.execute_script(
            "return [...document.querySelectorAll('.pair')].map(pair => "
            "getComputedStyle(pair).gridTemplateColumns.split(' ').length);"
        )
        assert columns
        assert set(columns) == {1}
        assert driver.execute_script(
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;"
        )
        printed = base64.b64decode(driver.print_page())
        assert printed.startswith(b"%PDF")
        assert len(printed) > 50_000
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
