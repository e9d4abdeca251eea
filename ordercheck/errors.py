"""Errors that end a run with exit code 2 and one line on stderr, and an internal
error told in one line (an OC901 finding's, ``error_text``)."""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Optional


class UsageError(Exception):
    """A bad config file, rule file or argument. ``str()`` is the one-line message."""

    def __init__(self, message: str, file: Optional[str] = None, key: Optional[str] = None) -> None:
        self.file = file
        self.key = key
        where = ""
        if file and key:
            where = f"{file}: `{key}`: "
        elif file:
            where = f"{file}: "
        elif key:
            where = f"`{key}`: "
        super().__init__(f"{where}{message}")


def read_toml(path: Path, what: str, text: Optional[str] = None) -> dict:
    """A config or rule file's table (``text``: its content, already read), with every
    way it can be unreadable told as a ``UsageError`` that names the file: a user's
    TOML is input, and bad input is one line and exit 2, never a traceback. ``what``
    names the file's kind in "cannot read {what}"."""
    try:
        if text is not None:
            return tomllib.loads(text)
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise UsageError(f"cannot read {what}: {exc.strerror}", str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"invalid TOML: {exc}", str(path)) from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"not valid UTF-8 (byte {exc.object[exc.start:exc.start + 1]!r} at offset {exc.start});"
                         " TOML files must be UTF-8", str(path)) from None
    except (RecursionError, MemoryError):
        raise UsageError("invalid TOML: nested too deeply", str(path)) from None


# Ctrl-C. Python raises KeyboardInterrupt wherever the main thread is, and code that
# catches ``Exception`` broadly around a native parser (libcst turns a pending signal
# into an error of its own) would swallow it: the CLI's handler also sets this flag,
# and the pipeline checks it between files.
_interrupted = False


def on_sigint(signum=None, frame=None) -> None:  # a signal handler
    global _interrupted
    if _interrupted:  # a second Ctrl-C: leave at once
        import os

        os._exit(130)
    _interrupted = True
    raise KeyboardInterrupt


def interrupted() -> bool:
    return _interrupted


def raise_if_interrupted() -> None:
    if _interrupted:
        raise KeyboardInterrupt


def error_text(exc: BaseException) -> str:
    """An exception in one line: its type and (the start of) its message."""
    try:
        detail = str(exc)
    except Exception:  # noqa: BLE001 - a __str__ that fails
        detail = ""
    detail = " ".join(detail.split())
    if len(detail) > 200:
        detail = detail[:199] + "…"
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__


def raised_inside(exc: BaseException, folder: str) -> bool:
    """Whether ``exc``'s innermost frame runs code of ``folder`` (a library's
    package): where the exception was raised, not who called it."""
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None:
        return False
    return os.path.abspath(last.tb_frame.f_code.co_filename).startswith(os.path.join(os.path.abspath(folder), ""))
