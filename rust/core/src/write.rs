//! The writers of a batch's rows: text, JSON Lines and CSV, byte for byte as `output.py` writes
//! them (`output.writer`), from columns (`batches.Batch`), so that no row is ever a Python object.
//!
//! Texts are "generalized UTF-8": UTF-8, where a lone surrogate (a Python `str` decoded with
//! `surrogateescape`: a file name's byte, a JSON `\ud800` escape read back) is its three bytes as
//! Python's `surrogatepass` writes them. Every format writes such a surrogate as the six characters
//! `\udXXX` (`escaping.surrogates_escaped`), since no UTF-8 output can hold it.

use std::ops::Range;

use crate::scan::Wrapper;
use crate::write_tables::UNSAFE;

/// A column of optional strings, laid out as Arrow lays one out: the texts end to end, where each
/// ends, and which are null.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Strings {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    nulls: Vec<bool>,
}

impl Strings {
    pub fn new() -> Self {
        Self::default()
    }

    /// `length` nulls.
    pub fn nulls(length: usize) -> Self {
        Strings { bytes: Vec::new(), ends: vec![0; length], nulls: vec![true; length] }
    }

    pub fn push(&mut self, text: Option<&[u8]>) {
        if let Some(text) = text {
            self.bytes.extend_from_slice(text);
        }
        self.ends.push(self.bytes.len());
        self.nulls.push(text.is_none());
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The text at `index`; None when it is null (or past the end).
    pub fn get(&self, index: usize) -> Option<&[u8]> {
        if *self.nulls.get(index)? {
            return None;
        }
        let start = if index == 0 { 0 } else { *self.ends.get(index - 1)? };
        self.bytes.get(start..*self.ends.get(index)?)
    }
}

/// A column of lists of strings (a row's alternatives): the strings in one column, where each
/// row's list ends in it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lists {
    strings: Strings,
    ends: Vec<usize>,
}

impl Lists {
    pub fn new() -> Self {
        Self::default()
    }

    /// `length` empty lists.
    pub fn empties(length: usize) -> Self {
        Lists { strings: Strings::new(), ends: vec![0; length] }
    }

    pub fn push<'a>(&mut self, items: impl IntoIterator<Item = &'a [u8]>) {
        for item in items {
            self.strings.push(Some(item));
        }
        self.ends.push(self.strings.len());
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The strings of the list at `index` (none past the end).
    pub fn get(&self, index: usize) -> impl Iterator<Item = &[u8]> {
        let start = if index == 0 { 0 } else { self.ends.get(index - 1).copied().unwrap_or(0) };
        let end = self.ends.get(index).copied().unwrap_or(start);
        (start..end).filter_map(|item| self.strings.get(item))
    }
}

/// Where each message (or plain text) of a batch lies: `batches.Messages`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Messages {
    pub source: Strings,
    pub member: Strings,
    pub message: Vec<Option<i64>>,
    pub offset: Vec<Option<i64>>,
    pub message_id: Strings,
    pub date: Strings,
    pub newsgroups: Strings,
}

/// The texts that hold a row, each with its message (an index into `Messages`) and part:
/// `batches.Texts`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Texts {
    pub message: Vec<usize>,
    pub part: Strings,
}

/// One entry per row, its text an index into `Texts`: `batches.Matches`, less `position` and
/// `production` (which `error` holds written out) and `naked` (`wrapper` None).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Matches {
    pub text: Vec<usize>,
    pub url: Strings,
    pub alternatives: Lists,
    pub valid: Vec<bool>,
    pub scheme: Strings,
    pub wrapper: Vec<Option<Wrapper>>,
    pub line: Vec<i64>,
    pub column: Vec<i64>,
    pub start: Vec<i64>,
    pub end: Vec<i64>,
    pub quote_depth: Vec<i64>,
    pub error: Strings,
    pub canonical: Strings,
    pub count: Vec<Option<i64>>,
    pub context: Strings,
    pub wayback: Strings,
    pub host: Strings,
    pub host_unicode: Strings,
    pub registered_domain: Strings,
    pub surt: Strings,
    pub date_header: Strings,
}

/// A batch's rows as columns (`batches.Batch` less its reports, which the printer says itself).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    pub messages: Messages,
    pub texts: Texts,
    pub matches: Matches,
}

impl Batch {
    /// Its number of rows.
    pub fn len(&self) -> usize {
        self.matches.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.matches.text.is_empty()
    }

