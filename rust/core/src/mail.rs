//! A batch of messages -> their rows' columns (issue 32), with no Python object per message: each
//! message read (`mime::read`), each of its texts scanned and judged alone (`extract_each`'s
//! matches: one scan per text, lines and columns in it), and each match's `start`, `end` and
//! `quote_depth` filled in as `rows` fills a plain text's. `results.py`'s `_message` and
//! `_native_rows.message_block` are the reference.
//!
//! A format=flowed part is unflowed before its scan and its matches placed back in the text read
//! (D31, `flowed`), as `Matcher` does. A message is left to Python (`Outcome::Python`, with why)
//! wherever this path would not give exactly what `mime.read`, `Matcher` and `results._row`
//! give: the reader's own fallbacks (`mime::Fallback`, the one place that decides; RFC 2047 words
//! are decoded by the reader itself, `mime/words.rs`, or the message is left to Python there).

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use crate::extract::{Extractor, Found, Judgements, Lines};
use crate::flowed::unflow;
use crate::mime::{self, Defect};
use crate::rows::{bounds, quote_depth, PREFIX_CHARS};
use crate::scan::Unit;
use crate::Grammar;

/// One match found in a text: the match, and the columns the core works out (characters of its
/// text). A header value met again in the batch gives the hits it gave, not copies of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub found: Found,
    pub start: usize,
    pub end: usize,
    pub depth: i64,
}

/// One row: its hit (an index into the batch's `hits`) and its text (an index into `wheres`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub hit: usize,
    pub text: usize,
}

/// A message read here: what `results._message` needs of it besides its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    pub message_id: Option<String>,
    pub date: Option<String>,
    pub newsgroups: Option<String>,
    /// How many of its texts are header values (they come first).
    pub headers: usize,
    pub texts: usize,
    pub defects: Vec<Defect>,
    /// Where its rows end in the batch's (they start where the message before's end).
    pub rows_end: usize,
}

/// What became of one message of a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Read(Read),
    /// Python reads it (`sources/mime.py`, `Matcher`), for this reason.
    Python(&'static str),
}

/// A batch's messages, the texts that have rows (message index, part name), the distinct hits
/// and the rows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    pub messages: Vec<Outcome>,
    pub wheres: Vec<(usize, String)>,
    pub hits: Vec<Hit>,
    pub rows: Vec<Row>,
}

/// The messages of `data` read and scanned in order; `skipped`: the headers not scanned
/// (`mime.TRACE_HEADERS`).
pub fn read_batch(data: &[&[u8]], skipped: &[String], extractor: &Extractor, grammar: &Grammar) -> Batch {
    let mut batch = Batch::default();
    let mut known = HashMap::new();
    // The batch's judgements: a list's footer or a signature's link, met in message after
    // message, judged once (`Extractor.extract` keeps the same memo).
    let mut judgements = Judgements::new();
    for (index, message) in data.iter().enumerate() {
        let outcome = match mime::read(message, skipped) {
            Err(why) => Outcome::Python(why.as_str()),
            Ok(read) => Outcome::Read(scanned(
                read,
                index,
                extractor,
                grammar,
                (&mut known, &mut judgements),
                &mut batch,
            )),
        };
        batch.messages.push(outcome);
    }
    batch
}

/// One text's hits, in order.
type TextRows = Vec<Hit>;

/// The longest header value whose rows a batch keeps (`matches._HEADER_CACHE_CHARS`, in bytes
/// here): longer ones (Received, DKIM-Signature) seldom recur.
const KNOWN_BYTES: usize = 2048;

/// Whether a header value's rows are looked up and kept (`matches._worth_remembering`): the
/// values a list repeats in every message (List-Unsubscribe, List-Archive, List-Post) hold its
/// `<URL>`s, most of an archive's rows; one with no `<` is most often its message's own.
fn worth_knowing(value: &str) -> bool {
    value.len() <= KNOWN_BYTES && memchr::memchr(b'<', value.as_bytes()).is_some()
}

