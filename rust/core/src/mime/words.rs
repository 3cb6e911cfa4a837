//! RFC 2047 encoded words in a header value, decoded as `mime._header_decoded` decodes them: the
//! stdlib's `make_header(decode_header(value))` (`_header_words` is its linear-time copy), quirks
//! and all, for the charsets the core decodes itself; the caller hands any other to Python.
//!
//! The steps, each as the stdlib takes it: the value's lines cut as `str.splitlines` cuts them;
//! each line cut into plain text and words (`=?` charset `?` q or b `?` text `?=`); blank text
//! between two words dropped (RFC 2047 6.2); every piece made bytes (plain text and Q words through
//! `raw-unicode-escape`, B words through `binascii.a2b_base64` with missing padding added); runs of
//! one charset joined; then `Header`'s `append` (strict decoding), `_normalize` and `__str__` (a
//! space between encoded and plain text). When a run does not decode strictly, each run is decoded
//! alone with its bytes replaced, as `_run_text` does, and the value says so.

use std::borrow::Cow;

use super::is_py_space;
use super::transfer::{base64, Base64};

/// A B word whose base64 does not decode (the stdlib's `HeaderParseError`): the value as written.
pub const UNPARSED: &str = "an encoded word cannot be decoded (HeaderParseError)";
/// A run whose bytes its charset refuses (`make_header`'s `UnicodeDecodeError`).
pub const UNDECODED: &str = "an encoded word cannot be decoded (UnicodeDecodeError); read as UTF-8";

/// The codecs of the charsets decoded here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Codec {
    Ascii,
    Utf8,
    Latin1,
    Windows1252,
}

/// A word's charset (lower case) decoded here: its codec, and the name `email.charset.Charset`
/// gives it after its aliases (two runs of one such name are one chunk of a `Header`); None for
/// any other, which the caller leaves to Python's codecs.
fn native(name: &str) -> Option<(Codec, &str)> {
    Some(match name {
        "us-ascii" | "ascii" => (Codec::Ascii, "us-ascii"),
        "utf-8" | "utf8" | "utf_8" => (Codec::Utf8, name),
        "latin-1" | "latin_1" => (Codec::Latin1, "iso-8859-1"),
        "iso-8859-1" | "iso8859-1" | "iso_8859-1" | "latin1" => (Codec::Latin1, name),
        "windows-1252" | "cp1252" => (Codec::Windows1252, name),
        _ => return None,
    })
}

/// `bytes.decode(codec)`: None where it raises.
fn strict(codec: Codec, bytes: &[u8]) -> Option<String> {
    match codec {
        Codec::Ascii => bytes.is_ascii().then(|| bytes.iter().map(|&b| char::from(b)).collect()),
        Codec::Utf8 => std::str::from_utf8(bytes).ok().map(str::to_owned),
        Codec::Latin1 => Some(bytes.iter().map(|&b| char::from(b)).collect()),
        Codec::Windows1252 => bytes.iter().map(|&b| windows_1252(b)).collect(),
    }
}

/// `bytes.decode(codec, "replace")`.
fn replaced(codec: Codec, bytes: &[u8]) -> String {
    match codec {
        Codec::Ascii => {
            bytes.iter().map(|&b| if b.is_ascii() { char::from(b) } else { '\u{fffd}' }).collect()
        }
        Codec::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
        Codec::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
        Codec::Windows1252 => bytes.iter().map(|&b| windows_1252(b).unwrap_or('\u{fffd}')).collect(),
    }
}

/// Python's cp1252 codec for one byte: None for the five bytes it leaves undefined.
fn windows_1252(byte: u8) -> Option<char> {
    if (0x80..0xa0).contains(&byte) {
        Some(super::WINDOWS_1252[usize::from(byte - 0x80)]).filter(|&c| c != '\u{fffd}')
    } else {
        Some(char::from(byte))
    }
}

