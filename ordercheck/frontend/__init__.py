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

import ast
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, AbstractSet, List, Optional, Tuple

from .. import depth, lazy
from .. import scopes as scopesmod
from ..errors import error_text, raise_if_interrupted, raised_inside
from ..ir import FileFacts, ParseError
from . import outline as outlinemod
from . import source
from .comments import find_suppressions
from .expressions import load_libcst
from .imports import import_tables, module_exports, module_name
from .source import chunks, cpython_verdict, formfeed_indents, gc_paused, huge_functions, shift_spans, top_level_bounds
from .statements import Extractor

LOG = logging.getLogger("ordercheck")

if TYPE_CHECKING:  # the real modules, for the type checker
    import libcst as cst
else:
    cst = lazy.module("libcst", globals(), "cst")  # imported by the first extraction: a warm run never parses

__all__ = ["extract", "module_name", "outline"]


def extract(path: str, data: bytes, module: Optional[str] = None,
            units: Optional[AbstractSet[str]] = None, outlined: Optional[FileFacts] = None) -> FileFacts:
    """Facts of one file (see ``_extract``), with the cyclic garbage collector paused
    (``source.gc_paused``).

    ``units``: the qualified names of the only functions a run needs whole (the
    outline pre-pass's needed functions of this file). Then only the outermost
    functions that hold one are parsed with libcst, each in its context; every other
    function stays an outline (``FileFacts.outlined``). Without ``units``, or when
    the module body is needed, the whole file is read.

    ``outlined``: this file's outline from the outline pass, made from these very
    bytes (the caller checks). The units' walk then takes the outline's functions,
    classes and tables instead of walking the file again, and trusts its verdict
    (no ``compile``): on real code that was a third of a needed file's cost."""
    with gc_paused():
        if units is not None and "<module>" not in units:
            got = _extract_units(path, data, module, units, outlined)
            if got is not None:
                return got
        return _extract(path, data, module)


def _extract(path: str, data: bytes, module: Optional[str] = None, deep: bool = False) -> FileFacts:
    """Facts of one file. Never raises for bad input: a file that cannot be decoded,
    parsed, compiled or analysed comes back with ``error`` set (one OC900 finding).

    CPython's verdict comes first: ``ast.parse``, then ``compile`` of that tree, which
    reports what only the compiler checks (``'return' outside function``, ``default
    'except:' must be last``, ``from __future__ import braces``) where CPython does."""
    facts = FileFacts(path=path, module=module if module is not None else module_name(Path(path)))
    verdict = cpython_verdict(facts, data)
    if verdict is None:
        return facts
    text, parsed = verdict
    tree: Optional[ast.Module] = parsed
    del parsed
    lines, shifts = formfeed_indents(facts.lines)
    load_libcst()
    ex = None
    suppressions = None
    try:
        assert tree is not None
        ex = Extractor(facts, lines, import_tables(tree, facts.module, path), scopesmod.scan(tree, text))
        bounds = top_level_bounds(tree)
        huge = huge_functions(tree, lines, source.CHUNK_LINES)
        parts = list(chunks(bounds, lines, source.CHUNK_LINES, huge))
        if len(parts) == 1 and not huge:  # one chunk: its positions come from this ast
            ex.source_ast = (text, tree)
        suppressions = find_suppressions(text, tree)
        facts.exports = module_exports(tree)
        tree = None  # the ast was for CPython's verdict, imports, chunk bounds and positions
        ex.module(parts)
        ex.source_ast = None
    except cst.ParserSyntaxError as exc:
        # CPython accepted the file and libcst did not: say so, and where.
        offset = ex.offset if ex is not None else 0
        return _failed(facts, f"libcst cannot parse this file although CPython can: {exc.message}",
                       exc.raw_line + offset, exc.raw_column)
    except RecursionError:
        if not deep:  # a file CPython compiles, nesting deeper than our walks' default
            # depth (a 400-term concatenation): read again with a deep stack (``deep``:
            # CPython's verdict, already taken at the default depth, is the same there)
            del ex
            try:
                return depth.deeply(_extract, path, data, module, True)
            except RecursionError:
                pass  # (no thread with a deep stack could start)
        return _failed(facts, "the file nests too deeply to analyse (out of recursion depth)")
    except Exception as exc:  # libcst turns deep recursion into other errors too
        raise_if_interrupted()  # libcst turns a pending Ctrl-C into an error too
        if not isinstance(exc, MemoryError) and not raised_inside(exc, os.path.dirname(cst.__file__)):
            # raised by our own code (or what it called), not by libcst: a bug of ours,
            # the file's OC901 (the traceback on -v), never blamed on libcst
            LOG.debug("internal error reading %s", path, exc_info=True)
            _failed(facts, error_text(exc), internal=True)
            if suppressions is None:  # (the walk failed before they were read: ``tree`` is still there)
                try:
                    suppressions = find_suppressions(text, tree) if tree is not None else []
                except Exception:  # noqa: BLE001 - then there is none to honour
                    suppressions = []
            facts.suppressions = suppressions  # (its `noqa: OC901`)
            return facts
        try:  # the message of a libcst error can itself recurse (a repr of a deep node)
            text = str(exc)
            detail = text.splitlines()[0][:120] if text else ""
        except Exception:  # noqa: BLE001 - RecursionError and whatever else a repr raises
            detail = ""
        return _failed(facts, f"libcst cannot analyse this file although CPython can ({type(exc).__name__}"
                              + (f": {detail})" if detail else "); it likely nests too deeply for libcst"))
    if shifts:
        shift_spans(facts, shifts)
    facts.suppressions = suppressions
    return facts



