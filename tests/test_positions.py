"""Positions read off CPython's ``ast`` are libcst's own (``PositionProvider``).

The extractor asks ``positions.positions_of`` for the ranges of statements, calls,
attribute and subscript reads, clauses and header expressions; those come from the
``ast`` unless the two trees disagree, when the chunk falls back to libcst's codegen
pass. Each test compares every range handed out with libcst's public API, and checks
which way the answer came.
"""
import textwrap
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from ordercheck import frontend
from ordercheck.frontend import expressions, positions

ROOT = Path(__file__).resolve().parent.parent


def _ranges(source: str):
    tree = cst.parse_module(source)
    fast = positions.positions_of(tree, source)
    public = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    return tree, fast, public


def _agree(source: str, *, from_ast: bool = True) -> int:
    before = positions.FALLBACKS
    tree, fast, public = _ranges(source)
    if from_ast:
        assert isinstance(fast, positions.Positions), "the ast and libcst trees did not pair"
        assert positions.FALLBACKS == before
    for node in fast:
        assert fast[node] == public[node], (type(node).__name__, fast[node], public[node])
    return len(fast)


TRICKY = {
    "parentheses": """\
        x = (
            foo(1)
        )
        if (
            a and b
        ):
            pass
        for k in (a, b,):
            pass
        for k in (
            a,
            b
        ):
            pass
        """,
    "decorators and async": """\
        @dec(a.b[1])
        @other
        async  def  f(x=g(), /, y=h(), *, z=k()):
            async with m() as (a, b), n():
                pass
            async for i in it():
                await store.save(i)
        class  C(Base, metaclass=M):
            def g(self): self.ledger.append(1); return x[0]
        """,
    "bare names: decorators and with items": """\
        @property
        @ (wrapped)
        @contextmanager(x)
        @déco
        def f(self):
            with lock, (other), self.m() as (a, b), 日本:
                pass
        @dataclass
        class D:
            @staticmethod
            def g(): pass
        """,
    "conditional expression and comprehensions": """\
        y = f(a) if t(b) else g(c)
        z = {k(x): v(x) for x in xs() if p(x)}
        w = [q(i) for i in r() for j in s(i)]
        """,
    "unicode columns": """\
        s = "héllo" + f("ü", x.y["é"])
        t = "日本語"; u = v.w(日本)
        """,
    "try, finally and handlers": """\
        try:
            a()
        except (E1, E2) as e:  # comment
            b()
        except E3:
            pass
        else:
            c()
        # a comment before finally

        finally  :
            d()
        try: x()
        finally: y(); z()
        """,
    "match": """\
        match cmd(x):
            case Point(x=0) if ok(y):
                handle()
            case (
                1 | 2
            ):
                other()
            case _:
                pass
        """,
    "f-strings and semicolons": """\
        print(f"{a.b(c)!r:>{w.x}} {d[e]}")  ;  g()
        while f(x): h()
        """,
    "parameter defaults and bases": """\
        def f(a, b=None, /, c=(1), d=(1, 2), *args, e, g=-1.5, h="s", **kw): pass
        async def g(x=lambda y: y, *, z=[1, 2], w={"k": (v)}, u=(
            3,
        )): pass
        def h(p=f"{a.b}", q=x[0], r=[y_ for y_ in ()]): pass
        class C((Base), *mixins, Other, metaclass=M, **opts): pass
        class D(a.b.Base, Generic[T]): pass
        """,
    "imports are not attributes": """\
        import os.path, a.b.c as d
        from x.y import (z as w)
        os.path.join(a.b, d.e)
        """,
}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_tricky_constructs_pair_and_agree(name):
    assert _agree(textwrap.dedent(TRICKY[name])) > 3


def test_every_fixture_pairs_and_agrees():
    sources = sorted(ROOT.glob("fixtures/**/*.py"))
    assert len(sources) > 5
    for path in sources:
        source = path.read_text()
        try:
            cst.parse_module(source)
            compile(source, str(path), "exec")
        except Exception:  # noqa: BLE001 - fixtures of bad input
            continue
        _agree(source)


