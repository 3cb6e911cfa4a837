"""linkify-it-py, as its README shows: LinkifyIt().match(text), each match's .url."""

import sys
from pathlib import Path

from linkify_it import LinkifyIt

text = Path(sys.argv[1]).read_text(encoding="utf-8", errors="replace")
for match in LinkifyIt().match(text) or []:
    print(match.url)
