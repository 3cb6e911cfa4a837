//! A plain text's bytes as windows of characters (issue 31): the UTF-8 decoding that
//! `stream._chunks` asks of Python's incremental decoder (`errors="replace"`), and the window the
//! scan reads, with what is kept of it from one window to the next (`TextRows.blocks`' loop,
//! `stream._matches`' windows). The core reads no file: the binding hands it the blocks Python
//! read. Offsets stay characters, as in every column.

use std::str;

use crate::extract::Lines;
use crate::rows::PREFIX_CHARS;
use crate::scan::Unit;

/// UTF-8 decoded as Python's incremental decoder does with `errors="replace"`: U+FFFD for each
/// maximal subpart of an ill-formed sequence (Unicode's "best practice", which `str::from_utf8`'s
/// `error_len` gives: a surrogate's encoding, an overlong form or a code point past U+10FFFF is
/// one U+FFFD a byte), a sequence cut by a block's end held until the next block completes it, and
/// one U+FFFD for a sequence the text ends inside of. A byte order mark stays a character (the
/// "utf-8" codec keeps it).
#[derive(Debug, Default)]
pub struct Utf8Decoder {
    /// The start of a sequence the last block ended inside of (at most 3 bytes).
    held: Vec<u8>,
}

impl Utf8Decoder {
    /// Hands `block`'s characters to `sink`, a stretch of text at a time (each U+FFFD as one);
    /// `last`: no block comes after it.
    pub fn decode(&mut self, block: &[u8], last: bool, sink: &mut impl FnMut(&str)) {
        let joined;
        let mut rest = if self.held.is_empty() {
            block
        } else {
            self.held.extend_from_slice(block);
            joined = std::mem::take(&mut self.held);
            &joined[..]
        };
        loop {
            match str::from_utf8(rest) {
                Ok(valid) => return sink(valid),
                Err(error) => {
                    let (valid, after) = rest.split_at(error.valid_up_to());
                    // (`valid_up_to` bytes are UTF-8: the error says so.)
                    sink(str::from_utf8(valid).unwrap_or_default());
                    match error.error_len() {
                        Some(bad) => {
                            sink(REPLACEMENT);
                            rest = after.get(bad..).unwrap_or_default();
                        }
                        None if last => return sink(REPLACEMENT),
                        None => return self.held.extend_from_slice(after),
                    }
                }
            }
        }
    }

    /// `block`'s characters appended to `out`, and how many there are.
    pub fn decode_into(&mut self, block: &[u8], last: bool, out: &mut String) -> usize {
        let mut count = 0;
        self.decode(block, last, &mut |text: &str| {
            count += text.chars().count();
            out.push_str(text);
        });
        count
    }
}

const REPLACEMENT: &str = "\u{FFFD}";

/// The most bytes `ascii_run` checks at a time.
const ASCII_STRETCH: usize = 4096;

