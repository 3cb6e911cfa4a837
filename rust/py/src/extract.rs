//! The extractor's binding: `urlsift._core.Extractor`, whose `extract` gives, per text, its matches
//! as `Match`es, each verdict made by `extract.py`'s factory (one worked out when first read), and
//! as a tuple each candidate whose readings Python's judge must rank.
//!
//! The core works with the GIL released: the scan at once, the judging a batch of candidates at a
//! time as the matches are taken, so that the Python objects made ahead stay few. A text is read
//! as units of one character each: an ASCII one in place, a Latin-1 one as its Latin-1 bytes,
//! any other as its code points. A text with a lone surrogate (which UTF-8 cannot hold) gives
//! None: `extract.py` runs Python's stages over the native scanner's candidates for it, so its
//! readings are judged by Python's engine, exactly. A panic becomes `InternalError`.

use std::collections::VecDeque;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use urlsift_core::extract as core;
use urlsift_core::rejoin::Reading;
use urlsift_core::scan::{Candidate, Scanner, Span, Unit, Wrapper};

use crate::scan::guard;
use crate::Grammar;

/// (scheme rule's pattern, (scheme, production) pairs, generic production, fragment production,
/// D35's (scheme, pattern, parts) shapes, the schemes D35 checks, what "www." stands for).
type JudgeArgs =
    (String, Vec<(String, String)>, String, String, Vec<(String, String, Vec<String>)>, Vec<String>, String);

/// `Scanner`'s: naked, the schemes, the hierarchical ones, IANA's permanent ones, www, pipermail.
type ScannerArgs = (bool, Vec<String>, Vec<String>, Vec<String>, bool, bool);

#[pyclass(frozen, module = "urlsift._core")]
struct Extractor {
    inner: core::Extractor,
    grammar: Py<Grammar>,
    /// `_model.Wrapper`'s three values, in its order.
    wrappers: [Py<PyAny>; 3],
    /// `_model.make_match`, and the verdict factory: (url, valid, kind, naked, Unclosed index).
    make_match: Py<PyAny>,
    verdict: Py<PyAny>,
}

/// A match, or an undecided candidate's tuple: (url, alternatives, wrapper, span, pieces, line,
/// column, None, verdict's kind, Unclosed index, readings), whose readings Python judges and ranks.
type Item<'py> = Bound<'py, PyAny>;

fn pieces<'py>(py: Python<'py>, pieces: &[Span]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, pieces.iter().copied())
}

impl Extractor {
    fn wrapper(&self, py: Python<'_>, wrapper: Option<Wrapper>) -> Py<PyAny> {
        // `Wrapper`'s variants are in `_model.Wrapper`'s order.
        wrapper
            .and_then(|kind| self.wrappers.get(kind as usize))
            .map_or_else(|| py.None(), |w| w.clone_ref(py))
    }

    fn item<'py>(&self, py: Python<'py>, found: core::Found) -> PyResult<Item<'py>> {
        let (kind, why) = match found.verdict {
            core::Verdict::Judge => (0, None),
            core::Verdict::Www => (1, None),
            core::Verdict::Unclosed(why) => (2, Some(why as usize)),
            core::Verdict::Deobfuscated => (3, None),
        };
        let url = PyString::new(py, &found.url);
        let alternatives = PyTuple::new(py, found.alternatives)?;
        let wrapper = self.wrapper(py, found.wrapper);
        let spans = pieces(py, &found.pieces)?;
        if let Some(valid) = found.valid {
            let naked = found.wrapper.is_none();
            let verdict = self.verdict.bind(py).call1((&url, valid, kind, naked, why))?;
            let fields = (url, alternatives, wrapper, found.span, spans, found.line, found.column, verdict);
            return self.make_match.bind(py).call1((fields,));
        }
        let readings = PyList::empty(py);
        for Reading { url, pieces: spans } in &found.readings {
            readings.append((url, pieces(py, spans)?))?;
        }
        let fields = (
            url,
            alternatives,
            wrapper,
            found.span,
            spans,
            found.line,
            found.column,
            py.None(),
            kind,
            why,
            readings,
        );
        Ok(fields.into_pyobject(py)?.into_any())
    }
}

#[pymethods]
impl Extractor {
    /// The scanner's options (`ScannerArgs`), `invalid`, the profile's grammar, how it judges
    /// (`JudgeArgs`), `_model.Wrapper`'s values, `make_match` and the verdict factory. A pattern
    /// the core refuses is a ValueError.
    #[new]
    fn new(
        scanner: ScannerArgs,
        invalid: bool,
        grammar: Py<Grammar>,
        judge: JudgeArgs,
        wrappers: (Py<PyAny>, Py<PyAny>, Py<PyAny>),
        make_match: Py<PyAny>,
        verdict: Py<PyAny>,
    ) -> PyResult<Self> {
        let (naked, schemes, hierarchical, iana, www, pipermail) = scanner;
        let (scheme, by_scheme, generic, fragment, shapes, shaped, www_prefix) = judge;
        let plan =
            core::JudgePlan { scheme, schemes: by_scheme, generic, fragment, shapes, shaped, www_prefix };
        let judge = core::Judge::new(plan)
            .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
        let scanner = Scanner::new(naked, &schemes, &hierarchical, &iana, www, pipermail);
        Ok(Extractor {
            inner: core::Extractor { scanner, judge, invalid },
            grammar,
            wrappers: [wrappers.0, wrappers.1, wrappers.2],
            make_match,
            verdict,
        })
    }

