//! The message reader's binding: `urlsift._core.MessageReader`, whose `read` is `sources/mime.py`'s
//! `read` done by the core (GIL released while it reads), or the word for why the Python reader
//! must read the message.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use urlsift_core::mime as core;

use crate::scan::guard;

/// A message reader: the names of the headers it does not scan (`mime.TRACE_HEADERS`), made once.
#[pyclass(frozen, module = "urlsift._core")]
struct MessageReader {
    skipped: Vec<String>,
}

#[pymethods]
impl MessageReader {
    #[new]
    fn new(skipped: Vec<String>) -> Self {
        Self { skipped }
    }

    /// (header names, their values, Message-ID, Date, Newsgroups, part names, their texts, flowed
    /// {part index: DelSp=yes}, defects as (kind, part, detail)); or a str, the fallback's reason.
    fn read<'py>(&self, py: Python<'py>, data: Bound<'py, PyBytes>) -> PyResult<Bound<'py, PyAny>> {
        let bytes = data.as_bytes();
        let skipped = &self.skipped;
        let read = py.detach(|| guard("read_message", || core::read(bytes, skipped)))?;
        message(py, read)
    }
}

fn message(py: Python<'_>, read: Result<core::Message, core::Fallback>) -> PyResult<Bound<'_, PyAny>> {
    let found = match read {
        Ok(found) => found,
        Err(why) => return Ok(PyString::new(py, why.as_str()).into_any()),
    };
    let names = PyList::new(py, found.headers.iter().map(|(name, _)| name))?;
    let values = PyList::new(py, found.headers.iter().map(|(_, value)| value))?;
    let parts = PyList::new(py, found.parts.iter().map(|(part, _)| part))?;
    let texts = PyList::new(py, found.parts.iter().map(|(_, text)| text))?;
    let flowed = PyDict::new(py);
    for (index, delsp) in found.flowed {
        flowed.set_item(index, delsp)?;
    }
    let defects = PyList::empty(py);
    for defect in &found.defects {
        defects.append((defect.kind, &defect.part, &defect.detail))?;
    }
    let fields =
        (names, values, found.message_id, found.date, found.newsgroups, parts, texts, flowed, defects);
    Ok(fields.into_pyobject(py)?.into_any())
}

/// `mime._header_decoded(value)` by the core: the value with its RFC 2047 words decoded and the
/// problem said of them; None where a word's charset is left to Python.
#[pyfunction]
fn header_decoded(value: &str) -> PyResult<Option<(String, Option<&'static str>)>> {
    guard("header_decoded", || {
        core::header_decoded(value).map(|(text, problem)| (text.into_owned(), problem))
    })
}

/// A page read: its text, its links' values and its base.
type PageFields = (String, Vec<String>, Option<String>);

/// `page.read(html)` by the core: (text, links, base); None where the page is left to Python.
#[pyfunction]
fn page_read(py: Python<'_>, html: &str) -> PyResult<Option<PageFields>> {
    let read = py.detach(|| guard("page_read", || core::page_read(html)))?;
    Ok(read.map(|page| (page.text, page.links, page.base)))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<MessageReader>()?;
    module.add_function(wrap_pyfunction!(page_read, module)?)?;
    module.add_function(wrap_pyfunction!(header_decoded, module)?)?;
    Ok(())
}
