"""What the text output puts around a URL, as grep and ripgrep do around a match: the file's
name before it (``-H``, and by default when several files are read) and colour on a terminal
(``--color``). The text writer (``output.writer``) calls ``Marks.line``; ``--count`` and ``-l``
call ``Marks.name``."""

from __future__ import annotations

from typing import NamedTuple

from .escaping import escaped

# ripgrep's and GNU grep's default colours: file names magenta, matches bold red.
_NAME = "\x1b[35m"
_MATCH = "\x1b[1;31m"
_RESET = "\x1b[0m"
STDIN_NAME = "(standard input)"
"""How a line read from standard input names its file, as GNU grep names it."""
_STDIN_PATHS = frozenset({"-", "<stdin>"})
"""Standard input as a path given (``-``) and as its rows' ``source`` (``Provenance``)."""


class Marks(NamedTuple):
    filename: bool = False
    """Start each line with its file's name and a colon."""
    color: bool = False
    """Colour the file's name and the URL (ANSI escapes: for a terminal)."""

    @property
    def plain(self) -> bool:
        return not (self.filename or self.color)

    def name(self, path: str) -> str:
        """A file's name as a line shows it: escaped (a name may hold ESC), coloured if asked."""
        shown = STDIN_NAME if path in _STDIN_PATHS else escaped(path)
        return f"{_NAME}{shown}{_RESET}" if self.color else shown

    def line(self, source: str, url: str, error: str | None) -> str:
        """A line of the text output, its line feed included: ``url`` (escaped already) and, for a
        rejected candidate, a tab and ``error``, after ``source:`` when ``filename``."""
        head = f"{self.name(source)}:" if self.filename else ""
        if error is not None:  # a rejected candidate is no match: not coloured as one
            return f"{head}{url}\t{error}\n"
        return f"{head}{_MATCH}{url}{_RESET}\n" if self.color else f"{head}{url}\n"


PLAIN = Marks()
"""No file name, no colour: the URL alone."""
