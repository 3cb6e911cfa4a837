//! The writers' binding: `urlsift._core.Rows` (a `batches.Batch`'s columns, converted once) and
//! `urlsift._core.Writer`, whose `write` gives a run of its rows as text, jsonl or csv (UTF-8
//! bytes), written with the GIL released.
//!
//! A `str` that UTF-8 cannot hold (a lone surrogate, from `surrogateescape`) reaches the core as
//! `surrogatepass` writes it, which the core's writers read as the Python ones do.

use std::sync::atomic::{AtomicUsize, Ordering};

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use urlsift_core::scan::Wrapper;
use urlsift_core::write as core;

use crate::scan::{guard, InternalError};

/// A `str`'s bytes: its UTF-8, or, for one holding a lone surrogate, `surrogatepass`'s.
fn with_text<R>(text: &Bound<'_, PyAny>, work: impl FnOnce(&[u8]) -> R) -> PyResult<R> {
    let text = text.cast::<PyString>()?;
    match text.to_str() {
        Ok(utf8) => Ok(work(utf8.as_bytes())),
        Err(_) => {
            let bytes = text.call_method1("encode", ("utf-8", "surrogatepass"))?;
            Ok(work(bytes.extract::<&[u8]>()?))
        }
    }
}

fn list<'py>(table: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyList>> {
    Ok(table.getattr(name)?.cast_into::<PyList>()?)
}

/// A column of `str | None` (a list).
fn strings(table: &Bound<'_, PyAny>, name: &str) -> PyResult<core::Strings> {
    let mut column = core::Strings::new();
    for item in list(table, name)?.iter() {
        if item.is_none() {
            column.push(None);
        } else {
            with_text(&item, |text| column.push(Some(text)))?;
        }
    }
    Ok(column)
}

/// A column of numbers: an `array('q')` (read as its buffer), or a list.
fn numbers(table: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<i64>> {
    let column = table.getattr(name)?;
    if let Ok(buffer) = PyBuffer::<i64>::get(&column) {
        return buffer.to_vec(column.py());
    }
    column.extract()
}

/// A column of indexes (an `array('q')`); a negative one is refused.
fn indexes(table: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<usize>> {
    numbers(table, name)?
        .into_iter()
        .map(|index| usize::try_from(index).map_err(|_| PyValueError::new_err(format!("{name}: {index}"))))
        .collect()
}

fn wrappers(table: &Bound<'_, PyAny>) -> PyResult<Vec<Option<Wrapper>>> {
    let mut column = Vec::new();
    for item in list(table, "wrapper")?.iter() {
        column.push(if item.is_none() {
            None
        } else {
            Some(match item.cast::<PyString>()?.to_str()? {
                "URL:" => Wrapper::Url,
                "<>" => Wrapper::Angle,
                "\"" => Wrapper::Quote,
                other => return Err(PyValueError::new_err(format!("not a wrapper: {other:?}"))),
            })
        });
    }
    Ok(column)
}

fn alternatives(table: &Bound<'_, PyAny>) -> PyResult<core::Lists> {
    let mut column = core::Lists::new();
    let mut texts: Vec<Vec<u8>> = Vec::new();
    for item in list(table, "alternatives")?.iter() {
        texts.clear();
        for text in item.cast::<PyTuple>()?.iter() {
            with_text(&text, |text| texts.push(text.to_vec()))?;
        }
        column.push(texts.iter().map(Vec::as_slice));
    }
    Ok(column)
}

/// A batch's rows (`batches.Batch`: its messages, texts and matches), converted once for all the
/// runs of rows written between its reports.
#[pyclass(frozen, module = "urlsift._core")]
pub struct Rows {
    inner: core::Batch,
}

#[pymethods]
impl Rows {
    /// `text_only`: only the columns the text format reads (the others left null: no Python
    /// object read for them).
    #[new]
    #[pyo3(signature = (messages, texts, matches, *, text_only = false))]
    fn new(
        messages: &Bound<'_, PyAny>,
        texts: &Bound<'_, PyAny>,
        matches: &Bound<'_, PyAny>,
        text_only: bool,
    ) -> PyResult<Self> {
        let (m, t, r) = (messages, texts, matches);
        let (of_m, of_t, of_r) = (list(m, "source")?.len(), list(t, "part")?.len(), list(r, "url")?.len());
        let text = |table, name, length| {
            if text_only {
                Ok(core::Strings::nulls(length))
            } else {
                strings(table, name)
            }
        };
        let number = |table: &Bound<'_, PyAny>, name, length| {
            if text_only {
                Ok(vec![0; length])
            } else {
                numbers(table, name)
            }
        };
        let maybe = |table: &Bound<'_, PyAny>, name, length| {
            if text_only {
                Ok(vec![None; length])
            } else {
                table.getattr(name)?.extract()
            }
        };
        let messages = core::Messages {
            source: strings(m, "source")?,
            member: text(m, "member", of_m)?,
            message: maybe(m, "message", of_m)?,
            offset: maybe(m, "offset", of_m)?,
            message_id: text(m, "message_id", of_m)?,
            date: text(m, "date", of_m)?,
            newsgroups: text(m, "newsgroups", of_m)?,
        };
        let texts = core::Texts { message: indexes(t, "message")?, part: text(t, "part", of_t)? };
        let matches = core::Matches {
            text: indexes(r, "text")?,
            url: strings(r, "url")?,
            alternatives: if text_only { core::Lists::empties(of_r) } else { alternatives(r)? },
            valid: r.getattr("valid")?.extract()?,
            scheme: strings(r, "scheme")?,
            wrapper: if text_only { vec![None; of_r] } else { wrappers(r)? },
            line: number(r, "line", of_r)?,
            column: number(r, "column", of_r)?,
            start: number(r, "start", of_r)?,
            end: number(r, "end", of_r)?,
            quote_depth: number(r, "quote_depth", of_r)?,
            error: strings(r, "error")?,
            canonical: strings(r, "canonical")?,
            count: maybe(r, "count", of_r)?,
            context: text(r, "context", of_r)?,
            wayback: text(r, "wayback", of_r)?,
            host: text(r, "host", of_r)?,
            host_unicode: text(r, "host_unicode", of_r)?,
            registered_domain: text(r, "registered_domain", of_r)?,
            surt: text(r, "surt", of_r)?,
            date_header: text(r, "date_header", of_r)?,
        };
        let inner = core::Batch { messages, texts, matches };
        inner.check().map_err(PyValueError::new_err)?;
        Ok(Rows { inner })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }
}

