"""What a path or a file's first bytes are: the questions every path is asked before it is read,
answered without loading the reader of each kind (a text run never imports the archive, WARC or
public-inbox readers, nor zipfile, tarfile and git's processes with them). Each reader's module
names its own (``archives.container``, ``warc.is_warc``, ``publicinbox.is_repository``)."""

from __future__ import annotations

import os
from typing import Literal

Kind = Literal["zip", "tar"]


def container(head: bytes) -> Kind | None:
    """Whether ``head`` (a file's first 4 KiB) starts a zip or a tar archive, and which."""
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head[257:262] == b"ustar":
        return "tar"
    return None


def is_warc(head: bytes, name: str) -> bool:
    """Whether a file (its first bytes, after decompression, and its name) is a WARC."""
    return head.startswith(b"WARC/1.") or name.lower().endswith((".warc", ".warc.gz", ".wet", ".wet.gz"))


def is_repository(path: str) -> bool:
    """Whether ``path`` is a bare git repository (a v2 epoch or a v1 inbox)."""
    join = os.path.join
    return (
        os.path.isfile(join(path, "HEAD"))
        and os.path.isdir(join(path, "objects"))
        and (os.path.isdir(join(path, "refs")))
    )
