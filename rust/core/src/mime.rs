//! One message's bytes -> the texts to scan: `sources/mime.py`'s `read`, natively, for the
//! messages it can read exactly as that reader does (which stays the reference and the oracle).
//!
//! The header block is cut into headers as `mime._entity` cuts it (a line that is no folded one
//! starts a header, each cut at its first colon; else as the stdlib reads a block with a line that
//! is no header); the headers that may hold a URL are
//! picked as `mime.read` picks them. The MIME structure is walked in `Message.walk()` order, parts
//! numbered as it numbers them, with `MAX_DEPTH`; text parts are undone from quoted-printable and
//! base64 as `binascii` undoes them (`transfer`), then decoded from UTF-8, US-ASCII, Latin-1 or
//! Windows-1252, undecodable bytes replaced and counted as Python's codecs replace them.
//!
//! `text/html` parts are read as `sources/page.py` reads them (`html`). Whatever else a message
//! holds (another charset, a page whose relative links a `<base href>` resolves, an RFC 2231
//! parameter, a non-ASCII Content-Type) is not guessed at: `read` says why it did not read the message
//! (`Fallback`), and the caller reads it with the Python reader (one place decides: `read`'s
//! checks). RFC 2047 words in the headers are decoded as `mime._header_decoded` decodes them
//! (`words`), for the same charsets; a word in any other leaves the message to Python too.

mod html;
mod html_tables;
mod transfer;
mod words;

pub use html::{read as page_read, Page};
pub use words::decoded as header_decoded;

use std::borrow::Cow;

use memchr::{memchr, memchr_iter, memmem};

pub use transfer::{base64, quoted_printable, Base64};

/// Multiparts nested deeper than this are not entered (`mime.MAX_DEPTH`).
pub const MAX_DEPTH: usize = 64;

/// Why a message is left to the Python reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fallback {
    /// A Content-Type with a non-ASCII character (Python's Unicode case and blanks).
    NonAsciiType,
    /// An RFC 2231 parameter (`name*=`): `email.utils`' decoding.
    Rfc2231,
    /// A text part whose charset is none of UTF-8, US-ASCII, Latin-1 and Windows-1252.
    Charset,
    /// A `text/html` part that `html::read` leaves to Python (a reference Python's `int()` refuses).
    Html,
    /// D39: a `text/html` part with a `<base href>` and relative links (Python's `urljoin`).
    HtmlBase,
    /// An RFC 2047 word in a charset other than those above (or a name that is no ASCII).
    WordCharset,
}

impl Fallback {
    /// One word for it (the binding gives it to Python, which counts them).
    pub fn as_str(self) -> &'static str {
        match self {
            Fallback::NonAsciiType => "non-ascii-type",
            Fallback::Rfc2231 => "rfc2231",
            Fallback::Charset => "charset",
            Fallback::Html => "html",
            Fallback::HtmlBase => "html-base",
            Fallback::WordCharset => "word-charset",
        }
    }
}

/// A defect of the message, as `mime._defect` adds it: its kind, the part it is about, what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defect {
    pub kind: &'static str,
    pub part: String,
    pub detail: String,
}

/// A message read: what `MessageText` is made of.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Message {
    /// The headers to scan, in order: name, and value as `mime.read` keeps it (blanks after the
    /// colon and carriage returns at its end taken off, RFC 2047 words decoded; a header left with
    /// no colon and no "www." once decoded is dropped).
    pub headers: Vec<(String, String)>,
    /// Message-ID, Date and Newsgroups as `_Entity.get` gives them, RFC 2047 words decoded.
    pub message_id: Option<String>,
    pub date: Option<String>,
    pub newsgroups: Option<String>,
    /// The text parts decoded, each with its name ("2 text/plain").
    pub parts: Vec<(String, String)>,
    /// D31: the parts (indices into `parts`) that are format=flowed, with whether `DelSp=yes`.
    pub flowed: Vec<(usize, bool)>,
    pub defects: Vec<Defect>,
}

