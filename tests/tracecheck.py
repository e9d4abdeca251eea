"""Graphs proven against execution (semantics §Graph, last paragraph).

A generated function runs under ``sys.settrace``; the sequence of lines it executes
must be a walk in ordercheck's graph of that function, projected onto lines (nodes
without a line — synthetic points — are transparent, and consecutive nodes on one line
are one step), ending at EXIT when the call returned and at RAISE when it raised.

The functions take an oracle ``o`` that decides every branch and every raise:
``o.b()`` a condition, ``o.c(k)`` a call that may raise ``Boom``, ``o.it()`` a short
iterable, ``o.v()`` a match subject, ``o.tick()`` a loop guard that ends runaway
loops with ``Stop``.
"""
from __future__ import annotations

import builtins
import contextlib
import random
import sys
from typing import List, Optional, Set, Tuple

from ordercheck import cfg, effects, frontend
from ordercheck.vocabulary import Vocabulary


class Boom(Exception):
    pass


class Stop(Exception):
    """Raised by every oracle call once the budget is spent. Every loop's head calls
    the oracle outside any ``try`` of its own body, so runaway loops end."""


@contextlib.contextmanager
def best_effort():
    try:
        yield
    except Exception:
        pass


# what an ``except*`` raises again (Python 3.11+)
_GROUPS: tuple = tuple(g for g in (getattr(builtins, "BaseExceptionGroup", None),) if g is not None)


class Oracle:
    def __init__(self, seed: int, p_raise: float = 0.25, budget: int = 60) -> None:
        self.r = random.Random(seed)
        self.p = p_raise
        self.budget = budget

    def _spend(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise Stop()

    def b(self) -> bool:
        self._spend()
        return self.r.random() < 0.5

    def c(self, k: int = 0) -> int:
        self._spend()
        if self.r.random() < self.p:
            raise Boom(k)
        return k

    def it(self):
        self._spend()
        return range(self.r.randint(0, 2))

    def v(self) -> int:
        self._spend()
        return self.r.randint(0, 2)

    def tick(self) -> None:
        self._spend()

    def cm(self):
        self._spend()
        return contextlib.nullcontext()

    def transaction(self):
        """A transaction-like manager (matches the `transaction` class's `*.transaction`)."""
        self._spend()
        return contextlib.nullcontext()


NAMESPACE = {"Boom": Boom, "best_effort": best_effort, "contextlib": contextlib}

# Project context managers the generated functions may use: generator-based and
# class-based, suppressing and not. They are part of the generated source, so the
# graph of ``f`` sees them through the project summaries (semantics §Events Context managers).
PRELUDE = """import contextlib


@contextlib.contextmanager
def gen_quiet():
    try:
        yield
    except Exception:
        pass


@contextlib.contextmanager
def gen_loud():
    try:
        yield
    finally:
        pass


class ClsQuiet:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


class ClsLoud:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class db:
    @staticmethod
    def atomic(fn):  # a transaction decorator (`*.atomic`): the body runs in it
        return fn


"""


def trace_lines(fn, oracle: Oracle) -> Tuple[List[int], str]:
    """Lines executed by one call of ``fn`` (its own frame only) and how it ended."""
    code = fn.__code__
    lines: List[int] = []

    def local(frame, event, arg):
        if event == "line":
            lines.append(frame.f_lineno)
        return local

    def glob(frame, event, arg):
        if frame.f_code is code:
            return local
        return None

    sys.settrace(glob)
    try:
        fn(oracle)
        how = "EXIT"
    except (Boom, Stop, AssertionError) + _GROUPS:
        how = "RAISE"
    finally:
        sys.settrace(None)
    return lines, how


def line_of(g, n) -> Optional[int]:
    if n in (cfg.ENTRY, cfg.EXIT, cfg.RAISE):
        return None
    return g.nodes[n].get("line")


def finally_ranges(source: str) -> List[Tuple[int, int]]:
    """Line ranges of every ``finally`` body (for CPython's cleanup quirk below)."""
    import ast

    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Try,)) and node.finalbody:
            out.append((node.finalbody[0].lineno, max(getattr(n, "end_lineno", n.lineno) for n in node.finalbody)))
    return out


