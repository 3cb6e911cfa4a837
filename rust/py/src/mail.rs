//! A batch of messages' rows (`urlsift._core.mail_rows`, issue 32): `mail::read_batch` with the
//! GIL released, given back as columns with no Python object made per message or per row but
//! its strings. Each row names its verdict by an index into the batch's distinct verdicts (url,
//! valid, kind, naked, why) and its text by an index into the batch's texts (message, part);
//! a candidate the core left to Python's judge is handed back whole, with its row's index
//! (`_native_rows.py` and `_native_mail.py` take them).

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use urlsift_core::mail::{self as core, Outcome};

use crate::extract::{kind_of, Extractor};
use crate::scan::guard;

fn to_i64(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// The rows of `messages` (each a message's bytes), as (outcomes, wheres, url, alternatives,
/// wrapper, numbers, verdicts, undecided). `outcomes`: per message, the reason Python must read
/// it (a str), or (Message-ID, Date, Newsgroups, header values, texts, defects as (kind, part,
/// detail), where its rows end); `wheres`: (message, part name) of each text with rows; `numbers`:
/// the `line`, `column`, `start`, `end`, `quote_depth`, verdict index and text index columns one
/// after the other, as native 64-bit integers. `skipped`: the headers not scanned. A panic in the
/// core is `InternalError`.
#[pyfunction]
fn mail_rows<'py>(
    extractor: &Bound<'py, Extractor>,
    skipped: Vec<String>,
    messages: Vec<Bound<'py, PyBytes>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = extractor.py();
    let held = extractor.get();
    let (inner, grammar) = (&held.inner, &held.grammar.get().inner);
    let data: Vec<&[u8]> = messages.iter().map(|message| message.as_bytes()).collect();
    let batch = py.detach(|| guard("mail_rows", || core::read_batch(&data, &skipped, inner, grammar)))?;
    let outcomes = PyList::empty(py);
    for outcome in &batch.messages {
        match outcome {
            Outcome::Python(why) => outcomes.append(PyString::new(py, why))?,
            Outcome::Read(read) => {
                let defects = PyList::empty(py);
                for defect in &read.defects {
                    defects.append((defect.kind, &defect.part, &defect.detail))?;
                }
                let ids = (&read.message_id, &read.date, &read.newsgroups);
                outcomes.append((ids.0, ids.1, ids.2, read.headers, read.texts, defects, read.rows_end))?;
            }
        }
    }
    let wheres = PyList::new(py, &batch.wheres)?;
    let count = batch.rows.len();
    let (urls, alternatives, wrappers) = (PyList::empty(py), PyList::empty(py), PyList::empty(py));
    let (verdicts, undecided) = (PyList::empty(py), PyList::empty(py));
    let mut numbers = vec![0_i64; 7 * count];
    let mut known: HashMap<(String, bool, u8, bool, Option<usize>), i64> = HashMap::new();
    for (i, core::Row { found, start, end, depth, text }) in batch.rows.into_iter().enumerate() {
        let naked = found.wrapper.is_none();
        let (kind, why) = kind_of(found.verdict);
        let columns = [found.line, found.column, to_i64(start), to_i64(end), depth];
        for (k, value) in columns.into_iter().enumerate() {
            numbers[k * count + i] = value;
        }
        numbers[6 * count + i] = to_i64(text);
        urls.append(PyString::new(py, &found.url))?;
        alternatives.append(PyTuple::new(py, &found.alternatives)?)?;
        wrappers.append(held.wrapper(py, found.wrapper))?;
        numbers[5 * count + i] = match found.valid {
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
                undecided.append((i, held.item(py, found)?))?;
                -1
            }
        };
    }
    let numbers: Vec<u8> = numbers.iter().flat_map(|n| n.to_ne_bytes()).collect();
    let fields = [
        outcomes.into_any(),
        wheres.into_any(),
        urls.into_any(),
        alternatives.into_any(),
        wrappers.into_any(),
        PyBytes::new(py, &numbers).into_any(),
        verdicts.into_any(),
        undecided.into_any(),
    ];
    PyTuple::new(py, fields)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(mail_rows, module)?)
}
