//! Works out the host columns of each URL file named on the command line, for
//! `tests/results/test_host_columns_native.py`'s growth test under `valgrind --tool=callgrind`
//! (issues 31/32). Every file (one URL) is read first; then each is one call of `columns_one`, and
//! an empty URL's comes last, so that with `--dump-before=*columns_one*` the dumps after the first
//! hold each URL's work alone, in order. The shapes come from the Python test.
//!
//! `host_columns URL_FILE...`: prints each URL's SURT key (or `-`).

use std::process::ExitCode;

use urlsift_core::hosts::{columns, Columns, Suffixes};

/// One URL's columns: the function the growth test dumps the counts before.
#[inline(never)]
fn columns_one(url: &str, suffixes: &Suffixes) -> Option<Columns> {
    columns(url, "http", suffixes)
}

fn main() -> ExitCode {
    let suffixes =
        Suffixes::parse(b"// ===BEGIN ICANN DOMAINS===\ncom\nexample\n// ===END ICANN DOMAINS===\n");
    let mut urls = Vec::new();
    for path in std::env::args().skip(1) {
        let Ok(url) = std::fs::read_to_string(&path) else {
            eprintln!("host_columns: cannot read {path}");
            return ExitCode::FAILURE;
        };
        urls.push(url);
    }
    let found: Vec<Option<Columns>> = urls.iter().map(|url| columns_one(url, &suffixes)).collect();
    columns_one("", &suffixes); // ends the last URL's dump
    for key in found {
        println!("{}", key.and_then(|(_, _, _, surt)| surt).unwrap_or_else(|| "-".to_string()));
    }
    ExitCode::SUCCESS
}