def is_walk(g, lines: List[int], how: str, finals: List[Tuple[int, int]] = ()) -> Optional[str]:
    """None if the line sequence is a walk of ``g`` ending at ``how``; else why not.

    An NFA over graph nodes: state ``("at", u)`` has just executed line(u); a step
    to line L may pass any nodes on line(u) or without a line, then must enter a
    node on L. One CPython quirk is tolerated: when an exception leaves code inside a
    ``finally`` body, CPython 3.11 reports one extra line event for a line of that
    body (the line of the block's exception cleanup, which may be dead code). So a
    node on a line of a ``finally`` body that has an exceptional edge may read any
    line of that body as a phantom and move to ``("pre", w)`` for each exceptional
    successor w: entered, its own line not yet reported.
    """

    def same_line(u: object, line: Optional[int]) -> Set[object]:
        seen = {u}
        stack = [u]
        while stack:
            x = stack.pop()
            for v in g.successors(x):
                lv = line_of(g, v)
                if v not in seen and (lv is None or lv == line) and v not in (cfg.EXIT, cfg.RAISE):
                    seen.add(v)
                    stack.append(v)
        return seen

    def expand(state) -> Set[object]:
        mode, u = state[0], state[1]
        if mode == "pre":
            if u in (cfg.EXIT, cfg.RAISE):
                return set()
            return same_line(u, None) if line_of(g, u) is None else {u}
        return same_line(u, line_of(g, u))

    def step(state, ln: int) -> Set[tuple]:
        mode, u = state[0], state[1]
        out: Set[tuple] = set()
        if mode == "pre" and u not in (cfg.EXIT, cfg.RAISE) and line_of(g, u) == ln:
            out.add(("at", u))
            return out
        if mode == "pre" and (ln == state[2] or any(a <= ln <= b and a <= state[2] <= b for a, b in finals)):
            out.add(("pre", u, ln))  # nested finally cleanups each report a phantom line
        if mode == "at" and ln == line_of(g, u) and g.nodes[u].get("stmt") == "return":
            out.add(state)  # a return inside finally is reported twice by CPython 3.11
        reach = expand(state)
        if mode == "pre" and u not in (cfg.EXIT, cfg.RAISE) and line_of(g, u) is not None:
            return out  # a node with a line must be reported before moving on
        for x in reach:
            for v in g.successors(x):
                if line_of(g, v) == ln:
                    out.add(("at", v))
        if mode == "at":
            for a, b in finals:
                if a <= ln <= b:
                    for x in reach:
                        lx = line_of(g, x)
                        inside = lx is not None and a <= lx <= b
                        # the re-raise at the end of a finally copy counts as inside
                        reraise = g.nodes[x].get("kind") == "reraise" and a <= (line_of(g, u) or 0) <= b
                        if inside or reraise:
                            out.update(("pre", w, ln) for w in _exc_succ(g, x))
        return out

    states: Set[tuple] = {("at", cfg.ENTRY)}
    for i, ln in enumerate(lines):
        nxt: Set[tuple] = set()
        for st in states:
            nxt |= step(st, ln)
        if not nxt:
            return f"step {i}: no way to line {ln} (trace {lines})"
        states = nxt
    end = cfg.EXIT if how == "EXIT" else cfg.RAISE
    for st in states:
        mode, u = st[0], st[1]
        if mode == "pre" and u == end:
            return None
        if mode == "pre" and line_of(g, u) is not None:
            continue
        if any(end in g.successors(x) for x in expand(st)):
            return None
    return f"{how} not reachable at the end (trace {lines})"


def _exc_succ(g, u):
    return [v for v in g.successors(u) if g.edges[u, v]["kind"] == "exception" or g.edges[u, v].get("exception")]


def graph_for(source: str):
    ff = frontend.extract("gen.py", source.encode(), "gen")
    assert ff.error is None, (ff.error, source)
    fn = next(f for f in ff.functions if f.qualname == "f")
    vocab = _vocab()
    summ = effects.build([ff], vocab)  # the project managers of the prelude (semantics §Events)
    around = effects.decorator_transaction(fn, vocab)
    extra = {"around": around} if around is not None else {}  # (the mutation tests tell the graph under test by no keywords)
    return cfg.build(fn, effects.suppressor(vocab, ff.path, summ.manager_of), **extra)


_V = None


def _vocab() -> Vocabulary:
    global _V
    if _V is None:
        _V = Vocabulary.build()
    return _V


def check_source(source: str, seeds: int = 12, p_raise: float = 0.25) -> Optional[str]:
    """Run ``f`` of ``source`` under many oracles; the first mismatch, or None."""
    g = graph_for(source)
    ns = dict(NAMESPACE)
    exec(compile(source, "gen.py", "exec"), ns)
    fn = ns["f"]
    finals = finally_ranges(source)
    for seed in range(seeds):
        lines, how = trace_lines(fn, Oracle(seed, p_raise))
        why = is_walk(g, lines, how, finals)
        if why:
            return f"seed {seed}: {why}\n{_numbered(source)}"
    return None


def _numbered(source: str) -> str:
    return "\n".join(f"{i + 1:3} {l}" for i, l in enumerate(source.splitlines()))


# --------------------------------------------------------------------------- grammar


