//! text -> matches (issue 31): `src/urlsift/extract.py`'s `_matches` in Rust. Scan, rejoin, judge
//! each reading with the grammar's fullmatch, rank the readings, say where each URL is.
//!
//! The core decides whether a reading is valid; it never says why. What a verdict holds beyond
//! that (parts, caveats, the explanation of a failure) stays Python's and is worked out there,
//! when asked. Nothing here restates the grammar: which production judges a scheme, the scheme's
//! own rule, the fragment's production and D35's shapes come from Python (`urlsift.extract`).
//! A reading whose production or shape the core does not hold (`export.POSSESSIVE_ONLY`) is left
//! to Python's judge: the candidate comes back undecided, with its readings.
#![deny(clippy::indexing_slicing)]

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use regex::{Regex, RegexBuilder};

use crate::rejoin::{as_written, body_into, first_reading_into, readings, Reading};
use crate::scan::{Candidate, Fnv, Scanner, Span, Unclosed, Unit, Words, Wrapper};
use crate::{fullmatcher, Grammar, GrammarError, DFA_SIZE_LIMIT, SIZE_LIMIT};

/// What the core can say of one reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judged {
    Valid,
    Invalid,
    /// Python's judge must say: the core does not hold the production (or the shape).
    Python,
}

/// How Python makes the verdict of a match the core decided (`extract.py`'s verdict functions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// `_judge(url, profile, naked)`.
    Judge,
    /// `_judge_www(url, profile)`: a "www." host name with no scheme.
    Www,
    /// `_judge_unclosed(url, profile, why)` (D21).
    Unclosed(Unclosed),
    /// `_deobfuscated(_judge(url, profile, naked))` (D32).
    Deobfuscated,
}

/// One match, or one candidate left to Python (`valid` None).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub url: String,
    pub alternatives: Vec<String>,
    pub wrapper: Option<Wrapper>,
    pub span: Span,
    pub pieces: Vec<Span>,
    pub line: i64,
    pub column: i64,
    /// Whether the verdict is valid; None: Python judges `readings` and ranks them.
    pub valid: Option<bool>,
    pub verdict: Verdict,
    /// Every reading of an undecided candidate (empty when decided).
    pub readings: Vec<Reading>,
}

/// `_lines.Lines`: 1-based line and 0-based column of positions asked in increasing order, each
/// character looked at once. Its state crosses windows (`Extraction.window`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lines {
    pub pos: usize,
    pub line: i64,
    /// Where the line holding `pos` starts (negative: before the window).
    pub line_start: i64,
}

impl Default for Lines {
    fn default() -> Self {
        Lines { pos: 0, line: 1, line_start: 0 }
    }
}

impl Lines {
    pub fn at<T: Unit>(&mut self, text: &[T], pos: usize) -> (i64, i64) {
        if pos > self.pos {
            let stretch = text.get(self.pos..pos.min(text.len())).unwrap_or_default();
            // As `str.count` and `str.rfind`: a vector count, one search back.
            let newlines = T::count(stretch, b'\n');
            if newlines > 0 {
                self.line += to_i64(newlines);
                if let Some(last) = T::rfind(stretch, b'\n') {
                    self.line_start = to_i64(self.pos + last) + 1;
                }
            }
            self.pos = pos;
        }
        (self.line, to_i64(pos) - self.line_start)
    }
}

