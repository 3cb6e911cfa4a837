//! The scanner (issue 31): `src/urlsift/scanner.py` in Rust, candidate for candidate.
//!
//! Three scanners, each woken by its own literal trigger (`<`, `"`, `:`, and `.` for `www.`),
//! found with `memchr` and checked after, with no look-around regex: the wrapper scanner (D21, D22,
//! D25), the quote scanner (D26), the naked scanner (D19, D22, D34, D36) and the host scanner of
//! the modern profile. The cursor only moves forward and every search is bounded as the Python's
//! `MAX_*` constants bound it, so the scan is linear in the text.
//!
//! Positions are characters, as every column of urlsift is: the scanner runs over a slice of
//! units, each one character: the text's bytes when it is ASCII (most mail), else its code points
//! (decoded once per text by the caller). No position is converted per candidate.
//!
//! Character classes are Python's, not Rust's (`scan_tables.rs`, rendered from `str.isspace`,
//! `unicodedata` and `str.isalnum`): D23's whitespace includes U+001C-U+001F, which
//! `char::is_whitespace` does not. No indexing that can panic: every read is a `get`.
#![deny(clippy::indexing_slicing)]

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::scan_tables::{ALNUM, PUNCTUATION, WHITESPACE};

/// D21: a wrapper whose `>` is further than this from its `<` is unterminated.
pub const MAX_WRAPPER_CHARS: usize = 2048;
/// D21: a wrapper may span at most this many lines.
pub const MAX_WRAPPER_LINES: usize = 8;
/// A naked URL's scheme is looked for this far back from its colon.
pub const MAX_SCHEME_CHARS: usize = 32;
/// D19: a naked or quoted candidate longer than this is no URL.
pub const MAX_NAKED_CHARS: usize = 4096;
/// D25: a quote prefix is looked for only when the wrapper starts this close to its line's start.
pub const PREFIX_REACH: usize = 4096;
/// D34: how far before a naked URL an open `[` is looked for.
pub const BRACKET_REACH: usize = 256;
/// A naked URL's scheme and `URL:` prefix start at most this far before its colon.
pub const RESUME_SLACK: usize = 64;
/// `\s{0,64}` after a wrapper's `<`.
const MAX_OPEN_SPACE: usize = 64;
/// D25: as `scanner._QUOTE_PREFIX`: deeper quoting than this is not taken for quoting.
const MAX_QUOTE_DEPTH: usize = 16;
/// D32: what pipermail writes for "@".
const PIPERMAIL_AT: &[u8] = b" at ";
const WWW_BEFORE_DOT: usize = 3;

/// FNV-1a, for the sets words are looked up in as the text is read (scheme names, productions):
/// each is fixed when a scanner or judge is made, from Python's lists, so no text can crowd one,
/// and SipHash's keyed rounds were a tenth of a dense text's scan (a naked trigger looks up to 31
/// suffixes of its word).
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A fixed set of words (`Fnv`).
pub type Words<K = Vec<u8>> = HashSet<K, BuildHasherDefault<Fnv>>;

/// One character of the text: a byte of an ASCII or Latin-1 text, a UTF-16 unit of a text of the
/// BMP alone, or a code point.
pub trait Unit: Copy {
    fn code(self) -> u32;
    /// The first `needle` (ASCII) in `hay`.
    fn find(hay: &[Self], needle: u8) -> Option<usize>;
    /// The last `needle` (ASCII) in `hay`.
    fn rfind(hay: &[Self], needle: u8) -> Option<usize>;
    /// How many `needle`s (ASCII) `hay` holds.
    fn count(hay: &[Self], needle: u8) -> usize {
        counted(hay, |unit| unit.code() == u32::from(needle))
    }
}

/// How many units of `hay` pass `test`: summed in bytes, 255 units at a time, which the compiler
/// makes a vector of byte counters (summed as a `usize` a unit, it counted two units a step).
#[inline]
fn counted<T: Copy>(hay: &[T], test: impl Fn(T) -> bool) -> usize {
    hay.chunks(255)
        .map(|chunk| usize::from(chunk.iter().fold(0_u8, |n, &unit| n + u8::from(test(unit)))))
        .sum()
}

impl Unit for u8 {
    #[inline]
    fn code(self) -> u32 {
        u32::from(self)
    }
    #[inline]
    fn find(hay: &[u8], needle: u8) -> Option<usize> {
        memchr::memchr(needle, hay)
    }
    #[inline]
    fn rfind(hay: &[u8], needle: u8) -> Option<usize> {
        memchr::memrchr(needle, hay)
    }
    #[inline]
    fn count(hay: &[u8], needle: u8) -> usize {
        memchr::memchr_iter(needle, hay).count()
    }
}

/// A UTF-16 unit of a text of the BMP, as the two bytes `str.encode("utf-16-le")` writes: the
/// binding keeps the encoder's bytes as they are, and `memchr` finds an ASCII needle among them
/// (a hit counts where it is a unit's low byte and the high byte is zero), where a `u16` would be
/// compared one by one.
impl Unit for [u8; 2] {
    #[inline]
    fn code(self) -> u32 {
        u32::from(u16::from_le_bytes(self))
    }
    #[inline]
    fn find(hay: &[[u8; 2]], needle: u8) -> Option<usize> {
        let bytes = hay.as_flattened();
        memchr::memchr_iter(needle, bytes).find(|&at| is_unit(bytes, at)).map(|at| at / 2)
    }
    #[inline]
    fn rfind(hay: &[[u8; 2]], needle: u8) -> Option<usize> {
        let bytes = hay.as_flattened();
        memchr::memrchr_iter(needle, bytes).find(|&at| is_unit(bytes, at)).map(|at| at / 2)
    }
}

/// Whether the byte at `at` of little-endian UTF-16 is a whole unit below U+0100: a low byte
/// (even) whose high byte is zero.
#[inline]
fn is_unit(bytes: &[u8], at: usize) -> bool {
    at % 2 == 0 && bytes.get(at + 1) == Some(&0)
}

