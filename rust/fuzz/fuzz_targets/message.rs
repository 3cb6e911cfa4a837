//! The message reader on any bytes (issue 32), after a first byte it leaves (the seeds of every
//! target start with one: rust/fuzz/run.sh). Nothing may panic; a message it reads gives flowed
//! indices of its parts, part names that start with their index in walk order, and the defects'
//! kinds `mime.py` gives; the same bytes read again give the same message. The page reader and the
//! RFC 2047 decoder run on the bytes as text too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift_core::mime;

fuzz_target!(|data: &[u8]| {
    let Some((_, data)) = data.split_first() else { return };
    // The page reader and the RFC 2047 decoder on the bytes as text, whatever they hold.
    let text = String::from_utf8_lossy(data);
    if let Some(page) = mime::page_read(&text) {
        assert!(page.base.is_none() || !page.text.is_empty(), "a base's href is in the text");
    }
    let _ = mime::header_decoded(&text);
    let skipped = ["received".to_owned(), "dkim-signature".to_owned()];
    let Ok(message) = mime::read(data, &skipped) else { return };
    assert_eq!(mime::read(data, &skipped), Ok(message.clone()));
    let mut last = None;
    for (name, _) in &message.parts {
        let index: usize = name.split(' ').next().and_then(|n| n.parse().ok()).expect("a numbered part");
        assert!(last < Some(index), "{name} after part {last:?}");
        last = Some(index);
    }
    assert!(message.flowed.iter().all(|&(part, _)| part < message.parts.len()));
    let kinds = ["malformed", "undecodable-bytes"];
    assert!(message.defects.iter().all(|defect| kinds.contains(&defect.kind)));
});