/// The message `data` read, or why the Python reader must read it; `skipped`: the names of the
/// headers not scanned, lower case (`mime.TRACE_HEADERS`, stated there once).
pub fn read(data: &[u8], skipped: &[String]) -> Result<Message, Fallback> {
    let message = Entity::new(data, 0, data.len())?;
    let mut found = Message::default();
    for (name, value) in message.headers() {
        // The trace headers first: they are most of a big header block's bytes.
        if skipped.iter().any(|trace| name.eq_ignore_ascii_case(trace)) {
            continue;
        }
        // No colon, no URL, but for an encoded word and a "www." host with no scheme (mime.read).
        let bytes = value.as_bytes();
        let kept = memchr(b':', bytes).is_some() || contains_word(bytes) || contains_www(value);
        if !kept {
            continue;
        }
        let (value, problem) = words::decoded(trimmed(value)).ok_or(Fallback::WordCharset)?;
        if let Some(problem) = problem {
            defect(&mut found, "malformed", name, problem); // still scanned, as decoded (or written)
        }
        if memchr(b':', value.as_bytes()).is_some() || contains_www(&value) {
            found.headers.push((name.to_owned(), value.into_owned()));
        }
    }
    // `mime._header_text`: the words decoded, any problem left unsaid.
    let text = |name: &str| {
        message.get(name).map(|value| {
            words::decoded(value).map(|(text, _)| text.into_owned()).ok_or(Fallback::WordCharset)
        })
    };
    found.message_id = text("message-id").transpose()?;
    found.date = text("date").transpose()?;
    found.newsgroups = text("newsgroups").transpose()?;
    let mut counter = 0;
    walk(&message, &mut found, &mut counter, "text/plain", 0)?;
    Ok(found)
}

/// `"www." in value.lower()`: no character but `W` lowers to `w`, none but `.` to `.`.
fn contains_www(value: &str) -> bool {
    let bytes = value.as_bytes();
    memchr::memchr2_iter(b'w', b'W', bytes)
        .any(|at| bytes[at..].get(..4).is_some_and(|four| four.eq_ignore_ascii_case(b"www.")))
}

/// `"=?" in value`: each `=` looked at (a `memmem` searcher is made a call, dearer than a short
/// header value's search).
fn contains_word(bytes: &[u8]) -> bool {
    memchr_iter(b'=', bytes).any(|at| bytes.get(at + 1) == Some(&b'?'))
}

/// `value.lstrip(" \t").rstrip("\r")`, as `_Entity.get` and `read` take a value.
fn trimmed(value: &str) -> &str {
    value.trim_start_matches([' ', '\t']).trim_end_matches('\r')
}

/// `bytes.decode("utf-8", "replace")`: checked whole first, as most text is valid (the lossy
/// decoder steps through valid text several times slower).
fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Python's `str.isspace`: Unicode's White_Space and the four information separators.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// The headers `read` and `walk` ask of an entity (`Entity::get`), lower case.
const PICKED: [&str; 5] = ["content-type", "content-transfer-encoding", "message-id", "date", "newsgroups"];

/// Notes header `index`, called `name`, in `picked` when it is the first of a name of `PICKED`.
fn pick(picked: &mut [Option<usize>; PICKED.len()], name: &[u8], index: usize) {
    for (known, slot) in PICKED.iter().zip(picked.iter_mut()) {
        if slot.is_none() && name.eq_ignore_ascii_case(known.as_bytes()) {
            *slot = Some(index);
        }
    }
}

/// A message or a MIME part: its header block decoded, its headers as ranges of it, and where its
/// body lies in the message's bytes.
struct Entity<'a> {
    data: &'a [u8],
    head: Cow<'a, str>,
    /// Each header's name and value (from after its colon) in `head`.
    ranges: Vec<((usize, usize), (usize, usize))>,
    /// The first header of each name of `PICKED` (an index into `ranges`), noted as the block is
    /// cut: one pass, not one a name asked.
    picked: [Option<usize>; PICKED.len()],
    start: usize,
    end: usize,
    /// The header block held a line that is no header (the stdlib's defect of it).
    missing_separator: bool,
}

