//! Scans each text file named on the command line, for `tests/scan/test_core_scan.py`'s growth test
//! under `valgrind --tool=callgrind` (issue 31). Every text is read first; then each scan is one
//! call of `scan_one`, and an empty text's scan comes last, so that with
//! `--dump-before=*scan_one*` the dumps after the first hold each text's scan alone, in order.
//! The texts come from the Python tests, which state the shapes once.
//!
//! `scan_files SCHEMES TEXT...`: SCHEMES holds three lines, the known, hierarchical and IANA
//! schemes, each a space-separated list; a text is scanned as its bytes when it is ASCII, else
//! as its code points, with the modern profile's options (`www`, pipermail). It prints each
//! text's number of candidates.

use std::process::ExitCode;

use urlsift_core::scan::{Scanner, Unit};

/// One text's scan: the function the growth test dumps the counts before.
#[inline(never)]
fn scan_one<T: Unit>(scanner: &Scanner, text: &[T]) -> usize {
    scanner.scan(text, 0, None, true).candidates.len()
}

enum Units {
    Bytes(Vec<u8>),
    Chars(Vec<char>),
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(schemes) = args.next().and_then(|path| std::fs::read_to_string(path).ok()) else {
        eprintln!("usage: scan_files SCHEMES TEXT...");
        return ExitCode::FAILURE;
    };
    let sets: Vec<Vec<String>> =
        schemes.lines().map(|line| line.split_whitespace().map(str::to_owned).collect()).collect();
    let (Some(known), Some(hierarchical), Some(iana)) = (sets.first(), sets.get(1), sets.get(2)) else {
        eprintln!("scan_files: SCHEMES needs three lines");
        return ExitCode::FAILURE;
    };
    let scanner = Scanner::new(true, known, hierarchical, iana, true, true);
    let mut texts = Vec::new();
    for path in args {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("scan_files: cannot read {path} as UTF-8");
            return ExitCode::FAILURE;
        };
        texts.push(if text.is_ascii() {
            Units::Bytes(text.into_bytes())
        } else {
            Units::Chars(text.chars().collect())
        });
    }
    let found: Vec<usize> = texts
        .iter()
        .map(|text| match text {
            Units::Bytes(bytes) => scan_one(&scanner, bytes),
            Units::Chars(chars) => scan_one(&scanner, chars),
        })
        .collect();
    scan_one::<u8>(&scanner, &[]); // ends the last text's dump
    for count in found {
        println!("{count}");
    }
    ExitCode::SUCCESS
}