/// Code points: no `memchr` for them, each compared.
impl Unit for char {
    #[inline]
    fn code(self) -> u32 {
        u32::from(self)
    }
    #[inline]
    fn find(hay: &[char], needle: u8) -> Option<usize> {
        let needle = char::from(needle);
        hay.iter().position(|&c| c == needle)
    }
    #[inline]
    fn rfind(hay: &[char], needle: u8) -> Option<usize> {
        let needle = char::from(needle);
        hay.iter().rposition(|&c| c == needle)
    }
}

fn in_table(table: &[(u32, u32)], code: u32) -> bool {
    table
        .binary_search_by(|&(low, high)| {
            if high < code {
                std::cmp::Ordering::Less
            } else if low > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// D23: Python's `str.isspace`, U+001C-U+001F included.
#[inline]
pub fn is_space(code: u32) -> bool {
    if code < 0x80 {
        matches!(code, 0x09..=0x0D | 0x1C..=0x20)
    } else {
        in_table(WHITESPACE, code)
    }
}

/// D19: non-ASCII punctuation (general category P).
#[inline]
fn is_punctuation(code: u32) -> bool {
    code > 0x7F && in_table(PUNCTUATION, code)
}

/// re's `[^\W_]`: `str.isalnum`.
#[inline]
fn is_alnum(code: u32) -> bool {
    if code < 0x80 {
        matches!(code, 0x30..=0x39 | 0x41..=0x5A | 0x61..=0x7A)
    } else {
        in_table(ALNUM, code)
    }
}

#[inline]
fn is_letter(code: u32) -> bool {
    matches!(code, 0x41..=0x5A | 0x61..=0x7A)
}

#[inline]
fn is_digit(code: u32) -> bool {
    matches!(code, 0x30..=0x39)
}

/// D2's scheme characters.
#[inline]
fn is_scheme_char(code: u32) -> bool {
    is_letter(code) || is_digit(code) || matches!(code, 0x2B | 0x2D | 0x2E)
}

/// D25's quote marks.
#[inline]
fn is_mark(code: u32) -> bool {
    matches!(code, 0x3E | 0x7C | 0x3A)
}

#[inline]
fn is_blank(code: u32) -> bool {
    code == 0x20 || code == 0x09
}

/// D19, D34: what ends a naked (or quoted) URL: whitespace, `<`, `>`, `"`, a backtick, the BMP's
/// non-ASCII punctuation (`scanner._naked_end`).
#[inline]
fn ends_naked(code: u32) -> bool {
    is_space(code)
        || matches!(code, 0x3C | 0x3E | 0x22 | 0x60)
        || (code > 0x7F && code <= 0xFFFF && is_punctuation(code))
}

const ASCII_LOWER: u32 = 0x20;

#[inline]
fn lower(code: u32) -> u32 {
    if (0x41..=0x5A).contains(&code) {
        code | ASCII_LOWER
    } else {
        code
    }
}

/// Why a wrapper could not be closed (D21): `_model.Unclosed`'s members, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unclosed {
    TextEnded = 0,
    BlankLine = 1,
    SecondOpen = 2,
    TooLong = 3,
    TooManyLines = 4,
}

/// A candidate's wrapper: `_model.Wrapper`, or none (a naked URL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrapper {
    Url,
    Angle,
    Quote,
}

pub type Span = (usize, usize);

/// `_model.Candidate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub wrapper: Option<Wrapper>,
    pub span: Span,
    pub body: Span,
    pub skipped: Vec<Span>,
    pub problem: Option<Unclosed>,
    pub www: bool,
    pub deobfuscated: bool,
}

impl Candidate {
    fn plain(wrapper: Option<Wrapper>, span: Span, body: Span) -> Self {
        Candidate { wrapper, span, body, skipped: Vec::new(), problem: None, www: false, deobfuscated: false }
    }
}

/// A scan's candidates and where the next window's scan must start (`ScanProgress.resume`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scanned {
    pub candidates: Vec<Candidate>,
    pub resume: usize,
}

/// A scan under way (`Scanner::start`, `Scanner::next`): each trigger's next hit, the cursor and
/// where lines start, but not the text, so that whoever owns the text (the binding) can keep a
/// scan between steps and hold a bounded number of candidates at a time, however many a text has.
#[derive(Debug, Clone)]
pub struct Scan {
    stop: usize,
    /// `stop`, or the text's end if it comes first.
    end: usize,
    lines: LineStarts,
    triggers: Vec<Trigger>,
    hits: Vec<Option<Hit>>,
    cursor: usize,
    done: bool,
}

impl Scan {
    /// Whether every trigger before the stop is done (`next` gives no more).
    pub fn done(&self) -> bool {
        self.done
    }

    /// Where the next window's scan must start (`ScanProgress.resume`), once `done`: every
    /// trigger before the stop is done, and the next window re-finds the first one at or after
    /// it, needing the cursor only as a floor for looking back.
    pub fn resume(&self) -> usize {
        self.cursor.max(self.end.saturating_sub(RESUME_SLACK))
    }
}

/// The scanner of one option set (`scanner.Scanner`); the scheme sets come from Python, stated
/// once there (`scanner.KNOWN_SCHEMES`, `HIERARCHICAL_SCHEMES`, `_iana.IANA_PERMANENT_SCHEMES`).
#[derive(Debug, Clone)]
pub struct Scanner {
    naked: bool,
    www: bool,
    pipermail: bool,
    schemes: Words,
    /// The schemes a naked URL may use without `//`, longest last char first: none needed.
    opaque: Vec<Vec<u8>>,
    /// The last characters (lower case) of the opaque schemes.
    opaque_ends: Vec<u8>,
    iana: Words,
}

#[derive(Debug, Clone, Copy)]
enum Trigger {
    Open,
    Quote,
    Naked,
    Www,
}

