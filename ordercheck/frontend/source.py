"""Source text: decoding like CPython, lines as Python counts them, form feeds in
indentation, and the pieces libcst parses (groups of whole top-level statements, huge
functions' bodies in groups of whole statements) with their positions.

libcst parses a file in chunks (one libcst tree of a 20 MB file would not fit in
memory); ``chunks`` and ``huge_functions`` cut it (``positions`` gives the positions
of one chunk's tree).
"""
from __future__ import annotations

import ast
import contextlib
import gc
import io
import re
import sys
import tokenize
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, Iterator, List, Mapping, Optional, Tuple, Union, cast

from .. import lazy
from ..ir import FileFacts, ParseError, Span

if TYPE_CHECKING:  # the real modules, for the type checker
    import libcst as cst
else:
    cst = lazy.module("libcst", globals(), "cst")


class SourceError(ValueError):
    """A file that cannot be decoded, with where (1-based line, 0-based column)."""

    def __init__(self, message: str, line: int = 1, col: int = 0) -> None:
        super().__init__(message)
        self.line, self.col = line, col


def decode_source(data: bytes) -> str:
    """Decode like CPython does (BOM, PEP 263 cookie, else UTF-8); raise
    ``ValueError`` with a user-facing message otherwise."""
    nul = data.find(b"\x00")
    if nul != -1:  # where it stands, for the code frame (a probe: it was shown at 1:1)
        prefix = data[:nul]
        start = max(prefix.rfind(b"\n"), prefix.rfind(b"\r")) + 1
        col = len(prefix[start:].decode("utf-8", errors="replace"))
        raise SourceError("source contains a NUL byte", prefix.count(b"\n") + 1, col)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if not str(exc).startswith("invalid or missing encoding declaration"):
            raise ValueError(str(exc)) from None
        # no cookie read, the first lines are not UTF-8: the first bad byte is shown
        # where it stands, as CPython does and as on any later line
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except LookupError as exc:
        raise ValueError(f"cannot decode as {encoding}: {exc}") from None
    except UnicodeDecodeError as exc:
        # where CPython's tokenizer stops: the line and column of the first bad byte
        prefix = data[:exc.start]
        start = max(prefix.rfind(b"\n"), prefix.rfind(b"\r")) + 1
        col = len(prefix[start:].decode(encoding, errors="replace"))
        raise SourceError(f"cannot decode as {encoding}: {exc.reason}", prefix.count(b"\n") + 1, col) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


_NEWLINE = re.compile(r"\r\n|\r|\n")
CHUNK_LINES = 4000


def split_lines(text: str) -> List[str]:
    """Lines as Python counts them (``str.splitlines`` also splits on form feeds
    and other characters Python does not treat as line ends)."""
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def top_level_bounds(tree: ast.Module) -> List[Tuple[int, int]]:
    """First and last line of each top-level statement (decorators included)."""
    bounds: List[Tuple[int, int]] = []
    for node in tree.body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        bounds.append((start, getattr(node, "end_lineno", None) or node.lineno))
    return bounds


@dataclass
class HugeDef:
    """A top-level function longer than the chunk size: its header (decorators and
    ``def`` line, the body replaced by ``pass``) and its body in groups of whole
    statements, each ``if True:`` and then the file's own lines."""

    offset: int
    header: str
    body: List[Tuple[int, str]]
    end: Optional[Span] = None  # the last body statement's span, once walked


def huge_functions(tree: ast.Module, lines: List[str], limit: int) -> Dict[int, HugeDef]:
    """First line (decorators included) -> ``HugeDef`` of each top-level function
    of more than ``limit`` lines whose body starts on a line of its own."""
    out: Dict[int, HugeDef] = {}
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or len(node.body) < 2:
            continue
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        end = node.end_lineno or node.lineno
        first = node.body[0]
        b0 = min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])])
        if end - start <= limit or b0 <= node.lineno:
            continue
        line = lines[b0 - 1]
        header = "\n".join(lines[start - 1 : b0 - 1] + [line[: len(line) - len(line.lstrip())] + "pass"]) + "\n"
        bounds = [(min([b.lineno] + [d.lineno for d in getattr(b, "decorator_list", [])]), b.end_lineno or b.lineno)
                  for b in node.body]
        starts = [b0]
        chunk_start, last_end = b0, 0
        for a, b in bounds:
            if a > last_end and a - chunk_start >= limit:
                starts.append(a)
                chunk_start = a
            last_end = max(last_end, b)
        starts.append(end + 1)
        body = [(a - 2, "if True:\n" + "\n".join(lines[a - 1 : b - 1]) + "\n") for a, b in zip(starts, starts[1:])]
        out[start] = HugeDef(start - 1, header, body)
    return out


