//! The mbox splitter's binding: `urlsift._core.MboxSplitter`, fed the blocks Python reads, giving
//! back the messages each completes as `RawMessage` fields, a batch at a time, or as one chunk
//! of columns (`feed_chunk`: no Python object a message); and the cut finder of
//! sources/split.py, `next_separator`. The GIL is released while the core searches.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBool, PyBytes, PyList, PyTuple};
use urlsift_core::mbox as core;

use crate::scan::guard;

/// A splitter of one input; `finish` ends it.
#[pyclass(module = "urlsift._core")]
struct MboxSplitter {
    inner: Option<core::Splitter>,
    /// The last chunk's data, joined: its room kept for the next (no fresh pages a call).
    joined: Vec<u8>,
}

/// Each message as the tuple `RawMessage._make` takes: number, offset, data, size, complete,
/// pipermail.
fn batch<'py>(py: Python<'py>, found: Vec<core::RawMessage>) -> PyResult<Bound<'py, PyList>> {
    let rows = found.into_iter().map(|message| {
        PyTuple::new(
            py,
            [
                message.number.into_pyobject(py)?.into_any(),
                message.offset.into_pyobject(py)?.into_any(),
                PyBytes::new(py, &message.data).into_any(),
                message.size.into_pyobject(py)?.into_any(),
                PyBool::new(py, message.complete).to_owned().into_any(),
                PyBool::new(py, message.pipermail).to_owned().into_any(),
            ],
        )
    });
    PyList::new(py, rows.collect::<PyResult<Vec<_>>>()?)
}

/// The messages as one chunk: their data one after the other, and six columns of native 64-bit
/// integers laid out one after the other (where each one's data ends, number, offset, size,
/// complete, pipermail): `sources.mbox.MailChunk`'s makings, with no Python object a message.
fn chunk<'py>(
    py: Python<'py>,
    found: Vec<core::RawMessage>,
    data: &mut Vec<u8>,
) -> PyResult<Bound<'py, PyTuple>> {
    let count = found.len();
    let mut columns = vec![0_i64; 6 * count];
    data.clear();
    for (i, message) in found.into_iter().enumerate() {
        data.extend_from_slice(&message.data);
        let values =
            [u64::try_from(data.len()).unwrap_or(u64::MAX), message.number, message.offset, message.size];
        for (k, value) in values.into_iter().enumerate() {
            columns[k * count + i] = i64::try_from(value).unwrap_or(i64::MAX);
        }
        columns[4 * count + i] = i64::from(message.complete);
        columns[5 * count + i] = i64::from(message.pipermail);
    }
    let columns: Vec<u8> = columns.iter().flat_map(|n| n.to_ne_bytes()).collect();
    PyTuple::new(py, [PyBytes::new(py, data), PyBytes::new(py, &columns)])
}

#[pymethods]
impl MboxSplitter {
    /// `limit`: the largest message held whole (--max-message); `start`: the offset of the first
    /// byte fed in the file the offsets are given in.
    #[new]
    #[pyo3(signature = (limit, start = 0))]
    fn new(limit: u64, start: u64) -> Self {
        MboxSplitter { inner: Some(core::Splitter::new(limit, start)), joined: Vec::new() }
    }

    /// The messages completed by the next block of the input.
    fn feed<'py>(&mut self, py: Python<'py>, block: &[u8]) -> PyResult<Bound<'py, PyList>> {
        batch(py, self.fed(py, block)?)
    }

    /// `feed`'s messages as one chunk of columns (`chunk`).
    fn feed_chunk<'py>(&mut self, py: Python<'py>, block: &[u8]) -> PyResult<Bound<'py, PyTuple>> {
        let found = self.fed(py, block)?;
        chunk(py, found, &mut self.joined)
    }

    /// `feed_chunk` of the blocks one after the other, not joined first: the messages are the
    /// same whatever the blocks, and Python's join was a copy of the chunk.
    fn feed_blocks<'py>(
        &mut self,
        py: Python<'py>,
        blocks: Vec<PyBackedBytes>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let blocks: Vec<&[u8]> = blocks.iter().map(|block| &**block).collect();
        let found = self.fed_all(py, &blocks)?;
        chunk(py, found, &mut self.joined)
    }

    /// The input has ended: its last message (if any).
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        batch(py, self.finished(py)?)
    }

    /// `finish`'s message as a chunk of columns (`chunk`).
    fn finish_chunk<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let found = self.finished(py)?;
        chunk(py, found, &mut std::mem::take(&mut self.joined))
    }
}

impl MboxSplitter {
    /// The messages `block` completes, split with the GIL released.
    fn fed(&mut self, py: Python<'_>, block: &[u8]) -> PyResult<Vec<core::RawMessage>> {
        self.fed_all(py, &[block])
    }

    /// The messages `blocks`, fed in order, complete, split with the GIL released.
    fn fed_all(&mut self, py: Python<'_>, blocks: &[&[u8]]) -> PyResult<Vec<core::RawMessage>> {
        let splitter = self.inner.as_mut().ok_or_else(|| PyValueError::new_err("the input has ended"))?;
        py.detach(|| {
            guard("mbox", || {
                let mut out = Vec::new();
                for block in blocks {
                    splitter.feed(block, &mut out);
                }
                out
            })
        })
    }

    /// The input's last message (if any); the splitter is done.
    fn finished(&mut self, py: Python<'_>) -> PyResult<Vec<core::RawMessage>> {
        let splitter = self.inner.take().ok_or_else(|| PyValueError::new_err("the input has ended"))?;
        py.detach(|| {
            guard("mbox", || {
                let mut out = Vec::new();
                splitter.finish(&mut out);
                out
            })
        })
    }
}

/// The offset in `block` of the first separator line at or after `first` that follows an empty
/// line whose `\n\r?\nFrom ` ends by `endpos` (sources/split.py's `_next_separator`, one block).
#[pyfunction]
fn next_separator(py: Python<'_>, block: &[u8], first: usize, endpos: usize) -> PyResult<Option<usize>> {
    py.detach(|| guard("mbox", || core::next_separator(block, first, endpos)))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<MboxSplitter>()?;
    module.add_function(wrap_pyfunction!(next_separator, module)?)?;
    Ok(())
}