/// A trigger's hit: where it starts, and for the wrapper and quote triggers their groups.
#[derive(Debug, Clone, Copy)]
struct Hit {
    start: usize,
    /// The wrapper's whitespace (and quote prefix) after `<`: `start + 1 .. word`.
    word: usize,
    /// The scheme's colon.
    colon: usize,
    /// Where the wrapper trigger's run of body characters stopped (`_OPEN`'s end).
    stop: usize,
}

type Found = (Option<Candidate>, usize);

/// `_lines.Lines.start_of`, for positions asked in increasing order.
#[derive(Debug, Clone)]
struct LineStarts {
    pos: usize,
    /// Where the line holding `pos` starts; `None`: before the window, long ago.
    line_start: Option<usize>,
}

impl LineStarts {
    fn start_of<T: Unit>(&mut self, text: &[T], pos: usize) -> Option<usize> {
        if pos > self.pos {
            if let Some(newline) = text.get(self.pos..pos).and_then(|s| T::rfind(s, b'\n')) {
                self.line_start = Some(self.pos + newline + 1);
            }
            self.pos = pos;
        }
        self.line_start
    }
}

struct Text<'a, T: Unit> {
    s: &'a [T],
}

impl<'a, T: Unit> Text<'a, T> {
    #[inline]
    fn len(&self) -> usize {
        self.s.len()
    }
    #[inline]
    fn at(&self, i: usize) -> Option<u32> {
        self.s.get(i).map(|u| u.code())
    }
    #[inline]
    fn is(&self, i: usize, code: u8) -> bool {
        self.at(i) == Some(u32::from(code))
    }
    fn starts_with(&self, i: usize, word: &[u8]) -> bool {
        word.iter().enumerate().all(|(k, &b)| self.is(i + k, b))
    }
    /// `text.find(chr(needle), from, to)`.
    fn find(&self, needle: u8, from: usize, to: usize) -> Option<usize> {
        let to = to.min(self.len());
        self.s.get(from..to).and_then(|s| T::find(s, needle)).map(|k| from + k)
    }
    /// `text.rfind(chr(needle), from, to)`.
    fn rfind(&self, needle: u8, from: usize, to: usize) -> Option<usize> {
        let to = to.min(self.len());
        self.s.get(from..to).and_then(|s| T::rfind(s, needle)).map(|k| from + k)
    }
    /// `text.find(word, from, to)`: the whole word inside `[from, to)`.
    fn find_word(&self, word: &[u8], from: usize, to: usize) -> Option<usize> {
        let first = *word.first()?;
        let to = to.min(self.len());
        let mut at = from;
        while let Some(hit) = self.find(first, at, to) {
            if hit + word.len() > to {
                return None;
            }
            if self.starts_with(hit, word) {
                return Some(hit);
            }
            at = hit + 1;
        }
        None
    }
    /// The first position in `[from, to)` where `test` holds.
    fn find_where(&self, from: usize, to: usize, test: impl Fn(u32) -> bool) -> Option<usize> {
        let to = to.min(self.len());
        self.s.get(from..to)?.iter().position(|u| test(u.code())).map(|k| from + k)
    }
    fn count(&self, needle: u8, from: usize, to: usize) -> i64 {
        let to = to.min(self.len());
        let needle = u32::from(needle);
        self.s.get(from..to).map_or(0, |s| s.iter().filter(|u| u.code() == needle).count() as i64)
    }
    /// The lower-cased ASCII of `[from, to)`, written into `word`, or `None` if it holds anything
    /// else or is longer than a `Word` (every word asked for is a scheme, `URL:` or `mailto`: none
    /// is). Written in place: a word returned by value was copied with wide loads right after its
    /// byte stores, a stall on every trigger.
    fn ascii_lower<'w>(&self, from: usize, to: usize, word: &'w mut Word) -> Option<&'w [u8]> {
        let units = self.s.get(from..to)?;
        let slots = word.get_mut(..units.len())?;
        for (slot, unit) in slots.iter_mut().zip(units) {
            *slot = u8::try_from(lower(unit.code())).ok().filter(u8::is_ascii)?;
        }
        Some(slots)
    }
}

/// A lower-cased word of at most twice `MAX_SCHEME_CHARS` ASCII characters, kept on the stack:
/// one is made at every trigger, and an allocation each was a fifth of the scan's time on a text
/// of triggers.
type Word = [u8; 2 * MAX_SCHEME_CHARS];

impl Scanner {
    /// `schemes`: the schemes a naked, quoted or bare `<...>` URL may use without `//` (lower
    /// case, checked by the caller); `hierarchical`: those found naked only by their `//`;
    /// `iana`: the registry's permanent schemes (D36).
    pub fn new(
        naked: bool,
        schemes: &[String],
        hierarchical: &[String],
        iana: &[String],
        www: bool,
        pipermail: bool,
    ) -> Self {
        let schemes: Words = schemes.iter().map(|s| s.to_ascii_lowercase().into_bytes()).collect();
        let hierarchical: Words = hierarchical.iter().map(|s| s.to_ascii_lowercase().into_bytes()).collect();
        let mut opaque: Vec<Vec<u8>> = schemes.difference(&hierarchical).cloned().collect();
        opaque.sort();
        let mut opaque_ends: Vec<u8> = opaque.iter().filter_map(|s| s.last().copied()).collect();
        opaque_ends.sort_unstable();
        opaque_ends.dedup();
        let iana = iana.iter().map(|s| s.to_ascii_lowercase().into_bytes()).collect();
        Scanner { naked, www, pipermail, schemes, opaque, opaque_ends, iana }
    }

    /// `Scanner.scan`: the candidates of `text` whose trigger lies in `[start, stop)`.
    /// `text_start`: the text starts at a line's start (else its first line started long ago).
    pub fn scan<T: Unit>(&self, text: &[T], start: usize, stop: Option<usize>, text_start: bool) -> Scanned {
        let mut scan = self.start(text, start, stop, text_start);
        let candidates = std::iter::from_fn(|| self.next(&mut scan, text)).collect();
        Scanned { candidates, resume: scan.resume() }
    }