    /// Whether every column of a table has its table's length and every index points into the
    /// table it names; the writers take a checked batch (an unchecked one is written with nulls
    /// where it is short, never with a panic).
    pub fn check(&self) -> Result<(), String> {
        let (m, t, r) = (&self.messages, &self.texts, &self.matches);
        let tables: [(&str, usize, &[usize]); 3] = [
            (
                "messages",
                m.source.len(),
                &[m.member.len(), m.message.len(), m.offset.len(), m.message_id.len(), m.date.len()],
            ),
            ("texts", t.message.len(), &[t.part.len()]),
            (
                "matches",
                r.text.len(),
                &[
                    r.url.len(),
                    r.alternatives.len(),
                    r.valid.len(),
                    r.scheme.len(),
                    r.wrapper.len(),
                    r.line.len(),
                    r.column.len(),
                    r.start.len(),
                    r.end.len(),
                    r.quote_depth.len(),
                    r.error.len(),
                    r.canonical.len(),
                    r.count.len(),
                    r.context.len(),
                    r.wayback.len(),
                    r.host.len(),
                    r.host_unicode.len(),
                    r.registered_domain.len(),
                    r.surt.len(),
                    r.date_header.len(),
                ],
            ),
        ];
        for (name, length, others) in tables {
            if others.iter().any(|other| *other != length) {
                return Err(format!("the {name} columns are not all {length} long"));
            }
        }
        if m.newsgroups.len() != m.source.len() {
            return Err(format!("the messages columns are not all {} long", m.source.len()));
        }
        if let Some(bad) = t.message.iter().find(|&&message| message >= m.source.len()) {
            return Err(format!("a text's message {bad} is not one of the {}", m.source.len()));
        }
        if let Some(bad) = r.text.iter().find(|&&text| text >= t.message.len()) {
            return Err(format!("a row's text {bad} is not one of the {}", t.message.len()));
        }
        Ok(())
    }
}

/// The formats `output.writer` writes (Parquet takes the columns through Arrow).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Jsonl,
    Csv,
}

/// How rows are written: `output.writer`'s arguments and `output.Printing.schemes`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Style {
    pub format: Format,
    /// The text format prints a valid URL's canonical form (when the row carries it).
    pub canonical: bool,
    /// `marks.Marks`: the file's name before each text line, colour.
    pub filename: bool,
    pub color: bool,
    /// What ends a CSV record (`-0`: a NUL); the text and jsonl rows end with a line feed, which
    /// the printer turns into it.
    pub end: u8,
    /// Only the rows of these schemes (`--schemes`); None: every row.
    pub schemes: Option<Vec<Vec<u8>>>,
}

impl Style {
    pub fn new(format: Format) -> Self {
        Style { format, canonical: false, filename: false, color: false, end: b'\n', schemes: None }
    }
}

/// What a write did: the rows written, and whether one of them is a valid URL.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    pub rows: usize,
    pub valid: bool,
}

/// The CSV output's header line, `rows.FIELDS` in order.
pub const FIELDS: [&str; 29] = [
    "url",
    "alternatives",
    "valid",
    "scheme",
    "wrapper",
    "naked",
    "line",
    "column",
    "source",
    "member",
    "message",
    "offset",
    "message_id",
    "date",
    "newsgroups",
    "part",
    "error",
    "canonical",
    "count",
    "start",
    "end",
    "quote_depth",
    "context",
    "wayback",
    "host",
    "host_unicode",
    "registered_domain",
    "surt",
    "date_header",
];

/// Writes the rows `rows` of `batch` (those `style.schemes` keeps) to `out`.
pub fn write(batch: &Batch, rows: Range<usize>, style: &Style, out: &mut Vec<u8>) -> Written {
    let mut written = Written::default();
    let mut cell = Vec::new();
    let mut held = Held::default();
    for row in rows.start..rows.end.min(batch.len()) {
        let r = &batch.matches;
        if let Some(schemes) = &style.schemes {
            let scheme = r.scheme.get(row);
            if !scheme.is_some_and(|scheme| schemes.iter().any(|kept| kept == scheme)) {
                continue;
            }
        }
        let valid = r.valid.get(row).copied().unwrap_or(false);
        written.rows += 1;
        written.valid |= valid;
        let text = r.text.get(row).copied().unwrap_or(0);
        let message = batch.texts.message.get(text).copied().unwrap_or(0);
        let at = At { row, text, message };
        match style.format {
            Format::Text => text_line(batch, at, valid, style, out),
            Format::Jsonl => json_object(batch, at, valid, &mut held, out),
            Format::Csv => csv_record(batch, at, valid, style.end, &mut held, out, &mut cell),
        }
    }
    written
}

/// What a run's rows repeat, written once: their message's fields (the same for all its rows: a
/// message's rows come together), and the last `date_header` (a message's, in each of its rows).
/// What is held is kept with the CSV line breaks it was quoted for (a row with a context has its own).
#[derive(Default)]
struct Held {
    message: Option<(usize, [u8; 2])>,
    fields: Vec<u8>,
    date_header: Option<(Option<Vec<u8>>, [u8; 2])>,
    date_header_written: Vec<u8>,
}

