//! Decodes and windows each file named on the command line, for
//! `tests/results/test_native_rows.py`'s growth test under `valgrind --tool=callgrind` (issue 31).
//! Every file is read first; then each is one call of `read_one`, and an empty one comes last, so
//! that with `--dump-before=*read_one*` the dumps after the first hold each file's reading alone.
//!
//! `text_files FILE...`: each file is fed in blocks of 4,099 bytes (so that blocks cut sequences)
//! to windows of 65,536 characters, each window's scan taken to go to its stop. It prints each
//! file's characters and line breaks.

use std::process::ExitCode;

use urlsift_core::text::Windows;

/// One file's reading: the function the growth test dumps the counts before.
#[inline(never)]
fn read_one(data: &[u8]) -> (usize, i64) {
    let mut windows = Windows::new(1 << 16, 2048, 1024);
    let mut blocks = data.chunks(4099);
    loop {
        while windows.hungry() {
            windows.feed(blocks.next().unwrap_or_default());
        }
        if windows.ended {
            break;
        }
        let stop = windows.stop().max(windows.resume);
        windows.advance(stop);
    }
    (windows.characters, windows.line_breaks())
}

fn main() -> ExitCode {
    let mut files = Vec::new();
    for path in std::env::args().skip(1) {
        match std::fs::read(&path) {
            Ok(data) => files.push(data),
            Err(error) => {
                eprintln!("text_files: cannot read {path}: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    let found: Vec<(usize, i64)> = files.iter().map(|data| read_one(data)).collect();
    read_one(&[]); // ends the last file's dump
    for (characters, breaks) in found {
        println!("{characters} {breaks}");
    }
    ExitCode::SUCCESS
}