/// A window's characters as the scanner's units, one a character (as `scan.rs`'s binding makes
/// them of a `str`): bytes while every character is under U+0100 (ASCII, Latin-1), UTF-16 units
/// while every one is of the BMP, else code points. A decoded text has no lone surrogate.
pub enum Units<'a> {
    Bytes(&'a [u8]),
    Utf16(&'a [[u8; 2]]),
    Chars(&'a [char]),
}

/// A window's characters, held as the narrowest units that hold them all.
#[derive(Debug)]
enum Held {
    Bytes(Vec<u8>),
    Utf16(Vec<[u8; 2]>),
    Chars(Vec<char>),
}

impl Held {
    fn len(&self) -> usize {
        match self {
            Held::Bytes(units) => units.len(),
            Held::Utf16(units) => units.len(),
            Held::Chars(units) => units.len(),
        }
    }

    fn units(&self) -> Units<'_> {
        match self {
            Held::Bytes(units) => Units::Bytes(units),
            Held::Utf16(units) => Units::Utf16(units),
            Held::Chars(units) => Units::Chars(units),
        }
    }

    /// Appends `text`, widening the units when one of its characters needs it: each run of ASCII
    /// at once, the rest a character at a time.
    fn push(&mut self, text: &str) {
        let mut rest = text;
        while !rest.is_empty() {
            let ascii = ascii_run(rest.as_bytes());
            let (run, after) = rest.split_at(ascii);
            match self {
                Held::Bytes(units) => units.extend_from_slice(run.as_bytes()),
                Held::Utf16(units) => units.extend(run.bytes().map(|byte| [byte, 0])),
                Held::Chars(units) => units.extend(run.bytes().map(char::from)),
            }
            let mut chars = after.chars();
            if let Some(c) = chars.next() {
                self.push_char(c);
            }
            rest = chars.as_str();
        }
    }

    fn push_char(&mut self, c: char) {
        let code = u32::from(c);
        match self {
            Held::Bytes(units) => match u8::try_from(code) {
                Ok(byte) => return units.push(byte),
                Err(_) => *self = self.widened(code),
            },
            Held::Utf16(units) => match u16::try_from(code) {
                Ok(unit) => return units.push(unit.to_le_bytes()),
                Err(_) => *self = self.widened(code),
            },
            Held::Chars(units) => return units.push(c),
        }
        self.push_char(c);
    }

    /// The same characters as units wide enough for `code` too, made in one pass with room for
    /// as many as these had (the window goes on filling them).
    fn widened(&self, code: u32) -> Held {
        let wide = |unit: u32| char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER);
        match self {
            Held::Bytes(units) if code < 0x10000 => Held::Utf16(converted(units, |&byte| [byte, 0])),
            Held::Bytes(units) => Held::Chars(converted(units, |&byte| char::from(byte))),
            Held::Utf16(units) => Held::Chars(converted(units, |&unit| wide(unit.code()))),
            Held::Chars(units) => Held::Chars(units.clone()),
        }
    }

    /// The first `count` characters dropped; what is left made as narrow as it can be again
    /// (what is left is the lookbehind and lookahead: a few kilobytes, whatever the window).
    fn drop_front(&mut self, count: usize) {
        let narrowed = match self {
            Held::Bytes(units) => return drop(units.drain(..count.min(units.len()))),
            Held::Utf16(units) => {
                units.drain(..count.min(units.len()));
                if units.iter().any(|&[_, high]| high != 0) {
                    return; // a character past Latin-1 is still there
                }
                Held::Bytes(converted(units, |&[low, _]| low))
            }
            Held::Chars(units) => {
                units.drain(..count.min(units.len()));
                match units.iter().map(|&c| u32::from(c)).max().unwrap_or(0) {
                    0..=0xFF => Held::Bytes(converted(units, |&c| u8::try_from(c).unwrap_or(0))),
                    0x100..=0xFFFF => {
                        Held::Utf16(converted(units, |&c| u16::try_from(c).unwrap_or(0).to_le_bytes()))
                    }
                    _ => return,
                }
            }
        };
        *self = narrowed;
    }
}

/// `units` made other units, one for one, with room for as many as `units` has room for.
#[allow(clippy::ptr_arg)] // (its capacity is read)
fn converted<T, U>(units: &Vec<T>, unit: impl Fn(&T) -> U) -> Vec<U> {
    let mut out = Vec::with_capacity(units.capacity());
    out.extend(units.iter().map(unit));
    out
}

/// How many bytes `bytes` starts with that are ASCII (the check made a word of bytes at a time):
/// stretches of 32 bytes, each one twice as long as the last up to `ASCII_STRETCH`, so that a
/// text's ASCII is a few sweeps, and a run ended by a non-ASCII byte is looked at at most about
/// three times whatever its length.
fn ascii_run(bytes: &[u8]) -> usize {
    let (mut at, mut size) = (0, 32);
    while let Some(chunk) = bytes.get(at..(at + size).min(bytes.len())).filter(|c| !c.is_empty()) {
        if !chunk.is_ascii() {
            return at + chunk.iter().position(|byte| !byte.is_ascii()).unwrap_or(0);
        }
        at += chunk.len();
        size = (2 * size).min(ASCII_STRETCH);
    }
    at
}

/// The first line longer than a bound, in bytes (`sources._LineWatch`, whose report says a text
/// is no mail text): noted as the blocks are fed, so that no Python layer need count a text's
/// lines as it is read. A line's bytes are those before its line feed (a CR among them).
#[derive(Debug, Clone)]
pub struct LineWatch {
    max_line: usize,
    /// The line being read (1-based), and its bytes so far.
    line: i64,
    run: usize,
    /// The number of the first line over `max_line`.
    pub long_line: Option<i64>,
}

impl LineWatch {
    pub fn new(max_line: usize) -> LineWatch {
        LineWatch { max_line, line: 1, run: 0, long_line: None }
    }

    fn check(&mut self, length: usize) {
        if length > self.max_line && self.long_line.is_none() {
            self.long_line = Some(self.line);
        }
    }

