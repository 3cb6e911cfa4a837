"""Lines and columns of positions asked in increasing order, in linear time: each character is
looked at once however many positions are asked (a megabyte line full of "<" stays linear).
Shared by the scanner (where a line starts) and the extractor (a match's line and column)."""

from __future__ import annotations


class Lines:
    __slots__ = ("_line", "_line_start", "_pos", "_text")

    def __init__(self, text: str, line_start: int = 0) -> None:
        """``line_start`` is where the line holding ``text[0]`` starts (negative when it started
        before ``text``, in a window of a longer text)."""
        self._text = text
        self._pos = 0
        self._line = 1
        self._line_start = line_start

    def at(self, pos: int) -> tuple[int, int]:
        """1-based line and 0-based column of ``pos`` (lines counted from ``text[0]``'s)."""
        if pos > self._pos:
            newlines = self._text.count("\n", self._pos, pos)
            if newlines:
                self._line += newlines
                self._line_start = self._text.rfind("\n", self._pos, pos) + 1
            self._pos = pos
        return self._line, pos - self._line_start

    def start_of(self, pos: int) -> int:
        """Where the line holding ``pos`` starts."""
        return pos - self.at(pos)[1]

    def state(self) -> tuple[int, int, int]:
        """Where the count stands (position, line, line start): the native extractor counts on
        from it and hands back its own (``restore``)."""
        return self._pos, self._line, self._line_start

    def restore(self, state: tuple[int, int, int]) -> None:
        self._pos, self._line, self._line_start = state

    def rebase(self, text: str, dropped: int) -> None:
        """The text is now ``text``, whose first character was at ``dropped`` in the old one."""
        self.at(dropped)  # count the lines of what leaves, while it is still there
        self._text = text
        self._pos -= dropped
        self._line_start -= dropped