impl Held {
    /// The message's fields as `write_fields` writes them, written once for each message in turn.
    fn message(&mut self, message: usize, breaks: [u8; 2], write_fields: impl FnOnce(&mut Vec<u8>)) -> &[u8] {
        if self.message != Some((message, breaks)) {
            self.message = Some((message, breaks));
            self.fields.clear();
            write_fields(&mut self.fields);
        }
        &self.fields
    }

    /// `date_header` as `write_field` writes it, written again only when it is not the last one.
    fn date_header(
        &mut self,
        date_header: Option<&[u8]>,
        breaks: [u8; 2],
        write_field: impl FnOnce(&mut Vec<u8>),
    ) -> &[u8] {
        let same = self
            .date_header
            .as_ref()
            .is_some_and(|(last, quoted)| last.as_deref() == date_header && *quoted == breaks);
        if !same {
            self.date_header = Some((date_header.map(<[u8]>::to_vec), breaks));
            self.date_header_written.clear();
            write_field(&mut self.date_header_written);
        }
        &self.date_header_written
    }
}

/// A row, and the indexes of its text and message.
#[derive(Clone, Copy)]
struct At {
    row: usize,
    text: usize,
    message: usize,
}

// D37: the file's name before a line as grep and ripgrep write it, standard input's as GNU grep's.
const STDIN_PATHS: [&[u8]; 2] = [b"-", b"<stdin>"];
const STDIN_NAME: &[u8] = b"(standard input)";
// ripgrep's and GNU grep's default colours (marks.py): file names magenta, matches bold red.
const NAME: &[u8] = b"\x1b[35m";
const MATCH: &[u8] = b"\x1b[1;31m";
const RESET: &[u8] = b"\x1b[0m";

/// `output.writer`'s text line: the URL (its canonical form when asked), or a rejected
/// candidate and why, with what `marks.Marks` puts around it.
fn text_line(batch: &Batch, at: At, valid: bool, style: &Style, out: &mut Vec<u8>) {
    let r = &batch.matches;
    let url = r.url.get(at.row).unwrap_or_default();
    let shown = match r.canonical.get(at.row) {
        Some(canonical) if valid && style.canonical => canonical,
        _ => url,
    };
    if !(style.filename || style.color) {
        if valid {
            // An ASCII valid URL has no control character in it (section 2.2); an IRI may.
            if shown.is_ascii() {
                out.extend_from_slice(shown);
            } else {
                escaped(shown, out);
            }
        } else {
            escaped(url, out);
            out.push(b'\t');
            escaped(r.error.get(at.row).unwrap_or_default(), out);
        }
        out.push(b'\n');
        return;
    }
    if style.filename {
        let source = batch.messages.source.get(at.message).unwrap_or_default();
        if style.color {
            out.extend_from_slice(NAME);
        }
        if STDIN_PATHS.contains(&source) {
            out.extend_from_slice(STDIN_NAME);
        } else {
            escaped(source, out);
        }
        if style.color {
            out.extend_from_slice(RESET);
        }
        out.push(b':');
    }
    if !valid {
        // D37: a rejected candidate is no match, and is not coloured as one.
        escaped(url, out);
        out.push(b'\t');
        escaped(r.error.get(at.row).unwrap_or_default(), out);
    } else if style.color {
        out.extend_from_slice(MATCH);
        escaped(shown, out);
        out.extend_from_slice(RESET);
    } else {
        escaped(shown, out);
    }
    out.push(b'\n');
}