/// `value` with its encoded words decoded, and the problem `_header_decoded` reports with it (the
/// header is still scanned); None when a word's charset is not one decoded here. A value with no
/// word is given back as it is, not copied (most are).
pub fn decoded(value: &str) -> Option<(Cow<'_, str>, Option<&'static str>)> {
    if !super::contains_word(value.as_bytes()) || !has_encoded_word(value) {
        return Some((Cow::Borrowed(value), None)); // as str(Header) gives a plain str back
    }
    let words = words(value);
    // RFC 2047 6.2: blank text between two encoded words is dropped (as the stdlib tests it: any
    // piece, encoded or not, all of whose characters are blanks).
    let last = words.len().saturating_sub(1);
    let kept = words.iter().enumerate().filter(|&(n, word)| {
        let between = 0 < n && n < last && words[n + 1].encoding.is_some() && words[n - 1].encoding.is_some();
        !(between && !word.text.is_empty() && word.text.chars().all(is_py_space))
    });
    let mut pieces: Vec<(Vec<u8>, Option<&str>)> = Vec::new();
    for (_, word) in kept {
        let bytes = match word.encoding {
            None => raw_unicode_escape(word.text),
            Some(b'q') => q_decoded(word.text),
            Some(_) => {
                // Postel's law: missing padding added, counted in characters (as the stdlib).
                let padding = (4 - word.text.chars().count() % 4) % 4;
                let padded = raw_unicode_escape(&format!("{}{}", word.text, &"==="[..padding]));
                match base64(&padded) {
                    Base64::Whole(bytes) => bytes,
                    _ => return Some((Cow::Borrowed(value), Some(UNPARSED))),
                }
            }
        };
        pieces.push((bytes, word.charset.as_deref()));
    }
    if pieces.iter().any(|(_, charset)| charset.is_some_and(|name| native(name).is_none())) {
        return None;
    }
    // Runs of one charset joined: plain text with a space, words with nothing.
    let mut runs: Vec<(Vec<u8>, Option<&str>)> = Vec::new();
    for (bytes, charset) in pieces {
        match runs.last_mut() {
            Some((run, last)) if *last == charset => {
                if charset.is_none() {
                    run.push(b' ');
                }
                run.extend_from_slice(&bytes);
            }
            _ => runs.push((bytes, charset)),
        }
    }
    if runs.is_empty() {
        runs.push((Vec::new(), None));
    }
    Some(match header_text(&runs) {
        Some(text) => (Cow::Owned(text), None),
        None => (Cow::Owned(run_texts(&runs)), Some(UNDECODED)),
    })
}

/// A run's codec and `Charset` name (plain text is US-ASCII, the `Header`'s own charset).
fn codec(charset: Option<&str>) -> (Codec, &str) {
    charset.and_then(native).unwrap_or((Codec::Ascii, "us-ascii"))
}

/// `str(make_header(runs))`, or None where a run does not decode strictly.
fn header_text(runs: &[(Vec<u8>, Option<&str>)]) -> Option<String> {
    // Header.append, then _normalize: chunks of one charset name joined with a space.
    let mut chunks: Vec<(String, &str)> = Vec::new();
    for (bytes, charset) in runs {
        let (codec, name) = codec(*charset);
        let text = strict(codec, bytes)?;
        match chunks.last_mut() {
            Some((chunk, last)) if *last == name => {
                chunk.push(' ');
                chunk.push_str(&text);
            }
            _ => chunks.push((text, name)),
        }
    }
    // Header.__str__: a space between an encoded chunk and a US-ASCII one, unless that one
    // starts (or the one before ends) with a character that is no RFC 822 ctext.
    let nonctext = |c: char| is_py_space(c) || matches!(c, '(' | ')' | '\\');
    let plain = |name: Option<&str>| name.map_or(true, |name| name == "us-ascii");
    let mut out = String::new();
    let mut last: Option<&str> = None;
    let mut last_space = false;
    for (n, (text, name)) in chunks.iter().enumerate() {
        let mut next = Some(*name);
        if n > 0 {
            let has_space = text.chars().next().is_some_and(nonctext);
            if !plain(last) {
                if plain(next) && !has_space {
                    out.push(' ');
                    next = None;
                }
            } else if !plain(next) && !last_space {
                out.push(' ');
            }
        }
        last_space = text.chars().next_back().is_some_and(nonctext);
        last = next;
        out.push_str(text);
    }
    Some(out)
}

