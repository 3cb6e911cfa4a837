//! The scanner's binding: `urlsift._core.Scanner`, whose `scan` gives `_model.Candidate`s.
//!
//! Positions are characters: an ASCII text is scanned as its bytes in place, a Latin-1 one as its
//! Latin-1 bytes, one of the BMP as its UTF-16 units, any other as its code points, each made once
//! per text (1, 1, 2 and 4 bytes a character). The candidates are scanned as they are taken, a
//! bounded number at a time (`Candidates`), never a whole text's at once. A lone surrogate (a
//! `str` from `surrogateescape`, which UTF-8 cannot hold) is one UTF-16 unit, or U+FFFD among code
//! points: either is one character that no class of the scanner holds (no whitespace,
//! punctuation, letter or digit), so the candidates are the Python scanner's
//! (docs/architecture.md).
//! A panic in the core never reaches Python as one: it becomes `InternalError`, an ordinary
//! exception, which the readers turn into an `internal` report for that text.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyUnicodeEncodeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PySlice, PyString, PyTuple};
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

/// How many characters of a text are decoded at a time: the copies made on the way stay this small.
const DECODE_SLICE: usize = 1 << 16;

/// A text's units, made once, a slice at a time (the copies made on the way stay small): its UTF-16
/// units, one a character while it holds nothing beyond the BMP, else its code points, a lone
/// surrogate as U+FFFD (neither is whitespace, punctuation, a letter or a digit). A slice is a
/// `str` of its own, as narrow as its characters let it be: most slices of a text that holds a
/// few characters beyond Latin-1 are ASCII, and their bytes are widened here with no encoder.
/// The strict encoder refuses a lone surrogate (a `surrogateescape` text's): a slice it encodes
/// holds none, and one it refuses is encoded again with its surrogates kept as units, of no class.
fn wide_units(text: &Bound<'_, PyString>) -> PyResult<Units> {
    let length = text.len()?;
    // Each slice's units appended (a buffer zeroed first was written twice).
    let mut utf16: Vec<[u8; 2]> = Vec::with_capacity(length);
    let mut lone = false;
    for at in (0..length).step_by(DECODE_SLICE) {
        let end = (at + DECODE_SLICE).min(length);
        let slice =
            text.get_item(PySlice::new(text.py(), at as isize, end as isize, 1))?.cast_into::<PyString>()?;
        // `str.isascii` reads a flag of the string; an ASCII `str` is its own UTF-8.
        if slice.call_method0("isascii")?.is_truthy()? {
            utf16.extend(slice.to_str()?.as_bytes().iter().map(|&byte| [byte, 0]));
            continue;
        }
        let encoded = match slice.call_method1("encode", ("utf-16-le",)) {
            Ok(encoded) => encoded,
            Err(error) if error.is_instance_of::<PyUnicodeEncodeError>(text.py()) => {
                lone = true;
                slice.call_method1("encode", ("utf-16-le", "surrogatepass"))?
            }
            Err(error) => return Err(error),
        };
        let encoded = encoded.cast_into::<PyBytes>()?;
        // The encoder's bytes as they are: the core reads each pair as a unit, little-endian.
        if encoded.as_bytes().len() != 2 * (end - at) {
            // A character beyond the BMP: two units.
            return code_points(text).map(|(chars, lone)| Units::Chars(chars, lone));
        }
        utf16.resize(end, [0; 2]);
        if let Some(units) = utf16.get_mut(at..end) {
            units.as_flattened_mut().copy_from_slice(encoded.as_bytes());
        }
    }
    Ok(Units::Utf16(utf16, lone))
}