/// `output._jsonl_writer`'s object: `json.dumps(row._asdict(), ensure_ascii=False)`, a lone
/// surrogate written as JSON's escape of it.
fn json_object(batch: &Batch, at: At, valid: bool, held: &mut Held, out: &mut Vec<u8>) {
    let (m, r) = (&batch.messages, &batch.matches);
    out.extend_from_slice(b"{\"url\": ");
    json_text(r.url.get(at.row), out);
    out.extend_from_slice(b", \"alternatives\": [");
    for (index, alternative) in r.alternatives.get(at.row).enumerate() {
        if index > 0 {
            out.extend_from_slice(b", ");
        }
        json_text(Some(alternative), out);
    }
    out.extend_from_slice(b"], \"valid\": ");
    out.extend_from_slice(if valid { b"true" } else { b"false" });
    out.extend_from_slice(b", \"scheme\": ");
    json_text(r.scheme.get(at.row), out);
    let wrapper = r.wrapper.get(at.row).copied().flatten();
    out.extend_from_slice(b", \"wrapper\": ");
    out.extend_from_slice(match wrapper {
        None => b"null",
        Some(Wrapper::Url) => b"\"URL:\"",
        Some(Wrapper::Angle) => b"\"<>\"",
        Some(Wrapper::Quote) => b"\"\\\"\"",
    });
    out.extend_from_slice(b", \"naked\": ");
    out.extend_from_slice(if wrapper.is_none() { b"true" } else { b"false" });
    let number = |column: &[i64]| Some(column.get(at.row).copied().unwrap_or(0));
    json_fields(
        &[
            (", \"line\": ", Field::Number(number(&r.line))),
            (", \"column\": ", Field::Number(number(&r.column))),
        ],
        out,
    );
    out.extend_from_slice(held.message(at.message, [0, 0], |fields| {
        json_fields(
            &[
                (", \"source\": ", Field::Text(m.source.get(at.message))),
                (", \"member\": ", Field::Text(m.member.get(at.message))),
                (", \"message\": ", Field::Number(m.message.get(at.message).copied().flatten())),
                (", \"offset\": ", Field::Number(m.offset.get(at.message).copied().flatten())),
                (", \"message_id\": ", Field::Text(m.message_id.get(at.message))),
                (", \"date\": ", Field::Text(m.date.get(at.message))),
                (", \"newsgroups\": ", Field::Text(m.newsgroups.get(at.message))),
            ],
            fields,
        );
    }));
    let fields: [(&str, Field<'_>); 13] = [
        (", \"part\": ", Field::Text(batch.texts.part.get(at.text))),
        (", \"error\": ", Field::Text(r.error.get(at.row))),
        (", \"canonical\": ", Field::Text(r.canonical.get(at.row))),
        (", \"count\": ", Field::Number(r.count.get(at.row).copied().flatten())),
        (", \"start\": ", Field::Number(number(&r.start))),
        (", \"end\": ", Field::Number(number(&r.end))),
        (", \"quote_depth\": ", Field::Number(number(&r.quote_depth))),
        (", \"context\": ", Field::Text(r.context.get(at.row))),
        (", \"wayback\": ", Field::Text(r.wayback.get(at.row))),
        (", \"host\": ", Field::Text(r.host.get(at.row))),
        (", \"host_unicode\": ", Field::Text(r.host_unicode.get(at.row))),
        (", \"registered_domain\": ", Field::Text(r.registered_domain.get(at.row))),
        (", \"surt\": ", Field::Text(r.surt.get(at.row))),
    ];
    json_fields(&fields, out);
    let date_header = r.date_header.get(at.row);
    out.extend_from_slice(held.date_header(date_header, [0, 0], |field| {
        json_fields(&[(", \"date_header\": ", Field::Text(date_header))], field);
    }));
    out.extend_from_slice(b"}\n");
}

/// Each field as `, "name": value` (each given as its name's part: `, "name": `, written at once).
fn json_fields(fields: &[(&str, Field<'_>)], out: &mut Vec<u8>) {
    for (name, field) in fields {
        out.extend_from_slice(name.as_bytes());
        match *field {
            Field::Text(text) => json_text(text, out),
            Field::Number(None) => out.extend_from_slice(b"null"),
            Field::Number(Some(number)) => integer(number, out),
        }
    }
}

#[derive(Clone, Copy)]
enum Field<'a> {
    Text(Option<&'a [u8]>),
    Number(Option<i64>),
}

/// `json.encoder.encode_basestring` (what `json.dumps` does with `ensure_ascii=False`): `"` and
/// `\` and the C0 controls escaped, all else as it is; then `escaping.surrogates_escaped`.
fn json_text(text: Option<&[u8]>, out: &mut Vec<u8>) {
    let Some(text) = text else {
        out.extend_from_slice(b"null");
        return;
    };
    out.reserve(text.len() + 2); // (most texts have nothing to escape: one allocation check)
    out.push(b'"');
    let mut rest = text;
    while let Some(found) = first_json_special(rest) {
        out.extend_from_slice(rest.get(..found).unwrap_or_default());
        let byte = rest.get(found).copied().unwrap_or(0);
        let mut length = 1;
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            0xED => {
                let (code, read) = code_point(rest, found);
                length = read;
                if is_surrogate(code) {
                    escape(code, out);
                } else {
                    out.extend_from_slice(rest.get(found..found + read).unwrap_or_default());
                }
            }
            _ => {
                out.extend_from_slice(b"\\u"); // as Python's JSON writes the other C0 controls
                hex(u32::from(byte), 4, out);
            }
        }
        rest = rest.get(found + length..).unwrap_or_default();
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

/// The bytes `json_text` cannot copy as they are: the C0 controls, `"`, `\\` and 0xED (which starts
/// a surrogate, or a code point from 0xD000 to 0xD7FF, written as it is).
const JSON_SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = byte < 0x20 || byte == b'"' as usize || byte == b'\\' as usize || byte == 0xED;
        byte += 1;
    }
    table
};

fn json_special(byte: u8) -> bool {
    JSON_SPECIAL.get(usize::from(byte)).copied().unwrap_or(true)
}

/// Where the first byte `json_text` cannot copy as it is stands: a 16-byte block at a time while
/// none holds one (a test the compiler can make one vector step), then one table look-up a byte.
fn first_json_special(text: &[u8]) -> Option<usize> {
    // (`fold`, not `any`: a whole block is tested at once, which the compiler can vectorise)
    let special = |byte: &u8| *byte < 0x20 || *byte == b'"' || *byte == b'\\' || *byte == 0xED;
    let blocks = text
        .chunks_exact(16)
        .take_while(|block| !block.iter().fold(false, |seen, byte| seen | special(byte)))
        .count();
    let start = blocks * 16;
    text.get(start..)?.iter().position(|&byte| json_special(byte)).map(|found| start + found)
}

/// `output._cell` of each column, and `csv.writer` (Excel's dialect: quotes where needed) around
/// them; a context cell holds its line breaks as they are, and so is quoted for them too.
fn csv_record(
    batch: &Batch,
    at: At,
    valid: bool,
    end: u8,
    held: &mut Held,
    out: &mut Vec<u8>,
    cell: &mut Vec<u8>,
) {
    let (m, r) = (&batch.messages, &batch.matches);
    let number = |column: &[i64]| Some(column.get(at.row).copied().unwrap_or(0));
    let wrapper = r.wrapper.get(at.row).copied().flatten();
    let mut alternatives = Vec::new();
    for (index, alternative) in r.alternatives.get(at.row).enumerate() {
        if index > 0 {
            alternatives.push(b' ');
        }
        alternatives.extend_from_slice(alternative);
    }
    // output.writer: a row with a context is written with CR LF as the csv module's line end (it
    // quotes a cell that holds a character of it), the record's own end put back after it.
    let breaks = if r.context.get(at.row).is_some() { *b"\r\n" } else { [end, end] };
    let first: [Cell<'_>; 8] = [
        Cell::Text(r.url.get(at.row)),
        Cell::Text(Some(&alternatives)),
        Cell::Bool(valid),
        Cell::Text(r.scheme.get(at.row)),
        Cell::Text(wrapper.map(|wrapper| match wrapper {
            Wrapper::Url => b"URL:".as_slice(),
            Wrapper::Angle => b"<>",
            Wrapper::Quote => b"\"",
        })),
        Cell::Bool(wrapper.is_none()),
        Cell::Number(number(&r.line)),
        Cell::Number(number(&r.column)),
    ];
    for (index, value) in first.into_iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        csv_cell(value, breaks, cell, out);
    }
    let message = held.message(at.message, breaks, |cells| {
        let i = at.message;
        let number = |column: &[Option<i64>]| column.get(i).copied().flatten();
        let of_message = [
            Cell::Text(m.source.get(i)),
            Cell::Text(m.member.get(i)),
            Cell::Number(number(&m.message)),
            Cell::Number(number(&m.offset)),
            Cell::Text(m.message_id.get(i)),
            Cell::Text(m.date.get(i)),
            Cell::Text(m.newsgroups.get(i)),
        ];
        csv_cells(of_message, breaks, cell, cells);
    });
    out.extend_from_slice(message);
    let rest: [Cell<'_>; 13] = [
        Cell::Text(batch.texts.part.get(at.text)),
        Cell::Text(r.error.get(at.row)),
        Cell::Text(r.canonical.get(at.row)),
        Cell::Number(r.count.get(at.row).copied().flatten()),
        Cell::Number(number(&r.start)),
        Cell::Number(number(&r.end)),
        Cell::Number(number(&r.quote_depth)),
        Cell::Context(r.context.get(at.row)),
        Cell::Text(r.wayback.get(at.row)),
        Cell::Text(r.host.get(at.row)),
        Cell::Text(r.host_unicode.get(at.row)),
        Cell::Text(r.registered_domain.get(at.row)),
        Cell::Text(r.surt.get(at.row)),
    ];
    csv_cells(rest, breaks, cell, out);
    let date_header = r.date_header.get(at.row);
    out.extend_from_slice(held.date_header(date_header, breaks, |written| {
        csv_cells([Cell::Text(date_header)], breaks, cell, written);
    }));
    out.push(end);
}

/// Cells after others: each after a comma.
fn csv_cells<'a>(
    cells: impl IntoIterator<Item = Cell<'a>>,
    breaks: [u8; 2],
    cell: &mut Vec<u8>,
    out: &mut Vec<u8>,
) {
    for value in cells {
        out.push(b',');
        csv_cell(value, breaks, cell, out);
    }
}