/// `_header_decoded`'s way when `make_header` fails: each run decoded alone (plain text as UTF-8),
/// bytes replaced, a space put between encoded and plain text where no blank is.
fn run_texts(runs: &[(Vec<u8>, Option<&str>)]) -> String {
    let mut out = String::new();
    let mut last_encoded: Option<bool> = None;
    let mut last_space = false;
    for (bytes, charset) in runs {
        let text = match charset {
            None => String::from_utf8_lossy(bytes).into_owned(),
            Some(_) => replaced(codec(*charset).0, bytes),
        };
        // As written there: US-ASCII by its name only (not its alias "ascii").
        let encoded = charset.is_some_and(|name| name != "us-ascii");
        let apart = text.chars().next().is_some_and(is_py_space) || last_space;
        if last_encoded.is_some_and(|last| last != encoded) && !apart {
            out.push(' ');
        }
        out.push_str(&text);
        last_space = text.chars().next_back().is_some_and(is_py_space);
        last_encoded = Some(encoded);
    }
    out
}

/// A piece of a header value: plain text, or an encoded word's text with its encoding (`q` or `b`)
/// and charset (lower case).
struct Word<'a> {
    text: &'a str,
    encoding: Option<u8>,
    charset: Option<Cow<'a, str>>,
}

/// `_header_words`' first loop: each line's plain text (the first stripped of leading blanks, empty
/// ones left out) and words.
fn words(value: &str) -> Vec<Word<'_>> {
    let mut found = Vec::new();
    for line in split_lines(value) {
        let mut first = true;
        let mut taken = 0;
        for (start, charset, encoding, text, end) in encoded_words(line) {
            let before = &line[taken..start];
            push_plain(&mut found, before, first);
            first = false;
            // Python's lower() of an ASCII name; a non-ASCII one is no charset decoded here (the
            // stdlib's Charset refuses it), whatever its case.
            let charset = Some(Cow::Owned(charset.to_ascii_lowercase()));
            found.push(Word { text, encoding: Some(encoding.to_ascii_lowercase()), charset });
            taken = end;
        }
        push_plain(&mut found, &line[taken..], first);
    }
    found
}

fn push_plain<'a>(found: &mut Vec<Word<'a>>, text: &'a str, first: bool) {
    let text = if first { text.trim_start_matches(is_py_space) } else { text };
    if !text.is_empty() {
        found.push(Word { text, encoding: None, charset: None });
    }
}

/// `str.splitlines()`: lines end at "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c" to "\x1e",
/// U+0085, U+2028 and U+2029; the last line break starts no empty line.
fn split_lines(value: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = value.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if matches!(c, '\n' | '\r' | '\x0b' | '\x0c' | '\x1c'..='\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            lines.push(&value[start..at]);
            start = at + c.len_utf8();
            if c == '\r' && chars.peek().is_some_and(|&(_, next)| next == '\n') {
                chars.next();
                start += 1;
            }
        }
    }
    if start < value.len() {
        lines.push(&value[start..]);
    }
    lines
}

/// `mime._encoded_words` of one line: each word's start, charset, encoding letter, text and end.
/// A word is `=?`, a charset up to the next `?`, one of qQbB, `?`, text up to the next `?=` on the
/// line; where no `?=` follows a word's start, none follows any later start.
fn encoded_words(line: &str) -> Vec<(usize, &str, u8, &str, usize)> {
    let bytes = line.as_bytes();
    let find = |what: &[u8], from: usize| {
        memchr::memmem::find(&bytes[from.min(bytes.len())..], what).map(|n| from + n)
    };
    let mut found = Vec::new();
    let mut start = find(b"=?", 0);
    while let Some(at) = start {
        let Some(mark) = memchr::memchr(b'?', &bytes[at + 2..]).map(|n| at + 2 + n) else { break };
        let letter = bytes.get(mark + 1).copied();
        if matches!(letter, Some(b'q' | b'Q' | b'b' | b'B')) && bytes.get(mark + 2) == Some(&b'?') {
            let Some(close) = find(b"?=", mark + 3) else { break };
            found.push((at, &line[at + 2..mark], letter.unwrap_or(b'q'), &line[mark + 3..close], close + 2));
            start = find(b"=?", close + 2);
        } else {
            start = find(b"=?", at + 1);
        }
    }
    found
}

