//! An HTML page -> its text and its links' values: `sources/page.py`'s `read`, step for step, in
//! one forward pass (every step consumes what it looked at). Each run of text between two tags is
//! a line, character references decoded as `html.unescape` decodes them (`html_tables`, generated
//! from Python's `html` module); comments and declarations are left out; a lone `<` is a line of
//! its own; each link's value (`href`, `src` ...) a paragraph of its own (D21); what is still open
//! at the page's end is given as text from its `<`. Where Python would raise (a decimal reference
//! of more digits than `int()` takes) the page is left to Python.

use std::borrow::Cow;

use memchr::{memchr, memmem};

use super::html_tables::{INVALID_CHARREFS, INVALID_CODEPOINTS, NAMED};
use super::is_py_space;

/// `page.LINKS`: the attributes whose values are given.
const LINKS: [&str; 5] = ["href", "src", "action", "cite", "background"];

/// The most digits Python's `int()` reads in base 10 (`sys.get_int_max_str_digits()`'s default).
const MAX_DECIMAL_DIGITS: usize = 4300;

/// What one pass over a page gives (`page.Page`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Page {
    pub text: String,
    pub links: Vec<String>,
    /// The first `<base href>`.
    pub base: Option<String>,
}

/// `page.read(html)`; None where Python's `html.unescape` would raise.
pub fn read(html: &str) -> Option<Page> {
    let mut pass = Pass { html, lines: Vec::new(), links: Vec::new(), bases: Vec::new() };
    let mut at = 0;
    while at < html.len() {
        let Some(lt) = memchr(b'<', &html.as_bytes()[at..]).map(|n| at + n) else {
            let text = unescape(&html[at..])?;
            pass.lines.push(text);
            break;
        };
        if lt > at {
            let text = unescape(&html[at..lt])?;
            pass.lines.push(text);
        }
        at = pass.markup(lt)?;
    }
    let base = pass.bases.into_iter().next();
    Some(Page { text: pass.lines.join("\n"), links: pass.links, base })
}

/// `page._relative`: a link that is not empty, no fragment alone and has no scheme (D39: only these
/// are resolved against a base).
pub fn relative(link: &str) -> bool {
    let value = link.trim_matches([' ', '\t', '\n', '\r', '\x0c']);
    !value.is_empty() && !value.starts_with('#') && !has_scheme(value)
}

/// `page._SCHEME.match(value)`: `[A-Za-z][A-Za-z0-9+.-]*:`.
fn has_scheme(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes[1..]
            .iter()
            .find(|&&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-')))
            .is_some_and(|&b| b == b':')
}

struct Pass<'a> {
    html: &'a str,
    lines: Vec<Cow<'a, str>>,
    links: Vec<String>,
    bases: Vec<String>,
}

impl<'a> Pass<'a> {
    fn find(&self, what: &str, from: usize) -> Option<usize> {
        let bytes = self.html.as_bytes();
        memmem::find(bytes.get(from..)?, what.as_bytes()).map(|n| from + n)
    }

    /// `page._markup`: what starts with the `<` at `lt`; where the pass goes on (past `lt`).
    fn markup(&mut self, lt: usize) -> Option<usize> {
        let bytes = self.html.as_bytes();
        let after = bytes.get(lt + 1).copied();
        if after.is_some_and(|b| b.is_ascii_alphabetic()) {
            return self.start_tag(lt);
        }
        let close = if after == Some(b'/') && bytes.get(lt + 2).is_some_and(u8::is_ascii_alphabetic) {
            self.find(">", lt + 2)
        } else if bytes[lt..].starts_with(b"<!--") {
            self.find("-->", lt + 4).map(|close| close + 2)
        } else if matches!(after, Some(b'!' | b'?' | b'/')) {
            self.find(">", lt + 2) // a declaration, processing instruction or bogus comment
        } else {
            self.lines.push(Cow::Borrowed("<")); // no markup: the "<" is text
            return Some(lt + 1);
        };
        match close {
            Some(close) => Some(close + 1),
            None => self.unclosed(lt),
        }
    }

    /// `page._unclosed`: markup still open at the page's end; the rest, from its `<`, is text.
    fn unclosed(&mut self, lt: usize) -> Option<usize> {
        let text = unescape(&self.html[lt..])?;
        self.lines.push(text);
        Some(self.html.len())
    }

    /// The end of the run from `at` of characters that `keep` takes.
    fn run(&self, at: usize, keep: impl Fn(char) -> bool) -> usize {
        self.html[at..].char_indices().find(|&(_, c)| !keep(c)).map_or(self.html.len(), |(n, _)| at + n)
    }

