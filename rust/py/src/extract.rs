//! The extractor's binding: `urlsift._core.Extractor`, whose `extract` gives, per text, its matches
//! as `Match`es, each verdict made by `extract.py`'s factory (one worked out when first read), and
//! as a tuple each candidate whose readings Python's judge must rank.
//!
//! The core works with the GIL released, scanning and judging a batch of candidates at a time as
//! the matches are taken, so that the candidates and Python objects made ahead stay few. A text
//! is read as the scanner's units (`scan::Units`, one a character: ASCII in place, Latin-1 bytes,
//! UTF-16 units of the BMP, else code points). A text with a lone surrogate (which no `String`
//! can hold) gives None: `extract.py` runs Python's stages over the native scanner's candidates
//! for it, so its readings are judged by Python's engine, exactly. A panic becomes
//! `InternalError`.

use std::collections::{HashMap, VecDeque};

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use urlsift_core::extract as core;
use urlsift_core::rejoin::Reading;
use urlsift_core::scan::{Scan, Scanner, Span, Unit, Wrapper};

use crate::scan::{UnitSlice, Units};
use crate::Grammar;

/// (scheme rule's pattern, (scheme, production) pairs, generic production, fragment production,
/// D35's (scheme, pattern, parts) shapes, the schemes D35 checks, what "www." stands for).
type JudgeArgs =
    (String, Vec<(String, String)>, String, String, Vec<(String, String, Vec<String>)>, Vec<String>, String);

/// `Scanner`'s: naked, the schemes, the hierarchical ones, IANA's permanent ones, www, pipermail.
type ScannerArgs = (bool, Vec<String>, Vec<String>, Vec<String>, bool, bool);

#[pyclass(frozen, module = "urlsift._core")]
pub(crate) struct Extractor {
    pub(crate) inner: core::Extractor,
    pub(crate) grammar: Py<Grammar>,
    /// `_model.Wrapper`'s three values, in its order.
    wrappers: [Py<PyAny>; 3],
    /// `_model.make_match`, and the verdict factory: (url, valid, kind, naked, Unclosed index).
    make_match: Py<PyAny>,
    verdict: Py<PyAny>,
}

/// Which of `extract.py`'s verdict functions makes a verdict (its `_JUDGE` ... `_DEOBFUSCATED`),
/// and why a wrapper was not closed (an index into `Unclosed`).
pub(crate) fn kind_of(verdict: core::Verdict) -> (u8, Option<usize>) {
    match verdict {
        core::Verdict::Judge => (0, None),
        core::Verdict::Www => (1, None),
        core::Verdict::Unclosed(why) => (2, Some(why as usize)),
        core::Verdict::Deobfuscated => (3, None),
    }
}

/// A match, or an undecided candidate's tuple: (url, alternatives, wrapper, span, pieces, line,
/// column, None, verdict's kind, Unclosed index, readings), whose readings Python judges and ranks.
type Item<'py> = Bound<'py, PyAny>;

fn pieces<'py>(py: Python<'py>, pieces: &[Span]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, pieces.iter().copied())
}

impl Extractor {
    pub(crate) fn wrapper(&self, py: Python<'_>, wrapper: Option<Wrapper>) -> Py<PyAny> {
        // `Wrapper`'s variants are in `_model.Wrapper`'s order.
        wrapper
            .and_then(|kind| self.wrappers.get(kind as usize))
            .map_or_else(|| py.None(), |w| w.clone_ref(py))
    }

    pub(crate) fn item<'py>(&self, py: Python<'py>, found: core::Found) -> PyResult<Item<'py>> {
        self.item_of(py, found, &mut Verdicts::default())
    }

    /// `item`, the verdicts of decided matches looked up in `verdicts` first.
    fn item_of<'py>(
        &self,
        py: Python<'py>,
        found: core::Found,
        verdicts: &mut Verdicts,
    ) -> PyResult<Item<'py>> {
        let (kind, why) = kind_of(found.verdict);
        let alternatives = PyTuple::new(py, found.alternatives)?;
        let wrapper = self.wrapper(py, found.wrapper);
        let spans = pieces(py, &found.pieces)?;
        if let Some(valid) = found.valid {
            let key = (found.url, valid, kind, found.wrapper.is_none(), why);
            let (url, verdict) = verdicts.made(py, key, &self.verdict)?;
            let fields = (url, alternatives, wrapper, found.span, spans, found.line, found.column, verdict);
            return self.make_match.bind(py).call1((fields,));
        }
        let url = PyString::new(py, &found.url);
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

    /// The matches whose trigger lies in `text[start:stop]`, as an iterator that scans and judges
    /// the candidates a batch at a time; None for a text with a lone surrogate. `lines`:
    /// `_lines.Lines`' position, line and line start before them.
    #[pyo3(signature = (text, start = 0, stop = None, text_start = true, lines = (0, 1, 0)))]
    fn extract(
        slf: &Bound<'_, Self>,
        text: &Bound<'_, PyString>,
        start: usize,
        stop: Option<usize>,
        text_start: bool,
        lines: (usize, i64, i64),
    ) -> PyResult<Option<Matches>> {
        let units = Units::of(text)?;
        if units.lone_surrogate() {
            // The units hold it as a character (the candidates are exact), but a reading made of
            // them would drop it: Python's stages judge this text's candidates.
            return Ok(None);
        }
        let scanner = &slf.get().inner.scanner;
        let scan = units.with(slf.py(), "extract", |units| match units {
            UnitSlice::Bytes(bytes) => scanner.start(bytes, start, stop, text_start),
            UnitSlice::Utf16(units) => scanner.start(units, start, stop, text_start),
            UnitSlice::Chars(chars) => scanner.start(chars, start, stop, text_start),
        })?;
        Ok(Some(Matches {
            extractor: slf.clone().unbind(),
            units,
            scan,
            lines: core::Lines { pos: lines.0, line: lines.1, line_start: lines.2 },
            pending: VecDeque::new(),
            judgements: core::Judgements::new(),
            verdicts: Verdicts::default(),
        }))
    }
}

