//! D31: `text/plain; format=flowed` (RFC 3676) unflowed for scanning, and the matches of the
//! unflowed text placed back in the part's own text: `src/urlsift/flowed.py` (the reference) in
//! Rust, step for step, over the scanner's units (one a character, so every position is the
//! Python's).
//!
//! RFC 3676 4.1-4.5: a line's quote depth is its count of leading `>`; then one space-stuffing
//! space is removed; a line that ends in a space is soft-broken and joins the next line of the
//! same depth (with `DelSp=yes` that one space goes too); the signature separator `-- ` never
//! flows. A join drops the line break, the next line's quote marks and stuffing space (and the
//! soft space when `DelSp=yes`); the rest is copied as written, in stretches (`segments`).

use crate::extract::{Found, Lines};
use crate::scan::{Span, Unit};

const SPACE: u32 = 0x20;
const CR: u32 = 0x0D;
const LF: u32 = 0x0A;
const MARK: u32 = 0x3E; // ">"

/// A text unflowed: its units, and (start in them, start in the original) of each stretch copied
/// whole, in order (`flowed.Unflowed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unflowed<T> {
    pub units: Vec<T>,
    pub segments: Vec<(usize, usize)>,
}

fn code<T: Unit>(text: &[T], at: usize) -> Option<u32> {
    text.get(at).map(|unit| unit.code())
}

/// `_SOFT_BREAK` (` \r?\n(>*)( ?)`) at `at`: where its group of marks starts, how many marks, and
/// where the match ends.
fn soft_break<T: Unit>(text: &[T], at: usize) -> Option<(usize, usize, usize)> {
    if code(text, at) != Some(SPACE) {
        return None;
    }
    let mut next = at + 1;
    if code(text, next) == Some(CR) {
        next += 1;
    }
    if code(text, next) != Some(LF) {
        return None;
    }
    let marks_start = next + 1;
    let mut end = marks_start;
    while code(text, end) == Some(MARK) {
        end += 1;
    }
    let marks = end - marks_start;
    if code(text, end) == Some(SPACE) {
        end += 1;
    }
    Some((marks_start, marks, end))
}

/// `flowed._depth_and_content`: the quote depth of the line that starts at `start`, and where
/// its content starts (after one stuffing space), counted from `start`.
fn depth_and_content<T: Unit>(text: &[T], start: usize) -> (usize, usize) {
    let mut depth = 0;
    while code(text, start + depth) == Some(MARK) {
        depth += 1;
    }
    let stuffed = code(text, start + depth) == Some(SPACE);
    (depth, depth + usize::from(stuffed))
}

/// `flowed.unflow`: `text` with its soft line breaks joined; None when nothing was joined.
pub fn unflow<T: Unit>(text: &[T], delsp: bool) -> Option<Unflowed<T>> {
    let mut units = Vec::new();
    let mut segments = vec![(0, 0)];
    let mut copied_from = 0;
    let mut at = 0;
    let mut line_start = 0;
    // finditer: the next match at or after `at`, each one from where the one before ended. A
    // match holds a line feed and starts one or two units before it, so the search stops at each
    // line feed (every one, in order: a match's tail holds none) rather than at each space.
    while let Some(feed) = T::find(text.get(at..).unwrap_or(&[]), b'\n').map(|n| at + n) {
        let start = line_start;
        line_start = feed + 1;
        let before = |back: usize| feed.checked_sub(back).filter(|&b| b >= at);
        let space = match (before(1).and_then(|b| code(text, b)), before(2).and_then(|b| code(text, b))) {
            (Some(SPACE), _) => feed - 1,
            (Some(CR), Some(SPACE)) => feed - 2,
            _ => {
                at = feed + 1;
                continue;
            }
        };
        let Some((next_start, next_depth, end)) = soft_break(text, space) else {
            at = feed + 1;
            continue;
        };
        at = end;
        if next_start == text.len() {
            break; // the last line break: no line follows to join
        }
        let (depth, content) = depth_and_content(text, start);
        // The soft space must be the content's (not its stuffing space); "-- " never flows.
        if start + content > space || is_signature(text.get(start + content..=space).unwrap_or(&[])) {
            continue;
        }
        if next_depth != depth {
            continue;
        }
        let cut_from = space + 1 - usize::from(delsp);
        units.extend_from_slice(text.get(copied_from..cut_from).unwrap_or(&[]));
        copied_from = end;
        segments.push((units.len(), copied_from));
    }
    if segments.len() == 1 {
        return None;
    }
    units.extend_from_slice(text.get(copied_from..).unwrap_or(&[]));
    Some(Unflowed { units, segments })
}

