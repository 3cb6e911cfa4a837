//! The mbox splitter (issue 32): an mbox's bytes, fed in blocks of any size, into its messages,
//! exactly as `src/urlsift/sources/mbox.py` reads them. That module stays the reference and the
//! oracle (its docstring states the rules); this one restates its steps, name for name.
//!
//! A message starts at a `From ` line at the start of the input or after an empty line that
//! `is_separator` accepts (mboxo/mboxrd, and pipermail's `From user at host  date`, D32). The empty
//! line before the next separator belongs to the file, not the message; `>From `, `>>From ` ...
//! at a line's start lose one `>` (mboxrd). A message over the limit keeps only its first
//! `HEAD_BYTES` (its headers) and is counted whole: it is never held whole. Between calls the
//! splitter holds the message being read (up to the limit) and at most the line the input was cut
//! in (up to a block, or `MAX_SEPARATOR_BYTES` when the line has no end yet).

use memchr::{memchr, memmem, memrchr};

/// A line longer than this is no separator: it is passed on without waiting for its end.
pub const MAX_SEPARATOR_BYTES: usize = 4096;
/// What is kept of a message over the limit: enough for its headers.
pub const HEAD_BYTES: usize = 1 << 16;

/// One message, as `RawMessage` (sources/mbox.py) has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawMessage {
    /// 0-based, in input order.
    pub number: u64,
    /// Byte offset of its `From ` line (from the splitter's `start`).
    pub offset: u64,
    /// Without its separator line and the empty line after it; only its first `HEAD_BYTES` when
    /// `size` is over the limit (and then unquoted: kept as it was).
    pub data: Vec<u8>,
    /// Its length in bytes, however much of it was kept.
    pub size: u64,
    /// False when the input ended in the middle of its last line (a truncated file).
    pub complete: bool,
    /// D32: its separator has pipermail's shape: every address in it reads `user at host`.
    pub pipermail: bool,
}

/// The blanks of Python's bytes `\s` and `bytes.strip`: space, tab, LF, CR, VT, FF.
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)
}

/// The length of the run of non-blanks (`\S+`) at the start of `bytes`.
fn word(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|&&byte| !is_blank(byte)).count()
}

/// Whether `line` (without its line feed) is a separator: shorter than `MAX_SEPARATOR_BYTES` and
/// as `From \S+(?: at \S+)? .*\d\d:\d\d(?::\d\d)?.* \d{4}\s*$` reads it (sources/mbox.py's
/// `is_separator`, checked without the pattern's backtracking, issue 17): the sender is followed
/// by a space, the line ends in a space and four digits (and blanks), and a time lies between.
pub fn is_separator(line: &[u8]) -> bool {
    if !line.starts_with(b"From ") || line.len() >= MAX_SEPARATOR_BYTES {
        return false;
    }
    let sender_end = 5 + word(&line[5..]);
    if sender_end == 5 || line.get(sender_end) != Some(&b' ') {
        return false;
    }
    let end = line.len() - line.iter().rev().take_while(|&&byte| is_blank(byte)).count();
    // end > sender_end > 5: the sender is no blank.
    if end < sender_end || line[end - 5] != b' ' || !line[end - 4..end].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let between = line.get(sender_end + 1..end - 5).unwrap_or_default();
    between.windows(5).any(|time| {
        time[0].is_ascii_digit()
            && time[1].is_ascii_digit()
            && time[2] == b':'
            && time[3].is_ascii_digit()
            && time[4].is_ascii_digit()
    })
}

/// D32: whether a separator line has pipermail's shape, `From \S+ at \S+ `.
fn is_pipermail(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"From ") else { return false };
    let user = word(rest);
    let Some(rest) = rest[user..].strip_prefix(b" at ").filter(|_| user > 0) else { return false };
    let host = word(rest);
    host > 0 && rest.get(host) == Some(&b' ')
}

/// Whether a line (with its line feed) is empty: `\n` or `\r\n`.
fn is_empty_line(line: &[u8]) -> bool {
    line == b"\n" || line == b"\r\n"
}

/// `data` with one `>` taken from each line that starts `>From `, `>>From ` ... (mboxrd).
fn unquoted(data: Vec<u8>) -> Vec<u8> {
    if memmem::find(&data, b">From ").is_none() {
        return data; // the common case: nothing quoted, nothing copied
    }
    let mut out = Vec::with_capacity(data.len());
    let mut line_start = 0;
    while line_start < data.len() {
        let line_end = memchr(b'\n', &data[line_start..]).map_or(data.len(), |at| line_start + at + 1);
        let line = &data[line_start..line_end];
        let marks = line.iter().take_while(|&&byte| byte == b'>').count();
        let quoted = marks > 0 && line[marks..].starts_with(b"From ");
        out.extend_from_slice(&line[usize::from(quoted)..]);
        line_start = line_end;
    }
    out
}