def _extract_units(path: str, data: bytes, module: Optional[str], needed: AbstractSet[str],
                   prior: Optional[FileFacts] = None) -> Optional[FileFacts]:
    """``extract`` of the functions that hold a needed one (the units), over the file's
    outline, or None when the whole file must be read instead (anything unexpected:
    libcst refusing a unit, a nesting too deep, two walks that disagree). A file
    CPython rejects comes back as ``_extract`` returns it.

    The facts are the outline's (classes, imports, call ids, every function) with the
    units' functions replaced by their whole facts, walked as the whole file's walk
    would walk them: the same scope tables and import tables (from the ``ast``), the
    enclosing classes pushed as they would be, the same text and positions. Calls of
    the units are numbered after the outline's, so a call's id stays unique in the
    file. What a whole walk records elsewhere (the module body's statements, other
    functions' bodies) is not read by a run that needs only these functions."""
    facts = FileFacts(path=path, module=module if module is not None else module_name(Path(path)))
    given = prior is not None and prior.outline and prior.error is None
    verdict = cpython_verdict(facts, data, compiles=given)
    if verdict is None:
        return facts
    text, tree = verdict
    try:
        outliner = outlinemod.Outliner(facts, tree, text)
        if given:
            assert prior is not None
            outliner.take(prior)
        else:
            outliner.module()
        pieces = unit_pieces(tree, set(needed) & {fn.qualname for fn in facts.functions})
    except RecursionError:
        return None
    if pieces is None:
        return None
    lines, shifts = formfeed_indents(facts.lines)
    huge = huge_functions(tree, lines, source.CHUNK_LINES)
    suppressions = find_suppressions(text, tree)
    del tree
    load_libcst()
    scratch = FileFacts(path=path, module=facts.module)
    try:
        ex = Extractor(scratch, lines, outliner.import_tables, outliner.scopes)
        ex.next_call = outliner.next_call
        ex.units([(classes, huge[start] if start in huge else piece_text(lines, start, end, col)
                   + ((None if shifts else piece_ast(node, start, col)),))
                  for classes, start, end, col, node in pieces])
    except Exception:  # noqa: BLE001 - libcst refused a unit, or nests too deeply: read the file whole
        raise_if_interrupted()
        return None
    if shifts:
        shift_spans(scratch, shifts)
    whole: dict = {}
    for fn in scratch.functions:
        whole.setdefault(fn.qualname, []).append(fn)
    merged, outlined = [], []
    for fn in facts.functions:
        got = whole.get(fn.qualname)
        if got:
            merged.append(got.pop(0))
        else:
            merged.append(fn)
            outlined.append(fn.qualname)
    if any(whole.values()) or set(outlined) & {fn.qualname for fn in scratch.functions}:
        return None  # the two walks disagree on the functions: read the file whole
    facts.functions = merged
    facts.outlined = tuple(dict.fromkeys(outlined))
    facts.suppressions = suppressions
    return facts


Piece = Tuple[Tuple[Tuple[str, int], ...], int, int, int, ast.stmt]


