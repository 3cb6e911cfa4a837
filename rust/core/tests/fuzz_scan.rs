//! A fuzz loop over the scanner (issue 31), run by `cargo test`: random texts of the pieces that
//! steer it and of random bytes (read as UTF-8, lossily), scanned as bytes and as code points.
//! Nothing may panic or hang; every span lies in the text, in order; an ASCII text gives the same
//! candidates either way. `URLSIFT_FUZZ_SECONDS` sets the budget (a second by default); a failing
//! text is printed with its seed, to be kept in `tests/scan/test_fuzz.py`'s REGRESSIONS.

use std::time::{Duration, Instant};

use urlsift_core::scan::{Candidate, Scanner};

const PIECES: &[&str] = &[
    "<",
    ">",
    "<URL:",
    "< URL: ",
    "URL:",
    "url:",
    "\n",
    "\r\n",
    "\n\n",
    "\n> ",
    "> ",
    ">> ",
    "| ",
    "\"",
    "'",
    " ",
    "\t",
    "\u{a0}",
    "\u{1c}",
    "\u{85}",
    "http:",
    "http://",
    "https://",
    "ftp://h/",
    "mailto:",
    "mailto:u at h.example",
    " at ",
    "news:",
    "tel:+1",
    "urn:a:b",
    "//",
    "h",
    "www.",
    "WWW.",
    ".",
    ",",
    ";",
    ":",
    "?",
    "#",
    "@",
    "(",
    ")",
    "[",
    "]",
    "`",
    "-",
    "-\n",
    "+",
    "=09",
    "\u{3002}",
    "\u{ff09}",
    "\u{e9}",
    "\u{4e2d}",
    "\u{1f600}",
    "\u{10100}",
    "\u{fffd}",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn text(rng: &mut Rng) -> String {
    let mut text = String::new();
    let pieces = rng.below(120);
    for _ in 0..pieces {
        match rng.below(10) {
            0 => {
                let bytes: Vec<u8> = (0..rng.below(8)).map(|_| rng.next() as u8).collect();
                text.push_str(&String::from_utf8_lossy(&bytes));
            }
            1 => text.push_str(&"a".repeat(rng.below(5000))),
            2 => text.push_str(&" ".repeat(rng.below(80))),
            _ => text.push_str(PIECES[rng.below(PIECES.len())]),
        }
    }
    text
}

fn check(text: &str, found: &[Candidate], length: usize) {
    for candidate in found {
        let (span, body) = (candidate.span, candidate.body);
        assert!(span.0 <= body.0 && body.0 <= body.1 && body.1 <= span.1 && span.1 <= length, "{text:?}");
        // A wrapper ended by a blank line keeps the prefix read on it, past its body (as the
        // Python scanner does): only a closed one's prefixes lie inside the body.
        let end = if candidate.problem.is_none() { body.1 } else { length };
        for skipped in &candidate.skipped {
            assert!(body.0 <= skipped.0 && skipped.0 <= skipped.1 && skipped.1 <= end, "{text:?}");
        }
    }
}

#[test]
fn the_scanner_survives_random_texts() {
    let seconds = std::env::var("URLSIFT_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let budget = Duration::from_secs_f64(seconds);
    let schemes: Vec<String> =
        ["http", "https", "ftp", "mailto", "news", "tel", "urn"].iter().map(|s| s.to_string()).collect();
    let hierarchical: Vec<String> = ["http", "https", "ftp"].iter().map(|s| s.to_string()).collect();
    let scanners: Vec<Scanner> = (0..8)
        .map(|k| Scanner::new(k & 1 == 0, &schemes, &hierarchical, &schemes, k & 2 == 0, k & 4 == 0))
        .collect();
    let started = Instant::now();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut texts, mut bytes) = (0u64, 0u64);
    while started.elapsed() < budget {
        let seed = rng.0;
        let text = text(&mut rng);
        let chars: Vec<char> = text.chars().collect();
        let scanner = &scanners[rng.below(scanners.len())];
        let slow = Instant::now();
        let by_chars = scanner.scan(&chars, 0, None, rng.below(2) == 0);
        assert!(
            slow.elapsed() < Duration::from_secs(2),
            "seed {seed:#x}: {text:?} took {:?}",
            slow.elapsed()
        );
        check(&text, &by_chars.candidates, chars.len());
        if text.is_ascii() {
            let by_bytes = scanner.scan(text.as_bytes(), 0, None, true);
            assert_eq!(by_bytes, scanner.scan(&chars, 0, None, true), "seed {seed:#x}: {text:?}");
        }
        let start = rng.below(chars.len() + 2);
        let window = scanner.scan(&chars, start, Some(start + rng.below(300)), false);
        check(&text, &window.candidates, chars.len());
        texts += 1;
        bytes += text.len() as u64;
    }
    eprintln!("fuzz: {texts} texts, {bytes} bytes in {:?}", started.elapsed());
}
