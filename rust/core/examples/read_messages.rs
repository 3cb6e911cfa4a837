//! Reads each message file named on the command line with the core's message reader, for
//! `tests/sources/test_mime_cores.py`'s growth test under `valgrind --tool=callgrind` (issue 32).
//! Every file is read first; then each message is one call of `read_one`, and an empty message's
//! comes last, so that with `--dump-before=*read_one*` the dumps after the first hold each
//! message's reading alone, in order. It prints each message's number of texts (or why the core
//! left it to Python).

use std::process::ExitCode;

use urlsift_core::mime;

/// One message read: the function the growth test dumps the counts before.
#[inline(never)]
fn read_one(data: &[u8]) -> Result<usize, mime::Fallback> {
    mime::read(data, &["received".to_owned()]).map(|message| message.headers.len() + message.parts.len())
}

fn main() -> ExitCode {
    let mut messages = Vec::new();
    for path in std::env::args().skip(1) {
        let Ok(data) = std::fs::read(&path) else {
            eprintln!("read_messages: cannot read {path}");
            return ExitCode::FAILURE;
        };
        messages.push(data);
    }
    messages.push(Vec::new());
    for data in &messages {
        match read_one(data) {
            Ok(texts) => println!("{texts}"),
            Err(why) => println!("{}", why.as_str()),
        }
    }
    ExitCode::SUCCESS
}