/// The message being read: its bytes, kept up to the limit.
#[derive(Debug)]
struct Message {
    number: u64,
    offset: u64,
    pipermail: bool,
    kept: Vec<u8>,
    size: u64,
    /// Its last 3 bytes (`last_len` of them): enough to tell whether it ends in an empty line.
    last: [u8; 3],
    last_len: usize,
}

impl Message {
    fn add(&mut self, data: &[u8], limit: u64) {
        self.size += data.len() as u64;
        for &byte in &data[data.len().saturating_sub(3)..] {
            if self.last_len == 3 {
                self.last.rotate_left(1);
                self.last[2] = byte;
            } else {
                self.last[self.last_len] = byte;
                self.last_len += 1;
            }
        }
        // Held whole up to the limit and the empty line that may end it (the file's, not its own): a
        // message cut to its head is over the limit, whatever its last line turns out to be.
        if self.size <= limit.saturating_add(2) {
            self.kept.extend_from_slice(data);
        } else if self.kept.len() < HEAD_BYTES {
            let room = HEAD_BYTES - self.kept.len();
            self.kept.extend_from_slice(&data[..data.len().min(room)]);
        } else {
            self.kept.truncate(HEAD_BYTES);
        }
    }

    /// The length of the empty line it ends in, which separates it from the next message (or the
    /// input's end) and is not its own.
    fn separating_line(&self) -> u64 {
        let last = &self.last[..self.last_len];
        if is_empty_line(last) {
            self.size // nothing but that line
        } else if last.ends_with(b"\n\n") {
            1
        } else if last.ends_with(b"\n\r\n") {
            2
        } else {
            0
        }
    }

    fn done(self, complete: bool, limit: u64) -> RawMessage {
        let size = self.size - self.separating_line();
        let mut data = self.kept;
        data.truncate(usize::try_from(size).unwrap_or(usize::MAX));
        let data = if size > limit {
            data.truncate(HEAD_BYTES);
            data
        } else {
            unquoted(data)
        };
        RawMessage {
            number: self.number,
            offset: self.offset,
            data,
            size,
            complete,
            pipermail: self.pipermail,
        }
    }
}

/// The streaming splitter: `feed` it the input's blocks in order, then `finish`; each gives the
/// messages it completed. The messages are the same whatever the blocks' sizes.
#[derive(Debug)]
pub struct Splitter {
    limit: u64,
    /// Input not yet given to a message: the line the last block was cut in.
    data: Vec<u8>,
    /// Offset of `data[0]`.
    position: u64,
    /// `data[0]` continues a long line passed on already.
    mid_line: bool,
    /// The line before `data[0]` was empty (the input's start counts as one).
    after_empty: bool,
    current: Option<Message>,
    index: u64,
}

impl Splitter {
    /// `limit`: the largest message held whole; `start`: the offset of the first byte fed (in a
    /// larger file the offsets are given in).
    pub fn new(limit: u64, start: u64) -> Self {
        Splitter {
            limit,
            data: Vec::new(),
            position: start,
            mid_line: false,
            after_empty: true,
            current: None,
            index: 0,
        }
    }

    /// Takes the next block of input; pushes the messages it completed to `out`.
    pub fn feed(&mut self, block: &[u8], out: &mut Vec<RawMessage>) {
        // The block's whole lines are split where they lie: only the line it is cut in is copied
        // and held. Feeding the end of a held line as a block of its own first changes nothing:
        // the messages are the same whatever the blocks.
        let mut block = block;
        if !self.data.is_empty() {
            let Some(at) = memchr(b'\n', block) else { return self.hold(block, out) };
            self.hold(&block[..=at], out);
            block = &block[at + 1..];
        }
        let end = memrchr(b'\n', block).map_or(0, |at| at + 1);
        if end > 0 {
            self.split_lines(&block[..end], out);
        }
        self.hold(&block[end..], out);
    }

    /// `feed` through the held line: `block` joins what is held, whose whole lines are split.
    fn hold(&mut self, block: &[u8], out: &mut Vec<RawMessage>) {
        if block.is_empty() {
            return;
        }
        // What is left of the blocks before holds no line feed (it is the line they were cut in):
        // only the new block is searched, so that small blocks cost no more than large ones.
        let held = self.data.len();
        self.data.extend_from_slice(block);
        let mut end = memrchr(b'\n', block).map_or(0, |at| held + at + 1); // whole lines
        if end == 0 {
            if self.data.len() <= MAX_SEPARATOR_BYTES {
                return;
            }
            end = self.data.len(); // part of a long line, which is no separator: pass it on
        }
        self.take(end, out);
    }