/// The matches of the next (at most `BATCH`) candidates of `scan`, in order.
fn judge<T: Unit>(
    inner: &core::Extractor,
    grammar: &urlsift_core::Grammar,
    scan: &mut Scan,
    units: &[T],
    (lines, judgements): (&mut core::Lines, &mut core::Judgements),
) -> Vec<core::Found> {
    let candidates = std::iter::from_fn(|| inner.scanner.next(scan, units)).take(BATCH);
    candidates.filter_map(|c| inner.candidate_judged(grammar, units, &c, lines, judgements)).collect()
}

/// A verdict's arguments: the URL, whether it is valid, the verdict's kind, whether the URL is
/// naked, why its wrapper was not closed.
type VerdictKey = (String, bool, u8, bool, Option<usize>);

/// The URLs and verdicts made for one text's matches, by the verdict factory's arguments: a URL
/// recurs (a list's footer in each message of an archive), and each time after the first its
/// verdict is a lookup here, not a call into Python. The factory's own cache (`extract.py`'s
/// `_judge_deferred`) made them, so the objects are those it gives.
#[derive(Default)]
pub(crate) struct Verdicts(HashMap<VerdictKey, (Py<PyString>, Py<PyAny>)>);

/// The most verdicts a text's `Verdicts` holds (emptied when full): a text of a million distinct
/// URLs holds no million objects for it.
const VERDICTS: usize = 4096;

impl Verdicts {
    fn made<'py>(
        &mut self,
        py: Python<'py>,
        key: VerdictKey,
        factory: &Py<PyAny>,
    ) -> PyResult<(Bound<'py, PyString>, Bound<'py, PyAny>)> {
        if let Some((url, verdict)) = self.0.get(&key) {
            return Ok((url.bind(py).clone(), verdict.bind(py).clone()));
        }
        let url = PyString::new(py, &key.0);
        let verdict = factory.bind(py).call1((&url, key.1, key.2, key.3, key.4))?;
        if self.0.len() >= VERDICTS {
            self.0.clear();
        }
        self.0.insert(key, (url.clone().unbind(), verdict.clone().unbind()));
        Ok((url, verdict))
    }
}

/// How many candidates are scanned and judged at a time: the candidates and the Python objects
/// made ahead stay this few, however many a text has.
const BATCH: usize = 256;

/// A text's matches (`Extractor.extract`'s iterator): `Match`es, and the tuples of the candidates
/// Python's judge must rank. `lines`, once it is exhausted, is the line counter's state.
#[pyclass(module = "urlsift._core")]
pub(crate) struct Matches {
    pub(crate) extractor: Py<Extractor>,
    pub(crate) units: Units,
    pub(crate) scan: Scan,
    pub(crate) lines: core::Lines,
    pub(crate) pending: VecDeque<Py<PyAny>>,
    /// The judgements of the URLs met last in the text.
    pub(crate) judgements: core::Judgements,
    /// The verdicts made for the text's matches so far.
    pub(crate) verdicts: Verdicts,
}

#[pymethods]
impl Matches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let Matches { extractor, units, scan, lines, pending, judgements, verdicts } = self;
        let extractor = extractor.get();
        let (inner, grammar) = (&extractor.inner, &extractor.grammar.get().inner);
        while pending.is_empty() && !scan.done() {
            let found = units.with(py, "extract", |units| match units {
                UnitSlice::Bytes(bytes) => judge(inner, grammar, scan, bytes, (lines, judgements)),
                UnitSlice::Utf16(units) => judge(inner, grammar, scan, units, (lines, judgements)),
                UnitSlice::Chars(chars) => judge(inner, grammar, scan, chars, (lines, judgements)),
            })?;
            for one in found {
                pending.push_back(extractor.item_of(py, one, verdicts)?.unbind());
            }
        }
        Ok(pending.pop_front())
    }

    /// The line counter's state (position, line, line start) after the matches given so far.
    #[getter]
    fn lines(&self) -> (usize, i64, i64) {
        (self.lines.pos, self.lines.line, self.lines.line_start)
    }

    /// Where the next window's scan must start (`ScanProgress.resume`); None until exhausted.
    #[getter]
    fn resume(&self) -> Option<usize> {
        (self.scan.done() && self.pending.is_empty()).then(|| self.scan.resume())
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Extractor>()?;
    module.add_class::<Matches>()
}
