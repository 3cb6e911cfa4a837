//! The thin binding of `urlsift-core`: the module `urlsift._core`. It converts, calls the core and
//! converts back (offsets: the core's are UTF-8 bytes, Python's are characters); nothing else.
#![forbid(unsafe_code)]

mod scan;

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString, PyTuple};
use urlsift_core as core;

/// Part name -> the groups that may capture it.
type Parts = HashMap<String, Vec<usize>>;

/// A grammar's compiled productions, built once from the plan `urlsift.grammar.export` renders.
#[pyclass(frozen, module = "urlsift._core")]
struct Grammar {
    inner: core::Grammar,
    parts: HashMap<String, Arc<Parts>>,
}

fn unknown(error: core::UnknownProduction) -> PyErr {
    PyKeyError::new_err(error.0)
}

/// The byte offset of character `index` of `text` (its length when past the end).
fn byte_offset(text: &str, index: usize) -> usize {
    text.char_indices().nth(index).map_or(text.len(), |(at, _)| at)
}

#[pymethods]
impl Grammar {
    /// `plan`: (production, pattern, parts) triples; a pattern the core refuses is a ValueError
    /// that names its production.
    #[new]
    fn new(plan: Vec<(String, String, Vec<String>)>) -> PyResult<Self> {
        let mut inner = core::Grammar::new();
        let mut parts = HashMap::new();
        for (production, pattern, names) in plan {
            inner
                .add(&production, &pattern, &names)
                .map_err(|error| PyValueError::new_err(error.to_string()))?;
            let groups: Parts = inner.parts(&production).map_err(unknown)?.iter().cloned().collect();
            parts.insert(production, Arc::new(groups));
        }
        Ok(Self { inner, parts })
    }

    /// The productions (and schemes) this grammar holds, sorted.
    fn productions(&self) -> Vec<String> {
        self.inner.productions().into_iter().map(str::to_owned).collect()
    }

    /// Whether the whole of `text` is `production`.
    fn fullmatch(&self, production: &str, text: &str) -> PyResult<bool> {
        self.inner.fullmatch(production, text).map_err(unknown)
    }

    /// The match of `string[pos:endpos]` as a whole `production`, with its parts; None when it is
    /// not one. Offsets are characters of `string`, as a `re` match's are.
    #[pyo3(signature = (production, string, pos = 0, endpos = None))]
    fn fullmatch_at(
        &self,
        production: &str,
        string: Bound<'_, PyString>,
        pos: usize,
        endpos: Option<usize>,
    ) -> PyResult<Option<Match>> {
        let parts = self.parts.get(production).ok_or_else(|| PyKeyError::new_err(production.to_owned()))?;
        let text = string.to_str()?;
        let ascii = text.is_ascii();
        let (start, end) = if ascii {
            let end = endpos.unwrap_or(text.len()).min(text.len());
            (pos.min(end), end)
        } else {
            let end = endpos.map_or(text.len(), |endpos| byte_offset(text, endpos));
            (byte_offset(text, pos).min(end), end)
        };
        let slice = &text[start..end];
        let Some(spans) = self.inner.captures(production, slice).map_err(unknown)? else {
            return Ok(None);
        };
        let first = if ascii { start } else { pos };
        let to_char = |at: usize| if ascii { first + at } else { first + slice[..at].chars().count() };
        let spans = spans.into_iter().map(|span| span.map(|(s, e)| (to_char(s), to_char(e)))).collect();
        Ok(Some(Match { string: string.unbind(), spans, parts: Arc::clone(parts) }))
    }
}

/// A fullmatch with its groups, read as a `re.Match` is: `group`, `start`, `end`, `string`.
/// A part's group is the first of its groups that took part in the match.
#[pyclass(frozen, module = "urlsift._core")]
struct Match {
    string: Py<PyString>,
    spans: Vec<Option<(usize, usize)>>,
    parts: Arc<Parts>,
}

impl Match {
    fn span_of(&self, key: &Bound<'_, PyAny>) -> PyResult<Option<(usize, usize)>> {
        if let Ok(name) = key.cast::<PyString>() {
            let name = name.to_str()?;
            let groups = self
                .parts
                .get(name)
                .ok_or_else(|| PyIndexError::new_err(format!("no such group {name:?}")))?;
            // The last that took part, as the `regex` module reads a name several groups share.
            return Ok(groups.iter().rev().find_map(|&group| self.spans[group]));
        }
        if key.is_instance_of::<PyInt>() && key.extract::<usize>().ok() == Some(0) {
            return Ok(self.spans[0]);
        }
        Err(PyTypeError::new_err("a group is a part's name or 0"))
    }

    fn text<'py>(
        &self,
        py: Python<'py>,
        span: Option<(usize, usize)>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        span.map(|(start, end)| {
            self.string.bind(py).as_any().get_item(pyo3::types::PySlice::new(
                py,
                start as isize,
                end as isize,
                1,
            ))
        })
        .transpose()
    }
}

#[pymethods]
impl Match {
    #[getter]
    fn string(&self, py: Python<'_>) -> Py<PyString> {
        self.string.clone_ref(py)
    }

    /// Itself, for `m.re.groupindex` (a `re.Match` names its pattern there).
    #[getter]
    fn re(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The parts this production can capture, each with its first group's number.
    #[getter]
    fn groupindex(&self) -> HashMap<String, usize> {
        self.parts.iter().map(|(part, groups)| (part.clone(), groups[0])).collect()
    }

    /// The text of a group (None when it took no part), or a tuple of several.
    #[pyo3(signature = (*keys))]
    fn group<'py>(&self, py: Python<'py>, keys: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyAny>> {
        match keys.len() {
            0 => Ok(self.text(py, self.spans[0])?.into_pyobject(py)?),
            1 => Ok(self.text(py, self.span_of(&keys.get_item(0)?)?)?.into_pyobject(py)?),
            _ => {
                let mut texts = Vec::with_capacity(keys.len());
                for key in keys.iter() {
                    texts.push(self.text(py, self.span_of(&key)?)?);
                }
                Ok(PyTuple::new(py, texts)?.into_any())
            }
        }
    }

    /// Where a group starts; -1 when it took no part.
    #[pyo3(signature = (key = None))]
    fn start(&self, key: Option<&Bound<'_, PyAny>>) -> PyResult<isize> {
        let span = match key {
            None => self.spans[0],
            Some(key) => self.span_of(key)?,
        };
        Ok(span.map_or(-1, |(start, _)| start as isize))
    }

    /// Where a group ends; -1 when it took no part.
    #[pyo3(signature = (key = None))]
    fn end(&self, key: Option<&Bound<'_, PyAny>>) -> PyResult<isize> {
        let span = match key {
            None => self.spans[0],
            Some(key) => self.span_of(key)?,
        };
        Ok(span.map_or(-1, |(_, end)| end as isize))
    }
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("BUILD_PROFILE", if cfg!(debug_assertions) { "debug" } else { "release" })?;
    module.add_class::<Grammar>()?;
    module.add_class::<Match>()?;
    scan::register(module)?;
    Ok(())
}