def chunks(bounds: List[Tuple[int, int]], lines: List[str], limit: int,
           huge: Optional[Dict[int, HugeDef]] = None) -> Iterator[Union[Tuple[int, str], HugeDef]]:
    """(line offset, text) of groups of whole top-level statements, each about
    ``limit`` lines; a statement is never split, nor a line. A huge top-level
    function (``huge``, by first line) comes as its own ``HugeDef``."""
    if huge:
        yield from _chunks_around(bounds, lines, limit, huge)
        return
    starts = [1]
    chunk_start, last_end = 1, 0
    for start, end in bounds:
        if start > last_end and start - chunk_start >= limit:
            starts.append(start)
            chunk_start = start
        last_end = max(last_end, end)
    starts.append(len(lines) + 1)
    for a, b in zip(starts, starts[1:]):
        if b > a or len(starts) == 2:
            yield a - 1, "\n".join(lines[a - 1 : b - 1]) + "\n"


def _chunks_around(bounds: List[Tuple[int, int]], lines: List[str], limit: int,
                   huge: Dict[int, HugeDef]) -> Iterator[Union[Tuple[int, str], HugeDef]]:
    """``chunks`` of a file with huge functions: the groups between them as usual
    (the lines after a huge function's last line up to the next statement hold
    nothing but blanks and comments, and are left out)."""
    chunk_start, last_end = 1, 0

    def group(a: int, b: int) -> Iterator[Tuple[int, str]]:
        if b > a:
            yield a - 1, "\n".join(lines[a - 1 : b - 1]) + "\n"

    for start, end in bounds:
        if start in huge and start > last_end:
            yield from group(chunk_start, start)
            yield huge[start]
            chunk_start, last_end = end + 1, end
            continue
        if start > last_end and start - chunk_start >= limit:
            yield from group(chunk_start, start)
            chunk_start = start
        last_end = max(last_end, end)
    yield from group(chunk_start, len(lines) + 1)



def formfeed_indents(lines: List[str]) -> Tuple[List[str], Dict[int, int]]:
    """A form feed in a line's indentation resets CPython's column count; libcst
    refuses it or miscounts. The copy libcst reads drops the indentation up to the
    last form feed; the map says, per line (1-based), how many characters went, so
    that ``shift_spans`` puts columns back where they are in the file."""
    shifts: Dict[int, int] = {}
    out = lines
    for i, line in enumerate(lines):
        if "\x0c" not in line:
            continue
        stripped = line.lstrip(" \t\x0c")
        indent = line[: len(line) - len(stripped)]
        cut = indent.rfind("\x0c") + 1
        if cut:
            if out is lines:
                out = list(lines)
            out[i] = line[cut:]
            shifts[i + 1] = cut
    return out, shifts


def shift_spans(facts: FileFacts, shifts: Mapping[int, int]) -> None:
    """Add the dropped indentation back to every ``Span`` on a shifted line (an
    explicit stack: statement trees can be deep)."""
    stack: List[object] = [facts.functions, facts.classes]
    seen = set()
    while stack:
        obj = stack.pop()
        if isinstance(obj, Span):
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            k = shifts.get(obj.line, 0)
            obj.col += k
            obj.col16 += k
            k = shifts.get(obj.end_line, 0)
            obj.end_col += k
            obj.end_col16 += k
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.values())
        elif hasattr(obj, "__dataclass_fields__"):
            stack.extend(getattr(obj, name) for name in obj.__dataclass_fields__)