    /// A scan of `text` from `start`, to be taken one candidate at a time with `next`: the same
    /// candidates as `scan`, of which the caller need hold only those it has not yet handed on.
    pub fn start<T: Unit>(&self, text: &[T], start: usize, stop: Option<usize>, text_start: bool) -> Scan {
        let text = Text { s: text };
        let mut triggers: Vec<Trigger> = vec![Trigger::Open, Trigger::Quote];
        if self.naked {
            triggers.push(Trigger::Naked);
        }
        if self.www {
            triggers.push(Trigger::Www);
        }
        let hits = triggers.iter().map(|&t| self.search(&text, t, start)).collect();
        Scan {
            stop: stop.unwrap_or(text.len()),
            end: stop.unwrap_or(text.len()).min(text.len()),
            lines: LineStarts { pos: 0, line_start: if text_start { Some(0) } else { None } },
            triggers,
            hits,
            cursor: start,
            done: false,
        }
    }

    /// The next candidate of `scan`, or `None` once every trigger before its stop is done.
    /// `text` must be the text `scan` was started on (another gives other candidates, never a
    /// panic).
    pub fn next<T: Unit>(&self, scan: &mut Scan, text: &[T]) -> Option<Candidate> {
        let text = Text { s: text };
        while !scan.done {
            // The first trigger; the earliest kind wins a tie, as Python's `at.index(first)`.
            let mut first: Option<(usize, Trigger, Hit)> = None;
            for (&kind, hit) in scan.triggers.iter().zip(&scan.hits) {
                if let Some(hit) = hit {
                    if first.as_ref().map_or(true, |(at, _, _)| hit.start < *at) {
                        first = Some((hit.start, kind, *hit));
                    }
                }
            }
            let Some((at, kind, hit)) = first.filter(|(at, _, _)| *at < scan.stop) else {
                scan.done = true;
                break;
            };
            let (candidate, next) = match kind {
                Trigger::Open => self.wrapper(&text, hit, &mut scan.lines),
                Trigger::Quote => self.quoted(&text, hit),
                Trigger::Naked => self.naked_url(&text, hit, scan.cursor),
                Trigger::Www => self.www_host(&text, hit, scan.cursor),
            };
            scan.cursor = next.max(at + 1); // always past the hit (each handler's own rule too)
            for (&kind, hit) in scan.triggers.iter().zip(scan.hits.iter_mut()) {
                if hit.is_some_and(|h| h.start < scan.cursor) {
                    *hit = self.search(&text, kind, scan.cursor);
                }
            }
            if candidate.is_some() {
                return candidate;
            }
        }
        None
    }

    /// The first hit of a trigger at or after `from`.
    fn search<T: Unit>(&self, text: &Text<'_, T>, kind: Trigger, from: usize) -> Option<Hit> {
        let literal = match kind {
            Trigger::Open => b'<',
            Trigger::Quote => b'"',
            Trigger::Naked => b':',
            Trigger::Www => b'.',
        };
        let mut at = from;
        while let Some(pos) = text.find(literal, at, text.len()) {
            let hit = match kind {
                Trigger::Open => open_at(text, pos),
                Trigger::Quote => scheme_after(text, pos + 1).map(|colon| Hit {
                    start: pos,
                    word: pos + 1,
                    colon,
                    stop: colon + 1,
                }),
                Trigger::Naked => self.naked_at(text, pos),
                Trigger::Www => www_at(text, pos),
            };
            if hit.is_some() {
                return hit;
            }
            at = pos + 1;
        }
        None
    }

    /// `_naked_trigger`: the colon of `scheme://`, or of an opaque known scheme followed by
    /// something that is not a space, `<`, `>` or `"` (the scheme checked as a suffix only).
    fn naked_at<T: Unit>(&self, text: &Text<'_, T>, colon: usize) -> Option<Hit> {
        let hit = Hit { start: colon, word: colon, colon, stop: colon + 1 };
        if text.starts_with(colon + 1, b"//") {
            return Some(hit);
        }
        let end = lower(text.at(colon.checked_sub(1)?)?);
        if !self.opaque_ends.iter().any(|&e| u32::from(e) == end) {
            return None;
        }
        let next = text.at(colon + 1)?;
        if is_space(next) || matches!(next, 0x3C | 0x3E | 0x22) {
            return None;
        }
        let suffix = |scheme: &Vec<u8>| {
            colon.checked_sub(scheme.len()).is_some_and(|from| {
                scheme.iter().enumerate().all(|(k, &b)| text.at(from + k).map(lower) == Some(u32::from(b)))
            })
        };
        self.opaque.iter().any(suffix).then_some(hit)
    }

    // --- the wrapper scanner (D21, D22, D25) ---------------------------------------------------

    fn wrapper<T: Unit>(&self, text: &Text<'_, T>, hit: Hit, lines: &mut LineStarts) -> Found {
        let opening = hit.start;
        let refused = (None, opening + 1);
        let space = (opening + 1, hit.word);
        let mut key: Option<Vec<u8>> = None; // the "<" line's quote prefix, looked for when needed
        let newlines = text.count(b'\n', space.0, space.1);
        if newlines > 1 {
            return refused; // D21: a blank line between "<" and the scheme ends it first
        }
        if newlines == 1 {
            let own = line_prefix(text, opening, lines);
            let last = text.rfind(b'\n', space.0, space.1).map_or(space.0, |n| n + 1);
            if own != marks(text, last, space.1) {
                return refused; // D25 (a): the next line's prefix is not the "<" line's
            }
            key = Some(own);
        }
        let mut held: Word = [0; 2 * MAX_SCHEME_CHARS];
        let Some(word) = text.ascii_lower(hit.word, hit.colon, &mut held) else { return refused };
        let (wrapper, body_start) = if *word == *b"url" {
            (Wrapper::Url, hit.colon + 1) // any scheme: the wrapper vouches for it
        } else if self.schemes.contains(word)
            || (space.0 == space.1 && text.starts_with(hit.colon + 1, b"//"))
        {
            // D22: a bare wrapper needs a known scheme or "//"; space after "<" only a known scheme.
            (Wrapper::Angle, hit.word)
        } else {
            return refused;
        };
        // The common cases first, told apart by where the run stopped: closed, or stopped by a
        // second "<" (D21), on its own line. Quote prefixes (D25) only matter on the lines after.
        let stop = hit.stop;
        if stop < opening + MAX_WRAPPER_CHARS {
            if text.is(stop, b'>') {
                let (span, body) = ((opening, stop + 1), (body_start, stop));
                let at = if self.pipermail { pipermail_at(text, body_start, stop) } else { None };
                let mut candidate = Candidate::plain(Some(wrapper), span, body);
                if let Some(at) = at {
                    candidate.skipped.push(at);
                    candidate.deobfuscated = true;
                }
                return (Some(candidate), stop + 1);
            }
            if text.is(stop, b'<') {
                let mut candidate = Candidate::plain(Some(wrapper), (opening, stop), (body_start, stop));
                candidate.problem = Some(Unclosed::SecondOpen);
                return (Some(candidate), opening + 1);
            }
        }
        let key = match key {
            Some(key) => key,
            None => line_prefix(text, opening, lines),
        };
        close(text, wrapper, opening, body_start, &key)
    }

