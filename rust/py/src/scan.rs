//! The scanner's binding: `urlsift._core.Scanner`, whose `scan` gives `_model.Candidate`s.
//!
//! Positions are characters: an ASCII text is scanned as its bytes; any other as its code points,
//! decoded once. A lone surrogate (a `str` from `surrogateescape`, which UTF-8 cannot hold) reaches
//! the core as U+FFFD: both are one character that no class of the scanner holds (no whitespace,
//! punctuation, letter or digit), so the candidates are the Python scanner's (docs/architecture.md).
//! A panic in the core never reaches Python as one: it becomes `InternalError`, an ordinary
//! exception, which the readers turn into an `internal` report for that text.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use urlsift_core::scan as core;

create_exception!(_core, InternalError, PyRuntimeError, "A bug in the native core (a caught panic).");

/// Runs `work`, a panic in it becoming `InternalError`.
pub fn guard<R>(what: &str, work: impl FnOnce() -> R) -> PyResult<R> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|panic| {
        let said = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned());
        InternalError::new_err(format!("{what}: {said}"))
    })
}

/// The code points of a `str` that UTF-8 cannot hold: each lone surrogate as U+FFFD.
fn code_points(text: &Bound<'_, PyString>) -> PyResult<Vec<char>> {
    let bytes = text.call_method1("encode", ("utf-8", "surrogatepass"))?;
    let bytes: &[u8] = bytes.extract()?;
    let mut chars = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                chars.extend(valid.chars());
                break;
            }
            Err(error) => {
                let (valid, after) = rest.split_at(error.valid_up_to());
                chars.extend(std::str::from_utf8(valid).unwrap_or_default().chars());
                chars.push(char::REPLACEMENT_CHARACTER);
                // A surrogate is three bytes in "surrogatepass" (ED A0..BF 80..BF).
                let skip = if after.first() == Some(&0xED) { 3 } else { error.error_len().unwrap_or(1) };
                rest = after.get(skip..).unwrap_or_default();
            }
        }
    }
    Ok(chars)
}

/// The scanner of one option set (`scanner.Scanner` builds one and hands its scans here).
#[pyclass(frozen, module = "urlsift._core")]
pub struct Scanner {
    inner: core::Scanner,
    /// `_model.make_candidate`, the wrappers ("URL:", "<>", '"') and `Unclosed`'s members in order.
    make: Py<PyAny>,
    wrappers: [Py<PyAny>; 3],
    unclosed: Vec<Py<PyAny>>,
}

#[pymethods]
impl Scanner {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (naked, schemes, hierarchical, iana, www, pipermail, make, wrappers, unclosed))]
    fn new(
        naked: bool,
        schemes: Vec<String>,
        hierarchical: Vec<String>,
        iana: Vec<String>,
        www: bool,
        pipermail: bool,
        make: Py<PyAny>,
        wrappers: (Py<PyAny>, Py<PyAny>, Py<PyAny>),
        unclosed: Vec<Py<PyAny>>,
    ) -> Self {
        let inner = core::Scanner::new(naked, &schemes, &hierarchical, &iana, www, pipermail);
        Scanner { inner, make, wrappers: [wrappers.0, wrappers.1, wrappers.2], unclosed }
    }

    /// `Scanner.scan`'s candidates (a list) and the window's resume position.
    #[pyo3(signature = (text, start = 0, stop = None, text_start = true))]
    fn scan<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        start: usize,
        stop: Option<usize>,
        text_start: bool,
    ) -> PyResult<(Vec<Bound<'py, PyAny>>, usize)> {
        let scanned = match text.to_str() {
            Ok(utf8) if utf8.is_ascii() => {
                py.detach(|| guard("scan", || self.inner.scan(utf8.as_bytes(), start, stop, text_start)))?
            }
            Ok(utf8) => py.detach(|| {
                guard("scan", || {
                    let chars: Vec<char> = utf8.chars().collect();
                    self.inner.scan(&chars, start, stop, text_start)
                })
            })?,
            Err(_) => {
                let chars = code_points(text)?;
                py.detach(|| guard("scan", || self.inner.scan(&chars, start, stop, text_start)))?
            }
        };
        let mut candidates = Vec::with_capacity(scanned.candidates.len());
        let make = self.make.bind(py);
        for candidate in scanned.candidates {
            let wrapper = match candidate.wrapper {
                None => py.None(),
                Some(core::Wrapper::Url) => self.wrappers[0].clone_ref(py),
                Some(core::Wrapper::Angle) => self.wrappers[1].clone_ref(py),
                Some(core::Wrapper::Quote) => self.wrappers[2].clone_ref(py),
            };
            let problem = match candidate.problem {
                None => py.None(),
                Some(why) => match self.unclosed.get(why as usize) {
                    Some(member) => member.clone_ref(py),
                    None => return Err(InternalError::new_err("scan: an Unclosed member is missing")),
                },
            };
            let skipped = PyTuple::new(py, candidate.skipped)?;
            let fields = (
                wrapper,
                candidate.span,
                candidate.body,
                skipped,
                problem,
                candidate.www,
                candidate.deobfuscated,
            );
            candidates.push(make.call1((fields,))?);
        }
        Ok((candidates, scanned.resume))
    }
}

/// Panics inside the guard: the tests' way to see a panic become `InternalError`.
#[pyfunction]
fn _panic_in_core(message: &str) -> PyResult<()> {
    guard("test", || panic!("{message}"))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Scanner>()?;
    module.add("InternalError", module.py().get_type::<InternalError>())?;
    module.add_function(wrap_pyfunction!(_panic_in_core, module)?)?;
    Ok(())
}