impl<'a> Entity<'a> {
    /// `mime._entity` of `data[start..end]`: its common case (every line of the header block a
    /// header, or a folded line of one), else the stdlib's way (`Entity::stdlib`).
    fn new(data: &'a [u8], start: usize, end: usize) -> Result<Self, Fallback> {
        let within = &data[start..end];
        if within.starts_with(b"\n") || within.starts_with(b"\r\n") {
            let body = start + memchr(b'\n', within).map_or(0, |at| at + 1);
            let head = Cow::Borrowed("");
            let (ranges, picked) = (Vec::new(), [None; PICKED.len()]);
            return Ok(Entity { data, head, ranges, picked, start: body, end, missing_separator: false });
        }
        let (head_end, body_start) = blank_line(data, start, end).unwrap_or((end, end));
        let head = lossy(&data[start..head_end]);
        // Room for a header a 32 bytes up front (blinux-list's are 40-60 long, folded lines
        // included): not grown five times a message.
        let mut ranges = Vec::with_capacity(head.len() / 32 + 4);
        let mut picked = [None; PICKED.len()];
        let bytes = head.as_bytes();
        let mut chunk = 0;
        while chunk < bytes.len() {
            // A header ends at a line feed that no blank follows (mime._HEADER_START).
            let mut stop = bytes.len();
            for at in memchr_iter(b'\n', &bytes[chunk..]) {
                let at = chunk + at;
                if !matches!(bytes.get(at + 1), Some(b' ' | b'\t')) {
                    stop = at;
                    break;
                }
            }
            let colon = memchr(b':', &bytes[chunk..stop]).map(|n| chunk + n);
            // RFC 5322 2.2: a name is printable ASCII but the space (and the colon).
            match colon {
                Some(colon)
                    if colon > chunk && bytes[chunk..colon].iter().all(|b| (b'!'..=b'~').contains(b)) =>
                {
                    pick(&mut picked, &bytes[chunk..colon], ranges.len());
                    ranges.push(((chunk, colon), (colon + 1, stop)));
                }
                _ => return Ok(Entity::stdlib(data, start, head_end, end)),
            }
            chunk = stop + 1;
        }
        Ok(Entity { data, head, ranges, picked, start: body_start, end, missing_separator: false })
    }

    /// `mime._entity`'s other case, as the stdlib reads it: the headers end at the first line of
    /// the header block that is none (`mime._HEADER_BYTES`: a name, blanks, a colon, blanks, a
    /// value with its folded lines); that line and the rest are body. Each value decoded alone.
    fn stdlib(data: &'a [u8], start: usize, head_end: usize, end: usize) -> Self {
        let is_name = |b: &u8| matches!(b, b'!'..=b'9' | b';'..=b'~');
        let blanks = |mut at: usize| {
            while at < head_end && matches!(data[at], b' ' | b'\t') {
                at += 1;
            }
            at
        };
        let mut head = String::new();
        let mut ranges = Vec::new();
        let mut picked = [None; PICKED.len()];
        let mut at = start;
        loop {
            let name_end = at + data[at..head_end].iter().take_while(|b| is_name(b)).count();
            let colon = blanks(name_end);
            if name_end == at || colon >= head_end || data[colon] != b':' {
                break;
            }
            let value_start = blanks(colon + 1);
            // The value's lines: up to a line feed that no blank follows, or the block's end.
            let mut stop = value_start;
            loop {
                stop = memchr(b'\n', &data[stop..head_end]).map_or(head_end, |n| stop + n);
                if stop + 1 < head_end && matches!(data[stop + 1], b' ' | b'\t') {
                    stop += 1;
                } else {
                    break;
                }
            }
            let name = (head.len(), head.len() + name_end - at);
            head.push_str(&lossy(&data[at..name_end])); // (ASCII)
            let value_at = head.len();
            head.push_str(&lossy(&data[value_start..stop]));
            pick(&mut picked, &data[at..name_end], ranges.len());
            ranges.push((name, (value_at, head.len())));
            at = (stop + 1).min(head_end);
        }
        Entity { data, head: Cow::Owned(head), ranges, picked, start: at, end, missing_separator: true }
    }

    fn headers(&self) -> impl Iterator<Item = (&str, &str)> {
        self.ranges.iter().map(|&((ns, ne), (vs, ve))| (&self.head[ns..ne], &self.head[vs..ve]))
    }

    /// The first header called `name` (lower case), as `_Entity.get` gives it.
    fn get(&self, name: &str) -> Option<&str> {
        let Some(k) = PICKED.iter().position(|&known| known == name) else {
            return self
                .headers()
                .find(|(key, _)| key.eq_ignore_ascii_case(name))
                .map(|(_, value)| trimmed(value));
        };
        let &(_, (vs, ve)) = self.ranges.get(self.picked.get(k).copied().flatten()?)?;
        Some(trimmed(&self.head[vs..ve]))
    }

