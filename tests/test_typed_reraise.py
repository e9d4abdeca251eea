"""A ``raise`` of the exception an ``except T:`` clause handles raises a ``T``
(docs/decisions.md, "A re-raised exception keeps its type").

An enclosing ``except T:`` surely catches it, so no walk goes on past that clause as if
it did not match (held-out set 89, fastmcp's OAuth proxy: ``except TokenError: raise``
walked past the outer ``except TokenError:`` into a silent ``except Exception:``). Every
other failure still may pass a narrow clause: the type is known only for the re-raise.
"""
from __future__ import annotations

import pytest
from checkutil import cl, witness_of

HEAD = '''\
import logging
log = logging.getLogger(__name__)


class TokenError(Exception):
    pass


'''


def _src(inner: str, raise_: str, outer: str) -> str:
    return HEAD + (
        "def refresh(ledger, run):\n"
        "    try:\n"
        "        try:\n"
        "            ledger.append_terminal(run)\n"
        f"        except {inner}:\n"
        f"            {raise_}\n"
        "        except Exception as e:\n"
        "            log.warning('failed: %s', e)\n"
        f"    except {outer}:\n"
        "        log.warning('token')\n"
        "    except Exception:\n"
        "        pass\n")


APPEND = HEAD.count("\n") + 4


@pytest.mark.parametrize("inner, raise_, outer", [
    ("TokenError", "raise", "TokenError"),
    ("TokenError as err", "raise err", "TokenError"),
    ("TokenError as err", "raise err from None", "TokenError"),
    ("TokenError", "raise", "(ValueError, TokenError)"),
    ("(TokenError, KeyError)", "raise", "(KeyError, TokenError)"),
    ("KeyError", "raise", "LookupError"),  # a built-in base class
    ("(KeyError, IndexError)", "raise", "LookupError"),
])
def test_the_outer_clause_of_its_type_catches_the_reraise(inner, raise_, outer):
    assert cl(_src(inner, raise_, outer)) == []


@pytest.mark.parametrize("inner, raise_, outer", [
    ("TokenError", "raise", "ValueError"),  # another type: it passes on
    ("(TokenError, ValueError)", "raise", "TokenError"),  # not every type of the inner clause
    ("LookupError", "raise", "KeyError"),  # a base class is no subclass
    ("TokenError as err", "raise err from None", "ValueError"),
    ("TokenError as err", "err = RuntimeError('x'); raise err", "TokenError"),  # rebound first
    ("TokenError", "raise RuntimeError('lost')", "TokenError"),  # a new exception
    ("TokenError", "raise TokenError('again')", "ValueError"),
    ("Exception", "raise", "TokenError"),  # an inner broad clause: any type
])
def test_any_other_raise_may_pass_the_outer_clause(inner, raise_, outer):
    assert cl(_src(inner, raise_, outer)) == [("OC201", APPEND)]


def test_the_witness_of_a_true_finding_is_unchanged():
    src = _src("TokenError", "raise", "ValueError")
    steps = [s for s in witness_of(src, "OC201")]
    assert any("except ValueError:  (does not match)" in s for s in steps), steps


def _nested(inner: str) -> str:
    """The clause's block: a `try` of its own, whose clause does ``inner``, then `raise`."""
    return HEAD + (
        "def refresh(ledger, run):\n"
        "    try:\n"
        "        try:\n"
        "            ledger.append_terminal(run)\n"
        "        except TokenError:\n"
        "            try:\n"
        "                log.debug('cleanup')\n"
        "            except Exception:\n"
        f"                {inner}\n"
        "            raise\n"
        "        except Exception as e:\n"
        "            log.warning('failed: %s', e)\n"
        "    except TokenError:\n"
        "        log.warning('token')\n"
        "    except Exception:\n"
        "        pass\n")


def test_a_bare_raise_in_a_nested_clause_raises_the_nested_exception():
    # the cleanup's failure, of any type
    assert cl(_nested("raise")) == [("OC201", APPEND)]


def test_after_a_nested_try_the_clause_exception_is_raised_again():
    assert cl(_nested("log.warning('cleanup failed')")) == []


def test_a_finally_between_keeps_the_over_approximation():
    # the re-raise runs a `finally` first, whose end re-raises whatever entered it:
    # which exception, the graph does not tell (a limit, decisions.md)
    src = HEAD + (
        "def refresh(ledger, run):\n"
        "    try:\n"
        "        try:\n"
        "            ledger.append_terminal(run)\n"
        "        except TokenError:\n"
        "            raise\n"
        "        except Exception as e:\n"
        "            log.warning('failed: %s', e)\n"
        "        finally:\n"
        "            log.debug('done')\n"
        "    except TokenError:\n"
        "        log.warning('token')\n"
        "    except Exception:\n"
        "        pass\n")
    assert cl(src) == [("OC201", APPEND)]


