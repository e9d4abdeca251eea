"""Fixes (semantics §Surfaces): the one automatic edit ordercheck knows, and only as an **unsafe** fix.

OC101/OC102 (an append after the save that commits it) can be fixed by swapping two
statements when

* the ``then`` event is a lone expression statement (``ledger.append(x)`` or
  ``await ledger.append(x)``, alone on its line, the event's own call — not a helper
  that carries the append through its summary, not part of a larger expression),
* it comes directly after the statement holding the ``first`` event (the save), a
  lone simple statement in the same block (not a ``with`` item, an ``if`` test, ...),
* and it does not read a name the save statement binds (``seq = store.save(run)``
  then ``ledger.append(seq)`` cannot swap), nor bind one the save statement reads.

The two statements swap; comments travel with their statement (the comment lines
above each one and its trailing comment), blank lines above the pair stay where they
are, and every other byte of the file is kept: libcst finds the pair, and the swap
moves the file's own lines (``Planner.apply``), never a regenerated module.
The fix is unsafe because the append now runs before the save: if the save's
arguments or the append's depend on each other through state the fix cannot see, the
meaning changes. A reviewer should read the diff (``--diff``).
"""
from __future__ import annotations

import ast
import difflib
import os
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple, cast

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from .findings import Finding
from .frontend.source import decode_source, parse_ast, top_level_bounds

FIXABLE = ("OC101", "OC102")
_DIFF_LINES = re.compile(rb"[^\n]*\n|[^\n]+\Z")
# a line of the file as Python counts lines (``\r\n``, ``\r`` or ``\n`` ends one; a form
# feed does not), with its line break
_LINE_BYTES = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_LINE_END = re.compile(rb"(?:\r\n|\r|\n)\Z")
_LINE_TEXT = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
FLOW = (cst.Return, cst.Raise, cst.Break, cst.Continue, cst.Pass)


#: where the swap's lines are (0-based line indexes of the file): the save's leading
#: lines, its comment lines, its own lines, then the append's, and the end (``Planner._rows``)
Rows = Tuple[int, int, int, int, int, int, int]

#: a file longer than this is parsed by libcst only where its fixes are, the top-level
#: statements that hold them: one libcst tree of a file of megabytes needs gigabytes
#: (a review, session 42: 4.2 GB and five minutes for a 5.6 MB file)
WHOLE_FILE_LINES = 2000


@dataclass
class Fix:
    """An available fix (every fix is unsafe: semantics §Fixes): swap the lines of two
    adjacent statements."""

    finding: Finding
    rows: Rows


def _pos(span) -> Tuple[int, int]:
    return (span.line, span.col)


def _contains(rng: CodeRange, pos: Tuple[int, int]) -> bool:
    return (rng.start.line, rng.start.column) <= pos < (rng.end.line, rng.end.column) or (
        (rng.start.line, rng.start.column) == pos
    )