/// Whether a `str` holds two bytes a character (CPython's compact form: a character beyond
/// Latin-1, none beyond the BMP), as its size in memory says in constant time (the limited API
/// has no `PyUnicode_KIND`): a fixed header, then its length and a NUL of two bytes each. A
/// cached UTF-8 or wide copy, or another layout, makes the size differ, and the answer no; only
/// which encoding `Units::of` tries first depends on it, never the units made.
fn two_bytes_a_character(text: &Bound<'_, PyString>) -> PyResult<bool> {
    let size = |text: &Bound<'_, PyString>| text.call_method0("__sizeof__")?.extract::<usize>();
    // The header: a one-character `str` of two bytes a character, less its character and NUL.
    let header = size(&PyString::new(text.py(), "\u{100}"))?.saturating_sub(4);
    Ok(size(text)? == header + 2 * (text.len()? + 1))
}

/// The code points of a `str`, decoded a slice at a time (as UTF-32), a lone surrogate as U+FFFD,
/// and whether it had one.
fn code_points(text: &Bound<'_, PyString>) -> PyResult<(Vec<char>, bool)> {
    let length = text.len()?;
    let mut chars = Vec::with_capacity(length);
    let mut lone = false;
    for at in (0..length).step_by(DECODE_SLICE) {
        let end = (at + DECODE_SLICE).min(length);
        let slice = text.get_item(PySlice::new(text.py(), at as isize, end as isize, 1))?;
        let encoded = slice.call_method1("encode", ("utf-32-le", "surrogatepass"))?.cast_into::<PyBytes>()?;
        chars.extend(encoded.as_bytes().chunks_exact(4).map(|unit| {
            let code = unit.try_into().map_or(0xFFFD, u32::from_le_bytes);
            char::from_u32(code).unwrap_or_else(|| {
                lone = true; // a surrogate: no `char` holds one
                char::REPLACEMENT_CHARACTER
            })
        }));
    }
    Ok((chars, lone))
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

    /// `Scanner.scan`'s candidates, an iterator that scans on as they are taken.
    #[pyo3(signature = (text, start = 0, stop = None, text_start = true))]
    fn scan(
        slf: Bound<'_, Self>,
        text: &Bound<'_, PyString>,
        start: usize,
        stop: Option<usize>,
        text_start: bool,
    ) -> PyResult<Candidates> {
        let py = slf.py();
        let units = Units::of(text)?;
        let this = slf.get();
        let scan = units.with(py, "scan", |units| match units {
            UnitSlice::Bytes(bytes) => this.inner.start(bytes, start, stop, text_start),
            UnitSlice::Utf16(units) => this.inner.start(units, start, stop, text_start),
            UnitSlice::Chars(chars) => this.inner.start(chars, start, stop, text_start),
        })?;
        Ok(Candidates { scanner: slf.unbind(), units, scan, ready: VecDeque::new() })
    }
}

impl Scanner {
    /// A core candidate as a `_model.Candidate`.
    fn candidate<'py>(&self, py: Python<'py>, candidate: core::Candidate) -> PyResult<Bound<'py, PyAny>> {
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
        self.make.bind(py).call1((fields,))
    }
}

/// How many candidates a step of the scan finds, the GIL released, before they are handed on one
/// by one: however many a text has, no more than these (and the one handed on) exist at a time.
const STEP: usize = 256;

/// The text as the core's units, one a character, made once per text: an ASCII `str` is read in
/// place; a Latin-1 one (every code point under 256) as its Latin-1 bytes; one of the BMP as its
/// UTF-16 units; any other as its code points. The scanner's and the extractor's (`extract.rs`).
pub(crate) enum Units {
    Ascii(Py<PyString>),
    Latin1(Py<PyBytes>),
    /// Little-endian, as `str.encode("utf-16-le")` writes them, and whether they hold a surrogate.
    Utf16(Vec<[u8; 2]>, bool),
    /// The code points, and whether the text has a lone surrogate (each one U+FFFD here).
    Chars(Vec<char>, bool),
}