    /// The text's next bytes.
    pub fn feed(&mut self, block: &[u8]) {
        if self.long_line.is_some() {
            return; // only the first is reported
        }
        let Some(first) = memchr::memchr(b'\n', block) else {
            self.run += block.len();
            return self.check(self.run);
        };
        self.check(self.run + first);
        let last = memchr::memrchr(b'\n', block).unwrap_or(first);
        if last - first > self.max_line {
            // A line between two of the block's line feeds may be long: each looked at.
            let (after, mut start) = (first + 1, first + 1);
            self.line += 1;
            for at in memchr::memchr_iter(b'\n', block.get(after..).unwrap_or_default()) {
                let end = after + at;
                self.check(end - start);
                self.line += 1;
                start = end + 1;
            }
        } else {
            // Every line between them is shorter than the stretch they bound: only counted.
            self.line += to_i64(memchr::memchr_iter(b'\n', block).count());
        }
        self.run = block.len() - last - 1;
        self.check(self.run);
    }
}

/// The start of the line that holds a window's first character, where that line began before the
/// window (`around.StreamText` keeps the same): its position in the whole text, its first
/// `PREFIX_CHARS` characters.
#[derive(Debug, Default, Clone)]
pub struct Prefix {
    pub start: i64,
    pub chars: Vec<char>,
}

/// A plain text read in windows: the characters decoded from the blocks given so far, from the
/// window's first one (`base` in the whole text) on, and the line count's state. Each window is
/// scanned from `resume` to `LOOKAHEAD` characters before its end (to its end at the text's end);
/// `LOOKBEHIND` characters before where the scan stopped are kept for the next one
/// (`stream._matches`).
#[derive(Debug)]
pub struct Windows {
    decoder: Utf8Decoder,
    held: Held,
    size: usize,
    lookahead: usize,
    lookbehind: usize,
    /// The window's first character in the whole text; where its scan starts (in the window).
    pub base: usize,
    pub resume: usize,
    /// The characters of every block given; whether the last one was.
    pub characters: usize,
    pub ended: bool,
    /// The line counter before the window's matches (and, once they are taken, after them).
    pub lines: Lines,
    pub prefix: Prefix,
    /// The first long line, when asked for (`watch_lines`).
    pub watch: Option<LineWatch>,
}

impl Windows {
    /// Windows of at least `size` characters to scan, `lookahead` and `lookbehind` as the
    /// scanner's `LOOKAHEAD` and `LOOKBEHIND`.
    pub fn new(size: usize, lookahead: usize, lookbehind: usize) -> Windows {
        Windows {
            decoder: Utf8Decoder::default(),
            held: Held::Bytes(Vec::new()),
            size,
            lookahead,
            lookbehind,
            base: 0,
            resume: 0,
            characters: 0,
            ended: false,
            lines: Lines::default(),
            prefix: Prefix::default(),
            watch: None,
        }
    }

    /// Note the first line over `max_line` bytes as the blocks are fed (`LineWatch`).
    pub fn watch_lines(&mut self, max_line: usize) {
        self.watch = Some(LineWatch::new(max_line));
    }

    /// Whether the window needs more of the text before it is scanned.
    pub fn hungry(&self) -> bool {
        !self.ended && self.held.len().saturating_sub(self.resume) < self.size + self.lookahead
    }

    /// The text's next block (an empty one: the text has ended).
    pub fn feed(&mut self, block: &[u8]) {
        let last = block.is_empty();
        if let Some(watch) = &mut self.watch {
            watch.feed(block);
        }
        let before = self.held.len();
        let held = &mut self.held;
        self.decoder.decode(block, last, &mut |text: &str| held.push(text));
        self.characters += self.held.len() - before;
        self.ended = last;
    }

    /// Where the window's scan stops: `LOOKAHEAD` before its end, so that what starts before
    /// that lies in the window whole, or its end at the text's.
    pub fn stop(&self) -> usize {
        let held = self.held.len();
        if self.ended {
            held
        } else {
            held.saturating_sub(self.lookahead)
        }
    }