fn to_i64(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// How a profile judges a URL, as data from Python: its scheme rule, which production judges
/// each scheme (D1: the generic one any other), the fragment's (D4), and D35's shapes.
#[derive(Debug)]
pub struct Judge {
    scheme: Regex,
    schemes: HashMap<String, String, BuildHasherDefault<Fnv>>,
    generic: String,
    fragment: String,
    /// D35: the shape of each opaque scheme checked in running text, keyed by scheme.
    shapes: HashMap<String, Shape, BuildHasherDefault<Fnv>>,
    /// The schemes D35 checks, those whose shape only Python holds included.
    shaped: Words<String>,
    /// What a "www." host name stands for (`_model.WWW_STANDS_FOR`).
    www_prefix: String,
}

/// D35: one scheme's shape, compiled the first time a naked URL of its scheme is judged: a text
/// meets few of the schemes, and compiling every shape cost each process more than judging.
#[derive(Debug)]
struct Shape {
    pattern: String,
    /// The fullmatch regex; None: the core refused the pattern, and Python's engine judges.
    compiled: OnceLock<Option<Regex>>,
}

impl Shape {
    fn fullmatch(&self, text: &str) -> Judged {
        match self.compiled.get_or_init(|| fullmatcher(&self.pattern).ok()) {
            Some(regex) if regex.is_match(text) => Judged::Valid,
            Some(_) => Judged::Invalid,
            None => Judged::Python,
        }
    }
}

/// A profile's judge, as `urlsift.extract` hands it over.
#[derive(Debug, Clone, Default)]
pub struct JudgePlan {
    /// The scheme name's rule (rendered by `grammar.export`), read from the URL's start.
    pub scheme: String,
    pub schemes: Vec<(String, String)>,
    pub generic: String,
    pub fragment: String,
    /// (scheme, pattern, parts) of each shape the core holds (only the pattern is read: a shape
    /// is fullmatched, never captured).
    pub shapes: Vec<(String, String, Vec<String>)>,
    pub shaped: Vec<String>,
    pub www_prefix: String,
}

impl Judge {
    pub fn new(plan: JudgePlan) -> Result<Self, GrammarError> {
        let scheme = RegexBuilder::new(&format!(r"\A(?:{})", plan.scheme))
            .size_limit(SIZE_LIMIT)
            .dfa_size_limit(DFA_SIZE_LIMIT)
            .build()
            .map_err(|error| GrammarError::Refused {
                production: "scheme".to_owned(),
                reason: error.to_string(),
            })?;
        let shapes = plan.shapes.into_iter();
        let shapes = shapes.map(|(name, pattern, _)| (name, Shape { pattern, compiled: OnceLock::new() }));
        Ok(Judge {
            scheme,
            schemes: plan.schemes.into_iter().collect(),
            generic: plan.generic,
            fragment: plan.fragment,
            shapes: shapes.collect(),
            shaped: plan.shaped.into_iter().collect(),
            www_prefix: plan.www_prefix,
        })
    }

    fn fullmatch(grammar: &Grammar, production: &str, text: &str) -> Judged {
        match grammar.fullmatch(production, text) {
            Ok(true) => Judged::Valid,
            Ok(false) => Judged::Invalid,
            Err(_) => Judged::Python, // export.POSSESSIVE_ONLY: Python's engine judges it
        }
    }

    /// `validate(url).valid`: the scheme, its production over what follows the colon up to the
    /// first "#" (D4), and the fragment's production over the rest.
    fn grammatical(&self, grammar: &Grammar, url: &str) -> (Judged, usize) {
        let endpos = url.find('#').unwrap_or(url.len());
        let head = url.get(..endpos).unwrap_or_default();
        let colon = self.scheme.find(head).map_or(0, |m| m.end());
        if colon == 0 || url.as_bytes().get(colon) != Some(&b':') {
            return (Judged::Invalid, colon);
        }
        // D2: a scheme's letters in any case; the scheme rule holds ASCII only.
        let scheme = lowered(url.get(..colon).unwrap_or_default());
        let production = self.schemes.get(&*scheme).unwrap_or(&self.generic);
        let body = url.get(colon + 1..endpos).unwrap_or_default();
        let judged = Self::fullmatch(grammar, production, body);
        if judged != Judged::Valid || endpos == url.len() {
            return (judged, colon);
        }
        let fragment = url.get(endpos + 1..).unwrap_or_default();
        (Self::fullmatch(grammar, &self.fragment, fragment), colon)
    }

    /// `extract._verdict(url, profile, naked).valid`: the grammar's, less the shapes no URL in
    /// text has (D33, D35).
    pub fn judge(&self, grammar: &Grammar, url: &str, naked: bool) -> Judged {
        let (judged, colon) = self.grammatical(grammar, url);
        if judged != Judged::Valid {
            return judged;
        }
        // D33: "scheme:" and nothing after it is a scheme named, not a URL.
        if colon + 1 == url.len() {
            return Judged::Invalid;
        }
        if !naked {
            return Judged::Valid; // D35: a wrapper vouches for what it holds
        }
        // D35: a naked opaque URL must have its scheme's shape; a "//" form is the grammar's.
        let scheme = lowered(url.get(..colon).unwrap_or_default());
        let rest = url.get(colon + 1..).unwrap_or_default();
        if !self.shaped.contains(&*scheme) || rest.starts_with("//") {
            return Judged::Valid;
        }
        let shape = rest.get(..rest.find('#').unwrap_or(rest.len())).unwrap_or_default();
        // A shape the core does not hold (export.POSSESSIVE_ONLY): Python's engine judges it.
        self.shapes.get(&*scheme).map_or(Judged::Python, |held| held.fullmatch(shape))
    }

    /// The schemes whose shape has been compiled, sorted.
    #[cfg(test)]
    fn shapes_compiled(&self) -> Vec<&str> {
        let compiled = self.shapes.iter().filter(|(_, shape)| shape.compiled.get().is_some());
        let mut names: Vec<&str> = compiled.map(|(name, _)| name.as_str()).collect();
        names.sort_unstable();
        names
    }

    /// `validate_www(reference).valid`: the http URL it stands for, by the grammar alone.
    pub fn judge_www(&self, grammar: &Grammar, reference: &str) -> Judged {
        self.grammatical(grammar, &format!("{}{reference}", self.www_prefix)).0
    }
}

/// D2: a scheme in lower case, copied only when it has an upper-case letter (most are written
/// in lower case, and one is read for every candidate).
fn lowered(scheme: &str) -> Cow<'_, str> {
    if scheme.bytes().any(|byte| byte.is_ascii_uppercase()) {
        Cow::Owned(scheme.to_ascii_lowercase())
    } else {
        Cow::Borrowed(scheme)
    }
}

