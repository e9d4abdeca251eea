"""Terminal-marker tokens of a call's arguments, read from the expressions (semantics §Events).

Tokens come from three places only, because prose and variable names are not records:

1. *event names*: string literals without whitespace (an f-string's literal parts
   together), split on every non-alphanumeric character and on camelCase;
2. *constants and types*: a name standing alone or the last component of an
   attribute, split on ``_`` and camelCase when written in UPPER_CASE or CapWords (and
   any attribute of a CapWords name, an enum member); any other identifier is one
   whole token;
3. *record constructors and the event itself*: the last component of the callee of a
   call in the arguments, and of the event's own callee, split whatever its case.

Never tokens: keyword names, dict keys, the test of a conditional expression, the
operands of a comparison, the ``if`` clauses of comprehensions. Lambdas are not
evaluated where they stand, so their bodies give no token either.

Each token *run* is one lexeme's tokens in order (a multi-word marker matches
consecutive tokens of one run). The walk also reports the plain names it read, so the
extractor can add the tokens of the assignments that bind them (one level deep).
"""
from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Callable, Iterable, List, Optional, Sequence, Tuple

from . import lazy

if TYPE_CHECKING:  # the real modules, for the type checker
    import libcst as cst
else:
    cst = lazy.module("libcst", globals(), "cst")  # imported on first use

Run = Tuple[str, ...]

# camelCase boundaries: a lower-case letter before an upper-case one, and a capital
# word after a digit or an acronym (`timedOut`, `S3Failed`, `HTTPFailed`). Digits are
# alphanumeric, so they stay in their word: `FAILED2` is one token, not `failed`.
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[0-9A-Z])(?=[A-Z][a-z])")
_NON_ALNUM = re.compile(r"[^0-9A-Za-z]+")


def split_tokens(text: str) -> Run:
    """Split on every non-alphanumeric character and on camelCase, lower-cased
    (``"prefect.flow-run.Failed"`` → prefect flow run failed, ``TIMED_OUT`` → timed out)."""
    out: List[str] = []
    for part in _NON_ALNUM.split(text):
        if part:
            out.extend(p.lower() for p in _CAMEL.split(part) if p)
    return tuple(out)


def is_upper_case(name: str) -> bool:
    core = name.strip("_")
    return bool(core) and any(c.isalpha() for c in core) and core == core.upper()


def is_cap_words(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and core[0].isupper()


def name_run(name: str) -> Run:
    """A name standing alone or an attribute's last component (source 2)."""
    if is_upper_case(name) or is_cap_words(name):
        return split_tokens(name)
    return (name.lower(),) if name else ()


def _last_component(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


class MarkerWalk:
    """Collects token runs and the plain names read, from argument expressions."""

    def __init__(self, callee_text: Optional[Callable[["cst.Call"], Optional[str]]] = None) -> None:
        self.runs: List[Run] = []
        self.names: List[str] = []
        self.roots: List[str] = []  # the plain names at the root of attribute chains
        #: a call's callee through the aliases in force where it stands (``Done =
        #: RunCompleted``: ``Done(run.id)`` is a ``RunCompleted``), from the front end
        self.callee_text = callee_text

    def add(self, run: Run) -> None:
        if run:
            self.runs.append(run)

    # ---- entry points

    def call_arguments(self, node: cst.Call) -> None:
        """A call's arguments: keyword values count, keyword names do not."""
        for arg in node.args:
            self.expr(arg.value)

    def expr(self, node: cst.CSTNode) -> None:
        if isinstance(node, cst.Name):
            self.add(name_run(node.value))
            self.names.append(node.value)
        elif isinstance(node, cst.Attribute):
            owner = _last_component(node.value)
            if owner is not None and is_cap_words(owner) and not is_upper_case(owner):
                self.add(split_tokens(node.attr.value))  # an enum member: RunState.failed
            else:
                self.add(name_run(node.attr.value))
            self._chain(node.value)
        elif isinstance(node, cst.SimpleString):
            self._strings([_string_value(node)])
        elif isinstance(node, cst.ConcatenatedString):
            self._concatenated(node)
        elif isinstance(node, cst.FormattedString):
            self._fstring([node])
        elif isinstance(node, cst.Call):
            last = _last_component(node.func)
            aliased = self.callee_text(node) if self.callee_text is not None and last is not None else None
            if aliased:  # semantics §Aliases: a call through an alias is the aliased text's
                last = aliased.rsplit(".", 1)[-1]
            if last is not None and last.isidentifier():
                self.add(split_tokens(last))  # a record constructor: RunCancelled(run.id)
            self._chain(node.func)
            self.call_arguments(node)
        elif isinstance(node, cst.IfExp):
            self.expr(node.body)  # both branches; never the test
            self.expr(node.orelse)
        elif isinstance(node, cst.Comparison):
            return  # comparison operands are never tokens
        elif isinstance(node, (cst.Dict,)):
            for el in node.elements:
                self.expr(el.value)  # values and `**` spreads; never keys
        elif isinstance(node, cst.DictComp):
            self.expr(node.value)
            self._comp_for(node.for_in)
        elif isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            self.expr(node.elt)
            self._comp_for(node.for_in)
        elif isinstance(node, cst.Lambda):
            return  # not evaluated here
        elif isinstance(node, cst.Subscript):
            # the subscripted value is an argument expression too: `FAILED_STATES[0]`
            # names a record as `FAILED_STATES` does (§2 "a name standing alone"; a
            # blind probe of session 58); in an attribute chain or a callee's receiver
            # it is part of the chain (``_chain``), and gives no token
            self.expr(node.value)
            self._slice(node)
        elif isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.Ellipsis)):
            return
        elif isinstance(node, cst.NamedExpr):
            self.expr(node.value)
        else:  # tuples, lists, sets, operators, await, starred...
            for child in node.children:
                if isinstance(child, cst.BaseElement):
                    self.expr(child.value)
                elif isinstance(child, cst.BaseExpression):
                    self.expr(child)

    # ---- helpers

    def _chain(self, node: cst.BaseExpression) -> None:
        """The receiver part of an attribute chain or callee: its names give no token,
        but calls, subscripts and literals inside it are argument expressions."""
        if isinstance(node, cst.Name):
            self.roots.append(node.value)
            return
        if isinstance(node, cst.Attribute):
            self._chain(node.value)
        elif isinstance(node, cst.Subscript):  # `jobs.failed[0].to_record()`: a receiver (a review)
            self._chain(node.value)
            self._slice(node)
        elif isinstance(node, cst.Await):
            self._chain(node.expression)
        else:
            self.expr(node)

    def _slice(self, node: cst.Subscript) -> None:
        """A subscript's index and a slice's bounds: argument expressions
        (`recs[FAILED:]`, `recs[:"run_failed"]`)."""
        for element in node.slice:
            if isinstance(element.slice, cst.Index):
                self.expr(element.slice.value)
            elif isinstance(element.slice, cst.Slice):
                for bound in (element.slice.lower, element.slice.upper, element.slice.step):
                    if bound is not None:
                        self.expr(bound)

    def _comp_for(self, comp: Optional[cst.CompFor]) -> None:
        while comp is not None:
            self.expr(comp.iter)  # never the `if` clauses
            comp = comp.inner_for_in

    def _strings(self, values: Sequence[Optional[str]]) -> None:
        parts = [v for v in values if v]
        if any(any(c.isspace() for c in v) for v in parts):
            return  # prose
        for v in parts:
            self.add(split_tokens(v))

    def _concatenated(self, node: cst.ConcatenatedString) -> None:
        pieces: List[cst.BaseString] = []
        stack: List[cst.BaseString] = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.ConcatenatedString):
                stack.append(n.right)
                stack.append(n.left)
            else:
                pieces.append(n)
        plain = [p for p in pieces if isinstance(p, cst.SimpleString)]
        formatted = [p for p in pieces if isinstance(p, cst.FormattedString)]
        literal = [_string_value(p) for p in plain] + [
            _fstring_text(f, part) for f in formatted for part in f.parts if isinstance(part, cst.FormattedStringText)
        ]
        self._strings(literal)
        for f in formatted:
            self._fstring_expressions(f)

    def _fstring(self, nodes: Sequence[cst.FormattedString]) -> None:
        self._strings([_fstring_text(f, p) for f in nodes for p in f.parts if isinstance(p, cst.FormattedStringText)])
        for f in nodes:
            self._fstring_expressions(f)

    def _fstring_expressions(self, node: cst.FormattedString) -> None:
        stack: List[cst.BaseFormattedStringContent] = list(node.parts)
        while stack:
            part = stack.pop(0)
            if isinstance(part, cst.FormattedStringExpression):
                self.expr(part.expression)
                stack[:0] = part.format_spec or ()  # braces inside its format spec: f"{x:{WIDTH}}"