/// One cell, as `output._cell` and `csv.writer` write it (`cell`: a buffer to reuse).
fn csv_cell(value: Cell<'_>, breaks: [u8; 2], cell: &mut Vec<u8>, out: &mut Vec<u8>) {
    cell.clear();
    match value {
        Cell::Text(None) | Cell::Context(None) | Cell::Number(None) => {}
        Cell::Bool(value) => cell.extend_from_slice(if value { b"true" } else { b"false" }),
        Cell::Number(Some(number)) => {
            integer(number, cell);
            if number < 0 {
                cell.insert(0, b'\''); // the formula guard, as for any cell starting with '-'
            }
        }
        Cell::Text(Some(text)) => {
            guard(text, cell);
            escaped(text, cell);
        }
        Cell::Context(Some(text)) => {
            // A NUL, which CSV readers refuse (and -0 ends records with), is the one escaped.
            guard(text, cell);
            surrogates_escaped(text, cell, true);
        }
    }
    quoted(cell, breaks, out);
}

enum Cell<'a> {
    Text(Option<&'a [u8]>),
    Context(Option<&'a [u8]>),
    Number(Option<i64>),
    Bool(bool),
}

/// `output._guard`: a quote in front of what a spreadsheet would run as a formula (OWASP's
/// advice for CSV injection).
fn guard(text: &[u8], out: &mut Vec<u8>) {
    if matches!(text.first(), Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r')) {
        out.push(b'\'');
    }
}

/// A cell as `csv.writer` (QUOTE_MINIMAL) writes it: quoted, its quotes doubled, when it holds
/// the delimiter, the quote or a character of the line end.
fn quoted(cell: &[u8], breaks: [u8; 2], out: &mut Vec<u8>) {
    let [first, second] = breaks;
    if !cell.iter().any(|&byte| byte == b',' || byte == b'"' || byte == first || byte == second) {
        out.extend_from_slice(cell);
        return;
    }
    out.push(b'"');
    let mut rest = cell;
    while let Some(found) = memchr::memchr(b'"', rest) {
        out.extend_from_slice(rest.get(..=found).unwrap_or_default());
        out.push(b'"');
        rest = rest.get(found + 1..).unwrap_or_default();
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

/// `escaping.escaped`: control and invisible formatting characters (Cc, Cf, Cs, Zl, Zp) as
/// Python's `\xNN`, `\uNNNN` or `\UNNNNNNNN`, so that they cannot act on a terminal.
pub fn escaped(text: &[u8], out: &mut Vec<u8>) {
    if text.iter().all(|byte| (0x20..0x7F).contains(byte)) {
        out.extend_from_slice(text); // most text: nothing to look for
        return;
    }
    let mut plain = 0;
    let mut at = 0;
    while at < text.len() {
        let (code, length) = code_point(text, at);
        if is_unsafe(code) {
            out.extend_from_slice(text.get(plain..at).unwrap_or_default());
            escape(code, out);
            plain = at + length;
        }
        at += length;
    }
    out.extend_from_slice(text.get(plain..).unwrap_or_default());
}

/// `escaping.surrogates_escaped`: each lone surrogate as `\udXXX`; with `nul`, a NUL as `\x00`
/// too (the CSV context cell's one escape).
pub fn surrogates_escaped(text: &[u8], out: &mut Vec<u8>, nul: bool) {
    let mut rest = text;
    loop {
        let found = if nul { memchr::memchr2(0xED, 0, rest) } else { memchr::memchr(0xED, rest) };
        let Some(found) = found else { break };
        out.extend_from_slice(rest.get(..found).unwrap_or_default());
        let (code, length) = code_point(rest, found);
        if is_surrogate(code) || code == 0 {
            escape(code, out);
        } else {
            out.extend_from_slice(rest.get(found..found + length).unwrap_or_default());
        }
        rest = rest.get(found + length..).unwrap_or_default();
    }
    out.extend_from_slice(rest);
}

/// Python's escape of a code point: `\xNN`, `\uNNNN`, `\UNNNNNNNN` (lower-case hex digits).
fn escape(code: u32, out: &mut Vec<u8>) {
    let (lead, digits) = match code {
        0..=0xFF => (b'x', 2),
        0x100..=0xFFFF => (b'u', 4),
        _ => (b'U', 8),
    };
    out.push(b'\\');
    out.push(lead);
    hex(code, digits, out);
}

/// `code` in `digits` lower-case hex digits.
fn hex(code: u32, digits: u32, out: &mut Vec<u8>) {
    for shift in (0..digits).rev() {
        out.push(b"0123456789abcdef"[((code >> (4 * shift)) & 0xF) as usize]);
    }
}

fn is_surrogate(code: u32) -> bool {
    (0xD800..=0xDFFF).contains(&code)
}

fn is_unsafe(code: u32) -> bool {
    if code < 0x80 {
        return code < 0x20 || code == 0x7F;
    }
    let at = UNSAFE.partition_point(|&(_, last)| last < code);
    UNSAFE.get(at).is_some_and(|&(first, _)| first <= code)
}

/// The code point at `at` of generalized UTF-8 and its length in bytes; a byte that starts none
/// (never in a text from Python) is U+FFFD, one byte long.
fn code_point(text: &[u8], at: usize) -> (u32, usize) {
    let byte = |offset: usize| text.get(at + offset).map(|&b| u32::from(b));
    let continued = |offset: usize| byte(offset).filter(|b| b & 0xC0 == 0x80).map(|b| b & 0x3F);
    let Some(first) = byte(0) else { return (0xFFFD, 1) };
    let (length, lead) = match first {
        0x00..=0x7F => return (first, 1),
        0xC0..=0xDF => (2, first & 0x1F),
        0xE0..=0xEF => (3, first & 0x0F),
        0xF0..=0xF7 => (4, first & 0x07),
        _ => return (0xFFFD, 1),
    };
    let mut code = lead;
    for offset in 1..length {
        match continued(offset) {
            Some(bits) => code = (code << 6) | bits,
            None => return (0xFFFD, 1),
        }
    }
    (code, length)
}

/// A decimal integer, as Python's `str(int)` writes it.
fn integer(number: i64, out: &mut Vec<u8>) {
    if number < 0 {
        out.push(b'-');
    }
    let mut digits = [0u8; 20];
    let mut rest = number.unsigned_abs();
    let mut start = digits.len();
    loop {
        start -= 1;
        if let Some(digit) = digits.get_mut(start) {
            *digit = b'0' + (rest % 10) as u8;
        }
        rest /= 10;
        if rest == 0 || start == 0 {
            break;
        }
    }
    out.extend_from_slice(digits.get(start..).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-row batch: `url`, valid or not, with `context`.
    fn batch(url: &[u8], valid: bool, context: Option<&[u8]>) -> Batch {
        let mut batch = Batch::default();
        let m = &mut batch.messages;
        m.source.push(Some(b"-"));
        for column in [&mut m.member, &mut m.message_id, &mut m.date, &mut m.newsgroups] {
            column.push(None);
        }
        m.message.push(None);
        m.offset.push(Some(-3));
        batch.texts.message.push(0);
        batch.texts.part.push(None);
        let r = &mut batch.matches;
        r.text.push(0);
        r.url.push(Some(url));
        r.alternatives.push([b"a,b".as_slice(), b"c"]);
        r.valid.push(valid);
        r.scheme.push(Some(b"http"));
        r.wrapper.push(Some(Wrapper::Quote));
        for column in [&mut r.line, &mut r.column, &mut r.start, &mut r.end, &mut r.quote_depth] {
            column.push(1);
        }
        r.error.push(if valid { None } else { Some(b"=why") });
        r.canonical.push(None);
        r.count.push(None);
        r.context.push(context);
        for column in [&mut r.wayback, &mut r.host, &mut r.host_unicode, &mut r.registered_domain] {
            column.push(None);
        }
        r.surt.push(None);
        r.date_header.push(None);
        batch
    }

    fn written(batch: &Batch, style: &Style) -> String {
        let mut out = Vec::new();
        write(batch, 0..batch.len(), style, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn text_escapes_controls_surrogates_and_bidi_but_not_an_ascii_valid_url() {
        let style = Style::new(Format::Text);
        assert_eq!(written(&batch(b"http://a/\x1b", true, None), &style), "http://a/\x1b\n");
        // U+202E, then a lone surrogate as surrogatepass writes it (ED B0 80: U+DC00)
        let url = b"http://\xc3\xa9/\xe2\x80\xae\xed\xb0\x80";
        assert_eq!(written(&batch(url, true, None), &style), "http://é/\\u202e\\udc00\n");
        assert_eq!(written(&batch(b"x\ty", false, None), &style), "x\\x09y\t=why\n");
    }

    #[test]
    fn jsonl_escapes_as_python_json_does() {
        let found = written(
            &batch(b"a\"\\\n\x01\x7f\xed\xa0\x80\xed\x9f\xbf", true, None),
            &Style::new(Format::Jsonl),
        );
        assert!(found.starts_with(
            "{\"url\": \"a\\\"\\\\\\n\\u0001\x7f\\ud800\u{d7ff}\", \"alternatives\": [\"a,b\", \"c\"]"
        ));
        assert!(found.contains("\"wrapper\": \"\\\"\", \"naked\": false"));
        assert!(found.ends_with("\"offset\": -3, \"message_id\": null, \"date\": null, \"newsgroups\": null, \"part\": null, \"error\": null, \"canonical\": null, \"count\": null, \"start\": 1, \"end\": 1, \"quote_depth\": 1, \"context\": null, \"wayback\": null, \"host\": null, \"host_unicode\": null, \"registered_domain\": null, \"surt\": null, \"date_header\": null}\n"));
    }

    #[test]
    fn csv_quotes_guards_and_keeps_a_contexts_line_breaks() {
        let mut style = Style::new(Format::Csv);
        style.end = 0;
        let found = written(&batch(b"-x", false, Some(b"line\r\nnext\0")), &style);
        // (the source "-" too: standard input's name starts as a formula would)
        let cells = "'-x,\"a,b c\",false,http,\"\"\"\",false,1,1,'-,,,'-3,,,,,'=why,,,1,1,1,";
        assert_eq!(found, format!("{cells}\"line\r\nnext\\x00\",,,,,,\0"));
    }

    /// Rows of three messages in turn (a message met again after another), some with a context,
    /// the date headers changing within a message.
    fn rows_of_messages() -> Batch {
        let mut batch = Batch::default();
        let m = &mut batch.messages;
        for (k, source) in [b"=a".as_slice(), b"b,c", b"d\"e"].into_iter().enumerate() {
            m.source.push(Some(source));
            m.member.push(None);
            m.message.push(Some(k as i64));
            m.offset.push(Some(-(k as i64)));
            m.message_id.push(Some(b"<id@x>"));
            m.date.push(if k == 1 { None } else { Some(b"1996-12-07T06:42:36Z") });
            m.newsgroups.push(Some(b"comp.x,comp.y"));
            batch.texts.message.push(k);
            batch.texts.part.push(Some(b"0 text/plain"));
        }
        let r = &mut batch.matches;
        for (row, text) in [0, 0, 1, 0, 2, 2, 1].into_iter().enumerate() {
            r.text.push(text);
            r.url.push(Some(b"http://a/"));
            r.alternatives.push([]);
            r.valid.push(true);
            r.scheme.push(Some(b"http"));
            r.wrapper.push(None);
            for column in [&mut r.line, &mut r.column, &mut r.start, &mut r.end, &mut r.quote_depth] {
                column.push(row as i64);
            }
            for column in [&mut r.error, &mut r.canonical, &mut r.wayback, &mut r.host, &mut r.host_unicode] {
                column.push(None);
            }
            r.registered_domain.push(None);
            r.surt.push(None);
            r.count.push(None);
            r.context.push(if row % 3 == 1 { Some(b"a\r\nline") } else { None });
            r.date_header.push(if row == 1 { Some(b"Sat, 7 Dec") } else { Some(b"8 Dec =") });
        }
        batch
    }

    #[test]
    fn what_rows_repeat_is_written_as_each_row_alone_writes_it() {
        let batch = rows_of_messages();
        // (a CSV record ended by '=': the cells that hold one are quoted, but in a row with a context)
        let ended = Style { end: b'=', ..Style::new(Format::Csv) };
        for style in [Style::new(Format::Jsonl), Style::new(Format::Csv), ended] {
            let mut alone = Vec::new();
            for row in 0..batch.len() {
                write(&batch, row..row + 1, &style, &mut alone);
            }
            let together = written(&batch, &style);
            assert_eq!(together, String::from_utf8(alone).unwrap());
            assert!(together.contains("Sat, 7 Dec"));
        }
    }

    #[test]
    fn a_checked_batch_has_its_columns_whole_and_an_unchecked_one_never_panics() {
        let mut whole = batch(b"http://a/", true, None);
        assert_eq!(whole.check(), Ok(()));
        whole.matches.text[0] = 7;
        assert!(whole.check().is_err());
        whole.matches.url = Strings::new();
        assert!(whole.check().is_err());
        for format in [Format::Text, Format::Jsonl, Format::Csv] {
            written(&whole, &Style::new(format));
        }
        // Bytes that start no code point (never from Python) are copied, not a panic.
        let mut bytes = Vec::new();
        escaped(b"\xff\xed\xa0", &mut bytes);
        assert_eq!(bytes, b"\xff\xed\xa0");
    }
}
