//! A batch of messages' rows (`urlsift._core.mail_rows`, issue 32): `mail::read_batch` with the
//! GIL released, given back as columns with no Python object made per message or per row but
//! its strings. Each row names its verdict by an index into the batch's distinct verdicts (url,
//! valid, kind, naked, why) and its text by an index into the batch's texts (message, part);
//! a candidate the core left to Python's judge is handed back whole, with its row's index
//! (`_native_rows.py` and `_native_mail.py` take them). A hit the batch met again (a list's
//! header values) gives its rows the objects it gave the first time: one `str` a distinct hit.
//! A distinct valid verdict whose host columns the core works out comes back with its columns
//! made (`_native_rows.Resolved`): Python steps only for the others, not once a verdict. Each
//! message's `date` column (ISO 8601) and Date as written come from the core likewise.

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use urlsift_core::dates::{iso, python_stripped};
use urlsift_core::extract::Verdict;
use urlsift_core::hosts::{self, Suffixes};
use urlsift_core::mail::{self as core, Outcome};

use crate::extract::{kind_of, Extractor};
use crate::hosts::HostColumns;
use crate::scan::guard;

fn to_i64(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// Numbers as the bytes of an `array('q')`.
fn laid<'py>(py: Python<'py>, numbers: &[i64]) -> Bound<'py, PyAny> {
    let bytes: Vec<u8> = numbers.iter().flat_map(|n| n.to_ne_bytes()).collect();
    PyBytes::new(py, &bytes).into_any()
}

/// `_native_rows.Resolved` of a valid URL the core found, where the core works its host columns
/// out (`hosts.native_host_columns`: an ASCII URL, `rust/core/src/hosts.rs`'s `columns` decides):
/// valid, its scheme as `extract.said_scheme` says it (the URL's, lower-cased; None for a "www."
/// host's, whose columns are those of the http URL it stands for), no error, the host columns,
/// and no second opinion wanted. None: Python resolves it (`_native_mail.MailRows._resolve`).
fn resolved<'py>(
    py: Python<'py>,
    url: &str,
    verdict: Verdict,
    suffixes: &Suffixes,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if !url.is_ascii() {
        return Ok(None);
    }
    let (of, scheme, said) = if matches!(verdict, Verdict::Www) {
        (format!("http://{url}"), "http".to_owned(), None)
    } else {
        let Some(colon) = url.find(':') else { return Ok(None) };
        let scheme = url[..colon].to_ascii_lowercase();
        (url.to_owned(), scheme.clone(), Some(scheme))
    };
    let Some(columns) = guard("host columns", || hosts::columns(&of, &scheme, suffixes))? else {
        return Ok(None);
    };
    Ok(Some((true, said, None::<String>, columns, false).into_pyobject(py)?.into_any()))
}

/// `dates.iso(date)` where the core reads `date` (`rust/core/src/dates.rs`); None where Python
/// must say.
#[pyfunction]
fn iso_date(date: &str) -> Option<String> {
    iso(date)
}