    /// The input has ended: pushes its last message to `out`.
    pub fn finish(mut self, out: &mut Vec<RawMessage>) {
        self.take(self.data.len(), out);
        if let Some(current) = self.current.take() {
            out.push(current.done(!self.mid_line, self.limit));
        }
    }

    /// Whether the line before the one starting at `data[at]` is empty.
    fn empty_before(&self, head: &[u8], at: usize) -> bool {
        if at == 0 {
            return self.after_empty && !self.mid_line;
        }
        let line_start = memrchr(b'\n', &head[..at - 1]).map_or(0, |newline| newline + 1);
        !(line_start == 0 && self.mid_line) && is_empty_line(&head[line_start..at])
    }

    /// Splits `data[..end]` (whole lines, but at the input's end or in a long line).
    fn take(&mut self, end: usize, out: &mut Vec<RawMessage>) {
        let data = std::mem::take(&mut self.data);
        self.split_lines(&data[..end], out);
        self.data = data;
        self.data.drain(..end);
    }

    /// Splits `head`, the input that follows what was split before (whole lines, but at the
    /// input's end or in a long line).
    fn split_lines(&mut self, head: &[u8], out: &mut Vec<RawMessage>) {
        let mut taken = 0;
        let end = head.len();
        let first = head.starts_with(b"From ").then_some(0);
        let starts = first.into_iter().chain(memmem::find_iter(head, b"\nFrom ").map(|at| at + 1));
        for at in starts {
            let line_end = memchr(b'\n', &head[at..]).map(|length| at + length);
            let line = &head[at..line_end.unwrap_or(end)];
            if self.empty_before(head, at) && is_separator(line) {
                if let Some(mut current) = self.current.take() {
                    current.add(&head[taken..at], self.limit);
                    out.push(current.done(true, self.limit));
                    self.index += 1;
                }
                self.current = Some(Message {
                    number: self.index,
                    offset: self.position + at as u64,
                    pipermail: is_pipermail(line),
                    kept: Vec::new(),
                    size: 0,
                    last: [0; 3],
                    last_len: 0,
                });
                taken = at + line.len() + usize::from(line_end.is_some());
            }
        }
        if let Some(current) = &mut self.current {
            current.add(&head[taken..], self.limit);
        }
        if end > 0 {
            let line_start = memrchr(b'\n', &head[..end - 1]).map_or(0, |newline| newline + 1);
            let ended = head[end - 1] == b'\n';
            self.after_empty =
                ended && !(line_start == 0 && self.mid_line) && is_empty_line(&head[line_start..]);
            self.mid_line = !ended;
        }
        self.position += end as u64;
    }
}

/// All the messages of `input`, fed in blocks of `block` bytes (at least one).
pub fn split(input: &[u8], block: usize, limit: u64, start: u64) -> Vec<RawMessage> {
    let mut splitter = Splitter::new(limit, start);
    let mut out = Vec::new();
    for piece in input.chunks(block.max(1)) {
        splitter.feed(piece, &mut out);
    }
    splitter.finish(&mut out);
    out
}

