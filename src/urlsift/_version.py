"""The version, written once: pyproject.toml reads it, ``urlsift --version`` prints it, and
``urlsift.__version__`` is it. A release changes it here and moves CHANGELOG.md's lines under it."""

__version__ = "0.1.0"