    fn body(&self) -> &'a [u8] {
        &self.data[self.start..self.end]
    }
}

/// `mime._blank_line`: the first "\n\n", or "\n\r\n" that no "\n" follows, from the line feed
/// before it to its end (searches bounded by `end`). Two `memmem` searches, not one stop a line:
/// a header block is mostly short lines (blinux-list's: 110 a message).
fn blank_line(data: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let within = &data[start..end];
    let lf_lf = memmem::find(within, b"\n\n");
    // A "\n\r\n" before it ends there at the latest ("\n\r\n\n" holds a "\n\n" at its third byte).
    let crlf_end = lf_lf.map_or(within.len(), |at| (at + 2).min(within.len()));
    let lf_crlf = memmem::find(&within[..crlf_end], b"\n\r\n");
    match (lf_crlf, lf_lf) {
        // Followed by "\n", it is not one; the "\n\n" it then holds is the first.
        (Some(at), _) if within.get(at + 3) != Some(&b'\n') => Some((start + at + 1, start + at + 3)),
        (_, Some(at)) => Some((start + at + 1, start + at + 2)),
        _ => None,
    }
}

/// The charsets read natively (`mime._read_type` has put US-ASCII as UTF-8 already): the issue's
/// three, and Windows-1252, which most of the corpora's other parts are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Charset {
    Utf8,
    Latin1,
    Windows1252,
}

/// A few of Python's names for its codecs of these, as a Content-Type writes them, lower case.
fn charset(name: &str) -> Option<Charset> {
    match name {
        "utf-8" | "utf8" | "utf_8" => Some(Charset::Utf8),
        "iso-8859-1" | "iso8859-1" | "iso_8859-1" | "latin-1" | "latin1" => Some(Charset::Latin1),
        "windows-1252" | "cp1252" => Some(Charset::Windows1252),
        _ => None,
    }
}

/// Windows-1252's 0x80 to 0x9F (Latin-1 elsewhere), as Python's cp1252 codec maps them: the five
/// bytes it leaves undefined are U+FFFD, each one replaced sequence.
const WINDOWS_1252: [char; 32] = [
    '\u{20ac}', '\u{fffd}', '\u{201a}', '\u{0192}', '\u{201e}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02c6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{fffd}', '\u{017d}', '\u{fffd}',
    '\u{fffd}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02dc}', '\u{2122}', '\u{0161}', '\u{203a}', '\u{0153}', '\u{fffd}', '\u{017e}', '\u{0178}',
];

/// A Content-Type value read (`mime._Type`).
struct Type<'a> {
    kind: String,
    /// Each parameter's name as written and its value unquoted, in order: a name met again
    /// stands for the last one (the Python's dict), looked up in any case (`Type::param`).
    params: Vec<(&'a str, Cow<'a, str>)>,
    /// Lower case, US-ASCII read as UTF-8 (its name kept: it is the one reported).
    charset: String,
    /// D31: None for all but flowed text/plain, else whether `DelSp=yes`.
    delsp: Option<bool>,
}

impl Type<'_> {
    /// The parameter called `name` (lower case), the last if several are.
    fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().rev().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| &**value)
    }
}

/// Python's `str.strip()` of an ASCII value.
fn py_strip(value: &str) -> &str {
    value.trim_matches(is_py_space)
}