/// What a judge said of the URLs judged last, so that a URL met again (a signature's link, a
/// list's footer, a text of repeats) is not judged again: a judgement is a function of the URL
/// and how it was found. Each slot holds one URL, chosen by its hash; a URL that lands in a taken
/// slot replaces what was there, so the memory is bounded and a crafted text of colliding URLs
/// only misses, never costs more than judging each.
#[derive(Debug, Clone)]
pub struct Judgements {
    slots: Vec<Option<(String, Asked, Judged)>>,
}

/// How a URL was judged: `judge` naked or not, or `judge_www`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    Wrapped,
    Naked,
    Www,
}

impl Judgements {
    const SLOTS: usize = 1024;

    pub fn new() -> Self {
        Judgements { slots: vec![None; Self::SLOTS] }
    }

    /// No memory at all: every URL judged (for a caller that keeps none between candidates).
    pub fn none() -> Self {
        Judgements { slots: Vec::new() }
    }

    fn slot(url: &str, asked: Asked) -> usize {
        // FNV-1a: cheap on short strings, and a collision costs a judgement, never a wrong one.
        let mut hasher = Fnv::default();
        hasher.write_u8(asked as u8);
        hasher.write(url.as_bytes());
        usize::try_from(hasher.finish() % Self::SLOTS as u64).unwrap_or(0)
    }

    fn judged(&mut self, url: &str, asked: Asked, judge: impl FnOnce() -> Judged) -> Judged {
        let slot = Self::slot(url, asked);
        let Some(held) = self.slots.get_mut(slot) else { return judge() };
        if let Some((known, how, judged)) = held {
            // (An empty string's pointer is dangling: compared by length alone, not by `bcmp`.)
            if *how == asked && known.len() == url.len() && (url.is_empty() || known == url) {
                return *judged;
            }
        }
        let judged = judge();
        match held {
            Some((known, how, was)) => {
                known.clear();
                known.push_str(url);
                (*how, *was) = (asked, judged);
            }
            None => *held = Some((url.to_owned(), asked, judged)),
        }
        judged
    }
}