    /// `page._start_tag`: a tag's name and attributes, its links' values given; a `<script>`'s or
    /// `<style>`'s content is text up to its end tag.
    fn start_tag(&mut self, lt: usize) -> Option<usize> {
        let html = self.html;
        let bytes = html.as_bytes();
        // _TAG_NAME: a letter (there), then anything but \t \n \r \f space / > NUL.
        let name_end =
            lt + 2 + bytes[lt + 2..].iter().take_while(|b| !b"\t\n\r\x0c />\0".contains(b)).count();
        let mut at = name_end;
        let mut links = Vec::new();
        loop {
            at = self.run(at, |c| is_py_space(c) || c == '/'); // _BETWEEN
            if at >= html.len() {
                return self.unclosed(lt);
            }
            if bytes[at] == b'>' {
                break;
            }
            // _NAME: its first character is no blank, "/" or ">" (there); then no "=" either.
            let first = html[at..].chars().next().map_or(1, char::len_utf8);
            let name_start = at;
            at = self.run(at + first, |c| !(is_py_space(c) || matches!(c, '/' | '=' | '>')));
            let name = &html[name_start..at];
            // _EQUALS: blanks, one "=" or more, blanks; else an attribute with no value.
            let equals = self.run(at, is_py_space);
            if bytes.get(equals) != Some(&b'=') {
                continue;
            }
            at = self.run(self.run(equals, |c| c == '='), is_py_space);
            let value = match bytes.get(at) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let Some(close) = memchr(quote, &bytes[at + 1..]).map(|n| at + 1 + n) else {
                        return self.unclosed(lt);
                    };
                    let value = &html[at + 1..close];
                    at = close + 1;
                    value
                }
                _ => {
                    let start = at;
                    at = self.run(at, |c| !(is_py_space(c) || c == '>')); // _BARE_VALUE
                    &html[start..at]
                }
            };
            if !value.is_empty() && is_link(name) {
                links.push(unescape(value)?.into_owned());
            }
        }
        // D21: each link a paragraph of its own, so that no wrapper of the page's text takes it in.
        self.lines.extend(links.iter().map(|value| Cow::Owned(format!("\n{value}\n"))));
        at += 1;
        let tag = &html[lt + 1..name_end];
        if tag.eq_ignore_ascii_case("base") {
            self.bases.extend(links.into_iter().take(1)); // (an href of base is its first value)
        } else {
            self.links.extend(links);
        }
        if tag.eq_ignore_ascii_case("script") || tag.eq_ignore_ascii_case("style") {
            let (stop, end) = self.raw_end(tag, at).unwrap_or((html.len(), html.len()));
            if stop > at {
                self.lines.push(Cow::Borrowed(&html[at..stop]));
            }
            return Some(end);
        }
        Some(at)
    }

    /// `page._RAW_END[tag].search(html, at)`: the first `</` tag blanks `>`, the name matched as
    /// `re.IGNORECASE` matches it (where `ſ` is an `s` and `ı`, `İ` are an `i`).
    fn raw_end(&self, tag: &str, at: usize) -> Option<(usize, usize)> {
        let bytes = self.html.as_bytes();
        let same = |c: char, want: u8| match want.to_ascii_lowercase() {
            b's' => matches!(c, 's' | 'S' | '\u{17f}'),
            b'i' => matches!(c, 'i' | 'I' | '\u{130}' | '\u{131}'),
            want => c.is_ascii() && (c as u8).to_ascii_lowercase() == want,
        };
        let mut from = at;
        while let Some(start) = memmem::find(&bytes[from..], b"</").map(|n| from + n) {
            from = start + 2;
            let mut chars = self.html[from..].char_indices();
            let named = tag.bytes().all(|want| chars.next().is_some_and(|(_, c)| same(c, want)));
            if !named {
                continue;
            }
            let name_end = chars.next().map_or(self.html.len(), |(n, _)| from + n);
            let close = self.run(name_end, is_py_space);
            if bytes.get(close) == Some(&b'>') {
                return Some((start, close + 1));
            }
        }
        None
    }
}

/// `name.lower() in page.LINKS` (the Kelvin sign is the one non-ASCII character that lowers to an
/// ASCII letter: `k`, in "background").
fn is_link(name: &str) -> bool {
    let lowered: String =
        name.chars().map(|c| if c == '\u{212a}' { 'k' } else { c.to_ascii_lowercase() }).collect();
    LINKS.contains(&lowered.as_str())
}

/// `html.unescape(text)`: each `&` that begins a reference (`&#` digits, `&#x` hex digits, or up to
/// 32 characters that are none of `\t\n\f <&#;`, each with an optional `;`) replaced, left to right.
/// None where Python raises (a decimal reference of over 4,300 digits).
pub fn unescape(text: &str) -> Option<Cow<'_, str>> {
    let bytes = text.as_bytes();
    let Some(first) = memchr(b'&', bytes) else {
        return Some(Cow::Borrowed(text));
    };
    let mut out = String::with_capacity(text.len());
    let (mut taken, mut from) = (0, first);
    while let Some(amp) = memchr(b'&', &bytes[from..]).map(|n| from + n) {
        from = amp + 1;
        let Some((replaced, end)) = reference(text, amp)? else { continue };
        out.push_str(&text[taken..amp]);
        out.push_str(&replaced);
        taken = end;
        from = end;
    }
    out.push_str(&text[taken..]);
    Some(Cow::Owned(out))
}