def cpython_verdict(facts: FileFacts, data: bytes, compiles: bool = False,
                    lines: bool = True) -> Optional[Tuple[str, ast.Module]]:
    """The file's text and ``ast``, CPython's verdict first: decoding as CPython does,
    ``ast.parse``, then ``compile`` of that tree, which reports what only the compiler
    checks (``'return' outside function``, ``default 'except:' must be last``, ``from
    __future__ import braces``) where CPython does. On failure ``facts.error`` is set
    (one OC900 finding, with the lines for its code frame) and None comes back. Both
    front ends (``extract``, ``outline``) start here, so a file has the same OC900
    whichever reads it. ``compiles``: these bytes are known to compile (the outline
    pass compiled them in this run), so only the ``ast`` is made; ``compile`` of a
    tree costs four fifths of its parse. ``lines``: ``facts.lines`` is set on success
    too (an outline has none; on failure they are always set, for the code frame)."""
    verdict = _verdict(facts, data, compiles)
    if verdict is not None and lines:
        facts.lines = split_lines(verdict[0])
    return verdict


#: the file name the text is parsed and compiled under: never a file on disk. CPython
#: takes a syntax error's line from the file its name names, when there is one, and
#: clamps the column to that line: an editor's unsaved buffer got the column of its
#: file on disk (a fuzz of warm runs, session 40)
PARSED_AS = "<ordercheck: source>"


