//! A window's rows as columns (issue 31; `_core.TextReader`'s, `text.rs`): its matches, taken a
//! block at a time, with no Python object made per row but its strings. The
//! core fills `url`, `alternatives`, `wrapper`, `line`, `column`, `start`, `end` and
//! `quote_depth`; each row names its verdict by an index into the block's distinct verdicts
//! (url, valid, kind, naked, why), which Python works out once each (`_native_rows.py`). A
//! candidate the core left to Python's judge is handed back whole, with its row's index.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use urlsift_core::extract::{self as core, Found};
use urlsift_core::rejoin::Reading;
use urlsift_core::rows::{pieces_bounds, quote_depth, PREFIX_CHARS};
use urlsift_core::scan::{Unit, Wrapper};
use urlsift_core::text::Prefix;

use crate::extract::kind_of;

/// A found match with the columns the core works out: its verdict (an index into the block's
/// distinct ones, or the candidate whole when Python's judge must say), and its numbers.
pub(crate) struct Row {
    verdict: Verdict,
    alternatives: Vec<String>,
    wrapper: Option<Wrapper>,
    /// line, column, start, end, quote_depth (`_native_rows._NUMBERS`).
    numbers: [i64; 5],
}

enum Verdict {
    Known(usize),
    Undecided(Box<Found>),
}

/// A block's rows and their distinct verdicts.
pub(crate) struct Taken {
    rows: Vec<Row>,
    verdicts: Verdicts,
}

fn to_i64(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// `around.quote_depth` of a match in `units` (a window whose first character is at `base`).
fn depth_of<T: Unit>(units: &[T], found: &Found, base: i64, prefix: &Prefix) -> Result<i64, String> {
    if found.column == 0 {
        return Ok(0); // nothing before it on its line (a header value's URL, most often)
    }
    let start = to_i64(found.span.0);
    let line_start = start - found.column;
    let end = start.min(line_start + to_i64(PREFIX_CHARS));
    if line_start >= 0 {
        let line = units.get(usize::try_from(line_start).unwrap_or(0)..usize::try_from(end).unwrap_or(0));
        return Ok(line.map_or(0, quote_depth));
    }
    if base + line_start != prefix.start {
        return Err(format!("the line of characters {} on is no longer kept", base + start));
    }
    let line = prefix.chars.get(..usize::try_from(end - line_start).unwrap_or(0)).unwrap_or(&prefix.chars);
    Ok(quote_depth(line))
}

/// The next matches of `scan`, at most `limit` (a candidate gives one at most), each with its
/// columns. Each match's URL is read into one buffer, kept from candidate to candidate, and
/// copied out only for a verdict the block has not met: a text of rejected candidates makes no
/// string per row.
pub(crate) fn take<T: Unit>(
    extractor: &core::Extractor,
    grammar: &urlsift_core::Grammar,
    matches: (&mut urlsift_core::scan::Scan, &mut core::Lines, &mut core::Judgements),
    units: &[T],
    base: i64,
    limit: usize,
    prefix: &Prefix,
) -> Result<Taken, String> {
    let (scan, lines, judgements) = matches;
    let mut rows = Vec::with_capacity(limit.min(1 << 10));
    let mut verdicts = Verdicts::default();
    let mut reading = Reading::default();
    while rows.len() < limit {
        let Some(candidate) = extractor.scanner.next(scan, units) else { break };
        let judged =
            extractor.candidate_judged_into(grammar, units, &candidate, lines, judgements, &mut reading);
        let Some(mut found) = judged else { continue };
        let (start, end) = pieces_bounds(&reading.pieces, found.span);
        let depth = depth_of(units, &found, base, prefix)?;
        let alternatives = std::mem::take(&mut found.alternatives);
        let (wrapper, line, column) = (found.wrapper, found.line, found.column);
        let verdict = match found.valid {
            Some(valid) => {
                let (kind, why) = kind_of(found.verdict);
                let naked = found.wrapper.is_none();
                Verdict::Known(verdicts.index(&reading.url, Bits { valid, kind, naked, why }))
            }
            None => {
                (found.url, found.pieces) = (reading.url.clone(), reading.pieces.clone());
                found.alternatives.clone_from(&alternatives);
                Verdict::Undecided(Box::new(found))
            }
        };
        let numbers = [line, column, base + to_i64(start), base + to_i64(end), depth];
        rows.push(Row { verdict, alternatives, wrapper, numbers });
    }
    Ok(Taken { rows, verdicts })
}

/// A verdict as Python makes it, less its URL: valid, kind, naked, why (`_native_rows._resolve`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Bits {
    valid: bool,
    kind: u8,
    naked: bool,
    why: Option<usize>,
}

