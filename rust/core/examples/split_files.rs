//! Splits each mbox file named on the command line, for `tests/sources/test_mbox_cores.py`'s
//! growth test under `valgrind --tool=callgrind` (issue 32). Every file is read first; then each
//! split is one call of `split_one` (in blocks of 64 KiB, as sources/mbox.py reads, with the limit
//! given), and an empty input's split comes last, so that with `--dump-before=*split_one*` the
//! dumps after the first hold each file's split alone, in order. The inputs come from the Python
//! test, which states the shapes once.
//!
//! `split_files LIMIT MBOX...`: prints each file's number of messages.

use std::process::ExitCode;

use urlsift_core::mbox::split;

/// One file's split: the function the growth test dumps the counts before.
#[inline(never)]
fn split_one(input: &[u8], limit: u64) -> usize {
    split(input, 1 << 16, limit, 0).len()
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(limit) = args.next().and_then(|limit| limit.parse().ok()) else {
        eprintln!("usage: split_files LIMIT MBOX...");
        return ExitCode::FAILURE;
    };
    let mut inputs = Vec::new();
    for path in args {
        let Ok(input) = std::fs::read(&path) else {
            eprintln!("split_files: cannot read {path}");
            return ExitCode::FAILURE;
        };
        inputs.push(input);
    }
    let found: Vec<usize> = inputs.iter().map(|input| split_one(input, limit)).collect();
    split_one(&[], limit); // ends the last file's dump
    for count in found {
        println!("{count}");
    }
    ExitCode::SUCCESS
}