impl Default for Judgements {
    fn default() -> Self {
        Self::new()
    }
}

/// One extraction's options: the scanner, the judge, and whether rejected candidates are kept.
#[derive(Debug)]
pub struct Extractor {
    pub scanner: Scanner,
    pub judge: Judge,
    pub invalid: bool,
}

/// An extraction's matches, and where the next window's scan must start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    pub found: Vec<Found>,
    pub resume: usize,
}

impl Extractor {
    /// The matches whose trigger lies in `text[start..stop]` (`Extraction.window`; all of the
    /// text: `Extraction.whole`), lines counted on from `lines`.
    pub fn extract<T: Unit>(
        &self,
        grammar: &Grammar,
        text: &[T],
        start: usize,
        stop: Option<usize>,
        text_start: bool,
        lines: &mut Lines,
    ) -> Extracted {
        let scanned = self.scanner.scan(text, start, stop, text_start);
        let mut found = Vec::new();
        let mut judgements = Judgements::new();
        for candidate in &scanned.candidates {
            if let Some(item) = self.candidate_judged(grammar, text, candidate, lines, &mut judgements) {
                found.push(item);
            }
        }
        Extracted { found, resume: scanned.resume }
    }

    /// One candidate's match (`extract`'s step): None when it gives none. Candidates must come in
    /// the scan's order, with one `lines` for all of them.
    pub fn candidate<T: Unit>(
        &self,
        grammar: &Grammar,
        text: &[T],
        candidate: &Candidate,
        lines: &mut Lines,
    ) -> Option<Found> {
        self.candidate_judged(grammar, text, candidate, lines, &mut Judgements::none())
    }

    /// `candidate`, with the judgements of the URLs met before kept in `judgements`.
    pub fn candidate_judged<T: Unit>(
        &self,
        grammar: &Grammar,
        text: &[T],
        candidate: &Candidate,
        lines: &mut Lines,
        judgements: &mut Judgements,
    ) -> Option<Found> {
        let mut reading = Reading::default();
        let mut found =
            self.candidate_judged_into(grammar, text, candidate, lines, judgements, &mut reading)?;
        (found.url, found.pieces) = (reading.url, reading.pieces);
        Some(found)
    }