def _fstring_text(node: cst.FormattedString, part: cst.FormattedStringText) -> str:
    """A literal part of an f-string as the string holds it: its escapes decoded
    (``f"run_failed\\t{id}"`` holds a tab, so it is prose; a backslash-newline joins the
    lines), as a plain string's value is. libcst gives the source text."""
    text = part.value
    prefix = node.start.rstrip("\"'")
    if "\\" not in text or "r" in prefix.lower():
        return text
    quote = node.start[len(prefix):]
    try:
        value = ast.literal_eval(quote + text + quote)
    except (SyntaxError, ValueError):  # (a part that ends in a quote of a triple-quoted string)
        return text
    return value if isinstance(value, str) else text


def _string_value(node: cst.SimpleString) -> Optional[str]:
    try:
        value = node.evaluated_value
    except Exception:  # a malformed escape libcst cannot evaluate
        return node.value.strip("\"'")
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return value


def argument_runs(node: cst.Call, callee_text: Optional[Callable[["cst.Call"], Optional[str]]] = None
                  ) -> Tuple[List[Run], List[str], List[str]]:
    """Token runs of a call's arguments, the plain names they read standing alone, and
    the plain names at the root of their attribute chains (``run`` of ``run.id``).
    ``callee_text``: a nested call's callee through aliases (``MarkerWalk``)."""
    walk = MarkerWalk(callee_text)
    walk.call_arguments(node)
    return walk.runs, walk.names, walk.roots


def expression_runs(nodes: Iterable["cst.BaseExpression"],
                    callee_text: Optional[Callable[["cst.Call"], Optional[str]]] = None
                    ) -> Tuple[List[Run], List[str], List[str]]:
    """``argument_runs`` of some expressions (the arguments a handed callable gets)."""
    walk = MarkerWalk(callee_text)
    for node in nodes:
        walk.expr(node)
    return walk.runs, walk.names, walk.roots


def callee_run(callee: str) -> Run:
    """The event's own callee: its last component, split whatever its case."""
    last = callee.rsplit(".", 1)[-1]
    if not last.replace("_", "").isalnum():
        return ()
    return split_tokens(last)


def found_marker(runs: Sequence[Run], markers: Sequence[Run]) -> Optional[Run]:
    """The first marker whose tokens appear consecutively in one run, or None."""
    for run in runs:
        for marker in markers:
            k = len(marker)
            for i in range(len(run) - k + 1):
                if run[i : i + k] == marker:
                    return marker
    return None