    /// The window's units.
    pub fn units(&self) -> Units<'_> {
        self.held.units()
    }

    /// The window's units and its line counter, to scan it and count its lines.
    pub fn scanned(&mut self) -> (Units<'_>, &mut Lines) {
        (self.held.units(), &mut self.lines)
    }

    /// The next window, once this one's matches are all taken and its scan said where the next
    /// must `resume` (in this window): what lies `LOOKBEHIND` before that on is kept, the line
    /// count moved past what leaves, and the start of the line that holds the next window's first
    /// character kept as its `prefix`.
    pub fn advance(&mut self, resume: usize) {
        let dropped = resume.saturating_sub(self.lookbehind).min(self.held.len());
        let (base, lines, prefix) = (to_i64(self.base), &mut self.lines, &mut self.prefix);
        match self.held.units() {
            Units::Bytes(units) => moved(units, dropped, base, lines, prefix),
            Units::Utf16(units) => moved(units, dropped, base, lines, prefix),
            Units::Chars(units) => moved(units, dropped, base, lines, prefix),
        }
        self.held.drop_front(dropped);
        self.base += dropped;
        self.resume = resume - dropped;
    }

    /// How many line breaks the text has, once it has ended and its last window's matches are
    /// all taken.
    pub fn line_breaks(&mut self) -> i64 {
        let end = self.held.len();
        let line = match self.scanned() {
            (Units::Bytes(units), lines) => lines.at(units, end).0,
            (Units::Utf16(units), lines) => lines.at(units, end).0,
            (Units::Chars(units), lines) => lines.at(units, end).0,
        };
        line - 1
    }
}

/// What leaves a window (its first `dropped` characters, `units`; the window at `base`): the
/// line count moved past it and on to the next window's positions, and the start of the line
/// that holds the next window's first character kept (`TextRows.blocks`' `prefix`).
fn moved<T: Unit>(units: &[T], dropped: usize, base: i64, lines: &mut Lines, prefix: &mut Prefix) {
    let kept = units.get(..dropped).unwrap_or(units);
    let newline = T::rfind(kept, b'\n');
    if newline.is_some() || prefix.start == base {
        let first = newline.map_or(0, |at| at + 1);
        let line = units.get(first..(first + PREFIX_CHARS).min(units.len())).unwrap_or_default();
        let chars = line.iter().map(|unit| char::from_u32(unit.code()).unwrap_or('\u{FFFD}'));
        *prefix = Prefix { start: base + to_i64(first), chars: chars.collect() };
    }
    lines.at(units, dropped);
    lines.pos -= dropped.min(lines.pos);
    lines.line_start -= to_i64(dropped);
}

