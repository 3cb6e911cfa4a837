//! Candidate -> readings (issue 31): `src/urlsift/rejoin.py` in Rust, reading for reading and in
//! its order; the appendix's paragraphs on URLs broken across lines.
//!
//! 1. The fragment is part of the body already (D4): nothing to do.
//! 2. D23: whitespace inside a body is no URL text, nor are the quote prefixes the scanner found
//!    on continuation lines (D25): the URL is the runs of non-whitespace between them.
//! 3. D24: a hyphen right before a line break may or may not be the URL's: every combination of
//!    keeping and dropping such hyphens is a reading, all kept first.
//!
//! Positions are characters (units of the scanned text, as the scanner's); no validation here.
#![deny(clippy::indexing_slicing)]

use crate::scan::{is_space, Candidate, Span, Unit};

/// D24 asks for every combination (2**n readings); past this many hyphen breaks in one URL only
/// the all-kept and all-dropped readings are built (`rejoin.MAX_HYPHEN_BREAKS`).
pub const MAX_HYPHEN_BREAKS: usize = 4;

/// One way to read a candidate: the URL, and the slices of the text it is made of.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reading {
    pub url: String,
    pub pieces: Vec<Span>,
}

/// The characters of `text[start..end]` as a string (an empty one for a span out of the text).
pub fn slice<T: Unit>(text: &[T], start: usize, end: usize) -> String {
    // Sized up front: `filter_map` promises no length, and a collected string would grow by steps.
    let mut out = String::with_capacity(end.saturating_sub(start));
    push_slice(&mut out, text, (start, end));
    out
}

fn push_slice<T: Unit>(out: &mut String, text: &[T], (start, end): Span) {
    let units = text.get(start..end).unwrap_or_default();
    out.extend(units.iter().filter_map(|unit| char::from_u32(unit.code())));
}

fn space_at<T: Unit>(text: &[T], at: usize) -> bool {
    text.get(at).is_some_and(|unit| is_space(unit.code()))
}

/// Paragraph 2: the runs of non-whitespace of `text[start..end]` (D23: `str.isspace`).
fn runs<T: Unit>(text: &[T], start: usize, end: usize, found: &mut Vec<Span>) {
    let mut at = start;
    while at < end {
        while at < end && space_at(text, at) {
            at += 1;
        }
        let run = at;
        while at < end && !space_at(text, at) {
            at += 1;
        }
        if at > run {
            found.push((run, at));
        }
    }
}

/// The runs of non-whitespace of the body, quote prefixes (D25) left out.
pub fn pieces<T: Unit>(text: &[T], candidate: &Candidate) -> Vec<Span> {
    let mut found = Vec::new();
    pieces_into(text, candidate, &mut found);
    found
}

/// `pieces`, appended to `found`.
fn pieces_into<T: Unit>(text: &[T], candidate: &Candidate, found: &mut Vec<Span>) {
    let (mut start, end) = candidate.body;
    for &(skip_start, skip_end) in &candidate.skipped {
        runs(text, start, skip_start, found);
        start = skip_end;
    }
    runs(text, start, end, found);
}

/// D24: indexes of the runs that end with "-" where a line break follows (spaces and a quote
/// prefix before the next run are whitespace around the break). The last run counts too when
/// a line break comes between it and `body_end`, the closing `>`.
pub fn hyphen_breaks<T: Unit>(text: &[T], runs: &[Span], body_end: Option<usize>) -> Vec<usize> {
    let mut ends: Vec<usize> = runs.iter().skip(1).map(|&(start, _)| start).collect();
    if let (false, Some(end)) = (runs.is_empty(), body_end) {
        ends.push(end);
    }
    let breaks_line = |from: usize, to: usize| {
        text.get(from..to).unwrap_or_default().iter().any(|unit| matches!(unit.code(), 0x0A | 0x0D))
    };
    runs.iter()
        .zip(ends)
        .enumerate()
        .filter(|&(_, (&(_, end), after))| {
            let hyphen = end.checked_sub(1).and_then(|last| text.get(last)).is_some_and(|u| u.code() == 0x2D);
            hyphen && breaks_line(end, after)
        })
        .map(|(index, _)| index)
        .collect()
}

/// Whether a body that skips no quote prefix is the URL as it stands: not empty, no whitespace.
pub fn as_written<T: Unit>(text: &[T], (start, end): Span) -> bool {
    end > start && text.get(start..end).is_some_and(|body| !body.iter().any(|unit| is_space(unit.code())))
}

fn reading<T: Unit>(text: &[T], pieces: Vec<Span>) -> Reading {
    let mut url = String::with_capacity(pieces.iter().map(|&(start, end)| end.saturating_sub(start)).sum());
    for &piece in &pieces {
        push_slice(&mut url, text, piece);
    }
    Reading { url, pieces }
}