/// The rows of the messages of `data` (each ending where `ends` says, one after the other), as
/// (python, message_id, date, newsgroups, iso, written, undated, counts, defects, text_message, text_part, url,
/// alternatives, wrapper, numbers, verdicts, pending, undecided): columns, with no Python object made per
/// message but its strings. `python`: (message, why) of each message Python must read instead (a
/// message of more than `heaviest` bytes is not read here: "heavy"); `message_id`, `date`,
/// `newsgroups`: one each a message (None for Python's); `iso`, `written`: its Date as the
/// `date` and `date_header` columns say it (`dates.iso`, `str.strip`), the ISO date None where
/// Python works it out (the messages `undated` lists); `counts`: the header values, texts and
/// where its rows end of each message, one column after the other, as native 64-bit integers;
/// `defects`: (message, kind, part, detail), in order; `text_message`, `text_part`: each text
/// with rows (its message, as native 64-bit integers, and its part's name); `numbers`: the
/// `line`, `column`, `start`, `end`, `quote_depth`, verdict index and text index columns one after
/// the other, likewise; `verdicts`: each distinct verdict's `_native_rows.Resolved`, None where
/// Python resolves it from its (url, valid, kind, naked, why) in `pending`, (index, that tuple).
/// `skipped`: the headers not scanned; `hosts`: the run's host columns. A panic in the core is
/// `InternalError`.
#[pyfunction]
fn mail_rows<'py>(
    extractor: &Bound<'py, Extractor>,
    skipped: Vec<String>,
    data: &[u8],
    ends: Vec<usize>,
    heaviest: usize,
    hosts: &Bound<'py, HostColumns>,
) -> PyResult<Bound<'py, PyTuple>> {
    let suffixes = &hosts.get().suffixes;
    let py = extractor.py();
    let held = extractor.get();
    let (inner, grammar) = (&held.inner, &held.grammar.get().inner);
    let (mut messages, mut heavy): (Vec<&[u8]>, Vec<bool>) = (Vec::new(), Vec::new());
    let mut start = 0;
    for &end in &ends {
        let message = data.get(start..end).ok_or_else(|| PyValueError::new_err("ends out of order"))?;
        // A heavy message is read by Python, its matches taken as they are found: left empty here.
        heavy.push(message.len() > heaviest);
        messages.push(if message.len() > heaviest { &[] } else { message });
        start = end;
    }
    let batch = py.detach(|| guard("mail_rows", || core::read_batch(&messages, &skipped, inner, grammar)))?;
    let count = batch.messages.len();
    let (python, defects) = (PyList::empty(py), PyList::empty(py));
    let (ids, dates, groups) = (PyList::empty(py), PyList::empty(py), PyList::empty(py));
    let (isos, written, undated) = (PyList::empty(py), PyList::empty(py), PyList::empty(py));
    let mut counts = vec![0_i64; 3 * count];
    let mut rows_end = 0;
    for (i, outcome) in batch.messages.iter().enumerate() {
        let read = match outcome {
            _ if heavy.get(i).copied().unwrap_or(false) => Err("heavy"),
            Outcome::Python(why) => Err(*why),
            Outcome::Read(read) => Ok(read),
        };
        match read {
            Err(why) => {
                python.append((i, why))?;
                for column in [&ids, &dates, &groups, &isos, &written] {
                    column.append(py.None())?;
                }
            }
            Ok(read) => {
                for defect in &read.defects {
                    defects.append((i, defect.kind, &defect.part, &defect.detail))?;
                }
                ids.append(&read.message_id)?;
                dates.append(&read.date)?;
                let date = read.date.as_deref();
                let said = date.and_then(iso);
                if date.is_some() && said.is_none() {
                    undated.append(i)?;
                }
                isos.append(said)?;
                written.append(date.map(python_stripped))?;
                groups.append(&read.newsgroups)?;
                counts[i] = to_i64(read.headers);
                counts[count + i] = to_i64(read.texts);
                rows_end = read.rows_end;
            }
        }
        counts[2 * count + i] = to_i64(rows_end);
    }
    let (messages_of, parts): (Vec<i64>, Vec<&String>) =
        batch.wheres.iter().map(|(message, part)| (to_i64(*message), part)).unzip();
    // Each distinct hit's objects made once: a list's header values, met in message after
    // message, give their rows the same `str`s, tuple and verdict.
    let mut made = Vec::with_capacity(batch.hits.len());
    let (verdicts, pending, undecided) = (PyList::empty(py), PyList::empty(py), PyList::empty(py));
    let mut known: HashMap<(String, bool, u8, bool, Option<usize>), i64> = HashMap::new();
    for core::Hit { found, .. } in batch.hits.iter() {
        let naked = found.wrapper.is_none();
        let (kind, why) = kind_of(found.verdict);
        let url = PyString::new(py, &found.url).into_any();
        let alternatives = PyTuple::new(py, &found.alternatives)?.into_any();
        let wrapper = held.wrapper(py, found.wrapper);
        let mut item = None;
        let index = match found.valid {
            Some(valid) => {
                let key = (found.url.clone(), valid, kind, naked, why);
                match known.get(&key) {
                    Some(&index) => index,
                    None => {
                        let index = to_i64(known.len());
                        match valid.then(|| resolved(py, &found.url, found.verdict, suffixes)).transpose()? {
                            Some(Some(done)) => verdicts.append(done)?,
                            _ => {
                                verdicts.append(py.None())?;
                                pending.append((index, (&url, valid, kind, naked, why)))?;
                            }
                        }
                        known.insert(key, index);
                        index
                    }
                }
            }
            None => {
                item = Some(held.item(py, found.clone())?);
                -1
            }
        };
        made.push((url, alternatives, wrapper, index, item));
    }
    let count = batch.rows.len();
    let (mut urls, mut alternatives, mut wrappers) =
        (Vec::with_capacity(count), Vec::with_capacity(count), Vec::with_capacity(count));
    let mut numbers = vec![0_i64; 7 * count];
    for (i, &core::Row { hit, text }) in batch.rows.iter().enumerate() {
        let (Some(one), Some((url, alternative, wrapper, index, item))) =
            (batch.hits.get(hit), made.get(hit))
        else {
            return Err(PyValueError::new_err("a row's hit out of range"));
        };
        let columns = [one.found.line, one.found.column, to_i64(one.start), to_i64(one.end), one.depth];
        for (k, value) in columns.into_iter().enumerate() {
            numbers[k * count + i] = value;
        }
        numbers[5 * count + i] = *index;
        numbers[6 * count + i] = to_i64(text);
        urls.push(url);
        alternatives.push(alternative);
        wrappers.push(wrapper);
        if let Some(item) = item {
            undecided.append((i, item))?;
        }
    }
    let (urls, alternatives, wrappers) =
        (PyList::new(py, urls)?, PyList::new(py, alternatives)?, PyList::new(py, wrappers)?);
    let fields = [
        python.into_any(),
        ids.into_any(),
        dates.into_any(),
        groups.into_any(),
        isos.into_any(),
        written.into_any(),
        undated.into_any(),
        laid(py, &counts),
        defects.into_any(),
        laid(py, &messages_of),
        PyList::new(py, parts)?.into_any(),
        urls.into_any(),
        alternatives.into_any(),
        wrappers.into_any(),
        laid(py, &numbers),
        verdicts.into_any(),
        pending.into_any(),
        undecided.into_any(),
    ];
    PyTuple::new(py, fields)
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(mail_rows, module)?)?;
    module.add_function(wrap_pyfunction!(iso_date, module)?)
}
