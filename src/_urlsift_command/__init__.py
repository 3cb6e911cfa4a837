"""The ``urlsift`` command's entry point, outside the urlsift package (issue 31).

Importing urlsift is what fails when ``URLSIFT_CORE`` names a core this process cannot run
(``urlsift._select``), before anything inside the package could catch it; here that refusal becomes
what a command line's usage error is, one line and exit 2. Any other ImportError (a broken
install) keeps its traceback. Ctrl-C while the package is imported ends the run as Ctrl-C in it
does (``urlsift.cli.INTERRUPTED``), with nothing read and no traceback.

What the import makes (classes, tables, compiled patterns) lives as long as the process: no
collection runs while it is made, and it is frozen afterwards (``gc.freeze``), so that no later
collection walks it again, nor the one at exit (docs/performance.md, "A fresh process").
"""

from __future__ import annotations

import gc
import sys

REFUSED_BY = "urlsift._select"
"""The module whose ImportError is a refusal of the core asked for, not a broken install."""

INTERRUPTED = 130
"""``urlsift.cli.INTERRUPTED``, said here as the package may not be imported yet."""


def main() -> int:
    gc.disable()
    try:
        from urlsift.cli import main as run
    except ImportError as error:
        if error.name != REFUSED_BY:
            raise
        print(f"urlsift: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("urlsift: interrupted", file=sys.stderr)
        return INTERRUPTED
    finally:
        gc.freeze()
        gc.enable()
    return run()