/// The combinations of `0..n` of each size, smallest first, each in lexicographic order: as
/// `itertools.combinations` gives them size after size.
fn combinations(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for size in 0..=n {
        let mut chosen: Vec<usize> = (0..size).collect();
        loop {
            out.push(chosen.clone());
            // The rightmost index that can still move right, moved, and those after it reset.
            let Some(k) = (0..size).rev().find(|&k| chosen.get(k).is_some_and(|&c| c < n - size + k)) else {
                break;
            };
            let first = chosen.get(k).copied().unwrap_or_default() + 1;
            for (offset, slot) in chosen.iter_mut().skip(k).enumerate() {
                *slot = first + offset;
            }
        }
    }
    out
}

/// Every reading of the candidate, the one that keeps every hyphen first (D24).
pub fn readings<T: Unit>(text: &[T], candidate: &Candidate) -> Vec<Reading> {
    let runs = pieces(text, candidate);
    if candidate.deobfuscated {
        // D32: the skipped " at " stands for "@".
        let before = candidate.skipped.first().map_or(0, |&(start, _)| start);
        let head = runs.iter().take_while(|&&(_, end)| end <= before).count();
        let mut url = String::new();
        for (index, &run) in runs.iter().enumerate() {
            if index == head {
                url.push('@');
            }
            push_slice(&mut url, text, run);
        }
        if head == runs.len() {
            url.push('@');
        }
        return vec![Reading { url, pieces: runs }];
    }
    let body_end = candidate.wrapper.map(|_| candidate.body.1);
    let breaks = hyphen_breaks(text, &runs, body_end);
    if breaks.is_empty() {
        return vec![reading(text, runs)];
    }
    let choices: Vec<Vec<usize>> = if breaks.len() > MAX_HYPHEN_BREAKS {
        vec![Vec::new(), breaks.clone()]
    } else {
        combinations(breaks.len())
            .into_iter()
            .map(|chosen| chosen.iter().filter_map(|&k| breaks.get(k).copied()).collect())
            .collect()
    };
    choices
        .iter()
        .map(|dropped| {
            let kept = runs
                .iter()
                .enumerate()
                .map(|(k, &(s, e))| if dropped.contains(&k) { (s, e - 1) } else { (s, e) })
                .filter(|&(s, e)| e > s)
                .collect();
            reading(text, kept)
        })
        .collect()
}

/// `readings(text, candidate)[0]` without building the others (a wrapper never closed shows only
/// what it held).
pub fn first_reading<T: Unit>(text: &[T], candidate: &Candidate) -> Reading {
    let mut out = Reading::default();
    first_reading_into(text, candidate, &mut out);
    out
}

/// `first_reading`, made in `out` (what it held before dropped, its room kept): a caller that
/// reads one candidate after another allocates nothing per candidate.
pub fn first_reading_into<T: Unit>(text: &[T], candidate: &Candidate, out: &mut Reading) {
    if candidate.deobfuscated {
        *out = readings(text, candidate).into_iter().next().unwrap_or_default();
        return;
    }
    out.pieces.clear();
    pieces_into(text, candidate, &mut out.pieces);
    out.url.clear();
    for &piece in &out.pieces {
        push_slice(&mut out.url, text, piece);
    }
}