/// `mime._PARAMETER.findall(";" + rest)`, stepped through by hand (a regex with groups cost more
/// than the rest of a small message): each `;`, blanks, a name (no blank, `=` or `;`), blanks,
/// `=`, blanks, and a value: a quoted string (quoted pairs kept, its closing quote optional) or
/// anything up to the next `;`. No step of it can be taken back and matched otherwise, so the
/// first way through is the regex's. Name and value as written (the caller strips and unquotes).
fn parameters(rest: &str) -> Vec<(&str, &str)> {
    let bytes = rest.as_bytes();
    let blanks = |mut at: usize| {
        while at < bytes.len() && is_py_space(char::from(bytes[at])) {
            at += 1;
        }
        at
    };
    let mut found = Vec::new();
    // The ";" the Python puts before `rest` starts the first attempt.
    let mut semicolon = Some(0);
    while let Some(start) = semicolon {
        let name_start = blanks(start);
        let mut at = name_start;
        while at < bytes.len() && !is_py_space(char::from(bytes[at])) && !matches!(bytes[at], b'=' | b';') {
            at += 1;
        }
        let name_end = at;
        at = blanks(at);
        if name_end == name_start || bytes.get(at) != Some(&b'=') {
            semicolon = memchr(b';', &bytes[start..]).map(|n| start + n + 1);
            continue;
        }
        let value_start = blanks(at + 1);
        at = value_start;
        if bytes.get(at) == Some(&b'"') {
            at += 1;
            loop {
                match bytes.get(at) {
                    Some(b'\\') if bytes.get(at + 1).is_some_and(|&b| b != b'\n') => at += 2,
                    Some(&b) if b != b'"' && b != b'\\' => at += 1,
                    _ => break,
                }
            }
            if bytes.get(at) == Some(&b'"') {
                at += 1;
            }
        } else {
            at = memchr(b';', &bytes[at..]).map_or(bytes.len(), |n| at + n);
        }
        found.push((&rest[name_start..name_end], &rest[value_start..at]));
        semicolon = memchr(b';', &bytes[at..]).map(|n| at + n + 1);
    }
    found
}

/// `mime._read_type`, for an ASCII value with no RFC 2231 parameter.
fn read_type(value: &str) -> Result<Type<'_>, Fallback> {
    if !value.is_ascii() {
        return Err(Fallback::NonAsciiType);
    }
    let (written, rest) = value.split_once(';').unwrap_or((value, ""));
    // Its blanks taken out and lowered, a byte at a time (ASCII: a byte is a character).
    let mut kind = String::with_capacity(written.len());
    kind.extend(written.bytes().map(char::from).filter(|&c| !is_py_space(c)).map(|c| c.to_ascii_lowercase()));
    if kind.bytes().filter(|&b| b == b'/').count() != 1 {
        kind = "text/plain".to_owned(); // as the stdlib (RFC 2045: an invalid type is text/plain)
    }
    let mut params = Vec::new();
    for (name, raw) in parameters(rest) {
        if name.contains('*') {
            return Err(Fallback::Rfc2231);
        }
        params.push((name, unquote(py_strip(raw))));
    }
    let mut content = Type { kind, params, charset: String::new(), delsp: None };
    let mut charset = content.param("charset").map_or("utf-8", py_strip).to_ascii_lowercase();
    if charset.is_empty() || charset == "us-ascii" || charset == "ascii" {
        charset = "utf-8".to_owned(); // undeclared 8-bit text is most often UTF-8
    }
    content.charset = charset;
    content.delsp = (content.kind == "text/plain").then(|| flowed(&content)).flatten();
    Ok(content)
}

/// `flowed.is_flowed`: None when not flowed, else whether `DelSp=yes` (D31).
fn flowed(content: &Type<'_>) -> Option<bool> {
    let said =
        |name: &str, word: &str| content.param(name).is_some_and(|v| py_strip(v).eq_ignore_ascii_case(word));
    said("format", "flowed").then(|| said("delsp", "yes"))
}

