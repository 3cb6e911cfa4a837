//! A window's rows as columns (issue 31; `_core.TextReader`'s, `text.rs`): its matches, taken a
//! block at a time, with no Python object made per row but its strings. The
//! core fills `url`, `alternatives`, `wrapper`, `line`, `column`, `start`, `end` and
//! `quote_depth`; each row names its verdict by an index into the block's distinct verdicts
//! (url, valid, kind, naked, why), which Python works out once each (`_native_rows.py`). A
//! candidate the core left to Python's judge is handed back whole, with its row's index.

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use urlsift_core::extract::{self as core, Found};
use urlsift_core::rows::{bounds, quote_depth, PREFIX_CHARS};
use urlsift_core::scan::Unit;
use urlsift_core::text::Prefix;

use crate::extract::kind_of;

/// A found match with the columns the core works out.
pub(crate) struct Row {
    found: Found,
    start: i64,
    end: i64,
    depth: i64,
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
/// columns.
pub(crate) fn take<T: Unit>(
    extractor: &core::Extractor,
    grammar: &urlsift_core::Grammar,
    matches: (&mut urlsift_core::scan::Scan, &mut core::Lines, &mut core::Judgements),
    units: &[T],
    base: i64,
    limit: usize,
    prefix: &Prefix,
) -> Result<Vec<Row>, String> {
    let (scan, lines, judgements) = matches;
    let mut rows = Vec::with_capacity(limit.min(1 << 10));
    while rows.len() < limit && !scan.done() {
        let candidates = std::iter::from_fn(|| extractor.scanner.next(scan, units)).take(limit - rows.len());
        for found in
            candidates.filter_map(|c| extractor.candidate_judged(grammar, units, &c, lines, judgements))
        {
            let (start, end) = bounds(&found);
            let depth = depth_of(units, &found, base, prefix)?;
            rows.push(Row { found, start: base + to_i64(start), end: base + to_i64(end), depth });
        }
    }
    Ok(rows)
}

/// A row's verdict as Python makes it: url, valid, kind, naked, why (`_native_rows._resolve`).
#[derive(Clone, PartialEq, Eq)]
struct Key {
    url: Url,
    valid: bool,
    kind: u8,
    naked: bool,
    why: Option<usize>,
}

/// A URL as a key. An empty string's pointer is dangling, and `bcmp` reading it (zero bytes,
/// but through a masked vector load) cost a page fault's assist on every compare: lengths first.
#[derive(Clone, Eq)]
struct Url(String);

impl PartialEq for Url {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len() && (self.0.is_empty() || self.0 == other.0)
    }
}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Two writes, not one a field (each write costs SipHash a step); equal keys write the same.
        state.write(self.url.0.as_bytes());
        let why = self.why.map_or(0, |why| why + 1);
        let (kind, valid, naked) = (usize::from(self.kind), usize::from(self.valid), usize::from(self.naked));
        state.write_usize(why << 10 | kind << 2 | valid << 1 | naked);
    }
}

/// `rows`' tuple of the rows `found` (None: there are none). Each distinct verdict of the block
/// is one `str` of its URL, which every row of that verdict shares: a URL met again makes no
/// Python object, and each list is made at its size.
pub(crate) fn columns<'py>(
    py: Python<'py>,
    extractor: &crate::extract::Extractor,
    found: Vec<Row>,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    if found.is_empty() {
        return Ok(None);
    }
    let count = found.len();
    let (mut urls, mut alternatives, mut wrappers) =
        (Vec::with_capacity(count), Vec::with_capacity(count), Vec::with_capacity(count));
    let (verdicts, undecided) = (PyList::empty(py), PyList::empty(py));
    let mut numbers = vec![0_i64; 6 * count];
    let mut known: HashMap<Key, (i64, Bound<'py, PyString>)> = HashMap::new();
    let mut last: Option<(Key, i64, Bound<'py, PyString>)> = None;
    let none = PyTuple::empty(py);
    for (i, Row { found, start, end, depth }) in found.into_iter().enumerate() {
        let naked = found.wrapper.is_none();
        let (kind, why) = kind_of(found.verdict);
        for (k, value) in [found.line, found.column, start, end, depth].into_iter().enumerate() {
            numbers[k * count + i] = value;
        }
        alternatives.push(if found.alternatives.is_empty() {
            none.clone()
        } else {
            PyTuple::new(py, &found.alternatives)?
        });
        wrappers.push(extractor.wrapper(py, found.wrapper));
        let index = match found.valid {
            Some(valid) => {
                let key = Key { url: Url(found.url), valid, kind, naked, why };
                // A row of the verdict before it (a text of repeats) needs no lookup.
                let (index, url) = match &last {
                    Some((held, index, url)) if *held == key => (*index, url.clone()),
                    _ => {
                        let (index, url) = match known.get(&key) {
                            Some((index, url)) => (*index, url.clone()),
                            None => {
                                let index = to_i64(known.len());
                                let url = PyString::new(py, &key.url.0);
                                verdicts.append((&url, valid, kind, naked, why))?;
                                known.insert(key.clone(), (index, url.clone()));
                                (index, url)
                            }
                        };
                        last = Some((key, index, url.clone()));
                        (index, url)
                    }
                };
                urls.push(url);
                index
            }
            None => {
                urls.push(PyString::new(py, &found.url));
                undecided.append((i, extractor.item(py, found)?))?;
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
