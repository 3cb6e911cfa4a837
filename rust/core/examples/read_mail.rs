//! Reads each file named on the command line as one batch of messages (split at NUL bytes) with
//! the core's batch reader (`mail::read_batch`: read, unflow, scan, judge, fill the rows), for
//! `tests/results/test_native_mail.py`'s growth test under `valgrind --tool=callgrind` (issue 32).
//! Every file is read first; then each batch is one call of `read_one`, and an empty batch's comes
//! last, so that with `--dump-before=*read_one*` the dumps after the first hold each batch's work
//! alone, in order. The judge is a toy one (any scheme's URL is valid but for a `#` in it): the
//! grammar's cost is the grammar tests' business. It prints each batch's number of rows.
//!
//! `read_mail --speed ROUNDS SKIPPED MBOX...` times the same reader on whole mbox files instead
//! (issue 32, docs/performance.md), the headers SKIPPED (comma-separated: `mime.TRACE_HEADERS`
//! as the command line skips them) not scanned: each file split by the core's splitter and read
//! in batches of up to 64 KiB, the best of ROUNDS rounds in CPU time of this thread (`/proc/thread-self/schedstat`,
//! steadier than the wall clock on a shared machine; a round reads the file as often as 0.3 s of
//! CPU time takes, as that count moves at the scheduler's ticks). It prints each file's messages,
//! rows, µs a message and MB/s (the toy judge's: the grammar and the binding left out).

use std::process::ExitCode;

use urlsift_core::extract::{Extractor, Judge, JudgePlan};
use urlsift_core::mail;
use urlsift_core::mbox;
use urlsift_core::scan::Scanner;
use urlsift_core::Grammar;

/// One batch read: the function the growth test dumps the counts before.
#[inline(never)]
fn read_one(messages: &[&[u8]], skipped: &[String], extractor: &Extractor, grammar: &Grammar) -> usize {
    mail::read_batch(messages, skipped, extractor, grammar).rows.len()
}

/// CPU time of this thread so far, in seconds (0 where /proc does not say).
fn cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    stat.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()).unwrap_or(0.0) / 1e9
}

/// `--speed`: one line a file, as the module's comment says.
fn speed(rounds: usize, data: &[u8], skipped: &[String], extractor: &Extractor, grammar: &Grammar) -> String {
    let messages = mbox::split(data, 1 << 16, 1 << 62, 0);
    let bodies: Vec<&[u8]> = messages.iter().map(|message| message.data.as_slice()).collect();
    // Batches of up to 64 KiB of messages, about the command line's (`matches.BATCH_WEIGHT`).
    let mut batches: Vec<Vec<&[u8]>> = vec![Vec::new()];
    let mut held = 0;
    for body in &bodies {
        if held + body.len() > 1 << 16 && batches.last().is_some_and(|batch| !batch.is_empty()) {
            batches.push(Vec::new());
            held = 0;
        }
        held += body.len();
        if let Some(batch) = batches.last_mut() {
            batch.push(body);
        }
    }
    let (mut best, mut rows) = (f64::INFINITY, 0);
    for _ in 0..rounds {
        let (started, mut times) = (cpu(), 0_u32);
        while times == 0 || cpu() - started < 0.3 {
            rows = batches.iter().map(|batch| read_one(batch, skipped, extractor, grammar)).sum::<usize>();
            times += 1;
        }
        best = best.min((cpu() - started) / f64::from(times));
    }
    let count = bodies.len();
    let each = best * 1e6 / count.max(1) as f64;
    let (mb, batches) = (data.len() as f64 / best / 1e6, batches.len());
    format!("{count} messages in {batches} batches, {rows} rows, {each:.2} us a message, {mb:.0} MB/s")
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
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut skipped = vec!["received".to_owned()];
    let rounds = if args.first().is_some_and(|arg| arg == "--speed") {
        let (Some(rounds), Some(names)) = (args.get(1).and_then(|n| n.parse().ok()), args.get(2)) else {
            eprintln!("usage: read_mail --speed ROUNDS SKIPPED MBOX...");
            return ExitCode::FAILURE;
        };
        skipped = names.split(',').map(str::to_owned).collect();
        args.drain(..3);
        Some(rounds)
    } else {
        None
    };
    let mut files = Vec::new();
    for path in &args {
        let Ok(data) = std::fs::read(path) else {
            eprintln!("read_mail: cannot read {path}");
            return ExitCode::FAILURE;
        };
        files.push(data);
    }
    if let Some(rounds) = rounds {
        for (path, data) in args.iter().zip(&files) {
            println!("{path}: {}", speed(rounds, data, &skipped, &extractor, &grammar));
        }
        return ExitCode::SUCCESS;
    }
    files.push(Vec::new());
    for data in &files {
        let messages: Vec<&[u8]> = data.split(|&b| b == 0).collect();
        println!("{}", read_one(&messages, &skipped, &extractor, &grammar));
    }
    ExitCode::SUCCESS
}