/// How rows are written (`output.writer`'s arguments, `--schemes`): made once for a run.
#[pyclass(frozen, module = "urlsift._core")]
pub struct Writer {
    style: core::Style,
    /// The bytes a row took in the last write, and some: the next write's buffer is made that
    /// big at once (not grown, copied, again and again).
    per_row: AtomicUsize,
}

#[pymethods]
impl Writer {
    #[new]
    #[pyo3(signature = (format, *, canonical = false, filename = false, color = false, end = "\n", schemes = None))]
    fn new(
        format: &str,
        canonical: bool,
        filename: bool,
        color: bool,
        end: &str,
        schemes: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let format = match format {
            "text" => core::Format::Text,
            "jsonl" => core::Format::Jsonl,
            "csv" => core::Format::Csv,
            other => return Err(PyValueError::new_err(format!("not a format the core writes: {other:?}"))),
        };
        let &[end] = end.as_bytes() else {
            return Err(PyValueError::new_err(format!("a record's end is one ASCII character, not {end:?}")));
        };
        if !end.is_ascii() {
            return Err(PyValueError::new_err("a record's end is one ASCII character"));
        }
        let schemes = schemes.map(|schemes| schemes.into_iter().map(String::into_bytes).collect());
        Ok(Writer {
            style: core::Style { format, canonical, filename, color, end, schemes },
            per_row: AtomicUsize::new(0),
        })
    }

    /// The rows `start` to `stop` of `rows` (those of the schemes asked for), written; how many,
    /// and whether one is a valid URL.
    fn write<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, Rows>,
        start: usize,
        stop: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, usize, bool)> {
        let batch = &rows.get().inner;
        let style = &self.style;
        let asked = stop.min(batch.len()).saturating_sub(start);
        let guess = asked.saturating_mul(self.per_row.load(Ordering::Relaxed));
        let (out, written) = py.detach(|| {
            guard("write", || {
                let mut out = Vec::with_capacity(guess);
                let written = core::write(batch, start..stop, style, &mut out);
                (out, written)
            })
        })?;
        self.per_row.store(out.len() / asked.max(1) + 16, Ordering::Relaxed);
        // Every text is written with its lone surrogates escaped: the output is UTF-8, handed on as
        // bytes (the printer writes them to a UTF-8 stream's buffer as they are).
        if let Err(error) = std::str::from_utf8(&out) {
            return Err(InternalError::new_err(format!("write: {error}")));
        }
        Ok((PyBytes::new(py, &out), written.rows, written.valid))
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Rows>()?;
    module.add_class::<Writer>()?;
    Ok(())
}
