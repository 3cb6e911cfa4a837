//! Reads each file named on the command line as one batch of messages (split at NUL bytes) with
//! the core's batch reader (`mail::read_batch`: read, unflow, scan, judge, fill the rows), for
//! `tests/results/test_native_mail.py`'s growth test under `valgrind --tool=callgrind` (issue 32).
//! Every file is read first; then each batch is one call of `read_one`, and an empty batch's comes
//! last, so that with `--dump-before=*read_one*` the dumps after the first hold each batch's work
//! alone, in order. The judge is a toy one (any scheme's URL is valid but for a `#` in it): the
//! grammar's cost is the grammar tests' business. It prints each batch's number of rows.

use std::process::ExitCode;

use urlsift_core::extract::{Extractor, Judge, JudgePlan};
use urlsift_core::mail;
use urlsift_core::scan::Scanner;
use urlsift_core::Grammar;

/// One batch read: the function the growth test dumps the counts before.
#[inline(never)]
fn read_one(messages: &[&[u8]], extractor: &Extractor, grammar: &Grammar) -> usize {
    mail::read_batch(messages, &["received".to_owned()], extractor, grammar).rows.len()
}

fn main() -> ExitCode {
    let mut grammar = Grammar::new();
    let plan = JudgePlan {
        scheme: "[a-zA-Z][a-zA-Z0-9+.-]*".into(),
        generic: "any".into(),
        fragment: "any".into(),
        www_prefix: "http://".into(),
        ..JudgePlan::default()
    };
    let (Ok(()), Ok(judge)) = (grammar.add("any", "[^#]*", &[]), Judge::new(plan)) else {
        eprintln!("read_mail: the toy judge was refused");
        return ExitCode::FAILURE;
    };
    let schemes = ["http", "https", "mailto", "tel"].map(str::to_owned);
    let scanner = Scanner::new(true, &schemes, &schemes[..2], &schemes, true, true);
    let extractor = Extractor { scanner, judge, invalid: true };
    let mut files = Vec::new();
    for path in std::env::args().skip(1) {
        let Ok(data) = std::fs::read(&path) else {
            eprintln!("read_mail: cannot read {path}");
            return ExitCode::FAILURE;
        };
        files.push(data);
    }
    files.push(Vec::new());
    for data in &files {
        let messages: Vec<&[u8]> = data.split(|&b| b == 0).collect();
        println!("{}", read_one(&messages, &extractor, &grammar));
    }
    ExitCode::SUCCESS
}
