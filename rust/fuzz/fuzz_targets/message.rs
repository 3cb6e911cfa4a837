//! The message reader on any bytes (issue 32), after a first byte it leaves (the seeds of every
//! target start with one: rust/fuzz/run.sh). Nothing may panic; a message it reads gives flowed
//! indices of its parts, part names that start with their index in walk order, and the defects'
//! kinds `mime.py` gives; the same bytes read again give the same message. Each part unflowed
//! (D31, both DelSp) is the part less its joins, and every position maps back inside the part;
//! the batch reader (`mail::read_batch`, a toy judge) gives rows within their texts, in order.
//! The page reader and the RFC 2047 decoder run on the bytes as text too.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use urlsift_core::extract::{Extractor, Judge, JudgePlan};
use urlsift_core::scan::Scanner;
use urlsift_core::{flowed, mail, mime, Grammar};

/// A toy judge (any scheme's URL is valid but for a `#` in it) and its grammar.
fn toy() -> &'static (Extractor, Grammar) {
    static TOY: OnceLock<(Extractor, Grammar)> = OnceLock::new();
    TOY.get_or_init(|| {
        let mut grammar = Grammar::new();
        grammar.add("any", "[^#]*", &[]).expect("a toy production");
        let plan = JudgePlan {
            scheme: "[a-zA-Z][a-zA-Z0-9+.-]*".into(),
            generic: "any".into(),
            fragment: "any".into(),
            www_prefix: "http://".into(),
            ..JudgePlan::default()
        };
        let schemes = ["http", "https", "mailto", "tel"].map(str::to_owned);
        let scanner = Scanner::new(true, &schemes, &schemes[..2], &schemes, true, true);
        let judge = Judge::new(plan).expect("a toy judge");
        (Extractor { scanner, judge, invalid: true }, grammar)
    })
}

fn check_unflowed(text: &[char]) {
    for delsp in [false, true] {
        let Some(unflowed) = flowed::unflow(text, delsp) else { continue };
        let mut kept = 0;
        for pair in unflowed.segments.windows(2) {
            let ((u0, o0), (u1, o1)) = (pair[0], pair[1]);
            assert!(u0 <= u1 && o0 < o1 && o1 <= text.len(), "segments in order: {pair:?}");
            kept += u1 - u0;
        }
        let &(last_u, last_o) = unflowed.segments.last().expect("a segment");
        assert_eq!(unflowed.units.len(), kept + text.len() - last_o);
        assert_eq!(unflowed.units.get(last_u..), text.get(last_o..), "the last stretch as written");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((_, data)) = data.split_first() else { return };
    // The page reader and the RFC 2047 decoder on the bytes as text, whatever they hold.
    let text = String::from_utf8_lossy(data);
    if let Some(page) = mime::page_read(&text) {
        assert!(page.base.is_none() || !page.text.is_empty(), "a base's href is in the text");
    }
    let _ = mime::header_decoded(&text);
    let skipped = ["received".to_owned(), "dkim-signature".to_owned()];
    let (extractor, grammar) = toy();
    let batch = mail::read_batch(&[data, data], &skipped, extractor, grammar);
    let mut rows_end = 0;
    for outcome in &batch.messages {
        if let mail::Outcome::Read(read) = outcome {
            assert!(read.rows_end >= rows_end && read.headers <= read.texts);
            rows_end = read.rows_end;
        }
    }
    assert_eq!(rows_end, batch.rows.len());
    assert!(batch.rows.iter().all(|row| row.text < batch.wheres.len() && row.hit < batch.hits.len()));
    assert!(batch.hits.iter().all(|hit| hit.start <= hit.end));
    let Ok(message) = mime::read(data, &skipped) else { return };
    assert_eq!(mime::read(data, &skipped), Ok(message.clone()));
    let mut last = None;
    for (name, text) in &message.parts {
        let index: usize = name.split(' ').next().and_then(|n| n.parse().ok()).expect("a numbered part");
        assert!(last < Some(index), "{name} after part {last:?}");
        last = Some(index);
        check_unflowed(&text.chars().collect::<Vec<char>>());
    }
    assert!(message.flowed.iter().all(|&(part, _)| part < message.parts.len()));
    let kinds = ["malformed", "undecodable-bytes"];
    assert!(message.defects.iter().all(|defect| kinds.contains(&defect.kind)));
});
