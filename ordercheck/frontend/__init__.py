"""The front end: one source file's bytes in, its facts (``ir.FileFacts``) out.

``extract`` decodes like CPython (``source``), takes CPython's verdict from
``ast.parse`` and ``compile``, builds the per-scope import tables (``imports``) and
the aliases and receiver types (``scopes``) from the same ``ast``, then parses the
file with libcst in chunks (``source``) and walks each chunk once: statements
(``statements``), expressions in evaluation order (``expressions``); suppression
comments come from the tokenizer (``comments``). The libcst tree is dropped; nothing
here depends on the configuration.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .. import lazy
from .. import scopes as scopesmod
from ..errors import raise_if_interrupted
from ..ir import FileFacts, ParseError
from . import source
from .comments import find_suppressions
from .expressions import load_libcst
from .imports import import_tables, module_name
from . import outline as outlinemod
from .source import chunks, cpython_verdict, formfeed_indents, gc_paused, huge_functions, shift_spans, top_level_bounds
from .statements import Extractor

if TYPE_CHECKING:  # the real modules, for the type checker
    import libcst as cst
else:
    cst = lazy.module("libcst", globals(), "cst")  # imported by the first extraction: a warm run never parses

__all__ = ["extract", "module_name", "outline"]


def extract(path: str, data: bytes, module: Optional[str] = None) -> FileFacts:
    """Facts of one file (see ``_extract``), with the cyclic garbage collector paused
    (``source.gc_paused``)."""
    with gc_paused():
        return _extract(path, data, module)


def _extract(path: str, data: bytes, module: Optional[str] = None) -> FileFacts:
    """Facts of one file. Never raises for bad input: a file that cannot be decoded,
    parsed, compiled or analysed comes back with ``error`` set (one OC900 finding).

    CPython's verdict comes first: ``ast.parse``, then ``compile`` of that tree, which
    reports what only the compiler checks (``'return' outside function``, ``default
    'except:' must be last``, ``from __future__ import braces``) where CPython does."""
    facts = FileFacts(path=path, module=module if module is not None else module_name(Path(path)))
    verdict = cpython_verdict(facts, data)
    if verdict is None:
        return facts
    text, tree = verdict
    lines, shifts = formfeed_indents(facts.lines)
    load_libcst()
    ex = None
    try:
        ex = Extractor(facts, lines, import_tables(tree, facts.module, path), scopesmod.scan(tree))
        bounds = top_level_bounds(tree)
        huge = huge_functions(tree, lines, source.CHUNK_LINES)
        parts = list(chunks(bounds, lines, source.CHUNK_LINES, huge))
        if len(parts) == 1 and not huge:  # one chunk: its positions come from this ast
            ex.source_ast = (text, tree)
        del tree  # the ast was for CPython's verdict, imports, chunk bounds and positions
        ex.module(parts)
        ex.source_ast = None
    except cst.ParserSyntaxError as exc:
        # CPython accepted the file and libcst did not: say so, and where.
        offset = ex.offset if ex is not None else 0
        return _failed(facts, f"libcst cannot parse this file although CPython can: {exc.message}",
                       exc.raw_line + offset, exc.raw_column)
    except RecursionError:
        return _failed(facts, "the file nests too deeply to analyse (libcst ran out of recursion depth)")
    except Exception as exc:  # libcst turns deep recursion into other errors too
        raise_if_interrupted()  # libcst turns a pending Ctrl-C into an error too
        try:  # the message of a libcst error can itself recurse (a repr of a deep node)
            text = str(exc)
            detail = text.splitlines()[0][:120] if text else ""
        except Exception:  # noqa: BLE001 - RecursionError and whatever else a repr raises
            detail = ""
        return _failed(facts, f"libcst cannot analyse this file although CPython can ({type(exc).__name__}"
                              + (f": {detail})" if detail else "); it likely nests too deeply for libcst"))
    if shifts:
        shift_spans(facts, shifts)
    facts.suppressions = find_suppressions(text)
    return facts



def outline(path: str, data: bytes, module: Optional[str] = None) -> FileFacts:
    """A file's outline (``outline``), or its whole facts when it nests too deeply for
    the outline's walk (what the libcst pass makes of such a file is the answer)."""
    try:
        return outlinemod.outline(path, data, module)
    except RecursionError:
        return extract(path, data, module)


def _failed(facts: FileFacts, message: str, line: int = 1, col: int = 0) -> FileFacts:
    facts.error = ParseError(message, line, col)
    facts.functions = []
    facts.classes = []
    return facts