    /// `candidate_judged` with the match's URL and pieces left in `reading`, a buffer the caller
    /// keeps from candidate to candidate (its room reused: no allocation per candidate on the
    /// common paths); the `Found` has them empty. An undecided one holds its `readings` whole.
    pub fn candidate_judged_into<T: Unit>(
        &self,
        grammar: &Grammar,
        text: &[T],
        candidate: &Candidate,
        lines: &mut Lines,
        judgements: &mut Judgements,
        reading: &mut Reading,
    ) -> Option<Found> {
        let found = |lines: &mut Lines, alternatives, valid, verdict| {
            let (line, column) = lines.at(text, candidate.span.0);
            Found {
                url: String::new(),
                alternatives,
                wrapper: candidate.wrapper,
                span: candidate.span,
                pieces: Vec::new(),
                line,
                column,
                valid,
                verdict,
                readings: Vec::new(),
            }
        };
        if let Some(why) = candidate.problem {
            // D21: rejected whatever it reads as; its first reading shows what it held.
            if !self.invalid {
                return None;
            }
            first_reading_into(text, candidate, reading);
            return Some(found(lines, Vec::new(), Some(false), Verdict::Unclosed(why)));
        }
        let naked = candidate.wrapper.is_none();
        let verdict = if candidate.deobfuscated { Verdict::Deobfuscated } else { Verdict::Judge };
        // The common case: the body as written. Only a skipped " at " (D32) keeps a naked one
        // from it (D19: a naked URL ends at whitespace).
        if candidate.skipped.is_empty() && (naked || as_written(text, candidate.body)) {
            body_into(text, candidate.body, reading);
            let url = &reading.url;
            let judged = if candidate.www {
                judgements.judged(url, Asked::Www, || self.judge.judge_www(grammar, url))
            } else {
                let asked = if naked { Asked::Naked } else { Asked::Wrapped };
                judgements.judged(url, asked, || self.judge.judge(grammar, url, naked))
            };
            let kind = if candidate.www { Verdict::Www } else { Verdict::Judge };
            return match judged {
                Judged::Valid => Some(found(lines, Vec::new(), Some(true), kind)),
                Judged::Invalid => self.invalid.then(|| found(lines, Vec::new(), Some(false), kind)),
                Judged::Python => {
                    let mut item = found(lines, Vec::new(), None, kind);
                    item.readings = vec![reading.clone()];
                    Some(item)
                }
            };
        }
        let options = readings(text, candidate);
        let asked = if naked { Asked::Naked } else { Asked::Wrapped };
        let judged: Vec<Judged> = options
            .iter()
            .map(|r| judgements.judged(&r.url, asked, || self.judge.judge(grammar, &r.url, naked)))
            .collect();
        if judged.contains(&Judged::Python) {
            *reading = options.first().cloned().unwrap_or_default();
            let mut item = found(lines, Vec::new(), None, verdict);
            item.readings = options;
            return Some(item);
        }
        // D24: the first valid reading (the most hyphens kept) is the URL, the others alternatives.
        let mut valid = options.into_iter().zip(judged).filter(|(_, j)| *j == Judged::Valid).map(|(r, _)| r);
        if let Some(best) = valid.next() {
            *reading = best;
            let alternatives = valid.map(|r| r.url).collect();
            return Some(found(lines, alternatives, Some(true), verdict));
        }
        if !self.invalid {
            return None;
        }
        first_reading_into(text, candidate, reading);
        Some(found(lines, Vec::new(), Some(false), Verdict::Judge))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(text: &str, positions: &[usize]) -> Vec<(i64, i64)> {
        let mut lines = Lines::default();
        positions.iter().map(|&pos| lines.at(text.as_bytes(), pos)).collect()
    }

    #[test]
    fn lines_and_columns_count_from_the_text_start() {
        assert_eq!(
            lines_of("ab\ncd\n\nef", &[0, 1, 3, 4, 7, 8]),
            vec![(1, 0), (1, 1), (2, 0), (2, 1), (4, 0), (4, 1)]
        );
    }

    #[test]
    fn lines_are_counted_in_every_kind_of_unit_past_a_byte_counter() {
        // 900 line breaks, 300 in a row (the count is summed in bytes, 255 units at a time), and
        // units whose other byte is a line feed's (U+0A0A, U+010A): no line break.
        let mut text: String =
            (0..600).map(|k| if k % 2 == 0 { "a\n\u{A0A}" } else { "\u{10A}\n" }).collect();
        text.push_str(&"\n".repeat(300));
        let utf16: Vec<[u8; 2]> = text.encode_utf16().map(u16::to_le_bytes).collect();
        let chars: Vec<char> = text.chars().collect();
        let end = chars.len();
        assert_eq!(Lines::default().at(&utf16, end), (901, 0));
        assert_eq!(Lines::default().at(&chars, end), (901, 0));
        assert_eq!(Lines::default().at(text.replace(['\u{A0A}', '\u{10A}'], "b").as_bytes(), end), (901, 0));
        let mut lines = Lines::default();
        assert_eq!(lines.at(&chars, 5), (3, 0), "a \\n U+0A0A U+010A \\n: the third line");
    }

    #[test]
    fn a_position_asked_again_or_earlier_keeps_the_line() {
        assert_eq!(lines_of("ab\ncd", &[4, 4, 3]), vec![(2, 1), (2, 1), (2, 0)]);
    }

    /// A judge of toy productions: "x" judges scheme x (letters), "any" every other scheme
    /// (anything but "#"), "frag" fragments (digits); shape "x" is one letter, "w" three; "y" has a
    /// shape only Python holds.
    fn toy() -> (Judge, Grammar) {
        let mut grammar = Grammar::new();
        grammar.add("x", "[a-z]+|//[a-z]*", &[]).unwrap();
        grammar.add("any", "[^#]*", &[]).unwrap();
        grammar.add("frag", "[0-9]*", &[]).unwrap();
        let plan = JudgePlan {
            scheme: "[a-zA-Z][a-zA-Z0-9+.-]*".into(),
            schemes: vec![("x".into(), "x".into()), ("t".into(), "not-held".into())],
            generic: "any".into(),
            fragment: "frag".into(),
            shapes: vec![("x".into(), "[a-z]".into(), vec![]), ("w".into(), "[a-z]{3}".into(), vec![])],
            shaped: vec!["x".into(), "y".into(), "w".into()],
            www_prefix: "x://".into(),
        };
        (Judge::new(plan).unwrap(), grammar)
    }

    #[test]
    fn the_scheme_chooses_the_production_in_any_case_and_the_fragment_is_judged_apart() {
        let (judge, grammar) = toy();
        assert_eq!(judge.judge(&grammar, "x:ab", false), Judged::Valid);
        assert_eq!(judge.judge(&grammar, "X:ab", false), Judged::Valid, "D2: any case");
        assert_eq!(judge.judge(&grammar, "x:a1", false), Judged::Invalid);
        assert_eq!(judge.judge(&grammar, "z:a1", false), Judged::Valid, "D1: the generic production");
        assert_eq!(judge.judge(&grammar, "x:ab#12", false), Judged::Valid);
        assert_eq!(judge.judge(&grammar, "x:ab#1a", false), Judged::Invalid, "D4: the fragment's production");
        assert_eq!(judge.judge(&grammar, ":ab", false), Judged::Invalid, "an empty scheme");
        assert_eq!(judge.judge(&grammar, "1x:ab", false), Judged::Invalid);
        assert_eq!(judge.judge(&grammar, "x", false), Judged::Invalid, "no colon");
    }

    #[test]
    fn nothing_after_the_colon_is_no_url_of_the_text() {
        let (judge, grammar) = toy();
        assert_eq!(judge.judge(&grammar, "z:", false), Judged::Invalid, "D33");
        assert_eq!(judge.judge(&grammar, "z:#", false), Judged::Valid, "a fragment follows");
    }

    #[test]
    fn a_naked_opaque_url_must_have_its_shape_unless_written_with_slashes() {
        let (judge, grammar) = toy();
        assert_eq!(judge.judge(&grammar, "x:ab", true), Judged::Invalid, "D35: one letter");
        assert_eq!(judge.judge(&grammar, "x:a#1", true), Judged::Valid, "the fragment is no part of it");
        assert_eq!(judge.judge(&grammar, "x://ab", true), Judged::Valid, "a // form: the grammar's");
        assert_eq!(judge.judge(&grammar, "y:ab", true), Judged::Python, "a shape only Python holds");
        assert_eq!(judge.judge(&grammar, "y:ab", false), Judged::Valid, "a wrapper vouches");
    }

    #[test]
    fn a_shape_is_compiled_only_when_a_naked_url_of_its_scheme_asks() {
        let (judge, grammar) = toy();
        assert!(judge.shapes_compiled().is_empty(), "nothing compiled by building the judge");
        assert_eq!(judge.judge(&grammar, "x:ab", false), Judged::Valid);
        assert_eq!(judge.judge(&grammar, "x://ab", true), Judged::Valid);
        assert!(judge.shapes_compiled().is_empty(), "wrapped or \"//\": no shape asked");
        assert_eq!(judge.judge(&grammar, "x:a", true), Judged::Valid);
        assert_eq!(judge.shapes_compiled(), ["x"]);
        assert_eq!(judge.judge(&grammar, "X:ab", true), Judged::Invalid, "D2: compiled once, any case");
        assert_eq!(judge.shapes_compiled(), ["x"], "w's shape still not compiled");
    }

    #[test]
    fn a_shape_the_core_refuses_is_left_to_python() {
        let plan = JudgePlan {
            scheme: "[a-z]+".into(),
            generic: "any".into(),
            fragment: "any".into(),
            // Look-around is what the Python dialect has and this one does not.
            shapes: vec![("r".into(), "(?=a)a".into(), vec![])],
            shaped: vec!["r".into()],
            ..JudgePlan::default()
        };
        let judge = Judge::new(plan).unwrap();
        let (_, grammar) = toy();
        assert_eq!(judge.judge(&grammar, "r:a", true), Judged::Python);
        assert_eq!(judge.judge(&grammar, "r:a", false), Judged::Valid, "a wrapper vouches");
    }

    #[test]
    fn a_production_the_core_does_not_hold_is_left_to_python() {
        let (judge, grammar) = toy();
        assert_eq!(judge.judge(&grammar, "t:ab", false), Judged::Python);
        assert_eq!(judge.judge(&grammar, "t", false), Judged::Invalid, "no scheme: no production asked");
    }

    #[test]
    fn a_www_host_is_judged_as_the_url_it_stands_for_with_no_shape() {
        let (judge, grammar) = toy();
        assert_eq!(judge.judge_www(&grammar, "ab"), Judged::Valid);
        assert_eq!(judge.judge_www(&grammar, "a.b"), Judged::Invalid);
    }

    fn extract(text: &str, invalid: bool) -> Vec<Found> {
        let (judge, grammar) = toy();
        let scanner = Scanner::new(true, &["x".to_owned()], &[], &[], false, false);
        let extractor = Extractor { scanner, judge, invalid };
        extractor.extract(&grammar, text.as_bytes(), 0, None, true, &mut Lines::default()).found
    }

    #[test]
    fn the_first_valid_reading_is_the_url_and_the_others_its_alternatives() {
        // D24: "x:ab-cd" is no x URL (no hyphen in it); the reading without the hyphen is.
        let found = extract("see\n <URL:x:ab-\n  cd> and <URL:z:ab-\n cd>", false);
        let urls: Vec<(&str, &[String], i64, i64)> =
            found.iter().map(|f| (f.url.as_str(), f.alternatives.as_slice(), f.line, f.column)).collect();
        assert_eq!(urls, vec![("x:abcd", &[][..], 2, 1), ("z:ab-cd", &["z:abcd".to_owned()][..], 3, 10)]);
        assert!(found.iter().all(|f| f.valid == Some(true) && f.verdict == Verdict::Judge));
    }

    #[test]
    fn a_reading_buffer_kept_between_candidates_reads_each_afresh() {
        // Long readings first, then shorter ones of fewer pieces: nothing of one may be left in
        // the next (an unclosed wrapper, a rejoined one, a naked URL, one left to Python).
        let text = "<URL:x:abcdef-\n  ghijkl-\n mn> <URL:q:a\n<URL:x:1-\n2> x:zz <URL:t:a-\nb> <x:";
        let (judge, grammar) = toy();
        let scanner = Scanner::new(true, &["x".to_owned()], &[], &[], false, false);
        let extractor = Extractor { scanner, judge, invalid: true };
        let units = text.as_bytes();
        let scanned = extractor.scanner.scan(units, 0, None, true);
        let (mut lines, mut again) = (Lines::default(), Lines::default());
        let (mut judgements, mut reading) = (Judgements::new(), Reading::default());
        let mut found = 0;
        for candidate in &scanned.candidates {
            let fresh =
                extractor.candidate_judged(&grammar, units, candidate, &mut lines, &mut Judgements::none());
            let kept = extractor.candidate_judged_into(
                &grammar,
                units,
                candidate,
                &mut again,
                &mut judgements,
                &mut reading,
            );
            let kept = kept.map(|mut kept| {
                (kept.url, kept.pieces) = (reading.url.clone(), reading.pieces.clone());
                kept
            });
            assert_eq!(kept, fresh, "{candidate:?}");
            found += usize::from(fresh.is_some());
        }
        assert_eq!(found, 6, "every kind of candidate met");
    }

    #[test]
    fn rejected_candidates_only_when_asked_with_their_first_reading() {
        assert!(extract("<URL:x:1-\n2>", false).is_empty());
        let found = extract("<URL:x:1-\n2> <URL:q:a", true);
        let got: Vec<(&str, Option<bool>, Verdict)> =
            found.iter().map(|f| (f.url.as_str(), f.valid, f.verdict)).collect();
        assert_eq!(
            got,
            vec![
                ("x:1-2", Some(false), Verdict::Judge),
                ("q:a", Some(false), Verdict::Unclosed(Unclosed::TextEnded))
            ]
        );
    }

    #[test]
    fn a_candidate_with_a_reading_python_must_judge_comes_back_with_every_reading() {
        let found = extract("<URL:t:a-\nb>", false);
        assert_eq!(found.len(), 1);
        let urls: Vec<&str> = found.iter().flat_map(|f| f.readings.iter().map(|r| r.url.as_str())).collect();
        assert_eq!(urls, ["t:a-b", "t:ab"]);
        assert!(found.iter().all(|f| f.valid.is_none()));
    }

    #[test]
    fn a_url_met_again_is_not_judged_again_unless_found_another_way() {
        let mut judgements = Judgements::new();
        let mut calls = 0;
        let mut judged = |url: &str, asked: Asked, verdict: Judged| {
            judgements.judged(url, asked, || {
                calls += 1;
                verdict
            })
        };
        assert_eq!(judged("x:a", Asked::Wrapped, Judged::Valid), Judged::Valid);
        assert_eq!(judged("x:a", Asked::Wrapped, Judged::Invalid), Judged::Valid, "remembered");
        assert_eq!(judged("x:a", Asked::Naked, Judged::Invalid), Judged::Invalid, "asked another way");
        assert_eq!(judged("", Asked::Wrapped, Judged::Invalid), Judged::Invalid);
        assert_eq!(judged("", Asked::Wrapped, Judged::Valid), Judged::Invalid, "the empty URL too");
        assert_eq!(calls, 3);
        // Every slot taken by other URLs: the first is judged again, never answered wrongly.
        let mut judgements = Judgements::new();
        judgements.judged("x:a", Asked::Www, || Judged::Valid);
        for k in 0..4 * Judgements::SLOTS {
            judgements.judged(&format!("x:{k}"), Asked::Www, || Judged::Invalid);
        }
        assert_eq!(judgements.judged("x:a", Asked::Www, || Judged::Python), Judged::Python);
        let mut none = Judgements::none();
        none.judged("x:a", Asked::Www, || Judged::Valid);
        assert_eq!(none.judged("x:a", Asked::Www, || Judged::Invalid), Judged::Invalid, "no memory");
    }

    #[test]
    fn the_same_url_wrapped_and_naked_keeps_each_judgement() {
        // D35: "x:ab" naked lacks x's shape (one letter); a wrapper vouches for it.
        let found = extract("<x:ab> x:ab <x:ab> x:ab", true);
        let got: Vec<(&str, Option<bool>)> = found.iter().map(|f| (f.url.as_str(), f.valid)).collect();
        assert_eq!(
            got,
            vec![("x:ab", Some(true)), ("x:ab", Some(false)), ("x:ab", Some(true)), ("x:ab", Some(false))]
        );
    }

    #[test]
    fn a_window_counts_on_from_the_state_it_is_given() {
        let mut lines = Lines { pos: 0, line: 7, line_start: -3 };
        assert_eq!(lines.at(b"abc".as_slice(), 2), (7, 5));
    }
}