    // --- the quote scanner (D26) ---------------------------------------------------------------

    fn quoted<T: Unit>(&self, text: &Text<'_, T>, hit: Hit) -> Found {
        let (quote, colon) = (hit.start, hit.colon);
        if !self.vouched(text, hit.word, colon) {
            return (None, quote + 1);
        }
        let closing = text.find_where(colon, quote + 1 + MAX_NAKED_CHARS, ends_naked);
        let Some(end) = closing.filter(|&end| text.is(end, b'"')) else {
            return (None, quote + 1); // not closed on its line: the naked scanner may still take it
        };
        if bare_authority(text, colon, end) {
            return (None, end + 1);
        }
        (Some(Candidate::plain(Some(Wrapper::Quote), (quote, end + 1), (quote + 1, end))), end + 1)
    }

    fn vouched<T: Unit>(&self, text: &Text<'_, T>, word: usize, colon: usize) -> bool {
        let mut held: Word = [0; 2 * MAX_SCHEME_CHARS];
        text.ascii_lower(word, colon, &mut held).is_some_and(|w| self.schemes.contains(w))
            || text.starts_with(colon + 1, b"//")
    }

    // --- the naked scanner (D19, D20, D22) -----------------------------------------------------

    fn naked_url<T: Unit>(&self, text: &Text<'_, T>, hit: Hit, floor: usize) -> Found {
        let colon = hit.start;
        let Some(start) = self.scheme_start(text, colon, floor) else { return (None, colon + 1) };
        let Some((mut raw_end, mut end)) = naked_extent(text, start, colon) else {
            return (None, start + MAX_NAKED_CHARS + 1); // too long to be a URL
        };
        if let Some(closing) = text.find(b']', colon, raw_end) {
            if open_bracket_before(text, start) {
                // D34: "[url](url)", "[see url]"
                raw_end = closing;
                end = trim_naked_end(text, start, closing);
            }
        }
        if end <= colon || bare_authority(text, colon, end) {
            return (None, raw_end);
        }
        let span_start = url_prefix(text, start, floor);
        if self.pipermail && end == raw_end && text.starts_with(end, PIPERMAIL_AT) {
            let domain = end + PIPERMAIL_AT.len();
            if let Some((_, mut domain_end)) = naked_extent(text, domain, domain) {
                if let Some(closing) = text.find(b']', end, domain_end) {
                    if open_bracket_before(text, start) {
                        // "[mailto:x at y.org]"
                        domain_end = trim_naked_end(text, start, closing);
                    }
                }
                if let Some(at) = pipermail_at(text, start, domain_end) {
                    let mut candidate = Candidate::plain(None, (span_start, domain_end), (start, domain_end));
                    candidate.skipped.push(at);
                    candidate.deobfuscated = true;
                    return (Some(candidate), domain_end);
                }
            }
        }
        (Some(Candidate::plain(None, (span_start, end), (start, end))), end)
    }

    /// A host name with no scheme, `www.` first: a naked URL's end rules (D19).
    fn www_host<T: Unit>(&self, text: &Text<'_, T>, hit: Hit, floor: usize) -> Found {
        let dot = hit.start;
        let start = dot.saturating_sub(WWW_BEFORE_DOT);
        if start < floor {
            return (None, dot + 1); // its "www" was taken by the candidate before
        }
        let Some((_, end)) = naked_extent(text, start, start) else {
            return (None, start + MAX_NAKED_CHARS + 1); // too long to be a URL
        };
        let mut candidate = Candidate::plain(None, (start, end), (start, end));
        candidate.www = true;
        (Some(candidate), end)
    }

    /// Where the scheme ending at `colon` starts, or `None` when it is no scheme we take (D36).
    fn scheme_start<T: Unit>(&self, text: &Text<'_, T>, colon: usize, floor: usize) -> Option<usize> {
        let lowest = floor.max(colon.saturating_sub(MAX_SCHEME_CHARS));
        let mut start = colon;
        while start > lowest && text.at(start - 1).is_some_and(is_scheme_char) {
            start -= 1;
        }
        if start > 0 && text.at(start - 1).is_some_and(is_scheme_char) {
            return None; // too long, or glued to what an earlier candidate took
        }
        if start == colon {
            return None;
        }
        let mut held: Word = [0; 2 * MAX_SCHEME_CHARS];
        let word = text.ascii_lower(start, colon, &mut held)?;
        let first_letter = word.first().is_some_and(|&c| is_letter(u32::from(c)));
        if first_letter && self.schemes.contains(word) {
            return Some(start);
        }
        let slashes = text.starts_with(colon + 1, b"//");
        let compound = slashes && first_letter && word.contains(&b'+'); // D36: "git+https://"
        let glued = slashes && first_letter && !self.iana.contains(word);
        // "see.http://", "foo-mailto:", "=09http://": a known scheme after "." "-" or a digit is
        // the scheme (and after "+" when no "//" follows). D36: so is one glued to letters
        // ("Seehttps://") when the whole word is no registered scheme.
        for k in 1..word.len() {
            let (Some(&before), Some(&here), Some(rest)) = (word.get(k - 1), word.get(k), word.get(k..))
            else {
                break;
            };
            if is_letter(u32::from(here)) && !rest.contains(&b'+') && self.schemes.contains(rest) {
                let before_code = u32::from(before);
                if matches!(before, b'-' | b'.') || is_digit(before_code) || (before == b'+' && !compound) {
                    return Some(start + k);
                }
                if is_letter(before_code) && glued && !compound {
                    return Some(start + k);
                }
            }
        }
        if first_letter && slashes {
            return Some(start); // any scheme followed by "//" (D22); "1abc://" is none
        }
        None
    }
}

