"""urlextract, as its README shows: URLExtract().find_urls(text)."""

import sys
from pathlib import Path

from urlextract import URLExtract

text = Path(sys.argv[1]).read_text(encoding="utf-8", errors="replace")
for url in URLExtract().find_urls(text):
    print(url)