def _dotted(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


class _Reads(cst.CSTVisitor):
    """Maximal dotted names an expression reads (``self._ledger.append``, ``run``)."""

    def __init__(self) -> None:
        self.names: Set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> Optional[bool]:
        d = _dotted(node)
        if d is not None:
            self.names.add(d)
            return False
        return True

    def visit_Name(self, node: cst.Name) -> Optional[bool]:
        self.names.add(node.value)
        return False

    def visit_Arg(self, node: cst.Arg) -> Optional[bool]:
        node.value.visit(self)  # not the keyword's name
        return False


class _Binds(cst.CSTVisitor):
    """Names a simple statement binds: assignment targets and walrus targets."""

    def __init__(self) -> None:
        self.names: Set[str] = set()

    def _target(self, t: cst.BaseExpression) -> None:
        if isinstance(t, (cst.Tuple, cst.List)):
            for el in t.elements:
                self._target(el.value)
            return
        if isinstance(t, cst.StarredElement):
            self._target(t.value)
            return
        d = _dotted(t)
        if d is not None:
            self.names.add(d)
            return
        if isinstance(t, (cst.Subscript, cst.Attribute)):  # d[k] = ..., f().x = ...: its base
            self._target(t.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:  # comprehension-free statements only reach here
        self._target(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> Optional[bool]:
        return True


def _reads(node: cst.CSTNode) -> Set[str]:
    v = _Reads()
    node.visit(v)
    return v.names


def _binds(node: cst.CSTNode) -> Set[str]:
    v = _Binds()
    node.visit(v)
    return v.names


def _conflict(bound: Set[str], read: Set[str]) -> bool:
    for b in bound:
        for r in read:
            if r == b or r.startswith(b + ".") or b.startswith(r + "."):
                return True
    return False


class _Pairs(cst.CSTVisitor):
    """Every block (module body, indented block) with its statements."""

    def __init__(self) -> None:
        self.blocks: List[Tuple[cst.CSTNode, Sequence[cst.BaseStatement]]] = []

    def visit_Module(self, node: cst.Module) -> None:
        self.blocks.append((node, node.body))

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.blocks.append((node, node.body))


def _lone(stmt: cst.BaseStatement) -> Optional[cst.BaseSmallStatement]:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        return stmt.body[0]
    return None


def _then_call(small: cst.BaseSmallStatement) -> Optional[cst.Call]:
    if not isinstance(small, cst.Expr):
        return None
    value = small.value
    if isinstance(value, cst.Await):
        value = value.expression
    return value if isinstance(value, cst.Call) else None


def _first_span(f: Finding):
    """The ``first`` event's position: the sequence rule's first related location."""
    for r in f.related:
        if r.path is None:
            return r.span
    return None


def _via_summary(f: Finding) -> bool:
    """The anchored event is a project helper's call: carried by its summary, or matched
    by its own pattern while its body runs there (held-out set 312: a swap made
    `create_specimens` run before the `receive` whose flag it reads)."""
    return any((s.via or s.helper) and s.span is not None and _pos(s.span) == _pos(f.span) for s in f.witness)


class Planner:
    """Parses one file (or, ``offset`` lines into it, the part ``text`` of it) once and
    finds the fixes its findings offer."""

    def __init__(self, source: bytes, text: Optional[str] = None, offset: int = 0) -> None:
        self.offset = offset
        self.module = cst.parse_module(source if text is None else text)
        self.wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        self.positions = self.wrapper.resolve(PositionProvider)
        v = _Pairs()
        self.wrapper.module.visit(v)
        self.blocks = v.blocks

    def offer(self, f: Finding) -> Optional[Fix]:
        if f.code not in FIXABLE or f.suppressed is not None or _via_summary(f):
            return None
        first = _first_span(f)
        if first is None:
            return None
        off = self.offset
        then_start, then_end = (f.span.line - off, f.span.col), (f.span.end_line - off, f.span.end_col)
        fpos = (first.line - off, first.col)
        for block, body in self.blocks:
            for i in range(len(body) - 1):
                a, b = body[i], body[i + 1]
                ra, rb = self.positions[a], self.positions[b]
                if not _contains(rb, then_start) or not _contains(ra, fpos):
                    continue
                sa, sb = _lone(a), _lone(b)
                if sa is None or sb is None or isinstance(sa, FLOW):
                    return None
                call = _then_call(sb)
                if call is None:
                    return None
                rc = self.positions[call]
                if (rc.start.line, rc.start.column) != then_start or (rc.end.line, rc.end.column) != then_end:
                    return None
                if _conflict(_binds(sa), _reads(sb)) or _conflict(_binds(sb), _reads(sa)):
                    return None
                rows = self._rows(a, b)
                return Fix(f, rows) if rows is not None else None
        return None

    def _rows(self, a: cst.BaseStatement, b: cst.BaseStatement) -> Optional[Rows]:
        """Where the pair's lines are (0-based line indexes): the save's leading lines,
        its comment lines, its own lines, then the append's, and the end. The swap moves
        whole lines of the file as they are (libcst's own round trip of a module does
        not keep every byte: a form feed before a statement, a lone CR's last line
        break), so every byte outside the two statements stays, and theirs move whole."""
        sa, sb = _lone(a), _lone(b)
        if not isinstance(a, cst.SimpleStatementLine) or not isinstance(b, cst.SimpleStatementLine) or sa is None or sb is None:
            return None
        a_stmt, b_stmt = self.positions[sa].start.line - 1, self.positions[sb].start.line - 1
        a_top, b_top = a_stmt - len(a.leading_lines), b_stmt - len(b.leading_lines)
        b_end = self.positions[sb].end.line
        if self.positions[sa].end.line != b_top or a_top < 0:
            return None  # (lines the swap cannot move whole: leave the pair)
        a_comments = a_top + len(_split_leading(a.leading_lines)[0])
        b_comments = b_top + len(_split_leading(b.leading_lines)[0])
        off = self.offset
        return a_top + off, a_comments + off, a_stmt + off, b_top + off, b_comments + off, b_stmt + off, b_end + off


def apply(source: bytes, fixes: Sequence[Fix]) -> Tuple[bytes, List[Fix]]:
    """The source with every non-overlapping fix applied (the first one wins). The
    swap moves whole lines of the file as they are (libcst's own round trip of a
    module does not keep every byte: a form feed before a statement, the space in
    ``except E :``, a lone CR's last line break), so every byte outside the two
    statements stays, and theirs move whole."""
    used: List[Tuple[int, int]] = []
    applied: List[Fix] = []
    for fx in fixes:
        top, end = fx.rows[0], fx.rows[-1]
        if any(top < e and s < end for s, e in used):
            continue
        used.append((top, end))
        applied.append(fx)
    if not applied:
        return source, []
    bom = b"\xef\xbb\xbf" if source.startswith(b"\xef\xbb\xbf") else b""  # (it stays first, whatever moves)
    lines = _LINE_BYTES.findall(source[len(bom):])
    for a_top, a_comments, a_stmt, b_top, b_comments, b_stmt, b_end in sorted((fx.rows for fx in applied), reverse=True):
        a_blank, a_notes, a_own = lines[a_top:a_comments], lines[a_comments:a_stmt], lines[a_stmt:b_top]
        b_blank, b_notes, b_own = lines[b_top:b_comments], lines[b_comments:b_stmt], lines[b_stmt:b_end]
        if not _LINE_END.search(b_own[-1]):  # the file's last line, without a line break: it moves up
            ending = _LINE_END.search(a_own[-1])
            brk = ending.group() if ending else b"\n"
            b_own = b_own[:-1] + [b_own[-1] + brk]
            a_own = a_own[:-1] + [a_own[-1][: len(a_own[-1]) - len(brk)]]
        lines[a_top:b_end] = a_blank + b_notes + b_own + b_blank + a_notes + a_own
    return bom + b"".join(lines), applied


def _split_leading(lines: Sequence[cst.EmptyLine]):
    i = 0
    while i < len(lines) and lines[i].comment is None:
        i += 1
    return list(lines[:i]), list(lines[i:])


def plan(source: bytes, findings: Sequence[Finding]) -> List[Fix]:
    """The fixes ``findings`` of one file offer (none where libcst cannot parse it).
    A long file is parsed only in the top-level statements that hold a fixable
    finding's two events (``WHOLE_FILE_LINES``)."""
    fixable = [f for f in findings if f.code in FIXABLE and f.suppressed is None]
    if not fixable:
        return []
    try:
        if max(source.count(b"\n"), source.count(b"\r")) <= WHOLE_FILE_LINES:  # (CR-only files too)
            planner = Planner(source)
            return [fx for fx in (planner.offer(f) for f in fixable) if fx is not None]
        return _plan_in_parts(source, fixable)
    except (cst.ParserSyntaxError, RecursionError, ValueError, UnicodeDecodeError, SyntaxError, MemoryError):
        return []


def _plan_in_parts(source: bytes, fixable: Sequence[Finding]) -> List[Fix]:
    """``plan`` for a long file: one libcst parse per run of top-level statements that
    holds a finding's pair, read from the file's decoded text. The run starts at the
    top-level statement before the pair's (and before any statement sharing its
    logical line): libcst files the comment lines above a module's first statement
    under the module's header, so a save parsed first would leave its comments behind
    (a review, session 42). A pair whose events are more than two top-level statements
    apart cannot be adjacent: it is not parsed at all."""
    text = decode_source(source)
    lines = _LINE_TEXT.findall(text)
    tree = cast(ast.Module, parse_ast(text))
    bounds = top_level_bounds(tree)
    del tree
    parts: Dict[Tuple[int, int], List[Finding]] = {}
    for f in fixable:
        first = _first_span(f)
        if first is None:
            continue
        low, high = min(first.line, f.span.line), max(first.line, f.span.end_line)
        inside = [k for k, (s, e) in enumerate(bounds) if s <= high and low <= e]
        if not inside or len(inside) > 2:
            continue
        k = inside[0] - 1 if inside[0] > 0 else 0
        # (a statement that shares its line, or is continued by a `\` from the one before)
        while k > 0 and (bounds[k - 1][1] >= bounds[k][0] or lines[bounds[k][0] - 2].rstrip("\r\n").endswith("\\")):
            k -= 1
        start = bounds[k][0] if k > 0 else 1
        parts.setdefault((start, bounds[inside[-1]][1]), []).append(f)
    out: List[Fix] = []
    for (start, end), found in sorted(parts.items()):
        planner = Planner(source, "".join(lines[start - 1:end]), start - 1)
        out.extend(fx for fx in (planner.offer(f) for f in found) if fx is not None)
    return out


def unified_diff(path: str, before: bytes, after: bytes) -> bytes:
    """``diff -u`` of one file, in the file's own bytes (its encoding, its line
    endings), so applying the diff gives exactly the bytes ``--fix`` writes; as
    ``git diff`` does, the headers are ``a/PATH`` and ``b/PATH`` for a path under the
    working folder, and the absolute path for one outside it (``a/../x.py`` applies
    nowhere)."""
    shown = path.replace(os.sep, "/")
    if os.path.isabs(path) or shown == ".." or shown.startswith("../"):
        old = new = os.path.abspath(path).encode("utf-8", "surrogateescape")
    else:
        old, new = f"a/{shown}".encode("utf-8", "surrogateescape"), f"b/{shown}".encode("utf-8", "surrogateescape")
    if b" " in old:  # (as git does: a tab ends a name with a space, or patch(1) reads a date there)
        old, new = old + b"\t", new + b"\t"
    out = []
    # (lines split at ``\n`` only, as patch(1) reads them: a CRLF line keeps its CR)
    lines = difflib.diff_bytes(difflib.unified_diff, _DIFF_LINES.findall(before), _DIFF_LINES.findall(after), old, new)
    for line in lines:
        if not line.endswith(b"\n"):
            line += b"\n\\ No newline at end of file\n"
        out.append(line)
    return b"".join(out)
