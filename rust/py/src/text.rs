//! A plain text's bytes to rows (`urlsift._core.TextReader`, issue 31): Python reads the file's
//! blocks and hands them here as `bytes`; the core decodes them (`text::Utf8Decoder`, as Python's
//! incremental decoder with `errors="replace"`), keeps the window, what is kept of it for the
//! next one, the line count and the start of the line before the window (`text::Windows`), and
//! gives each window's rows as `_core.rows` does. No `str` is made of the text.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use urlsift_core::extract::Judgements;
use urlsift_core::scan::Scan;
use urlsift_core::text::{Units, Utf8Decoder, Windows};

use crate::extract::Extractor;
use crate::rows::{columns, take};
use crate::scan::guard;

#[pyclass(module = "urlsift._core")]
pub(crate) struct TextReader {
    extractor: Py<Extractor>,
    windows: Windows,
    /// The window's scan, once its first rows are asked for.
    scan: Option<Scan>,
    /// The judgements of the URLs met last, from window to window.
    judgements: Judgements,
}

#[pymethods]
impl TextReader {
    /// Windows of at least `size` characters, `lookahead` and `lookbehind` as the scanner's;
    /// `max_line`: note the first line over that many bytes (`long_line`).
    #[new]
    #[pyo3(signature = (extractor, size, lookahead, lookbehind, max_line = None))]
    fn new(
        extractor: Py<Extractor>,
        size: usize,
        lookahead: usize,
        lookbehind: usize,
        max_line: Option<usize>,
    ) -> Self {
        let mut windows = Windows::new(size, lookahead, lookbehind);
        if let Some(max_line) = max_line {
            windows.watch_lines(max_line);
        }
        TextReader { extractor, windows, scan: None, judgements: Judgements::new() }
    }

    /// Whether the window needs another block before its rows are asked for.
    #[getter]
    fn hungry(&self) -> bool {
        self.windows.hungry()
    }

    /// The text's next block, as read (`b""`: the text has ended).
    fn feed(&mut self, py: Python<'_>, block: &Bound<'_, PyBytes>) -> PyResult<()> {
        let windows = &mut self.windows;
        let block = block.as_bytes();
        py.detach(|| guard("text", || windows.feed(block)))
    }

    /// The window's next rows (at most `limit`), as `_core.rows` gives them; None once it has
    /// no more (then `advance`).
    fn rows<'py>(&mut self, py: Python<'py>, limit: usize) -> PyResult<Option<Bound<'py, PyTuple>>> {
        if self.windows.hungry() {
            return Err(PyRuntimeError::new_err("the window needs more of the text first"));
        }
        let extractor = self.extractor.get();
        let (inner, grammar) = (&extractor.inner, &extractor.grammar.get().inner);
        let TextReader { windows, scan, judgements, .. } = self;
        let (resume, stop, text_start) = (windows.resume, windows.stop(), windows.base == 0);
        let base = i64::try_from(windows.base).unwrap_or(i64::MAX);
        let prefix = windows.prefix.clone();
        let taken = py.detach(|| {
            guard("text", || {
                let (units, lines) = windows.scanned();
                let scan = scan.get_or_insert_with(|| match units {
                    Units::Bytes(units) => inner.scanner.start(units, resume, Some(stop), text_start),
                    Units::Utf16(units) => inner.scanner.start(units, resume, Some(stop), text_start),
                    Units::Chars(units) => inner.scanner.start(units, resume, Some(stop), text_start),
                });
                let matches = (scan, lines, judgements);
                match units {
                    Units::Bytes(units) => take(inner, grammar, matches, units, base, limit, &prefix),
                    Units::Utf16(units) => take(inner, grammar, matches, units, base, limit, &prefix),
                    Units::Chars(units) => take(inner, grammar, matches, units, base, limit, &prefix),
                }
            })
        })?;
        columns(py, extractor, taken.map_err(PyRuntimeError::new_err)?)
    }

    /// The next window, once this one's rows are all taken: False at the text's end.
    fn advance(&mut self, py: Python<'_>) -> PyResult<bool> {
        let Some(scan) = self.scan.take() else {
            return Err(PyRuntimeError::new_err("the window's rows were not taken"));
        };
        if self.windows.ended {
            return Ok(false);
        }
        let windows = &mut self.windows;
        py.detach(|| guard("text", || windows.advance(scan.resume())))?;
        Ok(true)
    }

    /// Where the window's first character is in the whole text.
    #[getter]
    fn base(&self) -> usize {
        self.windows.base
    }

    /// The characters decoded so far (all of the text's, once it has ended).
    #[getter]
    fn characters(&self) -> usize {
        self.windows.characters
    }

    /// The number of the first line over `max_line` bytes among the blocks fed so far.
    #[getter]
    fn long_line(&self) -> Option<i64> {
        self.windows.watch.as_ref().and_then(|watch| watch.long_line)
    }

    /// The text's line breaks, once its last window's rows are all taken.
    fn line_breaks(&mut self) -> i64 {
        self.windows.line_breaks()
    }
}

/// The text of `blocks` as `TextReader` decodes them (then the end of the text): the tests' way
/// to hold the decoder to Python's.
#[pyfunction]
fn _utf8_decoded(blocks: Vec<Vec<u8>>) -> PyResult<(String, usize)> {
    guard("text", || {
        let mut decoder = Utf8Decoder::default();
        let (mut text, mut count) = (String::new(), 0);
        for block in &blocks {
            count += decoder.decode_into(block, false, &mut text);
        }
        count += decoder.decode_into(b"", true, &mut text);
        (text, count)
    })
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<TextReader>()?;
    module.add_function(wrap_pyfunction!(_utf8_decoded, module)?)
}
