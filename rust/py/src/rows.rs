//! A window's rows as columns (`urlsift._core.rows`, issue 31): the matches of an `Extractor`'s
//! `Matches`, taken a block at a time, with no Python object made per row but its strings. The
//! core fills `url`, `alternatives`, `wrapper`, `line`, `column`, `start`, `end` and
//! `quote_depth`; each row names its verdict by an index into the block's distinct verdicts
//! (url, valid, kind, naked, why), which Python works out once each (`_native_rows.py`). A
//! candidate the core left to Python's judge is handed back whole, with its row's index.

use std::collections::HashMap;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use urlsift_core::extract::{self as core, Found};
use urlsift_core::rows::{bounds, quote_depth, PREFIX_CHARS};
use urlsift_core::scan::Unit;

use crate::extract::{kind_of, Matches};
use crate::scan::UnitSlice;

/// The start of the line that holds a window's first character, where that line began before the
/// window (`around.StreamText` keeps the same): its position in the whole text, its first
/// characters.
struct Prefix {
    start: i64,
    chars: Vec<char>,
}

/// A found match with the columns the core works out.
struct Row {
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
fn take<T: Unit>(
    extractor: &core::Extractor,
    grammar: &urlsift_core::Grammar,
    matches: (&mut urlsift_core::scan::Scan, &mut core::Lines),
    units: &[T],
    base: i64,
    limit: usize,
    prefix: &Prefix,
) -> Result<Vec<Row>, String> {
    let (scan, lines) = matches;
    let mut rows = Vec::new();
    while rows.len() < limit && !scan.done() {
        let candidates = std::iter::from_fn(|| extractor.scanner.next(scan, units)).take(limit - rows.len());
        for found in candidates.filter_map(|c| extractor.candidate(grammar, units, &c, lines)) {
            let (start, end) = bounds(&found);
            let depth = depth_of(units, &found, base, prefix)?;
            rows.push(Row { found, start: base + to_i64(start), end: base + to_i64(end), depth });
        }
    }
    Ok(rows)
}

/// The next rows (at most `limit`) of `matches`, a window whose first character is at `base` in
/// the whole text, as (url, alternatives, wrapper, numbers, verdicts, undecided): `numbers` is
/// the `line`, `column`, `start`, `end`, `quote_depth` and verdict index columns, one after the
/// other, as native 64-bit integers; `verdicts` the distinct (url, valid, kind, naked, why);
/// `undecided` (row, candidate) for each candidate Python's judge must rank (its verdict index
/// -1). None once the window has no more. `prefix`: the start of the line that holds the
/// window's first character, as `StreamText` keeps it (its position, its first characters).
#[pyfunction]
fn rows<'py>(
    matches: &Bound<'py, Matches>,
    base: i64,
    limit: usize,
    prefix: (i64, String),
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let py = matches.py();
    let mut held = matches.borrow_mut();
    let Matches { extractor, units, scan, lines, .. } = &mut *held;
    let extractor = extractor.get();
    let (inner, grammar) = (&extractor.inner, &extractor.grammar.get().inner);
    let prefix = Prefix { start: prefix.0, chars: prefix.1.chars().collect() };
    let taken = units.with(py, "rows", |units| match units {
        UnitSlice::Bytes(bytes) => take(inner, grammar, (scan, lines), bytes, base, limit, &prefix),
        UnitSlice::Utf16(units) => take(inner, grammar, (scan, lines), units, base, limit, &prefix),
        UnitSlice::Chars(chars) => take(inner, grammar, (scan, lines), chars, base, limit, &prefix),
    })?;
    let found = taken.map_err(PyRuntimeError::new_err)?;
    if found.is_empty() {
        return Ok(None);
    }
    let count = found.len();
    let (urls, alternatives, wrappers) = (PyList::empty(py), PyList::empty(py), PyList::empty(py));
    let (verdicts, undecided) = (PyList::empty(py), PyList::empty(py));
    let mut numbers = vec![0_i64; 6 * count];
    let mut known: HashMap<(String, bool, u8, bool, Option<usize>), i64> = HashMap::new();
    for (i, Row { found, start, end, depth }) in found.into_iter().enumerate() {
        let naked = found.wrapper.is_none();
        let (kind, why) = kind_of(found.verdict);
        for (k, value) in [found.line, found.column, start, end, depth].into_iter().enumerate() {
            numbers[k * count + i] = value;
        }
        urls.append(PyString::new(py, &found.url))?;
        alternatives.append(PyTuple::new(py, &found.alternatives)?)?;
        wrappers.append(extractor.wrapper(py, found.wrapper))?;
        let index = match found.valid {
            Some(valid) => {
                let key = (found.url, valid, kind, naked, why);
                match known.get(&key) {
                    Some(&index) => index,
                    None => {
                        let index = to_i64(known.len());
                        verdicts.append((&key.0, valid, kind, naked, why))?;
                        known.insert(key, index);
                        index
                    }
                }
            }
            None => {
                undecided.append((i, extractor.item(py, found)?))?;
                -1
            }
        };
        numbers[5 * count + i] = index;
    }
    let numbers: Vec<u8> = numbers.iter().flat_map(|n| n.to_ne_bytes()).collect();
    let numbers = PyBytes::new(py, &numbers);
    Ok(Some(PyTuple::new(
        py,
        [
            urls.into_any(),
            alternatives.into_any(),
            wrappers.into_any(),
            numbers.into_any(),
            verdicts.into_any(),
            undecided.into_any(),
        ],
    )?))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(rows, module)?)
}