pub(crate) enum UnitSlice<'a> {
    Bytes(&'a [u8]),
    Utf16(&'a [[u8; 2]]),
    Chars(&'a [char]),
}

impl Units {
    pub(crate) fn of(text: &Bound<'_, PyString>) -> PyResult<Self> {
        // `str.isascii` reads a flag of the string: constant time.
        if text.call_method0("isascii")?.is_truthy()? {
            return Ok(Units::Ascii(text.clone().unbind()));
        }
        // A text of two bytes a character is not tried as Latin-1: the failed encode would read it
        // up to its first character beyond Latin-1 for nothing.
        if !two_bytes_a_character(text)? {
            if let Ok(bytes) = text.call_method1("encode", ("latin-1",)) {
                return Ok(Units::Latin1(bytes.cast_into::<PyBytes>()?.unbind()));
            }
        }
        wide_units(text)
    }

    /// Whether the text has a lone surrogate (a `surrogateescape` text's), which the units keep
    /// as a character of no class (the scanner's candidates are exact) but no `String` can hold.
    /// Any surrogate among UTF-16 units is one of the `str`'s own: a character beyond the BMP
    /// makes the text code points.
    pub(crate) fn lone_surrogate(&self) -> bool {
        match self {
            Units::Ascii(_) | Units::Latin1(_) => false,
            Units::Utf16(_, lone) => *lone,
            Units::Chars(_, lone) => *lone,
        }
    }

    /// Runs `work` on the units, the GIL released, a panic in it becoming `InternalError` (`what`
    /// names the stage).
    pub(crate) fn with<R: Send>(
        &self,
        py: Python<'_>,
        what: &str,
        work: impl FnOnce(UnitSlice<'_>) -> R + Send,
    ) -> PyResult<R> {
        let units = match self {
            Units::Ascii(text) => UnitSlice::Bytes(text.to_str(py)?.as_bytes()),
            Units::Latin1(bytes) => UnitSlice::Bytes(bytes.as_bytes(py)),
            Units::Utf16(units, _) => UnitSlice::Utf16(units),
            Units::Chars(chars, _) => UnitSlice::Chars(chars),
        };
        py.detach(|| guard(what, || work(units)))
    }
}

/// A text's candidates as they are scanned (`Scanner.scan`'s iterator); `resume`, once it is
/// exhausted, says where the next window's scan must start.
#[pyclass(module = "urlsift._core")]
pub struct Candidates {
    scanner: Py<Scanner>,
    units: Units,
    scan: core::Scan,
    /// Found and not yet handed on: at most `STEP`.
    ready: VecDeque<core::Candidate>,
}

#[pymethods]
impl Candidates {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.ready.is_empty() && !self.scan.done() {
            let Candidates { scanner, units, scan, ready, .. } = self;
            let inner = &scanner.get().inner;
            units.with(py, "scan", |units| {
                while ready.len() < STEP {
                    let next = match units {
                        UnitSlice::Bytes(bytes) => inner.next(scan, bytes),
                        UnitSlice::Utf16(units) => inner.next(scan, units),
                        UnitSlice::Chars(chars) => inner.next(scan, chars),
                    };
                    let Some(candidate) = next else { break };
                    ready.push_back(candidate);
                }
            })?;
        }
        match self.ready.pop_front() {
            Some(candidate) => self.scanner.get().candidate(py, candidate).map(Some),
            None => Ok(None),
        }
    }

    /// Where the next window's scan must start (`ScanProgress.resume`); None until exhausted.
    #[getter]
    fn resume(&self) -> Option<usize> {
        (self.scan.done() && self.ready.is_empty()).then(|| self.scan.resume())
    }
}

/// Panics inside the guard: the tests' way to see a panic become `InternalError`.
#[pyfunction]
fn _panic_in_core(message: &str) -> PyResult<()> {
    guard("test", || panic!("{message}"))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Scanner>()?;
    module.add_class::<Candidates>()?;
    module.add("InternalError", module.py().get_type::<InternalError>())?;
    module.add_function(wrap_pyfunction!(_panic_in_core, module)?)?;
    Ok(())
}