/// `_OPEN` at `opening`: `<`, whitespace (at most 64; D25 (a): then, right after a line break, a
/// quote prefix), a scheme or `URL`, `:`, then the run of body characters up to `<`, `>` or a
/// line break (at most MAX_WRAPPER_CHARS, never given back).
fn open_at<T: Unit>(text: &Text<'_, T>, opening: usize) -> Option<Hit> {
    let after = opening + 1;
    let mut at = after;
    while text.at(at).is_some_and(is_space) {
        at += 1;
    }
    let mut word = at;
    if text.at(at).is_some_and(is_mark) {
        // The whitespace up to the last line break (at most 64, ending with it), 0-8 spaces or
        // tabs, then 1-16 marks each followed by 0-4 spaces or tabs.
        let newline = text.rfind(b'\n', after, at)?;
        if newline + 1 - after > MAX_OPEN_SPACE || at - (newline + 1) > 8 {
            return None;
        }
        if !text.s.get(newline + 1..at)?.iter().all(|u| is_blank(u.code())) {
            return None;
        }
        word = after_marks(text, at, usize::MAX)?;
        if word == at {
            return None;
        }
    } else if at - after > MAX_OPEN_SPACE {
        return None;
    }
    let colon = scheme_after(text, word)?;
    let mut stop = colon + 1;
    let limit = stop + MAX_WRAPPER_CHARS;
    while stop < limit && text.at(stop).is_some_and(|c| !matches!(c, 0x3C | 0x3E | 0x0A)) {
        stop += 1;
    }
    Some(Hit { start: opening, word, colon, stop })
}

/// `([>|:][ \t]{0,4}){1,16}` from `at` (greedy, before `limit`): where it ends, or `None`.
fn after_marks<T: Unit>(text: &Text<'_, T>, at: usize, limit: usize) -> Option<usize> {
    let mut end = at;
    for _ in 0..MAX_QUOTE_DEPTH {
        if end >= limit || !text.at(end).is_some_and(is_mark) {
            break;
        }
        end += 1;
        let mut blanks = 0;
        while blanks < 4 && end < limit && text.at(end).is_some_and(is_blank) {
            end += 1;
            blanks += 1;
        }
    }
    (end > at).then_some(end)
}

/// `[A-Za-z][scheme chars]{0,31}:` at `at`: its colon.
fn scheme_after<T: Unit>(text: &Text<'_, T>, at: usize) -> Option<usize> {
    if !text.at(at).is_some_and(is_letter) {
        return None;
    }
    let mut end = at + 1;
    while end - at < MAX_SCHEME_CHARS && text.at(end).is_some_and(is_scheme_char) {
        end += 1;
    }
    text.is(end, b':').then_some(end)
}

/// `_WWW`: a "." after `www` (either case) at the start of a word, before a letter or digit.
fn www_at<T: Unit>(text: &Text<'_, T>, dot: usize) -> Option<Hit> {
    let start = dot.checked_sub(WWW_BEFORE_DOT)?;
    if !(start..dot).all(|i| text.at(i).is_some_and(|c| lower(c) == u32::from(b'w'))) {
        return None;
    }
    if let Some(before) = start.checked_sub(1).and_then(|i| text.at(i)) {
        let glued = is_letter(before)
            || is_digit(before)
            || matches!(before, 0x5F | 0x2E | 0x40 | 0x2F | 0x3A | 0x25 | 0x2B | 0x2D);
        if glued {
            return None;
        }
    }
    text.at(dot + 1).is_some_and(is_alnum).then_some(Hit { start: dot, word: dot, colon: dot, stop: dot + 1 })
}

/// D25: the quote marks of `[from, to)` (`scanner._prefix_key`: whitespace dropped).
fn marks<T: Unit>(text: &Text<'_, T>, from: usize, to: usize) -> Vec<u8> {
    text.s
        .get(from..to)
        .unwrap_or_default()
        .iter()
        .filter_map(|u| u8::try_from(u.code()).ok().filter(|&b| is_mark(u32::from(b))))
        .collect()
}

/// D25: the quote marks of the line where the wrapper opens (empty when it has none).
fn line_prefix<T: Unit>(text: &Text<'_, T>, opening: usize, lines: &mut LineStarts) -> Vec<u8> {
    if opening == 0 || text.is(opening - 1, b'\n') {
        return Vec::new(); // the "<" starts its line
    }
    let Some(line_start) = lines.start_of(text.s, opening) else { return Vec::new() };
    if opening - line_start > PREFIX_REACH {
        return Vec::new();
    }
    let mut at = line_start;
    while at < opening && at - line_start < 8 && text.at(at).is_some_and(is_blank) {
        at += 1;
    }
    match after_marks(text, at, opening) {
        Some(end) => marks(text, at, end),
        None => Vec::new(),
    }
}