def test_each_round_of_a_loop_forgets_the_last_reraise():
    # round one re-raises a TokenError into `except TokenError`; round two's append
    # fails with any other type, past it, into the silent clause
    src = HEAD + (
        "def refresh(ledger, runs):\n"
        "    for run in runs:\n"
        "        try:\n"
        "            try:\n"
        "                ledger.append_terminal(run)\n"
        "            except TokenError:\n"
        "                raise\n"
        "            except ValueError as e:\n"
        "                log.warning('failed: %s', e)\n"
        "        except TokenError:\n"
        "            log.warning('token')\n"
        "        except Exception:\n"
        "            pass\n")
    assert cl(src) == [("OC201", APPEND + 1)]


def test_the_type_copies_no_node_past_the_clauses():
    # the fact lives from the `raise` to the clauses that may take it: the clause that
    # takes it is a region of its own in the product (its entry's state differs), but
    # entering a clause's body forgets the fact, and "not of that type" tells nothing
    # on, so nothing after the clauses is built twice
    from pathlib import Path

    from checkutil import settings_for

    from ordercheck import feasible, runner

    def product(raise_: str):
        body = "\n".join(f"        ledger.note({i})" for i in range(40))
        after = "\n".join(f"    ledger.later({i})" for i in range(40))
        src = HEAD + (
            "def refresh(ledger, run, dry):\n"
            "    if dry:\n"
            "        log.warning('dry')\n"
            "    try:\n"
            "        try:\n"
            "            ledger.append_terminal(run)\n"
            "        except TokenError:\n"
            f"            {raise_}\n"
            "    except TokenError:\n"
            f"{body}\n"
            "    except Exception:\n"
            "        pass\n"
            f"{after}\n"
            "    if not dry:\n"
            "        log.warning('wet')\n")
        settings = settings_for()
        facts = runner.read_facts(Path("m.py"), src.encode(), "m.py")
        summ = runner.project_summaries([facts], settings)
        fn = next(f for f in facts.functions if f.name == "refresh")
        built = runner.function_graph(fn, "m.py", settings, summ)
        return built, feasible.prune_correlated(built)

    built, typed = product("raise")
    assert "<raised" in " ".join(feasible.tracked_names(built))
    _, untyped = product("raise RuntimeError('other')")
    clause = next(d["region"] for _, d in built.nodes(data=True) if d.get("text") == "except TokenError:"
                  and d.get("assume"))
    body = sum(1 for _, d in built.nodes(data=True) if clause in d.get("ctx", ()))
    # (`dry` doubles every node between its two tests, the clause's body included)
    assert typed.number_of_nodes() <= untyped.number_of_nodes() + 2 * body + 4


# ---- soundness: every execution is a walk of the *pruned* graph (semantics §Graph)

import sys  # noqa: E402

import tracecheck as tc  # noqa: E402


class _Typed(tc.Oracle):
    """An oracle whose calls raise one of several types: a re-raise's type matters."""

    TYPES = (tc.Boom, KeyError, ValueError)

    def c(self, k: int = 0) -> int:
        self._spend()
        if self.r.random() < self.p:
            raise self.r.choice(self.TYPES)(k)
        return k


def _run(fn, oracle):
    code, lines = fn.__code__, []

    def local(frame, event, arg):
        if event == "line":
            lines.append(frame.f_lineno)
        return local

    sys.settrace(lambda frame, event, arg: local if frame.f_code is code else None)
    try:
        fn(oracle)
        how = "EXIT"
    except Exception:  # (whatever the re-raise raises: KeyError, RuntimeError, UnboundLocalError)
        how = "RAISE"
    finally:
        sys.settrace(None)
    return lines, how


REBOUND = {
    "in an if": "if o.b():\n                e = ValueError('v')",
    "a for target": "for e in [ValueError('v')]:\n                pass",
    "a with target": "with o.cm() as e:\n                o.tick()",
    "a walrus": "if (e := ValueError('v')) and o.b():\n                o.tick()",
    "a nested except as": "try:\n                o.c(3)\n            except ValueError as e:\n                pass",
}

SHAPES = {f"rebound by {k}": f"""
def f(o):
    try:
        try:
            o.c(1)
        except KeyError as e:
            {v}
            raise e
    except KeyError:
        o.c(2)
    except Exception:
        o.tick()
""" for k, v in REBOUND.items()}
SHAPES.update({
    "a finally reached by return": """
def f(o):
    try:
        try:
            try:
                o.c(1)
            except KeyError:
                return 1
        finally:
            raise
    except KeyError:
        o.c(2)
    except Exception:
        o.tick()
""",
    "a finally reached by break": """
def f(o):
    for i in o.it():
        try:
            try:
                o.c(1)
            except KeyError:
                break
        finally:
            if o.b():
                raise
    try:
        o.c(4)
    except KeyError:
        o.c(2)
""",
    "a finally inside the clause": """
def f(o):
    try:
        try:
            o.c(1)
        except KeyError:
            try:
                o.c(3)
            finally:
                raise
    except KeyError:
        o.c(2)
    except Exception:
        o.tick()
""",
    "a plain re-raise": """
def f(o):
    try:
        try:
            o.c(1)
        except KeyError:
            o.tick()
            raise
    except LookupError:
        o.c(2)
    except Exception:
        o.tick()
""",
})


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_execution_is_a_walk_of_the_pruned_graph(shape):
    from ordercheck import feasible

    src = SHAPES[shape]
    g = feasible.prune_correlated(tc.graph_for(src))
    ns = dict(tc.NAMESPACE)
    exec(compile(src, "gen.py", "exec"), ns)
    finals = tc.finally_ranges(src)
    for seed in range(60):
        lines, how = _run(ns["f"], _Typed(seed, 0.35))
        assert tc.is_walk(g, lines, how, finals) is None, (seed, lines, how)


