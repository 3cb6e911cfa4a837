//! A plain text's bytes decoded and windowed by the core on any input (issue 31): the first byte
//! picks a block size and how far each window's scan goes, the rest is the text. Nothing may
//! panic; the text decoded in blocks of that size, of one byte and whole is the standard library's
//! lossy decoding (U+FFFD per maximal ill-formed subpart, as Python's decoder with
//! errors="replace"); the windows count every character and line break once, and each window
//! starts where the last one's kept part did; the first long line (a bound of 8 bytes) is the one
//! the split lines give.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift_core::text::{Utf8Decoder, Windows};

fn decoded(input: &[u8], block: usize) -> String {
    let mut decoder = Utf8Decoder::default();
    let mut text = String::new();
    let mut count = 0;
    for piece in input.chunks(block) {
        count += decoder.decode_into(piece, false, &mut text);
    }
    count += decoder.decode_into(b"", true, &mut text);
    assert_eq!(count, text.chars().count());
    text
}

fuzz_target!(|data: &[u8]| {
    let Some((&options, input)) = data.split_first() else { return };
    let block = usize::from(options & 0x1F) + 1;
    let expected = String::from_utf8_lossy(input);
    assert_eq!(decoded(input, input.len().max(1)), expected);
    assert_eq!(decoded(input, block), expected, "blocks of {block}");
    assert_eq!(decoded(input, 1), expected, "blocks of 1");

    let (size, lookahead, lookbehind) = (16, 5, 3);
    let mut windows = Windows::new(size, lookahead, lookbehind);
    windows.watch_lines(8);
    let mut blocks = input.chunks(block);
    loop {
        while windows.hungry() {
            windows.feed(blocks.next().unwrap_or_default());
        }
        if windows.ended {
            break;
        }
        // A scan stops at or before `stop`, never before where it started.
        let back = usize::from(options >> 5);
        let resume = windows.stop().saturating_sub(back).max(windows.resume);
        let base = windows.base;
        windows.advance(resume);
        assert_eq!(windows.base, base + resume.saturating_sub(lookbehind));
    }
    assert_eq!(windows.characters, expected.chars().count());
    let breaks = expected.bytes().filter(|&byte| byte == b'\n').count();
    assert_eq!(windows.line_breaks(), breaks as i64);
    let long = input.split(|&byte| byte == b'\n').position(|line| line.len() > 8);
    let noted = windows.watch.as_ref().and_then(|watch| watch.long_line);
    assert_eq!(noted, long.map(|k| k as i64 + 1), "the first long line");
});