fn to_i64(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(blocks: &[&[u8]]) -> String {
        let mut decoder = Utf8Decoder::default();
        let mut out = String::new();
        let mut count = 0;
        for block in blocks {
            count += decoder.decode_into(block, false, &mut out);
        }
        count += decoder.decode_into(b"", true, &mut out);
        assert_eq!(count, out.chars().count());
        out
    }

    #[test]
    fn an_ascii_run_ends_at_the_first_other_byte_wherever_it_is() {
        for length in [0, 1, 31, 32, 33, 95, 96, 97, 5000, 9000] {
            let mut bytes = vec![b'a'; length];
            assert_eq!(ascii_run(&bytes), length);
            for at in [0, 1, 31, 32, 63, 96, 4000, 8191] {
                if at < length {
                    bytes[at] = 0xC3;
                    assert_eq!(ascii_run(&bytes), at, "{length} {at}");
                    bytes[at] = b'a';
                }
            }
        }
    }

    #[test]
    fn maximal_subparts_are_one_replacement_each() {
        // As Python's `bytes.decode("utf-8", "replace")`.
        assert_eq!(decoded(&[b"a\xe2\x82z"]), "a\u{FFFD}z");
        assert_eq!(decoded(&[b"\xf0\x80\x80"]), "\u{FFFD}\u{FFFD}\u{FFFD}");
        assert_eq!(decoded(&[b"\xed\xa0\x80"]), "\u{FFFD}\u{FFFD}\u{FFFD}");
        assert_eq!(decoded(&[b"\xf4\x90\x80\x80"]), "\u{FFFD}".repeat(4));
        assert_eq!(decoded(&[b"\xff\xfe"]), "\u{FFFD}\u{FFFD}");
        assert_eq!(decoded(&[b"\xef\xbb\xbfx"]), "\u{FEFF}x");
    }

    #[test]
    fn a_sequence_cut_by_blocks_is_held() {
        let euro = "\u{20AC}".as_bytes();
        assert_eq!(decoded(&[&euro[..1], &euro[1..2], &euro[2..]]), "\u{20AC}");
        assert_eq!(decoded(&[b"x\xf0\x9f", b"\x98\x80y"]), "x\u{1F600}y");
        // Cut inside, then not continued: one replacement, then what follows.
        assert_eq!(decoded(&[b"\xe2\x82", b"z"]), "\u{FFFD}z");
        // The text ends inside a sequence: one replacement.
        assert_eq!(decoded(&[b"z\xf0\x9f\x98"]), "z\u{FFFD}");
    }

    /// `sources._LineWatch`'s answer, the lines split whole.
    fn first_long(text: &[u8], max_line: usize) -> Option<i64> {
        let long = text.split(|&byte| byte == b'\n').position(|line| line.len() > max_line);
        long.map(|k| to_i64(k) + 1)
    }

    #[test]
    fn the_first_long_line_is_noted_whatever_the_blocks() {
        let texts: [&[u8]; 7] = [
            b"ab\nabcdef\nabcdefgh\nx",
            b"abcdefgh",
            b"abcde\nabcde\n\n",
            b"\n\n\n\nabcdefg",
            b"abcde\r\nab",
            b"a\nb\nc\nabcdef\nabcdefghijklmnop\n",
            b"",
        ];
        for text in texts {
            for size in 1..=text.len().max(1) {
                let mut watch = LineWatch::new(5);
                for block in text.chunks(size) {
                    watch.feed(block);
                }
                assert_eq!(watch.long_line, first_long(text, 5), "{text:?} in blocks of {size}");
            }
        }
        // Blocks longer than the bound, lines long and short inside them.
        let text = [&b"ab\n"[..], &[b'x'; 40][..], b"\n", &[b'y'; 9][..], b"\n"].concat();
        for size in [1, 7, 12, 13, 50, 100] {
            let mut watch = LineWatch::new(12);
            text.chunks(size).for_each(|block| watch.feed(block));
            assert_eq!(watch.long_line, Some(2), "blocks of {size}");
        }
    }

    #[test]
    fn windows_keep_the_lookbehind_and_count_lines() {
        let mut windows = Windows::new(8, 2, 3);
        windows.feed(b"ab\ncd\nefgh\nij");
        assert!(!windows.hungry());
        assert_eq!(windows.stop(), 11);
        windows.advance(10);
        assert_eq!((windows.base, windows.resume), (7, 3));
        assert_eq!(windows.prefix.start, 6);
        assert_eq!(windows.prefix.chars.iter().collect::<String>(), "efgh\nij");
        // A character past Latin-1 widens the units; once it has left, they are bytes again.
        windows.feed("\u{20AC}\n\u{E9}".as_bytes());
        assert!(matches!(windows.units(), Units::Utf16(_)));
        windows.advance(10);
        assert!(matches!(windows.units(), Units::Bytes(&[b'\n', 0xE9])));
        assert_eq!(windows.prefix.start, 11);
        windows.feed(b"");
        assert!(windows.ended);
        assert_eq!(windows.line_breaks(), 4);
        assert_eq!(windows.characters, 16);
    }

    fn codes(windows: &Windows) -> Vec<u32> {
        match windows.units() {
            Units::Bytes(units) => units.iter().map(|&unit| unit.code()).collect(),
            Units::Utf16(units) => units.iter().map(|&unit| unit.code()).collect(),
            Units::Chars(units) => units.iter().map(|&unit| unit.code()).collect(),
        }
    }

    #[test]
    fn code_points_narrow_to_what_is_left_when_the_window_moves_on() {
        let mut windows = Windows::new(4, 1, 2);
        windows.feed("ab\u{E9}\u{20AC}\u{1F600}xyz\u{20AC}q".as_bytes());
        assert!(matches!(windows.units(), Units::Chars(_)), "past the BMP: code points");
        assert_eq!(codes(&windows), [0x61, 0x62, 0xE9, 0x20AC, 0x1F600, 0x78, 0x79, 0x7A, 0x20AC, 0x71]);
        windows.advance(7);
        assert!(matches!(windows.units(), Units::Utf16(_)), "what is left is of the BMP");
        assert_eq!(codes(&windows), [0x78, 0x79, 0x7A, 0x20AC, 0x71]);
        windows.feed("\u{1F600}".as_bytes());
        assert_eq!(codes(&windows), [0x78, 0x79, 0x7A, 0x20AC, 0x71, 0x1F600]);
        windows.advance(5);
        assert!(matches!(windows.units(), Units::Chars(_)), "a code point past the BMP is left");
        assert_eq!(codes(&windows), [0x20AC, 0x71, 0x1F600]);
        windows.advance(5);
        assert!(matches!(windows.units(), Units::Bytes(&[])));
        windows.feed("\u{E9}x\u{1F600}".as_bytes());
        assert_eq!(codes(&windows), [0xE9, 0x78, 0x1F600], "Latin-1 bytes widened to code points");
        windows.feed("y".as_bytes());
        windows.advance(5);
        assert!(matches!(windows.units(), Units::Bytes(&[b'y'])));
        assert_eq!(windows.characters, 15);
    }
}