def test_a_name_the_module_binds_is_not_the_builtin():
    # a store client's own `ConnectionError` (redis', requests'): `except
    # ConnectionRefusedError: raise` passes it, as Python shows
    src = HEAD + (
        "class ConnectionError(Exception):\n"
        "    pass\n\n\n"
        "def refresh(ledger, run):\n"
        "    try:\n"
        "        try:\n"
        "            ledger.append_terminal(run)\n"
        "        except ConnectionRefusedError:\n"
        "            raise\n"
        "        except Exception as e:\n"
        "            log.warning('failed: %s', e)\n"
        "    except ConnectionError:\n"
        "        log.warning('store')\n"
        "    except Exception:\n"
        "        pass\n")
    assert cl(src) == [("OC201", HEAD.count("\n") + 8)]


SHADOWED = """
def refresh(ledger, run):
    try:
        try:
            ledger.append_terminal(run)
        except ConnectionRefusedError:
            raise
        except Exception as e:
            log.warning('failed: %s', e)
    except ConnectionError:
        log.warning('store')
    except Exception:
        pass
"""


@pytest.mark.parametrize("binding", [
    "from .errors import ConnectionError",
    "from .errors import *",  # (a star import may bind any name)
    "from . import errors\nConnectionError = errors.StoreError",  # an alias
])
def test_a_built_in_name_the_module_binds_otherwise_is_not_the_builtin(tmp_path, binding):
    # a second review: the module's own `ConnectionError`, however bound, does not
    # catch a `ConnectionRefusedError` (Python passes it into `except Exception`)
    from checkutil import run_tree, write_tree
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/errors.py": "class StoreError(Exception):\n    pass\n\n\nclass ConnectionError(StoreError):\n    pass\n",
        "app/sync.py": f"import logging\n{binding}\nlog = logging.getLogger(__name__)\n\n" + SHADOWED,
    })
    found = [(p, c) for p, _, c in run_tree(tmp_path)]
    assert found == [("app/sync.py", "OC201")]


def test_a_class_of_a_built_in_name_in_the_function_is_not_the_builtin():
    src = HEAD + SHADOWED.replace("def refresh(ledger, run):\n",
                                  "def refresh(ledger, run):\n    class ConnectionError(Exception):\n        pass\n\n")
    assert [c for c, _ in cl(src)] == ["OC201"]


def test_the_real_built_in_base_class_still_catches():
    src = HEAD + SHADOWED
    assert cl(src) == []


def test_a_reraise_in_an_except_star_clause_leaves_as_a_group():
    # a second review: a plain `except KeyError: raise` inside the last `except*`
    # clause leaves wrapped in an ExceptionGroup, which passes `except KeyError:`
    src = HEAD + (
        "def refresh(ledger, run):\n"
        "    try:\n"
        "        try:\n"
        "            ledger.prepare(run)\n"
        "        except* ValueError:\n"
        "            try:\n"
        "                ledger.append_terminal(run)\n"
        "            except KeyError:\n"
        "                raise\n"
        "            except Exception as e:\n"
        "                log.warning('failed: %s', e)\n"
        "    except KeyError:\n"
        "        log.warning('key')\n"
        "    except Exception:\n"
        "        pass\n")
    assert [c for c, _ in cl(src)] == ["OC201"]


@pytest.mark.parametrize("case", ["{'k': 1, **e}", "{'k': e}", "[*e]", "[_, e]", "e"])
def test_a_match_capture_binds_the_name_again(case):
    src = HEAD + (
        "def refresh(ledger, run, v):\n"
        "    try:\n"
        "        try:\n"
        "            ledger.append_terminal(run)\n"
        "        except TokenError as e:\n"
        "            match v:\n"
        f"                case {case}:\n"
        "                    pass\n"
        "            raise e\n"
        "        except Exception as err:\n"
        "            log.warning('failed: %s', err)\n"
        "    except TokenError:\n"
        "        log.warning('token')\n"
        "    except Exception:\n"
        "        pass\n")
    assert [c for c, _ in cl(src)] == ["OC201"]