/// Find the `>` that closes the wrapper opened at `opening`, line by line (D21, D25).
fn close<T: Unit>(
    text: &Text<'_, T>,
    wrapper: Wrapper,
    opening: usize,
    body_start: usize,
    key: &[u8],
) -> Found {
    let limit = text.len().min(opening + MAX_WRAPPER_CHARS);
    let mut skipped = Vec::new();
    let mut pos = body_start;
    let mut lines = 1;
    let (stop, why) = loop {
        let newline = text.find(b'\n', pos, limit);
        let line_end = newline.unwrap_or(limit);
        let second = text.find(b'<', pos, line_end); // D21: "<" is never part of a URL
        if let Some(closing) = text.find(b'>', pos, second.unwrap_or(line_end)) {
            let mut candidate =
                Candidate::plain(Some(wrapper), (opening, closing + 1), (body_start, closing));
            candidate.skipped = skipped;
            return (Some(candidate), closing + 1);
        }
        if let Some(second) = second {
            break (second, Unclosed::SecondOpen);
        }
        let Some(newline) = newline else {
            break (limit, if limit == text.len() { Unclosed::TextEnded } else { Unclosed::TooLong });
        };
        lines += 1;
        if lines > MAX_WRAPPER_LINES {
            break (newline, Unclosed::TooManyLines);
        }
        pos = newline + 1;
        if !key.is_empty() {
            let after = after_prefix(text, pos, limit, key);
            if after > pos {
                // D25: the prefix is not part of the URL, and its ">" closes nothing.
                skipped.push((pos, after));
                pos = after;
            }
        }
        if blank_rest(text, pos, limit) {
            break (newline, Unclosed::BlankLine);
        }
    };
    // D21: reported only as a rejected candidate; the scan resumes right after the "<".
    let mut candidate = Candidate::plain(Some(wrapper), (opening, stop), (body_start, stop));
    candidate.skipped = skipped;
    candidate.problem = Some(why);
    (Some(candidate), opening + 1)
}

/// `_BLANK_REST`: whitespace other than a line feed, then a line feed, before `limit`.
fn blank_rest<T: Unit>(text: &Text<'_, T>, pos: usize, limit: usize) -> bool {
    let end = text.find_where(pos, limit, |c| c == 0x0A || !is_space(c));
    end.is_some_and(|end| text.is(end, b'\n'))
}

/// D25: `scanner._after_prefix`: the end of the quote prefix `key` at the line start `pos`
/// (spaces and tabs before and between its marks), or `pos` when the line does not start with it;
/// a deeper prefix is stripped whole when URL text and a closing `>` follow it on its line.
fn after_prefix<T: Unit>(text: &Text<'_, T>, pos: usize, limit: usize, key: &[u8]) -> usize {
    let mut at = pos;
    for &mark in key {
        while at < limit && text.at(at).is_some_and(is_blank) {
            at += 1;
        }
        if at >= limit || !text.is(at, mark) {
            return pos;
        }
        at += 1;
    }
    let mut deeper = at;
    let mut depth = 0;
    loop {
        if depth == MAX_QUOTE_DEPTH {
            return at; // deeper than any quoting: no prefix
        }
        while deeper < limit && text.at(deeper).is_some_and(is_blank) {
            deeper += 1;
        }
        // ":" "|" may start URL text
        if deeper >= limit || !text.is(deeper, b'>') || !key.contains(&b'>') {
            break;
        }
        deeper += 1;
        depth += 1;
    }
    if deeper > at && deeper < limit && !text.at(deeper).is_some_and(is_space) {
        let line_end = text.find(b'\n', deeper, limit).unwrap_or(limit);
        if text.find(b'>', deeper, line_end).is_some() {
            return deeper;
        }
    }
    at
}

/// D27: `scheme://` and nothing more is a template or a BNF literal, never a URL.
fn bare_authority<T: Unit>(text: &Text<'_, T>, colon: usize, end: usize) -> bool {
    end == colon + 3 && text.starts_with(colon + 1, b"//")
}

/// D19: where a naked URL that starts at `start` ends: the first character that ends it, and the
/// end once trailing punctuation is dropped; `None` when it runs past MAX_NAKED_CHARS.
fn naked_extent<T: Unit>(text: &Text<'_, T>, start: usize, search_from: usize) -> Option<(usize, usize)> {
    let bound = start + MAX_NAKED_CHARS + 1;
    let found = text.find_where(search_from, bound, ends_naked);
    if found.is_none() && bound < text.len() {
        return None;
    }
    let raw_end = found.unwrap_or(text.len());
    Some((raw_end, trim_naked_end(text, start, raw_end)))
}

/// D19: drop trailing `. , ; : ! ? '` and non-ASCII punctuation, and a trailing `)` or `]` while
/// the URL has more of them than of their openers. Counts are kept, not recounted.
fn trim_naked_end<T: Unit>(text: &Text<'_, T>, start: usize, mut end: usize) -> usize {
    let mut parens: Option<i64> = None;
    let mut brackets: Option<i64> = None;
    while end > start {
        let Some(code) = text.at(end - 1) else { break };
        match code {
            0x2E | 0x2C | 0x3B | 0x3A | 0x21 | 0x3F | 0x27 => end -= 1,
            0x29 | 0x5D => {
                let (counts, opener, closer) =
                    if code == 0x29 { (&mut parens, b'(', b')') } else { (&mut brackets, b'[', b']') };
                let count = counts
                    .get_or_insert_with(|| text.count(closer, start, end) - text.count(opener, start, end));
                if *count <= 0 {
                    break;
                }
                *count -= 1;
                end -= 1;
            }
            _ if is_punctuation(code) => end -= 1,
            _ => break,
        }
    }
    end
}

