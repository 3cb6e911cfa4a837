"""Makes docs/example-report.html, ``urlsift report``'s page of the repository's corpora/, and
docs/example-report.png, its top as Debian's chromium shows it at 1024 px (issue 33).

    python bench/make_example_report.py

Run from anywhere; it writes into docs/. The page is the same from run to run (matplotlib's SVG
ids are salted by chart and carry no date), so a change to it in a commit is a change of the
report or of the corpora. The screenshot needs chromium and chromedriver (apt-get install chromium
chromium-driver) and Selenium (the test extra).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = Path("docs/example-report.html")
SHOT = Path("docs/example-report.png")
TITLE = "The links of urlsift's corpora/"
HEIGHT = 2300
"""The screenshot's height (px): the title, the contents, the totals, the years' chart and the hosts'."""


def make_page(top: int) -> None:
    command = [sys.executable, "-m", "urlsift", "report", "--no-progress", "--top", str(top)]
    command += ["--title", TITLE, "-o", str(PAGE), "corpora"]
    done = subprocess.run(command, cwd=ROOT, check=False)
    if done.returncode not in (0, 2):  # 2: some input damaged (the page says which)
        raise SystemExit(f"urlsift report failed ({done.returncode})")


def screenshot() -> None:
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        raise SystemExit("chromium and chromedriver are needed (apt-get install chromium chromium-driver)")
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    options.add_argument(f"--window-size=1024,{HEIGHT}")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    try:
        driver.get((ROOT / PAGE).as_uri())
        driver.save_screenshot(str(ROOT / SHOT))
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--top", type=int, default=15, help="each list's length (default 15: a light page)")
    args = parser.parse_args()
    make_page(args.top)
    screenshot()
    for path in (PAGE, SHOT):
        print(f"{path}: {(ROOT / path).stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
