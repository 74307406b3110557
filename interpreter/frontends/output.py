"""Files the commands write: checked before the work that fills them is done."""

from __future__ import annotations

import os
from pathlib import Path

from interpreter.errors import TarockError


def check_writable(file: str, option: str) -> None:
    """Refuse an output file that cannot be written (TarockError naming `option` and the
    reason), before the deal is played or the evening's game typed in, not after."""
    path = Path(file)
    folder = path.parent
    if path.is_dir():
        raise TarockError(f"{option} {file}: is a directory")
    if not folder.is_dir():
        raise TarockError(f"{option} {file}: no such directory: {folder}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise TarockError(f"{option} {file}: not allowed to write there")