/// `mime._unquote` (borrowed where no quoted pair changes it).
fn unquote(raw: &str) -> Cow<'_, str> {
    let Some(inner) = raw.strip_prefix('"') else {
        return Cow::Borrowed(raw);
    };
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    if memchr(b'\\', inner.as_bytes()).is_none() {
        return Cow::Borrowed(inner);
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        // A quoted pair: `\\(.)`, where `.` is no line feed.
        if c == '\\' {
            match chars.clone().next() {
                Some(next) if next != '\n' => {
                    out.push(next);
                    chars.next();
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn defect(found: &mut Message, kind: &'static str, part: &str, detail: impl Into<String>) {
    found.defects.push(Defect { kind, part: part.to_owned(), detail: detail.into() });
}

/// `mime._walk`: `entity`'s text and the parts inside it, numbered as `Message.walk()` numbers them.
fn walk(
    entity: &Entity<'_>,
    found: &mut Message,
    counter: &mut usize,
    default: &str,
    depth: usize,
) -> Result<(), Fallback> {
    let index = *counter;
    *counter += 1;
    let content = read_type(entity.get("content-type").unwrap_or(default))?;
    let kind = content.kind.as_str();
    let part = part_name(index, kind);
    if entity.missing_separator {
        defect(found, "malformed", &part, "MissingHeaderBodySeparatorDefect");
    }
    if kind.starts_with("multipart/") {
        if depth >= MAX_DEPTH {
            let detail = format!("parts nested deeper than {MAX_DEPTH} levels; not read");
            defect(found, "malformed", &part, detail);
            return Ok(());
        }
        let boundary = content.param("boundary").unwrap_or("");
        if boundary.is_empty() {
            defect(found, "malformed", &part, "NoBoundaryInMultipartDefect");
            return text_part(entity, found, part, &content);
        }
        let inner = if kind == "multipart/digest" { "message/rfc822" } else { "text/plain" };
        let (parts, problem) = split(entity, boundary.as_bytes());
        if let Some(problem) = problem {
            defect(found, "malformed", &part, problem);
            if parts.is_empty() {
                text_part(entity, found, part, &content)?; // as the stdlib: the body as text
            }
        }
        for (start, end) in parts {
            walk(&Entity::new(entity.data, start, end)?, found, counter, inner, depth + 1)?;
        }
    } else if kind == "message/rfc822" {
        if depth < MAX_DEPTH {
            let inner = Entity::new(entity.data, entity.start, entity.end)?;
            walk(&inner, found, counter, "text/plain", depth + 1)?;
        }
    } else if kind.starts_with("text/") {
        text_part(entity, found, part, &content)?;
    }
    Ok(())
}

/// `f"{index} {kind}"`, a part's name (`format!` costs more than the rest of a small part's walk).
fn part_name(index: usize, kind: &str) -> String {
    let mut digits = [0_u8; 20];
    let (mut at, mut left) = (digits.len(), index);
    loop {
        at -= 1;
        digits[at] = b'0' + (left % 10) as u8;
        left /= 10;
        if left == 0 {
            break;
        }
    }
    let mut name = String::with_capacity(digits.len() - at + 1 + kind.len());
    name.extend(digits[at..].iter().map(|&digit| char::from(digit)));
    name.push(' ');
    name.push_str(kind);
    name
}

/// `mime._split`: where the parts of a multipart body lie (start, end), and what was wrong with its
/// boundaries (RFC 2046 5.1.1: the line break before a boundary line belongs to the boundary).
fn split(entity: &Entity<'_>, boundary: &[u8]) -> (Vec<(usize, usize)>, Option<&'static str>) {
    let (data, first, last) = (entity.data, entity.start, entity.end);
    let mut delimiter = b"--".to_vec();
    delimiter.extend_from_slice(boundary);
    let mut parts = Vec::new();
    let mut start: Option<usize> = None;
    let finder = memmem::Finder::new(&delimiter);
    let mut from = first;
    while let Some(found) = finder.find(&data[from..last]) {
        let at = from + found;
        from = at + 1;
        if at != first && data[at - 1] != b'\n' {
            continue;
        }
        let mut end = at + delimiter.len();
        let closing = data[end.min(last)..last].starts_with(b"--");
        if closing {
            end += 2;
        }
        while end < last && matches!(data[end], b' ' | b'\t') {
            end += 1;
        }
        if !(end >= last || data[end] == b'\n' || data[end..last].starts_with(b"\r\n")) {
            continue;
        }
        let after = memchr(b'\n', &data[end.min(last)..last]).map_or(last, |n| end + n + 1).min(last);
        if let Some(start) = start {
            let mut stop = at;
            if stop >= first + 2 && &data[stop - 2..stop] == b"\r\n" {
                stop -= 2;
            } else if stop > first && data[stop - 1] == b'\n' {
                stop -= 1;
            }
            parts.push((start, start.max(stop)));
        }
        if closing {
            return (parts, None);
        }
        start = Some(after);
    }
    match start {
        None => (Vec::new(), Some("StartBoundaryNotFoundDefect")),
        Some(start) => {
            parts.push((start, last));
            (parts, Some("CloseBoundaryNotFoundDefect"))
        }
    }
}

/// `mime._text_part`: the part undone from its transfer encoding and decoded from its charset.
fn text_part(
    entity: &Entity<'_>,
    found: &mut Message,
    part: String,
    content: &Type<'_>,
) -> Result<(), Fallback> {
    let charset = charset(&content.charset).ok_or(Fallback::Charset)?;
    let encoding = py_strip(entity.get("content-transfer-encoding").unwrap_or(""));
    let body = entity.body();
    let payload: Cow<'_, [u8]> = if encoding.eq_ignore_ascii_case("quoted-printable") {
        Cow::Owned(quoted_printable(body))
    } else if encoding.eq_ignore_ascii_case("base64") {
        let (decoded, problem) = match base64(body) {
            Base64::Whole(decoded) => (decoded, None),
            Base64::Unpadded(decoded) => (decoded, Some("InvalidBase64PaddingDefect")),
            Base64::BadLength => (Vec::new(), Some("InvalidBase64LengthDefect")),
        };
        if let Some(problem) = problem {
            defect(found, "malformed", &part, problem);
        }
        Cow::Owned(decoded)
    } else {
        Cow::Borrowed(body)
    };
    // U+FFFD the text holds that the payload did not (mime._text_part counts them so): none where
    // the payload was valid UTF-8, nor in Latin-1 (every byte a character).
    let replaced = |text: &str, payload: &[u8]| {
        text.matches('\u{fffd}').count().saturating_sub(memmem::find_iter(payload, "\u{fffd}").count())
    };
    let (text, replaced) = match (charset, payload) {
        // A decoded payload that is valid UTF-8 becomes the text as it is, not copied.
        (Charset::Utf8, Cow::Owned(decoded)) => match String::from_utf8(decoded) {
            Ok(text) => (text, 0),
            Err(error) => {
                let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
                let count = replaced(&text, error.as_bytes());
                (text, count)
            }
        },
        (Charset::Utf8, Cow::Borrowed(body)) => match lossy(body) {
            Cow::Borrowed(text) => (text.to_owned(), 0),
            Cow::Owned(text) => {
                let count = replaced(&text, body);
                (text, count)
            }
        },
        (Charset::Latin1, payload) => (payload.iter().map(|&b| char::from(b)).collect(), 0),
        (Charset::Windows1252, payload) => {
            let text: String = payload
                .iter()
                .map(|&b| {
                    if (0x80..0xa0).contains(&b) {
                        WINDOWS_1252[usize::from(b - 0x80)]
                    } else {
                        char::from(b)
                    }
                })
                .collect();
            let count = replaced(&text, &payload);
            (text, count)
        }
    };
    if replaced > 0 {
        let sequences = if replaced == 1 { "sequence" } else { "sequences" };
        let detail = format!("{replaced} undecodable byte {sequences} ({})", content.charset);
        defect(found, "undecodable-bytes", &part, detail);
    }
    let text = if content.kind == "text/html" {
        let page = html::read(&text).ok_or(Fallback::Html)?;
        // D39: relative links against a <base href> are resolved by Python's urljoin.
        if page.base.is_some() && page.links.iter().any(|link| html::relative(link)) {
            return Err(Fallback::HtmlBase);
        }
        page.text
    } else {
        text
    };
    if let Some(delsp) = content.delsp {
        found.flowed.push((found.parts.len(), delsp)); // D31: unflowed before scanning
    }
    found.parts.push((part, text));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skipped() -> Vec<String> {
        vec!["received".to_owned()]
    }

    fn read_plain(data: &[u8]) -> Result<Message, Fallback> {
        read(data, &skipped())
    }

    fn names(message: &Message) -> Vec<&str> {
        message.parts.iter().map(|(name, _)| name.as_str()).collect()
    }

    #[test]
    fn headers_are_picked_as_the_python_reader_picks_them() {
        let data = b"Received: from a (http://a.example/)\nSubject: www.x\nX-A: plain\nList-Post: <mailto:l@a>\r\n\nbody\n";
        let found = read(data, &skipped()).unwrap();
        assert_eq!(
            found.headers,
            vec![("Subject".into(), "www.x".into()), ("List-Post".into(), "<mailto:l@a>".into())]
        );
        assert_eq!(found.parts, vec![("0 text/plain".into(), "body\n".into())]);
    }

    #[test]
    fn multiparts_are_numbered_in_walk_order() {
        let data = b"Content-Type: multipart/mixed; boundary=\"b\"\n\npre\n--b\nContent-Type: text/plain; format=flowed\n\none \n--b\nContent-Type: image/png\n\nxx\n--b\n\ntwo\n--b--\n";
        let found = read(data, &skipped()).unwrap();
        assert_eq!(names(&found), ["1 text/plain", "3 text/plain"]);
        assert_eq!(found.parts[0].1, "one ");
        assert_eq!(found.flowed, vec![(0, false)]);
        assert!(found.defects.is_empty());
    }

    #[test]
    fn what_is_not_read_natively_says_why() {
        let page = read_plain(b"Content-Type: text/html\n\n<p>a &amp; <a href=x>b").unwrap();
        assert_eq!(page.parts, [("0 text/html".to_owned(), "a & \n\nx\n\nb".to_owned())]);
        let based = b"Content-Type: text/html\n\n<base href=http://a/><a href=x>";
        assert_eq!(read_plain(based), Err(Fallback::HtmlBase));
        assert!(read_plain(b"Content-Type: text/html\n\n<base href=http://a/><a href=http://b/>").is_ok());
        assert_eq!(read_plain(b"Content-Type: text/plain; charset=koi8-r\n\nx"), Err(Fallback::Charset));
        assert_eq!(read_plain(b"Content-Type: text/plain; title*=us-ascii''x\n\nx"), Err(Fallback::Rfc2231));
        let odd = read_plain(b"Subject : a:\n b\nno header\n\nx").unwrap();
        assert_eq!(odd.headers, [("Subject".to_owned(), "a:\n b".to_owned())]);
        assert_eq!(odd.parts, [("0 text/plain".to_owned(), "no header\n\nx".to_owned())]);
        assert_eq!(odd.defects[0].detail, "MissingHeaderBodySeparatorDefect");
        assert_eq!(
            read_plain(b"Content-Type: text/plain; charset=latin-1\n\ncaf\xe9").unwrap().parts[0].1,
            "caf\u{e9}"
        );
    }

    /// `blank_line` as it was written first, a line feed at a time: the oracle of its searches.
    fn blank_line_by_lines(data: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
        let within = &data[..end];
        for at in memchr_iter(b'\n', &within[start..]) {
            let at = start + at;
            match (within.get(at + 1), within.get(at + 2), within.get(at + 3)) {
                (Some(b'\n'), _, _) => return Some((at + 1, at + 2)),
                (Some(b'\r'), Some(b'\n'), next) if next != Some(&b'\n') => return Some((at + 1, at + 3)),
                _ => {}
            }
        }
        None
    }

    #[test]
    fn blank_lines_are_found_as_line_by_line() {
        // Every text of up to 7 of "\n", "\r" and "a", from every start to every end.
        for len in 0..=7u32 {
            for mut code in 0..3usize.pow(len) {
                let mut data = Vec::new();
                for _ in 0..len {
                    data.push([b'\n', b'\r', b'a'][code % 3]);
                    code /= 3;
                }
                for end in 0..=data.len() {
                    for start in 0..=end {
                        let (found, want) =
                            (blank_line(&data, start, end), blank_line_by_lines(&data, start, end));
                        assert_eq!(found, want, "{data:?} {start} {end}");
                    }
                }
            }
        }
    }

    #[test]
    fn part_names_are_formatted_as_python_formats_them() {
        for index in [0, 7, 9, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(part_name(index, "text/plain"), format!("{index} text/plain"));
        }
    }

    #[test]
    fn parameters_are_found_as_the_pattern_finds_them() {
        let found = parameters(" a=\"x\\\"y\"; b = c ;;d=e; =f; g; h=\"open");
        assert_eq!(found, [("a", "\"x\\\"y\""), ("b", "c "), ("d", "e"), ("h", "\"open")]);
    }

    #[test]
    fn undecodable_bytes_are_counted() {
        let found =
            read_plain(b"Content-Type: text/plain; charset=\"UTF8\"\n\na\xff\xfeb\xef\xbf\xbd").unwrap();
        assert_eq!(
            found.defects,
            vec![Defect {
                kind: "undecodable-bytes",
                part: "0 text/plain".into(),
                detail: "2 undecodable byte sequences (utf8)".into()
            }]
        );
    }

    #[test]
    fn nesting_stops_at_the_budget() {
        let mut data = Vec::new();
        for level in 0..MAX_DEPTH + 3 {
            data.extend_from_slice(
                format!("Content-Type: multipart/mixed; boundary=b{level}\n\n--b{level}\n").as_bytes(),
            );
        }
        let found = read(&data, &skipped()).unwrap();
        let deep = found.defects.iter().find(|d| d.detail.contains("deeper")).unwrap();
        assert_eq!(deep.part, format!("{MAX_DEPTH} multipart/mixed"));
    }
}
