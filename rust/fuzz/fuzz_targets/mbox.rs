//! The mbox splitter on any input (issue 32): the first byte picks a block size and a limit, the
//! rest is the input. Nothing may panic; the messages are the same in blocks of that size, of one
//! byte and as one block; they are numbered in order, each at a `From ` line after the one before,
//! and none keeps more than its size (or its head, over the limit). The cut finder, from any
//! place, finds a separator at or after it, or none.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift_core::mbox::{is_separator, next_separator, split, HEAD_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some((&options, input)) = data.split_first() else { return };
    let block = usize::from(options & 0x1F) + 1;
    let limit = [u64::MAX >> 2, 0, 16, 300][usize::from(options >> 6)];
    let whole = split(input, input.len().max(1), limit, 7);
    assert_eq!(split(input, block, limit, 7), whole, "blocks of {block}");
    assert_eq!(split(input, 1, limit, 7), whole, "blocks of 1");
    let mut last = None;
    for (number, message) in whole.iter().enumerate() {
        assert_eq!(message.number, number as u64);
        let at = usize::try_from(message.offset - 7).unwrap();
        assert!(input[at..].starts_with(b"From "), "no From line at {at}");
        assert!(last.is_none_or(|last| last < at), "offsets out of order");
        last = Some(at);
        let kept = if message.size > limit { HEAD_BYTES as u64 } else { message.size };
        assert!(message.data.len() as u64 <= kept, "{} bytes kept of {}", message.data.len(), message.size);
    }
    let first = usize::from(options) % (input.len() + 1);
    if let Some(found) = next_separator(input, first, input.len()) {
        assert!(found >= first);
        let line = &input[found..];
        let end = line.iter().position(|&byte| byte == b'\n').unwrap();
        assert!(is_separator(&line[..end]));
    }
});
