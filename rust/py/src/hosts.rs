//! The host columns' binding: `urlsift._core.HostColumns`, made once from the Public Suffix
//! List's file (the package's, read by Python), giving a valid URL's four columns, or None where
//! `hosts.py` must work them out (`urlsift_core::hosts::columns` decides).

use pyo3::prelude::*;
use urlsift_core::hosts as core;

use crate::scan::guard;

#[pyclass(module = "urlsift._core", frozen)]
pub(crate) struct HostColumns {
    pub(crate) suffixes: core::Suffixes,
}

#[pymethods]
impl HostColumns {
    #[new]
    fn new(suffix_list: &[u8]) -> Self {
        HostColumns { suffixes: core::Suffixes::parse(suffix_list) }
    }

    /// host, host_unicode, registered_domain, surt of a valid URL of `scheme` (lower-cased).
    fn columns(&self, url: &str, scheme: &str) -> PyResult<Option<core::Columns>> {
        guard("host columns", || core::columns(url, scheme, &self.suffixes))
    }

    /// `hosts.registered_domain` of an ASCII host with no `xn--` label, by this list: the one
    /// parse of the file a run needs.
    fn registered_domain(&self, host: &str) -> PyResult<Option<String>> {
        guard("registered domain", || self.suffixes.registered_domain(host))
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<HostColumns>()
}