/// `mime._has_encoded_word`: whether `email.header.ecre` finds a word in the whole value, where a
/// charset may hold a line break and the encoded text may not; in one pass.
fn has_encoded_word(value: &str) -> bool {
    let bytes = value.as_bytes();
    let find = |what: &[u8], from: usize| {
        memchr::memmem::find(&bytes[from.min(bytes.len())..], what).map(|n| from + n)
    };
    let (mut close, mut newline): (Option<usize>, Option<usize>) = (None, None);
    let mut start = find(b"=?", 0);
    while let Some(at) = start {
        let Some(mark) = memchr::memchr(b'?', &bytes[at + 2..]).map(|n| at + 2 + n) else { return false };
        if matches!(bytes.get(mark + 1), Some(b'q' | b'Q' | b'b' | b'B'))
            && bytes.get(mark + 2) == Some(&b'?')
        {
            if close.map_or(true, |close| close < mark + 3) {
                close = find(b"?=", mark + 3);
                if close.is_none() {
                    return false;
                }
            }
            if newline.map_or(true, |newline| newline < mark + 3) {
                newline = find(b"\n", mark + 3);
            }
            match (newline, close) {
                (None, _) => return true,
                (Some(newline), Some(close)) if newline >= close => return true,
                _ => {}
            }
        }
        start = find(b"=?", at + 1);
    }
    false
}

/// `str.encode("raw-unicode-escape")`: a character below U+0100 as its byte, any other as `\uXXXX`
/// or `\UXXXXXXXX` (lower-case hex).
fn raw_unicode_escape(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match u32::from(c) {
            code @ 0..=0xff => out.push(code as u8),
            code @ 0x100..=0xffff => out.extend_from_slice(format!("\\u{code:04x}").as_bytes()),
            code => out.extend_from_slice(format!("\\U{code:08x}").as_bytes()),
        }
    }
    out
}

/// `email.quoprimime.header_decode(text).encode("raw-unicode-escape")`: `_` is a space, `=` and
/// two hex digits their byte (left to right, as `re.sub` takes them), the rest as written.
fn q_decoded(text: &str) -> Vec<u8> {
    let hex = |b: Option<&u8>| b.and_then(|&b| char::from(b).to_digit(16));
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'=' {
            if let (Some(high), Some(low)) = (hex(bytes.get(at + 1)), hex(bytes.get(at + 2))) {
                out.push((high * 16 + low) as u8);
                at += 3;
                continue;
            }
        }
        let c = text[at..].chars().next().unwrap_or('\0');
        if c == '_' {
            out.push(b' ');
        } else {
            out.extend_from_slice(&raw_unicode_escape(c.encode_utf8(&mut [0; 4])));
        }
        at += c.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &str) -> (String, Option<&'static str>) {
        decoded(value).map(|(text, problem)| (text.into_owned(), problem)).expect("native charsets")
    }

    #[test]
    fn words_decode_as_make_header_decodes_them() {
        assert_eq!(text("=?utf-8?q?caf=C3=A9_x?= =?UTF-8?B?w6k=?=").0, "café xé");
        assert_eq!(text("see =?iso-8859-1?q?=E9?=http://a/").0, "see é http://a/");
        assert_eq!(text("a =?us-ascii?q?b?=").0, "a  b"); // one US-ASCII chunk, joined with a space
        assert_eq!(text("=?utf-8?b?aGk?=").0, "hi"); // padding added
        assert_eq!(text("=?utf-8?q?a?=\n =?utf-8?q?b?=").0, "ab");
        assert_eq!(text("no word =? here").0, "no word =? here");
    }

    #[test]
    fn words_that_do_not_decode_say_why() {
        assert_eq!(text("x =?utf-8?b?a?= y"), ("x =?utf-8?b?a?= y".to_owned(), Some(UNPARSED)));
        assert_eq!(text("=?utf-8?q?=FF?= x"), ("\u{fffd} x".to_owned(), Some(UNDECODED)));
        assert_eq!(text("caf\u{e9} =?utf-8?q?x?="), ("caf\u{fffd} x".to_owned(), Some(UNDECODED)));
        assert_eq!(decoded("=?koi8-r?q?x?="), None);
        assert_eq!(decoded("=?utf-8?b?a?= =?koi8-r?q?x?=").map(|found| found.1), Some(Some(UNPARSED)));
    }

    #[test]
    fn lines_are_cut_as_python_cuts_them() {
        assert_eq!(split_lines("a\r\nb\rc\u{2028}d\n"), ["a", "b", "c", "d"]);
        assert_eq!(split_lines(""), Vec::<&str>::new());
        assert_eq!(raw_unicode_escape("\u{e9}\u{20ac}\u{1f600}"), b"\xe9\\u20ac\\U0001f600");
        assert_eq!(q_decoded("=3=41_=4"), b"=3A =4");
    }
}