/// The reference that starts at the `&` at `amp`: its text and where it ends; Some(None) where
/// none starts there; None where Python raises.
fn reference(text: &str, amp: usize) -> Option<Option<(Cow<'static, str>, usize)>> {
    let bytes = text.as_bytes();
    let digits = |from: usize, hex: bool| {
        from + bytes[from..]
            .iter()
            .take_while(|b| if hex { b.is_ascii_hexdigit() } else { b.is_ascii_digit() })
            .count()
    };
    let with_semicolon = |end: usize| end + usize::from(bytes.get(end) == Some(&b';'));
    if bytes.get(amp + 1) == Some(&b'#') {
        let (start, hex) = match bytes.get(amp + 2) {
            Some(b'0'..=b'9') => (amp + 2, false),
            Some(b'x' | b'X') if bytes.get(amp + 3).is_some_and(u8::is_ascii_hexdigit) => (amp + 3, true),
            _ => return Some(None), // "&#" with no digits: no reference ('#' ends a name)
        };
        let end = digits(start, hex);
        if !hex && end - start > MAX_DECIMAL_DIGITS {
            return None;
        }
        let radix = if hex { 16 } else { 10 };
        // Saturated past the last code point: all that is past it reads the same.
        let number = text[start..end].chars().fold(0u32, |n, digit| {
            n.saturating_mul(radix).saturating_add(digit.to_digit(radix).unwrap_or(0)).min(0x11_0000)
        });
        return Some(Some((numeric(number), with_semicolon(end))));
    }
    // A name: 1 to 32 characters none of \t \n \f space < & # ;, then an optional ';'.
    let mut end = amp + 1;
    for (count, (n, c)) in text[amp + 1..].char_indices().enumerate() {
        if count == 32 || matches!(c, '\t' | '\n' | '\x0c' | ' ' | '<' | '&' | '#' | ';') {
            break;
        }
        end = amp + 1 + n + c.len_utf8();
    }
    if end == amp + 1 {
        return Some(None);
    }
    let end = with_semicolon(end);
    let name = &text[amp + 1..end];
    if let Some(value) = named(name) {
        return Some(Some((Cow::Borrowed(value), end)));
    }
    // The longest name (two characters at least) that starts it: the standard's legacy references.
    let cuts: Vec<usize> = name.char_indices().map(|(n, _)| n).skip(2).collect();
    for &cut in cuts.iter().rev() {
        if let Some(value) = named(&name[..cut]) {
            return Some(Some((Cow::Owned(format!("{value}{}", &name[cut..])), end)));
        }
    }
    Some(Some((Cow::Owned(format!("&{name}")), end)))
}

fn named(name: &str) -> Option<&'static str> {
    NAMED.binary_search_by(|(known, _)| (*known).cmp(name)).ok().map(|at| NAMED[at].1)
}

/// `html._replace_charref`'s numeric case.
fn numeric(number: u32) -> Cow<'static, str> {
    if let Ok(at) = INVALID_CHARREFS.binary_search_by_key(&number, |&(code, _)| code) {
        return Cow::Owned(INVALID_CHARREFS[at].1.to_string());
    }
    if (0xd800..=0xdfff).contains(&number) || number > 0x10_ffff {
        return Cow::Borrowed("\u{fffd}");
    }
    if INVALID_CODEPOINTS.iter().any(|&(first, last)| (first..=last).contains(&number)) {
        return Cow::Borrowed("");
    }
    Cow::Owned(char::from_u32(number).map_or_else(|| "\u{fffd}".to_owned(), String::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_decode_as_html_unescape_decodes_them() {
        let cases = [
            ("a &amp; b", "a & b"),
            (
                "&ampx &notit; &#65;&#x42 &#0; &#128; &#xD800; &#1114112; &#x1;",
                "&x \u{ac}it; AB \u{fffd} \u{20ac} \u{fffd} \u{fffd} ",
            ),
            ("&# &#x; &zz; &", "&# &#x; &zz; &"),
        ];
        for (text, unescaped) in cases {
            assert_eq!(unescape(text).unwrap(), unescaped);
        }
        assert_eq!(unescape(&format!("&#{}", "1".repeat(4301))), None);
    }

    #[test]
    fn a_page_gives_its_text_links_and_base() {
        let page = read(
            "<base href='http://b/'><p>see <a HREF=x.html>it</a> &lt;<script>if (a<b)</SCRİPT >1 < 2<a ",
        )
        .unwrap();
        assert_eq!(page.base.as_deref(), Some("http://b/"));
        assert_eq!(page.links, ["x.html"]);
        assert_eq!(page.text, "\nhttp://b/\n\nsee \n\nx.html\n\nit\n <\nif (a<b)\n1 \n<\n 2\n<a ");
        assert!(relative(" x.html") && !relative("#top") && !relative("mailto:a@b") && !relative("\t"));
    }
}