def parse_ast(source: Union[str, bytes], **kw) -> ast.AST:
    """``ast.parse`` without CPython's SyntaxWarnings about the checked code (`0x1for`,
    `x is 1`): they name no file and are no finding, so they are not printed (a
    review, session 41)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, **kw)


def _verdict(facts: FileFacts, data: bytes, compiles: bool) -> Optional[Tuple[str, ast.Module]]:
    try:
        text = decode_source(data)
    except ValueError as exc:
        facts.error = ParseError(str(exc), getattr(exc, "line", 1), getattr(exc, "col", 0))
        if getattr(exc, "line", None) is not None:  # undecodable bytes: the code frame shows them replaced
            facts.lines = split_lines(data.decode("utf-8", errors="replace"))
        return None
    try:
        tree = cast(ast.Module, parse_ast(text, filename=PARSED_AS))
    except SyntaxError as exc:
        facts.lines = split_lines(text)
        _syntax_error(facts, exc)
        if facts.error is not None and newer_syntax_at(text, exc.lineno or 1):
            facts.error.message += NEWER_PYTHON_HINT.format(*sys.version_info[:2])
        elif facts.error is not None and (template_at(text, exc.lineno or 1) or template_at(text, (exc.lineno or 1) - 1)
                                          or "{{" in facts.path):
            # (the line before too: `{{ ... }}` alone on a line parses as a set, and the
            # parser stops at what follows; a cookiecutter folder `{{cookiecutter.name}}/`;
            # held-out set 66)
            facts.error.message += TEMPLATE_HINT
        return None
    except (RecursionError, MemoryError, ValueError) as exc:
        facts.lines = split_lines(text)
        facts.error = ParseError(f"cannot parse: {type(exc).__name__}: {exc}".rstrip(": "))
        return None
    if compiles:
        return text, tree
    refused = compile_refusal(text, tree)
    if refused is not None:
        facts.lines = split_lines(text)
        if isinstance(refused, SyntaxError):
            _syntax_error(facts, refused)
        else:
            facts.error = refused
        return None
    return text, tree


def compile_refusal(text: str, tree: Optional[ast.Module] = None
                    ) -> Optional[Union[SyntaxError, ParseError]]:
    """Why CPython's compiler refuses ``text`` (that ``ast.parse`` accepted), or None:
    what ``compile`` of the text says, as an import of the file would. With the
    parsed ``tree``, the tree is compiled instead, which skips the parse (a compile
    of a tree costs two thirds of a compile of the text) and says the same, except
    that the tree's hand-over to the compiler runs out of recursion on a chain of
    some thousand terms that the text's compile takes: then the text is compiled
    (docs/decisions.md, "CPython's verdict"). The background checker (``verdicts``)
    compiles the text alone, so both ways give one verdict."""
    try:
        with warnings.catch_warnings():  # (CPython's own SyntaxWarnings are no finding: not shown)
            warnings.simplefilter("ignore")
            if tree is not None:
                try:
                    compile(tree, PARSED_AS, "exec", dont_inherit=True)
                    return None
                except RecursionError:
                    pass
            compile(text, PARSED_AS, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return exc
    except (RecursionError, MemoryError) as exc:
        return ParseError(f"CPython cannot compile this file ({type(exc).__name__}): it nests too deeply")
    except ValueError as exc:
        return ParseError(f"CPython cannot compile this file: {exc}")
    return None


NEWER_PYTHON_HINT = (" (Python {}.{}, which runs ordercheck, cannot read this file, but the grammar of a"
                     " newer Python can: run ordercheck with the Python the project targets)")


TEMPLATE_HINT = " (the line reads like a template's, `{%`/`{{`: leave such files out with `exclude`)"


_STRINGS = re.compile(r"""(?:[rbuRBUfF]{0,2})("[^"\\]*(?:\\.[^"\\]*)*"|'[^'\\]*(?:\\.[^'\\]*)*')""")


def template_at(text: str, line: int) -> bool:
    """Whether the line ``ast.parse`` refused holds, outside string literals, a
    Jinja/Django template's tag (``{% ... %}``, a ``{{ ... }}`` or ``{# ... #}`` pair,
    or a line opening with ``{{``/``{#``):
    a template saved as ``.py`` (held-out set 46: 53 bare OC900s on mage-ai's code
    templates, with nothing to say what they were)."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return False
    # (outside string literals: `print "{%s}" % name` is Python 2, no template)
    code = _STRINGS.sub("''", lines[line - 1]).lstrip()
    return (code.startswith(("{%", "{#", "{{")) or "{%" in code
            or any(o in code and c in code.split(o, 1)[1] for o, c in (("{{", "}}"), ("{#", "#}"))))


def newer_syntax_at(text: str, line: int) -> bool:
    """Whether ``text``, which this Python's ``ast.parse`` refused at ``line``, holds
    there a construct of a newer Python's grammar that libcst's parser reads: a
    ``type`` statement, type parameters (``def f[T]()``, ``class C[T]``, PEP 696
    defaults), a PEP 701 f-string (its own quote, a backslash or a ``#`` inside its
    braces) or a t-string. Then the OC900 says so, rather than leaving the user to
    look for a typo that is not there (docs/decisions.md, "Syntax of a newer
    Python"). libcst reads more than any Python does (``b"café"``, ``[*xs for xs in
    xss]``), so that it parses is not enough: the construct must stand on the line
    CPython refused. Asked only of a file that failed, so its cost is no run's."""
    from libcst.metadata import PositionProvider

    try:
        wrapper = cst.MetadataWrapper(cst.parse_module(text))
        positions = wrapper.resolve(PositionProvider)
    except Exception:  # libcst's ParserSyntaxError, and whatever its parser gives up with
        return False
    module = wrapper.module
    for node, pos in positions.items():
        if pos.start.line <= line <= pos.end.line and _newer_construct(node, module):
            return True
    return False


_NEWER_NODES = ("TypeAlias", "TypeParameters", "TemplatedString")  # (libcst's names; looked up late: no import)


def _newer_construct(node: "cst.CSTNode", module: "cst.Module") -> bool:
    if type(node).__name__ in _NEWER_NODES:
        return True
    if isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)) and _unparenthesized_types(node.type) \
            and not _binds_in_body(node, module):
        return True
    if not isinstance(node, cst.FormattedString):
        return False
    quote = node.start.lstrip("fFrRbB")
    return any(_newer_in_braces(part, quote, module, 0) for part in node.parts)


def _binds_in_body(handler: "cst.CSTNode", module: "cst.Module") -> bool:
    """Python 2's ``except Exception, Err:`` binds its last name, which the clause's
    body then reads (``print Err``): that name as a word of the body (a review)."""
    last = handler.type.elements[-1].value  # type: ignore[attr-defined]
    if not isinstance(last, cst.Name):
        return False
    # (a name read as a value: not a comment's word, not the class a `raise B(...)` or
    # `isinstance(x, B)` names, which PEP 758's clause would do too; a review)
    stack: List[cst.CSTNode] = [handler.body]  # type: ignore[attr-defined]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Call):
            checks = isinstance(n.func, cst.Name) and n.func.value in ("isinstance", "issubclass")
            # (the class an `isinstance` asks about, alone or in a tuple, is no value read)
            stack.extend(a.value for i, a in enumerate(n.args) if not (checks and i == 1))
            if not isinstance(n.func, cst.Name):
                stack.append(n.func)
            continue
        if isinstance(n, cst.Raise) and _names_class(n.exc, last.value):
            continue  # (`raise B`: the class raised; `raise Wrapped(Err)` reads `Err`)
        if isinstance(n, cst.Name) and n.value == last.value:
            return True
        stack.extend(n.children)
    return False


def _names_class(node: Optional["cst.CSTNode"], name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _unparenthesized_types(node: Optional["cst.BaseExpression"]) -> bool:
    """PEP 758's ``except A, B:`` (Python 3.14; held-out set 181, bengal): a tuple of
    exception classes without parentheses. Not Python 2's ``except Exception, e:``,
    whose second name binds the exception: every item must read as a class
    (CapWords, dotted or not)."""
    if not isinstance(node, cst.Tuple) or node.lpar or len(node.elements) < 2:
        return False
    for el in node.elements:
        value = el.value
        if isinstance(value, cst.Attribute):
            last = value.attr.value
        elif isinstance(value, cst.Name):
            last = value.value
        else:
            return False
        if not last[:1].isupper():
            return False
    return True


def _newer_in_braces(part: "cst.CSTNode", quote: str, module: "cst.Module", depth: int) -> bool:
    """A PEP 701 form in one ``{...}`` of an f-string: the string's own quote, a
    backslash or a comment in the expression (its whitespace included), a line break
    in the braces of a one-line string (``f"{\n x \n}"``; the thirtieth held-out set's
    openhands-sdk), or format specs nested more than two deep (``f"{a:{b:{c}}}"``)."""
    if not isinstance(part, cst.FormattedStringExpression):
        return False
    code = "".join(module.code_for_node(n) for n in
                   (part.whitespace_before_expression, part.expression, part.whitespace_after_expression))
    if quote in code or "\\" in code or "#" in code:
        return True
    if len(quote) == 1 and ("\n" in code or "\r" in code):
        return True
    if part.format_spec:
        if depth >= 1 and any(isinstance(p, cst.FormattedStringExpression) for p in part.format_spec):
            return True
        return any(_newer_in_braces(p, quote, module, depth + 1) for p in part.format_spec)
    return False


#: words that were names before a Python made them keywords (held-out set 234: wpull's
#: Python 3.4 code used `async` as a parameter, and "invalid syntax" said nothing of why)
_NEWER_KEYWORDS = {"async": "3.7", "await": "3.7"}


def _older_python_hint(exc: SyntaxError) -> str:
    """A hint when CPython stops at a word a newer Python reserved: the file was
    written for an older one."""
    text, offset = exc.text or "", (exc.offset or 0) - 1
    if not (0 <= offset < len(text)) or exc.msg != "invalid syntax":
        return ""
    found = re.match(r"[A-Za-z_]\w*", text[offset:])
    before = re.search(r"([A-Za-z_]\w*)\s*$", text[:offset])  # (`await = 1`: CPython points at `=`)
    word = found.group(0) if found and found.group(0) in _NEWER_KEYWORDS else (before.group(1) if before else "")
    if word in _NEWER_KEYWORDS:
        return f" (`{word}` is a reserved word since Python {_NEWER_KEYWORDS[word]}: code written for an older Python)"
    return ""


def _syntax_error(facts: FileFacts, exc: SyntaxError) -> None:
    """CPython's own message and position (its offset is 1-based)."""
    name = type(exc).__name__  # SyntaxError, IndentationError, TabError
    facts.error = ParseError(f"{name}: {exc.msg}{_older_python_hint(exc)}", exc.lineno or 1,
                             max(0, (exc.offset or 1) - 1))
    facts.functions = []
    facts.classes = []


@contextlib.contextmanager
def gc_paused(freeze: bool = False) -> Iterator[None]:
    """The cyclic garbage collector paused: parsing allocates millions of acyclic
    objects, and every full collection walks every live object, the facts of the
    files read before included — on a file of 20,000 functions the collector took
    half the time (docs/performance.md, "Scale").

    ``freeze``: what is alive on the way out moves to the permanent generation
    (``gc.freeze``) before the collector resumes, so the next young collection does
    not walk it either: for facts that live to the end of a run, which the run
    unfreezes (``runner.run``; docs/performance.md, "Session 26")."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if paused:
            gc.enable()