class Gen:
    """Random functions from a grammar of statements. ``draw(lo, hi)`` supplies
    choices, so hypothesis (or a plain Random) drives it."""

    def __init__(self, draw) -> None:
        self.draw = draw
        self.k = 0

    def call(self) -> str:
        self.k += 1
        return f"o.c({self.k})"

    def block(self, depth: int, loop: bool, handler: bool, n_max: int = 3) -> List[str]:
        n = self.draw(1, n_max)
        out: List[str] = []
        for _ in range(n):
            out.extend(self.stmt(depth, loop, handler))
        return out

    def indent(self, lines: List[str]) -> List[str]:
        return ["    " + l for l in lines]

    def stmt(self, depth: int, loop: bool, handler: bool) -> List[str]:
        simple = ["call", "call", "pass", "assign", "return", "raise", "assert"]
        if loop:
            simple += ["break", "continue"]
        if handler:
            simple += ["reraise"]
        compound = ["if", "while", "for", "try", "try", "with", "match", "whiletrue"]
        kinds = simple + (compound if depth > 0 else [])
        kind = kinds[self.draw(0, len(kinds) - 1)]
        d = depth - 1
        if kind == "call":
            return [self.call()]
        if kind == "pass":
            return ["pass"]
        if kind == "assign":
            forms = [
                f"x = {self.call()} if o.b() else {self.call()}",
                f"x = [{self.call()} for _ in o.it()]",
                f"x = {self.call()}.real",
                f"x = o.b() and {self.call()}",
            ]
            return [forms[self.draw(0, len(forms) - 1)]]
        if kind == "return":
            return ["return " + self.call() if self.draw(0, 1) else "return"]
        if kind == "raise":
            return ["raise Boom()"]
        if kind == "reraise":
            return ["raise"]
        if kind == "assert":
            return ["assert o.b()" if self.draw(0, 1) else f"assert o.b(), {self.call()}"]
        if kind in ("break", "continue"):
            return ["if o.b():", f"    {kind}"]
        if kind == "if":
            out = ["if o.b():"] + self.indent(self.block(d, loop, handler))
            if self.draw(0, 1):
                out += ["elif o.b():"] + self.indent(self.block(d, loop, handler))
            if self.draw(0, 1):
                out += ["else:"] + self.indent(self.block(d, loop, handler))
            return out
        if kind == "while":
            out = ["while o.b():"] + self.indent(self.block(d, True, handler))
            if self.draw(0, 1):
                out += ["else:"] + self.indent(self.block(d, loop, handler))
            return out
        if kind == "whiletrue":
            return ["while True:", "    o.tick()"] + self.indent(self.block(d, True, handler))
        if kind == "for":
            # (a display of items takes one at its first test; an empty one none)
            heads = ["for _ in o.it():", "for _ in (1, 2):", "for _ in ():"]
            out = [heads[self.draw(0, len(heads) - 1)]] + self.indent(self.block(d, True, handler))
            if self.draw(0, 1):
                out += ["else:"] + self.indent(self.block(d, loop, handler))
            return out
        if kind == "with":
            heads = ["with o.cm():", "with contextlib.suppress(Boom):", "with best_effort():", "with contextlib.suppress(KeyError):",
                     "with gen_quiet():", "with gen_loud():", "with ClsQuiet():", "with ClsLoud():", "with o.transaction():",
                     "with gen_loud(), ClsQuiet():"]
            return [heads[self.draw(0, len(heads) - 1)]] + self.indent(self.block(d, loop, handler))
        if kind == "match":
            out = ["match o.v():", "    case 0:"] + self.indent(self.indent(self.block(d, loop, handler)))
            out += ["    case 1 if o.b():"] + self.indent(self.indent(self.block(d, loop, handler)))
            if self.draw(0, 1):
                out += ["    case _:"] + self.indent(self.indent(self.block(d, loop, handler)))
            return out
        if kind == "try":
            out = ["try:"] + self.indent(self.block(d, loop, handler))
            nh = self.draw(0, 2)
            types = ["Boom", "KeyError", "Exception", "(KeyError, Boom)"]
            for _ in range(nh):
                t = types[self.draw(0, len(types) - 1)]
                out += [f"except {t}:"] + self.indent(self.block(d, loop, True))
            if nh and self.draw(0, 1):
                out += ["else:"] + self.indent(self.block(d, loop, handler))
            if not nh or self.draw(0, 1):
                out += ["finally:"] + self.indent(self.block(d, loop, handler))
            return out
        raise AssertionError(kind)

    def function(self, depth: int = 3) -> str:
        body = self.block(depth, False, False, n_max=4)
        return PRELUDE + "def f(o):\n" + "\n".join(self.indent(body)) + "\n"


def random_function(seed: int, depth: int = 3) -> str:
    r = random.Random(seed)
    return Gen(lambda lo, hi: r.randint(lo, hi)).function(depth)
