"""CPython's compile verdict taken in the background (``verdicts``): a cold run with a
pool and no cache skips ``compile`` in the outline pass and still reports exactly what
a run that compiles in the outline pass reports, a file CPython's compiler refuses
(one OC900) included."""
from __future__ import annotations

import sys
import textwrap

import pytest
from checkutil import settings_for, write_tree

from ordercheck import frontend, runner, sources, verdicts
from ordercheck.rulebook import builtin_rules

DEFAULTS = sorted(r.id for r in builtin_rules() if r.default)

pytestmark = pytest.mark.skipif(not verdicts.possible(), reason="no os.nice here: the verdict is never deferred")

HOT = '''
    def finish(store, ledger, run):
        store.save(run)
        try:
            ledger.append_terminal(run)
        except Exception:
            pass
'''


def _project(tmp_path, broken: bool):
    files = {f"app/m{i}.py": HOT.replace("finish", f"finish{i}") for i in range(6)}
    files["app/__init__.py"] = ""
    if broken:  # `ast.parse` takes it; only the compiler refuses it
        files["app/bad.py"] = "def f():\n    pass\nreturn 1\n"
    write_tree(tmp_path, {k: textwrap.dedent(v) for k, v in files.items()})
    return tmp_path / "app"


@pytest.fixture
def made(monkeypatch):
    """The ``compile_later`` of each pipeline run ``runner.run`` makes."""
    got = []
    real = runner._run

    def spy(*args, **kwargs):
        got.append(args[-1])  # (``compile_later``, the last positional argument)
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "_run", spy)
    return got


def _findings(result):
    return [(f.path, f.code, f.span.line, f.message) for f in result.findings]


@pytest.mark.parametrize("broken", [False, True])
def test_a_deferred_run_reports_what_an_eager_one_does(tmp_path, monkeypatch, made, broken):
    src = _project(tmp_path, broken)
    s = settings_for(select=DEFAULTS)
    deferred = runner.run([src], s, jobs=2)
    assert made == ([True, False] if broken else [True])  # a refused file: made again, compiling
    monkeypatch.setattr(verdicts, "DEFER", False)
    made.clear()
    eager = runner.run([src], s, jobs=2)
    assert made == [False]
    assert _findings(deferred) == _findings(eager)
    rules = [f.code for f in deferred.findings]
    assert rules.count("OC900") == (1 if broken else 0)
    assert len([r for r in rules if r != "OC900"]) >= 6


def test_the_outline_pass_skips_only_the_compiler(tmp_path):
    data = b"def f():\n    pass\nreturn 1\n"
    assert frontend.outline("bad.py", data).error is not None  # the compiler's verdict
    later = frontend.outline("bad.py", data, compile_later=True)
    assert later.error is None and [f.qualname for f in later.functions] == ["f", "<module>"]
    assert frontend.outline("worse.py", b"def f(:\n", compile_later=True).error is not None  # the parser's


def test_the_checker_confirms_only_the_bytes_it_compiled(tmp_path):
    good = tmp_path / "good.py"
    good.write_text("x = 1\n")
    bad = tmp_path / "bad.py"
    bad.write_text("return 1\n")
    facts = [sources.read_facts(good, outline=True, compile_later=True)]
    checker = verdicts.Checker([(str(good), facts[0].path)])
    assert checker.confirmed(facts)
    bad_facts = [sources.read_facts(bad, outline=True, compile_later=True)]
    assert bad_facts[0].error is None
    assert not verdicts.Checker([(str(bad), bad_facts[0].path)]).confirmed(bad_facts)
    # the file changed after it was outlined: the checker compiles the new bytes,
    # which are not those the facts were read from
    good.write_text("x = 2\n")
    assert not verdicts.Checker([(str(good), facts[0].path)]).confirmed(facts)


def test_a_run_with_a_cache_compiles_in_the_outline_pass(tmp_path, made):
    src = _project(tmp_path, True)
    result = runner.run([src], settings_for(select=DEFAULTS), jobs=2, cache_dir=tmp_path / ".cache")
    assert made == [False]
    assert [f.code for f in result.findings].count("OC900") == 1