    /// The matches whose trigger lies in `text[start:stop]`, as an iterator that judges the
    /// candidates a batch at a time, and the window's resume position; None for a text with a lone
    /// surrogate. `lines`: `_lines.Lines`' position, line and line start before them.
    #[pyo3(signature = (text, start = 0, stop = None, text_start = true, lines = (0, 1, 0)))]
    fn extract(
        slf: &Bound<'_, Self>,
        text: &Bound<'_, PyString>,
        start: usize,
        stop: Option<usize>,
        text_start: bool,
        lines: (usize, i64, i64),
    ) -> PyResult<Option<(Matches, usize)>> {
        let Ok(utf8) = text.to_str() else {
            return Ok(None);
        };
        let units = Units::of(text, utf8)?;
        let scanner = &slf.get().inner.scanner;
        let py = slf.py();
        let scanned = match &units {
            Units::Ascii(_) => {
                py.detach(|| guard("extract", || scanner.scan(utf8.as_bytes(), start, stop, text_start)))
            }
            Units::Latin1(bytes) => {
                let bytes = bytes.as_bytes(py);
                py.detach(|| guard("extract", || scanner.scan(bytes, start, stop, text_start)))
            }
            Units::Chars(chars) => {
                py.detach(|| guard("extract", || scanner.scan(chars, start, stop, text_start)))
            }
        }?;
        let matches = Matches {
            extractor: slf.clone().unbind(),
            units,
            candidates: scanned.candidates,
            next: 0,
            lines: core::Lines { pos: lines.0, line: lines.1, line_start: lines.2 },
            pending: VecDeque::new(),
        };
        Ok(Some((matches, scanned.resume)))
    }
}

/// A text as the core's units, one a character: an ASCII `str` read in place, a Latin-1 one
/// (every code point under 256) as its Latin-1 bytes, any other as its code points (4 bytes each).
enum Units {
    Ascii(Py<PyString>),
    Latin1(Py<PyBytes>),
    Chars(Vec<char>),
}

impl Units {
    fn of(text: &Bound<'_, PyString>, utf8: &str) -> PyResult<Self> {
        if utf8.is_ascii() {
            return Ok(Units::Ascii(text.clone().unbind()));
        }
        if let Ok(bytes) = text.call_method1("encode", ("latin-1",)) {
            return Ok(Units::Latin1(bytes.cast_into::<PyBytes>()?.unbind()));
        }
        Ok(Units::Chars(utf8.chars().collect()))
    }
}

/// The matches of a batch of candidates, in order.
fn judge<T: Unit>(
    inner: &core::Extractor,
    grammar: &urlsift_core::Grammar,
    batch: &[Candidate],
    units: &[T],
    lines: &mut core::Lines,
) -> Vec<core::Found> {
    batch.iter().filter_map(|c| inner.candidate(grammar, units, c, lines)).collect()
}

/// How many candidates are judged at a time: the Python objects made ahead stay this few.
const BATCH: usize = 256;

/// A text's matches (`Extractor.extract`'s iterator): `Match`es, and the tuples of the candidates
/// Python's judge must rank. `lines`, once it is exhausted, is the line counter's state.
#[pyclass(module = "urlsift._core")]
struct Matches {
    extractor: Py<Extractor>,
    units: Units,
    candidates: Vec<Candidate>,
    next: usize,
    lines: core::Lines,
    pending: VecDeque<Py<PyAny>>,
}

#[pymethods]
impl Matches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        while self.pending.is_empty() && self.next < self.candidates.len() {
            let end = (self.next + BATCH).min(self.candidates.len());
            let batch = self.candidates.get(self.next..end).unwrap_or_default();
            self.next = end;
            let extractor = self.extractor.get();
            let (inner, grammar, lines) = (&extractor.inner, &extractor.grammar.get().inner, &mut self.lines);
            let found = match &self.units {
                Units::Ascii(text) => {
                    let bytes = text.bind(py).to_str()?.as_bytes();
                    py.detach(|| guard("extract", || judge(inner, grammar, batch, bytes, lines)))?
                }
                Units::Latin1(bytes) => {
                    let bytes = bytes.as_bytes(py);
                    py.detach(|| guard("extract", || judge(inner, grammar, batch, bytes, lines)))?
                }
                Units::Chars(chars) => {
                    py.detach(|| guard("extract", || judge(inner, grammar, batch, chars, lines)))?
                }
            };
            for one in found {
                self.pending.push_back(extractor.item(py, one)?.unbind());
            }
        }
        Ok(self.pending.pop_front())
    }

    /// The line counter's state (position, line, line start) after the matches given so far.
    #[getter]
    fn lines(&self) -> (usize, i64, i64) {
        (self.lines.pos, self.lines.line, self.lines.line_start)
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Extractor>()?;
    module.add_class::<Matches>()
}