/// The distinct verdicts of a block, numbered as first met; a verdict is looked up by the URL
/// read into the buffer, with no string made unless it is new.
#[derive(Default)]
pub(crate) struct Verdicts {
    keys: Vec<(String, Bits)>,
    /// Each hash's latest verdict, and for each verdict the one met before it of the same hash.
    latest: HashMap<u64, usize>,
    before: Vec<Option<usize>>,
    /// (Keyed at random, as `HashMap`'s own: a crafted text cannot make its URLs collide.)
    state: RandomState,
    /// The verdicts of the last rows, latest first (a text of repeats, or of a few kinds of
    /// candidate in turn, needs no hash).
    recent: [Option<usize>; RECENT],
}

const RECENT: usize = 4;

impl Verdicts {
    fn is(&self, k: usize, url: &str, bits: Bits) -> bool {
        // An empty string's pointer is dangling, and `bcmp` reading it (zero bytes, but through
        // a masked vector load) cost a page fault's assist on every compare: lengths first.
        self.keys.get(k).is_some_and(|(held, was)| {
            *was == bits && held.len() == url.len() && (url.is_empty() || held == url)
        })
    }

    fn index(&mut self, url: &str, bits: Bits) -> usize {
        let recent = self.recent.iter().position(|k| k.is_some_and(|k| self.is(k, url, bits)));
        let k = match recent.and_then(|at| self.recent.get(at).copied().flatten()) {
            Some(k) => k,
            None => self.looked_up(url, bits),
        };
        // Moved to the front: the others shift down one, the oldest dropped.
        let at = recent.unwrap_or(RECENT - 1);
        self.recent.get_mut(..=at).unwrap_or_default().rotate_right(1);
        self.recent[0] = Some(k);
        k
    }

    /// The verdict's index by its hash, a new one if the block has not met it.
    fn looked_up(&mut self, url: &str, bits: Bits) -> usize {
        let hash = self.state.hash_one((url, bits));
        let mut at = self.latest.get(&hash).copied();
        while let Some(k) = at {
            if self.is(k, url, bits) {
                return k;
            }
            at = self.before.get(k).copied().flatten();
        }
        let k = self.keys.len();
        self.before.push(self.latest.insert(hash, k));
        self.keys.push((url.to_owned(), bits));
        k
    }
}

/// `rows`' tuple of the rows `taken` (None: there are none). Each distinct verdict of the block
/// is one `str` of its URL, which every row of that verdict shares: a URL met again makes no
/// Python object, and each list is made at its size.
pub(crate) fn columns<'py>(
    py: Python<'py>,
    extractor: &crate::extract::Extractor,
    taken: Taken,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let Taken { rows, verdicts: distinct } = taken;
    if rows.is_empty() {
        return Ok(None);
    }
    let count = rows.len();
    let (mut urls, mut alternatives, mut wrappers) =
        (Vec::with_capacity(count), Vec::with_capacity(count), Vec::with_capacity(count));
    let (verdicts, undecided) = (PyList::empty(py), PyList::empty(py));
    let mut strings = Vec::with_capacity(distinct.keys.len());
    for (url, Bits { valid, kind, naked, why }) in &distinct.keys {
        let url = PyString::new(py, url);
        verdicts.append((&url, *valid, *kind, *naked, *why))?;
        strings.push(url);
    }
    let mut numbers = vec![0_i64; 6 * count];
    let none = PyTuple::empty(py);
    for (i, row) in rows.into_iter().enumerate() {
        for (k, value) in row.numbers.into_iter().enumerate() {
            numbers[k * count + i] = value;
        }
        alternatives.push(if row.alternatives.is_empty() {
            none.clone()
        } else {
            PyTuple::new(py, &row.alternatives)?
        });
        wrappers.push(extractor.wrapper(py, row.wrapper));
        let index = match row.verdict {
            Verdict::Known(k) => {
                let url = strings.get(k).ok_or_else(|| PyRuntimeError::new_err("a verdict out of range"))?;
                urls.push(url.clone());
                to_i64(k)
            }
            Verdict::Undecided(found) => {
                urls.push(PyString::new(py, &found.url));
                undecided.append((i, extractor.item(py, *found)?))?;
                -1
            }
        };
        numbers[5 * count + i] = index;
    }
    // Written in place, eight bytes a number: a `flat_map` collected them a byte at a time, with
    // no size known ahead.
    let numbers = PyBytes::new_with(py, 8 * numbers.len(), |bytes| {
        for (slot, number) in bytes.chunks_exact_mut(8).zip(&numbers) {
            slot.copy_from_slice(&number.to_ne_bytes());
        }
        Ok(())
    })?;
    Ok(Some(PyTuple::new(
        py,
        [
            PyList::new(py, urls)?.into_any(),
            PyList::new(py, alternatives)?.into_any(),
            PyList::new(py, wrappers)?.into_any(),
            numbers.into_any(),
            verdicts.into_any(),
            undecided.into_any(),
        ],
    )?))
}
