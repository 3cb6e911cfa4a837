//! The scanner on any text: the first byte picks the options and a window, the rest is the text
//! (lossy UTF-8). Nothing may panic; every candidate lies in the text, after the one before, its
//! body inside its span; a text gives the same candidates as bytes (when ASCII), UTF-16 units
//! (when of the BMP) and code points, as the binding may hand it over any of the three ways; and
//! taken one at a time (`start`/`next`) it gives what `scan` gives.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift_core::scan::{Candidate, Scanned, Scanner, Unit};

fn scanner(options: u8) -> Scanner {
    let known: Vec<String> = ["http", "https", "ftp", "mailto", "news", "tel", "urn", "telnet"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let hierarchical: Vec<String> =
        ["http", "https", "ftp", "telnet"].iter().map(|s| s.to_string()).collect();
    Scanner::new(options & 1 != 0, &known, &hierarchical, &known, options & 2 != 0, options & 4 != 0)
}

fn check<T: Unit>(
    scanner: &Scanner,
    text: &[T],
    window: (usize, Option<usize>),
    text_start: bool,
) -> Scanned {
    let scanned = scanner.scan(text, window.0, window.1, text_start);
    let mut last_start = 0;
    for Candidate { span, body, .. } in &scanned.candidates {
        assert!(span.0 <= span.1 && span.1 <= text.len(), "span {span:?} of {}", text.len());
        assert!(span.0 <= body.0 && body.0 <= body.1 && body.1 <= span.1, "body {body:?} of {span:?}");
        assert!(span.0 >= last_start, "candidates out of order");
        last_start = span.0;
    }
    let mut scan = scanner.start(text, window.0, window.1, text_start);
    let stepped: Vec<Candidate> = std::iter::from_fn(|| scanner.next(&mut scan, text)).collect();
    assert_eq!(stepped, scanned.candidates);
    assert_eq!(scan.resume(), scanned.resume);
    scanned
}

fuzz_target!(|data: &[u8]| {
    let Some((&options, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let scanner = scanner(options);
    let chars: Vec<char> = text.chars().collect();
    let window = if options & 8 != 0 {
        let start = usize::from(options >> 4) * chars.len() / 16;
        (start, Some(start + chars.len() / 3))
    } else {
        (0, None)
    };
    let text_start = options & 16 == 0 || options & 8 == 0;
    let by_chars = check(&scanner, &chars, window, text_start);
    if text.is_ascii() {
        assert_eq!(check(&scanner, text.as_bytes(), window, text_start), by_chars);
    }
    let utf16: Vec<[u8; 2]> = text.encode_utf16().map(u16::to_le_bytes).collect();
    if utf16.len() == chars.len() {
        assert_eq!(check(&scanner, &utf16, window, text_start), by_chars);
    }
});