/// The offset in `block` of the first separator line that starts at or after `first`, after an
/// empty line: as sources/split.py's `_next_separator` looks in one block, the matches of
/// `\n\r?\nFrom ` that end by `endpos`, each with its line (which must end within
/// `MAX_SEPARATOR_BYTES`, in `block`).
pub fn next_separator(block: &[u8], first: usize, endpos: usize) -> Option<usize> {
    let endpos = endpos.min(block.len());
    let mut search = 0;
    while let Some(found) = memmem::find(&block[search..endpos], b"\nFrom ") {
        let from = search + found + 1;
        search = from;
        // The empty line before it: "\n" or "\r\n", after a line feed.
        let after_empty = block[..from - 1].ends_with(b"\n") || block[..from - 1].ends_with(b"\n\r");
        if !after_empty || from < first {
            continue;
        }
        let limit = block.len().min(from + MAX_SEPARATOR_BYTES);
        if let Some(length) = memchr(b'\n', &block[from..limit]) {
            if is_separator(&block[from..from + length]) {
                return Some(from);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEPARATOR: &[u8] = b"From someone@example.org Thu Jan  1 00:00:00 1970";

    fn mbox(bodies: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for body in bodies {
            out.extend_from_slice(SEPARATOR);
            out.push(b'\n');
            out.extend_from_slice(body);
            out.push(b'\n');
        }
        out
    }

    #[test]
    fn separators_are_the_patterns() {
        assert!(is_separator(SEPARATOR));
        assert!(is_separator(b"From user at host.org  Mon May  5 12:34:56 1997"));
        assert!(is_separator(b"From a 12:34 1999 \r"));
        assert!(!is_separator(b"From a 1234 1999"));
        assert!(!is_separator(b"From  a 12:34 1999"));
        assert!(!is_separator(b"From a 12:34 199"));
        assert!(!is_separator(b"From a12:34 1999"));
        assert!(!is_separator(b"From "));
        let long = [SEPARATOR, &b" "[..].repeat(MAX_SEPARATOR_BYTES)].concat();
        assert!(!is_separator(&long));
    }

    #[test]
    fn pipermail_shape() {
        assert!(is_pipermail(b"From user at host.org  Mon May  5 12:34:56 1997"));
        assert!(!is_pipermail(SEPARATOR));
        assert!(!is_pipermail(b"From user at  host"));
        assert!(!is_pipermail(b"From  at host "));
    }

    #[test]
    fn messages_lose_their_separating_line_and_one_quote_mark() {
        let input = mbox(&[b"Subject: a\n\n>From here\n>>From there\n", b"Subject: b\n\nx"]);
        let found = split(&input, 1 << 16, u64::MAX, 10);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].data, b"Subject: a\n\nFrom here\n>From there\n");
        assert_eq!(found[0].offset, 10);
        assert_eq!(found[1].data, b"Subject: b\n\nx\n");
        assert_eq!(found[1].number, 1);
        assert!(found[1].complete);
    }

    #[test]
    fn a_from_line_after_text_is_no_separator() {
        let input = [SEPARATOR, b"\nbody\n", SEPARATOR, b"\n"].concat();
        assert_eq!(split(&input, 3, u64::MAX, 0).len(), 1);
    }

    #[test]
    fn the_same_messages_whatever_the_blocks() {
        let input = mbox(&[b"a\r\n\r\n", b"", b">From x\n\n", b"b\nFrom y\n"]);
        let input = [&input[..], b"no end"].concat();
        let whole = split(&input, input.len(), 5, 0);
        assert!(!whole.last().unwrap().complete);
        for block in 1..20 {
            assert_eq!(split(&input, block, 5, 0), whole, "block {block}");
        }
    }

    #[test]
    fn the_same_messages_whether_a_block_ends_in_a_line_or_after_it() {
        // Blocks cut at line ends (split where they lie) and inside lines, a long line among them
        // (held, then passed on).
        let mut long = vec![b'y'; 3 * MAX_SEPARATOR_BYTES];
        long.push(b'\n');
        let input = mbox(&[b"a\n\nFrom x\n", &long, b">From z\n\n", b"b"]);
        let whole = split(&input, input.len(), u64::MAX, 0);
        assert_eq!(whole.len(), 4);
        for step in [1, 2, 5, 11, 100, 5000] {
            let mut splitter = Splitter::new(u64::MAX, 0);
            let mut found = Vec::new();
            let mut at = 0;
            for size in (1..).map(|turn| 1 + (turn * step) % 97) {
                let end = input.len().min(at + size);
                splitter.feed(&input[at..end], &mut found);
                at = end;
                if at == input.len() {
                    break;
                }
            }
            splitter.finish(&mut found);
            assert_eq!(found, whole, "step {step}");
        }
    }

    #[test]
    fn a_message_over_the_limit_keeps_its_head_only() {
        let body = vec![b'x'; 3 * HEAD_BYTES];
        let found = split(&mbox(&[&body]), 1000, 100, 0);
        assert_eq!(found[0].size, body.len() as u64 + 1);
        assert_eq!(found[0].data.len(), HEAD_BYTES);
    }

    #[test]
    fn the_next_separator_follows_an_empty_line() {
        let block = [b"x\n\n", SEPARATOR, b"\nbody\r\n\r\n", SEPARATOR, b"\n"].concat();
        assert_eq!(next_separator(&block, 0, block.len()), Some(3));
        let second = 3 + SEPARATOR.len() + 9;
        assert_eq!(next_separator(&block, 4, block.len()), Some(second));
        assert_eq!(next_separator(&block, 4, second + 4), None);
        assert_eq!(next_separator(&block, 4, second + 5), Some(second));
    }
}