/// The rows of a message's texts (header values, then parts), added to `batch`; `known`: where
/// the hits of the header values worth knowing read so far in the batch lie in its `hits` (a
/// text's hits depend on its text alone: a header value is never flowed); `judgements`: the
/// batch's verdicts of the URLs met so far.
fn scanned(
    read: mime::Message,
    index: usize,
    extractor: &Extractor,
    grammar: &Grammar,
    (known, judgements): (&mut HashMap<String, Range<usize>>, &mut Judgements),
    batch: &mut Batch,
) -> Read {
    let mime::Message { headers, message_id, date, newsgroups, parts, defects, flowed } = read;
    let (count, texts) = (headers.len(), headers.len() + parts.len());
    for (k, (name, text)) in headers.into_iter().chain(parts).enumerate() {
        // D31: whether the part is flowed, and then whether DelSp=yes.
        let part = k.checked_sub(count);
        let delsp = flowed.iter().find(|(at, _)| Some(*at) == part).map(|&(_, delsp)| delsp);
        let mut scan = Scan { extractor, grammar, delsp, judgements: &mut *judgements };
        let remembered = part.is_none() && worth_knowing(&text);
        let hits = match remembered.then(|| known.get(&text)).flatten() {
            Some(hits) => hits.clone(),
            None => {
                let rows = match Units::of(&text) {
                    Units::Bytes(units) => scan.rows(&units),
                    Units::Utf16(units) => scan.rows(&units),
                    Units::Chars(units) => scan.rows(&units),
                };
                let hits = batch.hits.len()..batch.hits.len() + rows.len();
                batch.hits.extend(rows);
                if remembered {
                    known.insert(text, hits.clone());
                }
                hits
            }
        };
        if hits.is_empty() {
            continue;
        }
        let at = batch.wheres.len();
        batch.wheres.push((index, name));
        batch.rows.extend(hits.map(|hit| Row { hit, text: at }));
    }
    Read { message_id, date, newsgroups, headers: count, texts, defects, rows_end: batch.rows.len() }
}

/// A text as the scanner's units, one a character (`scan.rs`'s `Units` in the binding): its
/// bytes when ASCII, Latin-1 bytes, UTF-16 units of the BMP, else code points.
enum Units<'a> {
    Bytes(Cow<'a, [u8]>),
    Utf16(Vec<[u8; 2]>),
    Chars(Vec<char>),
}

impl<'a> Units<'a> {
    fn of(text: &'a str) -> Self {
        // The widest character, read off the UTF-8 lead bytes in one pass over the bytes: up to
        // U+007F is one byte, to U+00FF two led by C2 or C3, to U+FFFF three led by E0 to EF.
        let bytes = text.as_bytes();
        let top = bytes.iter().copied().max().unwrap_or(0);
        if top < 0x80 {
            return Units::Bytes(Cow::Borrowed(bytes));
        }
        if top < 0xC4 {
            // Latin-1: each two-byte sequence is one byte, 0x80 to 0xFF.
            let mut latin = Vec::with_capacity(bytes.len());
            let mut lead = 0;
            for &byte in bytes {
                match byte {
                    0xC2 | 0xC3 => lead = byte,
                    0x80..=0xBF => latin.push((lead & 0x03) << 6 | (byte & 0x3F)),
                    _ => latin.push(byte),
                }
            }
            return Units::Bytes(Cow::Owned(latin));
        }
        if top < 0xF0 {
            // Room for the units up front (no more than the bytes): `collect` would grow it from
            // the iterator's lower bound, a third of them.
            let mut units = Vec::with_capacity(bytes.len());
            units.extend(text.encode_utf16().map(u16::to_le_bytes));
            return Units::Utf16(units);
        }
        let mut units = Vec::with_capacity(bytes.len() / 2);
        units.extend(text.chars());
        Units::Chars(units)
    }
}

/// How one text is scanned: the extraction, and for a flowed part whether `DelSp=yes`.
struct Scan<'a> {
    extractor: &'a Extractor,
    grammar: &'a Grammar,
    delsp: Option<bool>,
    judgements: &'a mut Judgements,
}

impl Scan<'_> {
    /// The matches of one whole text (`Extraction.whole`; a flowed part's unflowed first and its
    /// matches placed back, as `matches._originals` does), each with its start, end and quote
    /// depth in the text.
    fn rows<T: Unit>(&mut self, text: &[T]) -> TextRows {
        let unflowed = self.delsp.and_then(|delsp| unflow(text, delsp));
        let mut found = self.matches(unflowed.as_ref().map_or(text, |unflowed| &unflowed.units));
        if let Some(unflowed) = &unflowed {
            let mut lines = Lines::default();
            found = found.into_iter().map(|one| unflowed.original(one, text, &mut lines)).collect();
        }
        let row = |found: Found| {
            let (start, end) = bounds(&found);
            let depth = depth_in(text, &found);
            Hit { found, start, end, depth }
        };
        found.into_iter().map(row).collect()
    }

    fn matches<T: Unit>(&mut self, units: &[T]) -> Vec<Found> {
        let Scan { extractor, grammar, judgements, .. } = self;
        let mut scan = extractor.scanner.start(units, 0, None, true);
        let mut lines = Lines::default();
        let mut found = Vec::new();
        while let Some(candidate) = extractor.scanner.next(&mut scan, units) {
            found.extend(extractor.candidate_judged(grammar, units, &candidate, &mut lines, judgements));
        }
        found
    }
}