def _tree_only_refusal():
    """The shortest chain ``n + n + ... + n`` (of a few lengths) whose parsed tree
    CPython's compiler refuses for recursion while it compiles the same text, or None
    on a Python where no such chain exists (3.13's compiler takes the tree of every
    chain it parses). 3.10 and 3.11 refuse the tree at 1,200 terms, 3.12 at 2,500."""
    import ast
    for terms in (1200, 1800, 2500, 3500):
        text = f"def other(n):\n    return {'+'.join(['n'] * terms)}\n"
        try:
            compile(text, "deep.py", "exec", dont_inherit=True)
        except RecursionError:
            return None
        try:
            compile(ast.parse(text), "deep.py", "exec", dont_inherit=True)
        except RecursionError:
            return terms
    return None


def test_some_python_refuses_only_the_tree():
    """The case below exists on the Pythons CI runs (3.10 to 3.12)."""
    import sys
    if sys.version_info < (3, 13):
        assert _tree_only_refusal() is not None
    else:
        assert _tree_only_refusal() is None  # (when this fails, a later Python refuses again: the case below runs it)


def test_a_nesting_only_the_tree_compile_refuses_is_no_compile_error(tmp_path, monkeypatch, made):
    """``compile`` of the parsed tree runs out of recursion on a chain of some thousand
    terms that a compile of the text (an import) takes: CPython's verdict is the
    text's, so such a file is no "CPython cannot compile" OC900 in either way of
    running, and the deferred run is not made again. Where libcst must read it (a hot
    function), it is read, the same both ways."""
    src = _project(tmp_path, False)
    terms = _tree_only_refusal() or 1200
    chain = "+".join(["n"] * terms)
    (src / "deep.py").write_text(f"def other(n):\n    return {chain}\n")
    (src / "hot_deep.py").write_text(f"def g(store, ledger, run, n):\n    store.save(run)\n"
                                     f"    ledger.append_terminal(run)\n    return {chain}\n")
    data = (src / "deep.py").read_bytes()
    assert frontend.outline("deep.py", data).error is None
    s = settings_for(select=DEFAULTS)
    deferred = runner.run([src], s, jobs=2)
    assert made == [True]
    monkeypatch.setattr(verdicts, "DEFER", False)
    eager = runner.run([src], s, jobs=2)
    assert _findings(deferred) == _findings(eager)
    # and where libcst must read it (a hot function), it is read with a deep stack
    # (session 35; before, the tool's own OC900 "nests too deeply to analyse")
    assert [f for f in deferred.findings if f.code == "OC900"] == []
    assert [(f.path.rsplit("/", 1)[-1], f.span.line, f.code) for f in deferred.findings
            if f.path.endswith("deep.py")] == [("hot_deep.py", 3, "OC101")]


COMPILER_ONLY = [
    "def f():\n    pass\nreturn 1\n",
    "try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass\n",
    "from __future__ import braces\n",
    "nonlocal x\n",
    "break\n",
    "def f(a, a):\n    pass\n",
    "".join("    " * i + "for x in y:\n" for i in range(21)) + "    " * 21 + "pass\n",
    "def f():\n    x = 1\n    global x\n",
    "x = 1\n",  # (and one the compiler takes)
]


@pytest.mark.parametrize("text", COMPILER_ONLY)
def test_the_text_compile_and_the_tree_compile_say_the_same(text):
    """The checker compiles the text, the outline pass the tree it parsed: one
    verdict, with one message and line."""
    import ast

    from ordercheck.frontend.source import compile_refusal

    by_tree = compile_refusal(text, ast.parse(text))
    by_text = compile_refusal(text)
    assert type(by_tree) is type(by_text)
    if by_tree is not None:
        assert (str(by_tree), getattr(by_tree, "lineno", None)) == (str(by_text), getattr(by_text, "lineno", None))
    # (3.13 lifted the limit of 20 nested blocks: that text compiles there)
    takes = text == "x = 1\n" or (text.startswith("for x in y:") and sys.version_info >= (3, 13))
    assert (by_tree is None) == takes


def _lagging(files, done, table):
    import time

    time.sleep(60)


def test_what_the_checker_has_not_reached_is_checked_here(tmp_path, monkeypatch):
    """A checker that lags (the lowest priority on a busy machine) is not waited
    for: the main process checks the rest itself."""
    good = tmp_path / "good.py"
    good.write_text("x = 1\n")
    bad = tmp_path / "bad.py"
    bad.write_text("return 1\n")
    monkeypatch.setattr(verdicts, "_serve", _lagging)
    files = [(str(good), "good.py"), (str(bad), "bad.py")]
    checker = verdicts.Checker(files)
    got = checker.verdicts()
    assert not checker.proc.is_alive()
    assert got["good.py"] == (True, sources.fingerprint(b"x = 1\n")) and got["bad.py"][0] is False
