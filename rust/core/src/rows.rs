//! A match's columns that the core fills itself (issue 31): where its URL starts and ends in the
//! text, and how deep the line it starts on is quoted (`around.quote_depth`). The columns that
//! need Python's judge (`scheme`, `error`, the host columns) are worked out in Python once per
//! distinct URL, not here.

use crate::extract::Found;
use crate::scan::{Span, Unit};

/// The longest quote prefix `scanner._QUOTE_PREFIX` takes: 8 blanks, then 16 marks with 4 blanks
/// each (`around._PREFIX_CHARS`).
pub const PREFIX_CHARS: usize = 8 + 16 * 5;

/// D25: as `scanner._QUOTE_PREFIX`: deeper quoting than this is not taken for quoting.
const MAX_QUOTE_DEPTH: usize = 16;

fn is_mark(code: u32) -> bool {
    matches!(code, 0x3E | 0x7C | 0x3A)
}

fn is_blank(code: u32) -> bool {
    code == 0x20 || code == 0x09
}

/// The row's `start` and `end`: from the URL's first piece to its last (a URL rejoined across
/// lines spans the line breaks); a match of no piece starts and ends where its span starts.
pub fn bounds(found: &Found) -> (usize, usize) {
    pieces_bounds(&found.pieces, found.span)
}

/// `bounds` of a match of `pieces` and `span` (its reading held apart from it).
pub fn pieces_bounds(pieces: &[Span], span: Span) -> (usize, usize) {
    match (pieces.first(), pieces.last()) {
        (Some(first), Some(last)) => (first.0, last.1),
        _ => (span.0, span.0),
    }
}

/// D25: how many quote marks (`>`, `|`, `:`, as `>`, `>>` or `> >`) begin `line`, the start of
/// a match's line up to the match (at most `PREFIX_CHARS` of it): what
/// `[ \t]{0,8}(?:[>|:][ \t]{0,4}){1,16}` matches there, less its blanks. The pattern cannot
/// backtrack into another match: up to 8 blanks, then a mark or no match at all.
pub fn quote_depth<T: Unit>(line: &[T]) -> i64 {
    let code = |at: usize| line.get(at).map(|unit| unit.code());
    let mut at = 0;
    while at < 8 && code(at).is_some_and(is_blank) {
        at += 1;
    }
    let mut marks = 0;
    while marks < MAX_QUOTE_DEPTH && code(at).is_some_and(is_mark) {
        marks += 1;
        at += 1;
        let mut blanks = 0;
        while blanks < 4 && code(at).is_some_and(is_blank) {
            at += 1;
            blanks += 1;
        }
    }
    i64::try_from(marks).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(line: &str) -> i64 {
        quote_depth(line.as_bytes())
    }

    #[test]
    fn marks_are_counted_blanks_are_not() {
        assert_eq!(depth("> "), 1);
        assert_eq!(depth(">> "), 2);
        assert_eq!(depth("> > | "), 3);
        assert_eq!(depth("  :\t> "), 2);
        assert_eq!(depth("text "), 0);
    }

    #[test]
    fn the_pattern_bounds_hold() {
        // Nine blanks before a mark: no prefix. Five blanks between marks: the second not taken.
        assert_eq!(depth("         > "), 0);
        assert_eq!(depth(">     > "), 1);
        assert_eq!(depth(&">".repeat(20)), 16);
    }

    #[test]
    fn bounds_of_pieces() {
        let found = Found {
            url: String::from("http://a/b"),
            alternatives: Vec::new(),
            wrapper: None,
            span: (3, 20),
            pieces: vec![(4, 8), (10, 16)],
            line: 1,
            column: 3,
            valid: Some(true),
            verdict: crate::extract::Verdict::Judge,
            readings: Vec::new(),
        };
        assert_eq!(bounds(&found), (4, 16));
        assert_eq!(bounds(&Found { pieces: Vec::new(), ..found }), (3, 3));
    }
}
