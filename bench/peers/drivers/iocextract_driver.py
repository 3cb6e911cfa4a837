"""iocextract, as its README shows: iocextract.extract_urls(text)."""

import sys
from pathlib import Path

import iocextract

text = Path(sys.argv[1]).read_text(encoding="utf-8", errors="replace")
for url in iocextract.extract_urls(text):
    print(url)