def test_bare_names_the_extractor_asks_for_come_from_the_ast():
    """A decorator's bare callee and a bare ``with`` item are read off the ``ast``:
    asking for them made the chunk fall back to codegen (docs/performance.md,
    "Session 27"). A parenthesized one is left to libcst's ranges, which exclude
    the parentheses."""
    source = textwrap.dedent(TRICKY["bare names: decorators and with items"])
    tree, fast, public = _ranges(source)
    names = {n.value: n for n in _all_names(tree)}
    for name in ("property", "contextmanager", "déco", "lock", "日本", "dataclass", "staticmethod"):
        assert names[name] in set(fast), name
        assert fast[names[name]] == public[names[name]]
    assert names["wrapped"] not in set(fast) and names["other"] not in set(fast)


def test_defaults_and_bases_the_extractor_asks_for_come_from_the_ast():
    """Where a ``def``'s or a ``class``'s header ends (its last default or base) is
    asked of every one: unpaired, 190 of noworkflow's 272 files fell back to the
    codegen pass for ``def f(x=None)`` (session 46)."""
    source = textwrap.dedent(TRICKY["parameter defaults and bases"])
    tree, fast, public = _ranges(source)
    header_parts = [p.default for d in tree.body if isinstance(d, cst.FunctionDef)
                    for p in (*d.params.posonly_params, *d.params.params, *d.params.kwonly_params) if p.default]
    header_parts += [b.value for d in tree.body if isinstance(d, cst.ClassDef) for b in d.bases]
    assert len(header_parts) == 17
    given = set(fast)
    for part in header_parts:
        assert part in given, cst.Module([]).code_for_node(part)
        assert fast[part] == public[part]
    before = positions.FALLBACKS
    frontend.extract("m.py", source.encode(), "m")
    assert positions.FALLBACKS == before


def _all_names(tree):
    found = []

    class V(cst.CSTVisitor):
        def visit_Name(self, node):
            found.append(node)

    tree.visit(V())
    return found


def test_a_disagreement_falls_back_to_libcst():
    """A tree that does not pair (here: one extra call on the libcst side) is answered
    by libcst's own codegen pass."""
    source = "a(1)\nb(2)\n"
    tree = cst.parse_module(source)
    before = positions.FALLBACKS
    got = positions.positions_of(tree, "a(1)\n")  # the ast of other text
    assert positions.FALLBACKS == before + 1
    public = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
    call = tree.body[1].body[0].value
    assert got[call] == public[call]


def test_a_node_of_another_kind_is_answered_by_libcst():
    source = "x = [a, b]\n"
    tree, fast, public = _ranges(source)
    element = tree.body[0].body[0].value.elements[1]
    before = positions.FALLBACKS
    assert fast[element] == public[element]
    assert positions.FALLBACKS == before + 1


def test_facts_are_the_same_either_way(monkeypatch):
    """Whole facts of the runtime fixture with positions from the ast and from
    libcst's codegen pass alone are identical."""
    data = (ROOT / "fixtures" / "runtime" / "runtime.py").read_bytes()
    fast = frontend.extract("runtime.py", data, "runtime")
    monkeypatch.setattr(expressions, "positions_of", lambda tree, text, atree=None: positions.codegen_positions(tree))
    slow = frontend.extract("runtime.py", data, "runtime")
    assert fast.functions and fast == slow


def test_handler_types_and_parenthesized_with_items():
    source = textwrap.dedent("""\
        try:
            a()
        except (ValueError, OverflowError, TypeError):
            pass
        except (
            KeyError,
        ) as e:
            pass
        with (
            open(p) as f,
        ):
            pass
        with (
            m() as g
        ):
            pass
        """)
    assert _agree(source) > 8
    # and the extractor asks for nothing the ast did not give
    before = positions.FALLBACKS
    frontend.extract("t.py", source.encode(), "t")
    assert positions.FALLBACKS == before


def test_with_items_whose_expression_is_parenthesized():
    source = textwrap.dedent("""\
        with (
            a()
            if x
            else b()
        ) as m:
            pass
        with (
            c()
            if y
            else d()
        ):
            pass
        with (  # a comment
            e()
        ):
            pass
        """)
    tree, fast, public = _ranges(source)
    for node in fast:
        assert fast[node] == public[node], (type(node).__name__, fast[node], public[node])
    items = [st.items[-1] for st in tree.body]
    assert items[0] in fast and items[1] in fast  # the comment's falls back when asked
    assert fast[items[2]] == public[items[2]]