/// RFC 3676 4.3: `-- `, which never flows.
fn is_signature<T: Unit>(line: &[T]) -> bool {
    line.len() == 3 && line.iter().map(|unit| unit.code()).eq("-- ".chars().map(u32::from))
}

impl<T: Unit> Unflowed<T> {
    /// Where unflowed position `u` is in the original.
    fn at(&self, u: usize) -> usize {
        let k = self.segments.partition_point(|&(start, _)| start <= u).saturating_sub(1);
        let (start, original) = self.segments.get(k).copied().unwrap_or((0, 0));
        original + u - start
    }

    /// Where an end at unflowed `u` is in the original: just after the character before it.
    fn end_at(&self, u: usize) -> usize {
        if u > 0 {
            self.at(u - 1) + 1
        } else {
            0
        }
    }

    /// A piece of the unflowed text in the original: two pieces (or more) where it spans a join.
    fn pieces(&self, pieces: &[Span]) -> Vec<Span> {
        let mut placed = Vec::new();
        for &(start, end) in pieces {
            let mut start = start;
            let mut k = self.segments.partition_point(|&(s, _)| s <= start);
            while let Some(&(join, _)) = self.segments.get(k).filter(|&&(s, _)| s < end) {
                placed.push((self.at(start), self.end_at(join)));
                start = join;
                k += 1;
            }
            placed.push((self.at(start), self.end_at(end)));
        }
        placed
    }

    /// `flowed.original`: `found` (of the unflowed text) with its span, pieces (and its readings'),
    /// line and column in `text`, the original; `lines` counts its lines, asked in order.
    pub fn original(&self, found: Found, text: &[T], lines: &mut Lines) -> Found {
        let span = (self.at(found.span.0), self.end_at(found.span.1));
        let (line, column) = lines.at(text, span.0);
        let pieces = self.pieces(&found.pieces);
        let mut readings = found.readings;
        for reading in &mut readings {
            reading.pieces = self.pieces(&reading.pieces);
        }
        Found { span, pieces, line, column, readings, ..found }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unflowed(text: &str, delsp: bool) -> Option<(String, Vec<(usize, usize)>)> {
        unflow(text.as_bytes(), delsp).map(|u| (String::from_utf8(u.units).unwrap_or_default(), u.segments))
    }

    #[test]
    fn soft_breaks_join_lines_of_one_depth() {
        let (text, segments) = unflowed("see http://a.example/ \nb and\n", false).unwrap_or_default();
        assert_eq!(text, "see http://a.example/ b and\n");
        assert_eq!(segments, vec![(0, 0), (22, 23)]);
        assert_eq!(unflowed("a \nb\n", true).unwrap_or_default().0, "ab\n");
        assert_eq!(unflowed("> a \n> b\n", false).unwrap_or_default().0, "> a b\n");
    }

    #[test]
    fn each_line_feed_is_tried_where_the_match_before_ended() {
        // As `flowed.unflow` gives them: a CRLF soft break; a stuffing space taken by one join
        // is no soft space of the next line; quoted lines join after an unquoted one.
        let (text, segments) = unflowed("a \r\nb\r\n", false).unwrap_or_default();
        assert_eq!((text.as_str(), segments), ("a b\r\n", vec![(0, 0), (2, 4)]));
        let (text, segments) = unflowed("a \n \nb\n", false).unwrap_or_default();
        assert_eq!((text.as_str(), segments), ("a \nb\n", vec![(0, 0), (2, 4)]));
        let (text, segments) = unflowed("x \n> y \n> z\n", false).unwrap_or_default();
        assert_eq!((text.as_str(), segments), ("x \n> y z\n", vec![(0, 0), (7, 10)]));
        let (text, segments) = unflowed("> a \n>b \n>c\n", false).unwrap_or_default();
        assert_eq!((text.as_str(), segments), ("> a b c\n", vec![(0, 0), (4, 6), (6, 10)]));
    }

    #[test]
    fn what_never_joins() {
        assert_eq!(unflowed("a \n> b\n", false), None); // another depth
        assert_eq!(unflowed("-- \nsig\n", false), None); // the signature separator
        assert_eq!(unflowed(" \nb\n", false), None); // a stuffing space is no soft break
        assert_eq!(unflowed("a \n", false), None); // no line follows
        assert_eq!(unflowed("a\nb\n", false), None);
    }

    #[test]
    fn positions_go_back_to_the_original() {
        let original = "x http://a.example/b \n/c\n";
        let flowed = unflow(original.as_bytes(), true).unwrap_or_else(|| unreachable!());
        assert_eq!(flowed.pieces(&[(2, 22)]), vec![(2, 20), (22, 24)]);
        assert_eq!(flowed.at(21), 23);
        assert_eq!(flowed.end_at(20), 20);
    }
}
