"""What an exception nobody expected, raised while one message (a record, a member) is read,
becomes: a report on that one only, so that the file goes on with the next (README: "nothing a
message contains ends its file").

A bug is ``internal`` (an error: the message counts as seen and failed, and the report asks to be
sent in). A fault of the machine is no bug and no damage of the input: running out of memory or
of file descriptors, a full disk. Those are ``unreadable``, with the fault in words, so that
nobody reports a bug that is not one, or blames an archive for it.
"""

from __future__ import annotations

import errno

from .._model import Defect, MessageText, Provenance

_MACHINE = {
    errno.EMFILE: "too many open files in this process",
    errno.ENFILE: "too many open files on this machine",
    errno.ENOSPC: "no space left on a device",
    errno.ENOMEM: "out of memory",
}
"""The errors of an OSError that are the machine's (its limits), not the input's."""


def reason(error: BaseException) -> str:
    """An exception as the few words a user needs."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def unexpected(error: BaseException, where: Provenance) -> Defect:
    """The report of ``error``, raised while the message (or file) at ``where`` was read."""
    fault = machine_fault(error)
    if fault is not None:
        return Defect("unreadable", where, f"{fault} (the machine's limit, not the input's); not read")
    return Defect("internal", where, internal(error))


def lost(error: BaseException, where: Provenance, pipermail: bool = False) -> MessageText:
    """The message at ``where`` as ``error`` left it: nothing of it to scan, and the report."""
    return MessageText(where, [], [], 0, [unexpected(error, where)], pipermail=pipermail)


def machine_fault(error: BaseException) -> str | None:
    """``error`` in words when it is a fault of the machine; None when it is not."""
    if isinstance(error, MemoryError):
        return "out of memory (MemoryError)"
    if isinstance(error, OSError) and error.errno in _MACHINE:
        return f"{_MACHINE[error.errno]} ({errno.errorcode[error.errno]})"
    return None


def internal(error: BaseException) -> str:
    """What an ``internal`` report says of a bug."""
    return f"internal error, please report it: {type(error).__name__}: {error}"