def unit_pieces(tree: ast.Module, needed: AbstractSet[str]) -> Optional[List[Piece]]:
    """The outermost functions that hold a function of ``needed`` (itself or nested),
    in source order: (enclosing classes as (name, class line), first line with the
    decorators, last line, column of the ``def``, its ``ast`` node). Qualified names
    as the walks make them (``resolution.Resolver.child_qualname``). None if a needed
    name is nowhere."""
    found: set = set()

    def names_in(node: ast.AST, qual: str) -> set:
        """``qual`` and the qualified names of every function and class inside."""
        got = {qual}
        stack = [(c, qual, False) for c in _statements(node)]
        while stack:
            n, outer, in_class = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = f"{outer}.{n.name}" if in_class else f"{outer}.<locals>.{n.name}"
                got.add(q)
                stack.extend((c, q, isinstance(n, ast.ClassDef)) for c in _statements(n))
            else:
                stack.extend((c, outer, in_class) for c in _statements(n))
        return got

    defs: List[Tuple[str, bool, Tuple[Tuple[str, int], ...], int, int, int, ast.stmt]] = []

    def walk(node: ast.AST, classes: Tuple[Tuple[str, int], ...], prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = f"{prefix}.{child.name}" if prefix else child.name
                inside = names_in(child, qual) & needed
                found.update(inside)
                start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                defs.append((qual, bool(inside), classes, start, child.end_lineno or child.lineno, child.col_offset,
                             child))
            elif isinstance(child, ast.ClassDef):
                qual = f"{prefix}.{child.name}" if prefix else child.name
                walk(child, classes + ((child.name, child.lineno),), qual)
            elif isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
                walk(child, classes, prefix)  # (an `if`/`try`/`with`/`match` at module or class level)

    walk(tree, (), "")
    # every definition of a unit's name is one (`@overload`s, conditional definitions:
    # a qualified name is whole or an outline in the facts, never both)
    quals = {qual for qual, inside, *_ in defs if inside}
    out = [(classes, start, end, col, node) for qual, _, classes, start, end, col, node in defs if qual in quals]
    return out if found >= set(needed) else None


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(node: ast.AST) -> List[ast.AST]:
    """The statements, handlers and cases directly inside ``node`` (a definition is
    only ever one of these: no need to walk expressions)."""
    out: List[ast.AST] = []
    for name in _BLOCKS:
        out.extend(getattr(node, name, ()))
    return out


def piece_text(lines: List[str], start: int, end: int, col: int) -> Tuple[int, str]:
    """(line offset, text) of one unit: a top-level function's lines, any other's
    inside an ``if True:`` line."""
    body = "\n".join(lines[start - 1 : end]) + "\n"
    if col == 0:
        return start - 1, body
    return start - 2, "if True:\n" + body


def piece_ast(node: ast.stmt, start: int, col: int) -> ast.Module:
    """The ``ast`` of ``piece_text``'s text for the definition ``node`` of the whole
    file's ``ast``, without a second parse: the node itself, inside an ``if True:``
    made up where the text has one. Its line numbers stay the file's (the positions
    shift them, ``positions.positions_of``); the pairing of the two trees checks it."""
    if col == 0:
        return ast.Module(body=[node], type_ignores=[])
    line = start - 1  # (the ``if True:`` line)
    test = ast.Constant(True, lineno=line, col_offset=3, end_lineno=line, end_col_offset=7)
    wrapper = ast.If(test=test, body=[node], orelse=[], lineno=line, col_offset=0,
                     end_lineno=getattr(node, "end_lineno", None), end_col_offset=getattr(node, "end_col_offset", None))
    return ast.Module(body=[wrapper], type_ignores=[])


def outline(path: str, data: bytes, module: Optional[str] = None, compile_later: bool = False) -> FileFacts:
    """A file's outline (``outline``; ``compile_later``: see there), or its whole
    facts when it nests too deeply for the outline's walk (what the libcst pass makes
    of such a file is the answer)."""
    try:
        return outlinemod.outline(path, data, module, compile_later)
    except RecursionError:
        return extract(path, data, module)
    except Exception:  # noqa: BLE001 - the outline's walk failed (a bug of ours): the whole file's walk decides
        raise_if_interrupted()
        LOG.debug("internal error outlining %s; reading it whole", path, exc_info=True)
        return extract(path, data, module)


def _failed(facts: FileFacts, message: str, line: int = 1, col: int = 0, internal: bool = False) -> FileFacts:
    facts.error = ParseError(message, line, col, internal)
    facts.functions = []
    facts.classes = []
    return facts