/// D34: whether a `[` opened before `start` on its line (within BRACKET_REACH) is still open.
fn open_bracket_before<T: Unit>(text: &Text<'_, T>, start: usize) -> bool {
    let reach = start.saturating_sub(BRACKET_REACH);
    let line_start = text.rfind(b'\n', reach, start).map_or(reach, |n| n + 1);
    let mut depth = 0usize;
    let Some(line) = text.s.get(line_start..start) else { return false };
    for unit in line.iter().rev() {
        // backwards: the innermost "[" decides
        match unit.code() {
            0x5D => depth += 1,
            0x5B => {
                if depth == 0 {
                    return true;
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    false
}

/// D32: where pipermail's " at " lies in `[start, end)` when that is `mailto:user at domain`.
fn pipermail_at<T: Unit>(text: &Text<'_, T>, start: usize, end: usize) -> Option<Span> {
    let at = text.find_word(PIPERMAIL_AT, start, end)?;
    if text.find_word(PIPERMAIL_AT, at + 1, end).is_some() {
        return None;
    }
    let colon = text.find(b':', start, at)?;
    let mut held: Word = [0; 2 * MAX_SCHEME_CHARS];
    if *text.ascii_lower(start, colon, &mut held)? != *b"mailto" {
        return None;
    }
    let user = text.s.get(colon + 1..at)?;
    if user.is_empty()
        || user.iter().any(|u| matches!(u.code(), 0x20 | 0x09 | 0x0A | 0x40 | 0x3C | 0x3E | 0x22))
    {
        return None;
    }
    let domain_start = at + PIPERMAIL_AT.len();
    let domain_end = text.find(b'?', domain_start, end).unwrap_or(end);
    let domain = text.s.get(domain_start..domain_end)?;
    let mut labels = 1;
    let mut label_len = 0;
    for unit in domain {
        match unit.code() {
            0x2E => {
                if label_len == 0 {
                    return None;
                }
                labels += 1;
                label_len = 0;
            }
            code if is_letter(code) || is_digit(code) || code == 0x2D => label_len += 1,
            _ => return None,
        }
    }
    (labels > 1 && label_len > 0).then_some((at, domain_start))
}

/// D22: a `URL:` prefix (any case, maybe a space after it) right before a naked URL.
fn url_prefix<T: Unit>(text: &Text<'_, T>, start: usize, floor: usize) -> usize {
    let mut at = start;
    while at > floor && start - at < 4 && text.at(at - 1).is_some_and(is_blank) {
        at -= 1;
    }
    let Some(word) = at.checked_sub(4) else { return start };
    let glued = word > 0 && text.at(word - 1).is_some_and(is_scheme_char); // "myURL:" is no prefix
    if word >= floor
        && !glued
        && text.ascii_lower(word, at, &mut [0; 2 * MAX_SCHEME_CHARS]).is_some_and(|w| *w == *b"url:")
    {
        return word;
    }
    start
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanner() -> Scanner {
        let known: Vec<String> = ["http", "ftp", "mailto", "news"].iter().map(|s| s.to_string()).collect();
        let hier: Vec<String> = ["http", "ftp"].iter().map(|s| s.to_string()).collect();
        Scanner::new(true, &known, &hier, &known, true, true)
    }

    #[test]
    fn finds_each_kind() {
        let text =
            "see <URL:http://a.example/x> and \"ftp://b.example/\" or http://c.example/y. www.d.example";
        let found = scanner().scan(text.as_bytes(), 0, None, true).candidates;
        let spans: Vec<Span> = found.iter().map(|c| c.span).collect();
        assert_eq!(spans, vec![(4, 28), (33, 51), (55, 73), (75, 88)]);
    }

    #[test]
    fn positions_are_characters() {
        let text: Vec<char> = "é <http://h.example/ü>".chars().collect();
        let found = scanner().scan(&text, 0, None, true).candidates;
        assert_eq!(found.first().map(|c| c.span), Some((2, 22)));
    }

    #[test]
    fn utf16_units_of_the_bmp_are_characters() {
        let text = "\u{3002}\u{a0}<http://h.example/\u{fc}> http://h.example/\u{ff09}x www.h.example\u{3000}";
        let chars: Vec<char> = text.chars().collect();
        let units: Vec<[u8; 2]> = text.encode_utf16().map(u16::to_le_bytes).collect();
        let scanner = scanner();
        assert_eq!(scanner.scan(&units, 0, None, true), scanner.scan(&chars, 0, None, true));
        assert_eq!(scanner.scan(&units, 0, None, true).candidates.len(), 3);
    }

    /// A UTF-16 unit whose high or low byte is a needle's (U+3C3C, U+013C, U+3A00 ...) is no hit:
    /// the byte pairs find what the code points find, forwards and back.
    #[test]
    fn utf16_bytes_find_only_whole_units() {
        let text = "\u{3c3c}\u{13c}\u{3a00}\u{2e2e}<x\u{3a3a}:y\u{12e}.\u{3c00}\u{22}\u{2222}\u{a}\u{a00}";
        let chars: Vec<char> = text.chars().collect();
        let units: Vec<[u8; 2]> = text.encode_utf16().map(u16::to_le_bytes).collect();
        for needle in [b'<', b':', b'.', b'"', b'\n', b'>'] {
            for from in 0..chars.len() {
                let (c, u) = (chars.get(from..).unwrap_or_default(), units.get(from..).unwrap_or_default());
                assert_eq!(<[u8; 2]>::find(u, needle), char::find(c, needle), "{needle} from {from}");
                assert_eq!(<[u8; 2]>::rfind(u, needle), char::rfind(c, needle), "{needle} to {from}");
            }
        }
        assert_eq!(<[u8; 2]>::find(&units, b'<'), Some(4));
        assert_eq!(<[u8; 2]>::rfind(&units, b'\n'), Some(14));
    }

    /// No input panics (no indexing that can): random bytes and code points near the triggers.
    #[test]
    fn random_texts_do_not_panic() {
        let alphabet: Vec<char> =
            "<>\"':/.[]() \t\n\r\x1c>|wWhtpURLmailto at.x-+_%@\u{a0}\u{3002}\u{ff09}é".chars().collect();
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let scanner = scanner();
        for round in 0..3000 {
            let mut text: Vec<char> = Vec::new();
            for _ in 0..(round % 200) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let k = (state % alphabet.len() as u64) as usize;
                text.extend(alphabet.get(k));
            }
            let found = scanner.scan(&text, 0, None, round % 2 == 0);
            for candidate in found.candidates {
                assert!(candidate.span.0 <= candidate.span.1 && candidate.span.1 <= text.len());
            }
        }
    }
}