/// D25: `around.quote_depth` of a match in its whole text: the quote marks that begin its line,
/// read up to the match (nothing before it on its line: 0).
fn depth_in<T: Unit>(units: &[T], found: &Found) -> i64 {
    let start = found.span.0;
    let Ok(column) = usize::try_from(found.column) else { return 0 };
    if column == 0 || column > start {
        return 0;
    }
    let line_start = start - column;
    let end = start.min(line_start + PREFIX_CHARS);
    units.get(line_start..end).map_or(0, quote_depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The units as `chars` gives them, one a character: the oracle of `Units::of`.
    fn by_chars(text: &str) -> (u8, Vec<u32>) {
        let widest = text.chars().map(u32::from).max().unwrap_or(0);
        let width = if widest <= 0xFF {
            1
        } else if widest <= 0xFFFF {
            2
        } else {
            4
        };
        let units = if width == 2 {
            text.encode_utf16().map(u32::from).collect()
        } else {
            text.chars().map(u32::from).collect()
        };
        (width, units)
    }

    fn of(text: &str) -> (u8, Vec<u32>) {
        match Units::of(text) {
            Units::Bytes(units) => (1, units.iter().map(|&b| u32::from(b)).collect()),
            Units::Utf16(units) => (2, units.iter().map(|&u| u32::from(u16::from_le_bytes(u))).collect()),
            Units::Chars(units) => (4, units.iter().map(|&c| u32::from(c)).collect()),
        }
    }

    #[test]
    fn a_header_value_read_again_gives_the_rows_it_gave() {
        use crate::extract::{Judge, JudgePlan};
        use crate::scan::Scanner;
        let mut grammar = Grammar::new();
        let plan = JudgePlan {
            scheme: "[a-z]+".into(),
            generic: "any".into(),
            fragment: "any".into(),
            ..JudgePlan::default()
        };
        let (Ok(()), Ok(judge)) = (grammar.add("any", "[^#]*", &[]), Judge::new(plan)) else {
            unreachable!("the toy judge is refused");
        };
        let schemes = ["http", "mailto"].map(str::to_owned);
        let scanner = Scanner::new(true, &schemes, &schemes[..1], &schemes, true, true);
        let extractor = Extractor { scanner, judge, invalid: true };
        let one: &[u8] = b"List-Post: <mailto:l@a.example>, <http://a.example/#x>\n\nsee http://b.example/\n";
        let two: &[u8] = b"Subject: s\nList-Post: <mailto:l@a.example>, <http://a.example/#x>\n\nno URL\n";
        let alone = read_batch(&[two], &[], &extractor, &grammar);
        let both = read_batch(&[one, two], &[], &extractor, &grammar);
        // The second message's rows: the value's, as read alone, its own text named.
        let Some(Outcome::Read(first)) = both.messages.first() else { unreachable!("read") };
        let again: Vec<Row> = both.rows[first.rows_end..].to_vec();
        let Some(&(text, _)) = again.first().map(|row| &both.wheres[row.text]) else { unreachable!("rows") };
        assert_eq!(text, 1);
        assert_eq!(again.len(), 2);
        let hits = |batch: &Batch, rows: &[Row]| {
            rows.iter().map(|row| batch.hits[row.hit].clone()).collect::<Vec<_>>()
        };
        assert_eq!(hits(&both, &again), hits(&alone, &alone.rows));
        assert_eq!(hits(&both, &both.rows[..2]), hits(&alone, &alone.rows));
        // Met again, the value's hits are those it gave the first time, not copies.
        let firsts: Vec<usize> = both.rows[..2].iter().map(|row| row.hit).collect();
        assert_eq!(again.iter().map(|row| row.hit).collect::<Vec<_>>(), firsts);
        assert_eq!(both.hits.len(), 3);
    }

    #[test]
    fn units_are_one_a_character_and_as_narrow_as_the_widest() {
        // Each character to U+0800 and those around the other bounds, alone and among others.
        let edges = [0xFFFF, 0x1_0000, 0x10_FFFF, 0xD7FF, 0xE000];
        for code in (0..0x800).chain(edges) {
            let Some(c) = char::from_u32(code) else { continue };
            for text in [c.to_string(), format!("a{c}\u{e9}b\u{ff}{c}"), format!("\u{80}{c}\u{7f}")] {
                assert_eq!(of(&text), by_chars(&text), "{text:?}");
            }
        }
        assert_eq!(of(""), (1, Vec::new()));
    }
}
