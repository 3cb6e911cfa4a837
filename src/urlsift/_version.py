"""The version: ``urlsift --version`` prints it and ``urlsift.__version__`` is it. The package's
build (maturin) reads Cargo.toml's workspace version, which must be the same (tests/meta/test_docs.py
checks): a release changes both and moves CHANGELOG.md's lines under it."""

__version__ = "0.1.0"
