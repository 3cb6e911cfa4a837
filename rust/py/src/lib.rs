//! The thin binding of `urlsift-core`: the module `urlsift._core`. It converts, calls the core and
//! converts back (offsets: the core's are UTF-8 bytes, Python's are characters); nothing else.
#![forbid(unsafe_code)]

mod extract;
mod hosts;
mod mail;
mod mbox;
mod mime;
mod rows;
mod scan;
mod text;
mod write;

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyMappingProxy, PyString, PyTuple};
use urlsift_core as core;

/// What a production's matches share: part name -> the groups that may capture it, and the
/// same as a read-only mapping to each part's first group (`re.Pattern.groupindex`), made once.
struct Parts {
    groups: HashMap<String, Vec<usize>>,
    groupindex: Py<PyMappingProxy>,
}

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
    fn new(py: Python<'_>, plan: Vec<(String, String, Vec<String>)>) -> PyResult<Self> {
        let mut inner = core::Grammar::new();
        let mut parts = HashMap::new();
        for (production, pattern, names) in plan {
            inner
                .add(&production, &pattern, &names)
                .map_err(|error| PyValueError::new_err(error.to_string()))?;
            let groups: HashMap<String, Vec<usize>> =
                inner.parts(&production).map_err(unknown)?.iter().cloned().collect();
            let index = PyDict::new(py);
            for (part, numbers) in &groups {
                index.set_item(part, numbers[0])?;
            }
            let groupindex = PyMappingProxy::new(py, index.as_mapping()).unbind();
            parts.insert(production, Arc::new(Parts { groups, groupindex }));
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
        let chars = spans.iter().map(|span| span.map(|(s, e)| (to_char(s), to_char(e)))).collect();
        let bytes = spans.into_iter().map(|span| span.map(|(s, e)| (start + s, start + e))).collect();
        Ok(Some(Match { string: string.unbind(), chars, bytes, parts: Arc::clone(parts) }))
    }
}

/// A fullmatch with its groups, read as a `re.Match` is: `group`, `start`, `end`, `string`.
/// A part's group is the first of its groups that took part in the match.
#[pyclass(frozen, module = "urlsift._core")]
struct Match {
    string: Py<PyString>,
    /// Each group's span in characters of `string` (None: it took no part).
    chars: Vec<Option<(usize, usize)>>,
    /// The same in UTF-8 bytes, to cut a group's text without counting characters again.
    bytes: Vec<Option<(usize, usize)>>,
    parts: Arc<Parts>,
}

impl Match {
    /// The group a key names that took part (its last, as the `regex` module reads a name several
    /// groups share); None when none did.
    fn group_of(&self, key: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        if let Ok(name) = key.cast::<PyString>() {
            let name = name.to_str()?;
            let groups = self
                .parts
                .groups
                .get(name)
                .ok_or_else(|| PyIndexError::new_err(format!("no such group {name:?}")))?;
            return Ok(groups.iter().rev().copied().find(|&group| self.chars[group].is_some()));
        }
        if key.is_instance_of::<PyInt>() && key.extract::<usize>().ok() == Some(0) {
            return Ok(Some(0));
        }
        Err(PyTypeError::new_err("a group is a part's name or 0"))
    }

    fn span_of(&self, key: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(usize, usize)>> {
        let group = match key {
            None => Some(0),
            Some(key) => self.group_of(key)?,
        };
        Ok(group.and_then(|group| self.chars[group]))
    }

    fn text<'py>(&self, py: Python<'py>, group: Option<usize>) -> PyResult<Option<Bound<'py, PyString>>> {
        let Some((start, end)) = group.and_then(|group| self.bytes[group]) else {
            return Ok(None);
        };
        Ok(Some(PyString::new(py, &self.string.bind(py).to_str()?[start..end])))
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
    fn groupindex(&self, py: Python<'_>) -> Py<PyMappingProxy> {
        self.parts.groupindex.clone_ref(py)
    }

    /// The text of a group (None when it took no part), or a tuple of several.
    #[pyo3(signature = (*keys))]
    fn group<'py>(&self, py: Python<'py>, keys: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyAny>> {
        match keys.len() {
            0 => Ok(self.text(py, Some(0))?.into_pyobject(py)?.into_any()),
            1 => Ok(self.text(py, self.group_of(&keys.get_item(0)?)?)?.into_pyobject(py)?.into_any()),
            _ => {
                let mut texts = Vec::with_capacity(keys.len());
                for key in keys.iter() {
                    texts.push(self.text(py, self.group_of(&key)?)?);
                }
                Ok(PyTuple::new(py, texts)?.into_any())
            }
        }
    }

    /// Where a group starts; -1 when it took no part.
    #[pyo3(signature = (key = None))]
    fn start(&self, key: Option<&Bound<'_, PyAny>>) -> PyResult<isize> {
        Ok(self.span_of(key)?.map_or(-1, |(start, _)| start as isize))
    }

    /// Where a group ends; -1 when it took no part.
    #[pyo3(signature = (key = None))]
    fn end(&self, key: Option<&Bound<'_, PyAny>>) -> PyResult<isize> {
        Ok(self.span_of(key)?.map_or(-1, |(_, end)| end as isize))
    }
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("BUILD_PROFILE", if cfg!(debug_assertions) { "debug" } else { "release" })?;
    module.add_class::<Grammar>()?;
    module.add_class::<Match>()?;
    scan::register(module)?;
    write::register(module)?;

    extract::register(module)?;
    mbox::register(module)?;
    mime::register(module)?;
    hosts::register(module)?;
    mail::register(module)?;
    text::register(module)?;
    Ok(())
}