/// The body as written (`as_written`'s case), made in `out` as `first_reading_into` does.
pub fn body_into<T: Unit>(text: &[T], body: Span, out: &mut Reading) {
    out.pieces.clear();
    out.pieces.push(body);
    out.url.clear();
    push_slice(&mut out.url, text, body);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::Wrapper;

    fn wrapped(text: &str, body: Span, skipped: Vec<Span>) -> Candidate {
        assert!(body.1 < text.len(), "the body lies in the text, before its '>'");
        Candidate {
            wrapper: Some(Wrapper::Url),
            span: (0, text.len()),
            body,
            skipped,
            problem: None,
            www: false,
            deobfuscated: false,
        }
    }

    fn urls(text: &str, candidate: &Candidate) -> Vec<String> {
        readings(text.as_bytes(), candidate).into_iter().map(|r| r.url).collect()
    }

    /// `<URL:` + body + `>`, the body's span in it.
    fn body_of(text: &str) -> Span {
        (5, text.len() - 1)
    }

    #[test]
    fn whitespace_is_dropped_and_the_pieces_say_where_each_run_was() {
        let text = "<URL:http://h.ex\n   ample/a b\t>";
        let candidate = wrapped(text, body_of(text), vec![]);
        let found = readings(text.as_bytes(), &candidate);
        assert_eq!(
            found,
            vec![Reading { url: "http://h.example/ab".into(), pieces: vec![(5, 16), (20, 27), (28, 29)] }]
        );
    }

    #[test]
    fn one_hyphen_break_gives_kept_then_dropped() {
        let text = "<URL:http://h.ex-\n  ample/>";
        let candidate = wrapped(text, body_of(text), vec![]);
        assert_eq!(urls(text, &candidate), ["http://h.ex-ample/", "http://h.example/"]);
    }

    #[test]
    fn a_hyphen_before_a_space_on_its_line_is_no_break() {
        let text = "<URL:http://h.ex- ample/>";
        let candidate = wrapped(text, body_of(text), vec![]);
        assert_eq!(urls(text, &candidate), ["http://h.ex-ample/"]);
    }

    #[test]
    fn a_hyphen_right_before_the_closing_bracket_counts_after_a_line_break_only() {
        let text = "<URL:http://h.example/a-\n>";
        let candidate = wrapped(text, body_of(text), vec![]);
        assert_eq!(urls(text, &candidate), ["http://h.example/a-", "http://h.example/a"]);
        let text = "<URL:http://h.example/a->";
        let candidate = wrapped(text, body_of(text), vec![]);
        assert_eq!(urls(text, &candidate), ["http://h.example/a-"]);
    }

    #[test]
    fn three_breaks_give_every_combination_in_itertools_order() {
        let text = "<URL:a-\nb-\nc-\nd>";
        let candidate = wrapped(text, body_of(text), vec![]);
        assert_eq!(
            urls(text, &candidate),
            ["a-b-c-d", "ab-c-d", "a-bc-d", "a-b-cd", "abc-d", "ab-cd", "a-bcd", "abcd"]
        );
    }

    #[test]
    fn more_breaks_than_the_bound_give_the_two_extremes() {
        let text = "<URL:a-\nb-\nc-\nd-\ne-\nf>";
        let candidate = wrapped(text, body_of(text), vec![]);
        assert_eq!(urls(text, &candidate), ["a-b-c-d-e-f", "abcdef"]);
        let text = "<URL:a-\nb-\nc-\nd-\ne>";
        let candidate = wrapped(text, body_of(text), vec![]);
        assert_eq!(urls(text, &candidate).len(), 16, "four breaks: every combination");
    }

    #[test]
    fn a_lone_hyphen_dropped_leaves_no_empty_piece() {
        let text = "<URL:a\n-\nb>";
        let candidate = wrapped(text, body_of(text), vec![]);
        let found = readings(text.as_bytes(), &candidate);
        assert_eq!(found.len(), 2);
        assert_eq!(found.get(1), Some(&Reading { url: "ab".into(), pieces: vec![(5, 6), (9, 10)] }));
    }

    #[test]
    fn skipped_quote_prefixes_are_no_url_text_and_a_break_before_one_still_counts() {
        let text = "<URL:http://h.ex-\n> > ample/>";
        let candidate = wrapped(text, body_of(text), vec![(18, 22)]);
        assert_eq!(urls(text, &candidate), ["http://h.ex-ample/", "http://h.example/"]);
        assert_eq!(pieces(text.as_bytes(), &candidate), vec![(5, 17), (22, 28)]);
    }

    #[test]
    fn pipermail_at_stands_for_the_at_sign_and_takes_no_hyphen_rule() {
        let text = "mailto:user- at h.example";
        let candidate = Candidate {
            wrapper: None,
            span: (0, text.len()),
            body: (0, text.len()),
            skipped: vec![(12, 16)],
            problem: None,
            www: false,
            deobfuscated: true,
        };
        let found = readings(text.as_bytes(), &candidate);
        assert_eq!(
            found,
            vec![Reading { url: "mailto:user-@h.example".into(), pieces: vec![(0, 12), (16, 25)] }]
        );
        assert_eq!(found.first(), Some(&first_reading(text.as_bytes(), &candidate)));
    }

    #[test]
    fn as_written_means_not_empty_and_no_python_whitespace() {
        let text = "ab\u{1c}c";
        let chars: Vec<char> = text.chars().collect();
        assert!(as_written(&chars, (0, 2)));
        assert!(!as_written(&chars, (0, 4)), "U+001C is whitespace to str.isspace");
        assert!(!as_written(&chars, (2, 2)));
    }

    #[test]
    fn positions_are_characters_in_a_text_of_code_points() {
        let chars: Vec<char> = "<URL:http://é.ex\n ample/>".chars().collect();
        let candidate = Candidate {
            wrapper: Some(Wrapper::Url),
            span: (0, chars.len()),
            body: (5, chars.len() - 1),
            skipped: vec![],
            problem: None,
            www: false,
            deobfuscated: false,
        };
        let found = readings(&chars, &candidate);
        assert_eq!(found, vec![Reading { url: "http://é.example/".into(), pieces: vec![(5, 16), (18, 24)] }]);
    }
}
