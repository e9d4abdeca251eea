"""A project helper that hands on the exception its caller is handling
(``sys.exc_info()``, ``traceback.format_exc()`` in its body, outside its own handlers)
makes a call of it in a handler hand that handler's exception on (docs/decisions.md
"A helper that hands the running exception on"; held-out sets 216 and 218: mitosheet's
``get_recent_traceback()`` sent to the user, visidata's ``stacktrace()``)."""
from __future__ import annotations

import pytest
from checkutil import cl, write_tree
from cliutil import oc

TABLE = {"extend-events": {"save": ["*.Store.save"]}}

HEAD = """
import logging
import sys
import traceback

log = logging.getLogger(__name__)


class Store:
    def save(self, run): ...


def notify(msg): ...


def get_tb():
    return traceback.format_exc()


def outer_tb():
    return get_tb()


def own_clause():
    try:
        notify(1)
    except Exception:
        return get_tb()
    return None


def only_debug():
    log.debug("%s", traceback.format_exc())


def kept():
    t, v, tb = sys.exc_info()
    notify(v)


def in_closure():
    def inner():
        return traceback.format_exc()
    notify(inner())


def run(store: Store, run):
    try:
        store.save(run)
    except Exception:
        {handler}
"""
SAVE = HEAD.splitlines().index("        store.save(run)") + 1


@pytest.mark.parametrize("handler, loud", [
    ('notify({"event": "error", "traceback": get_tb()})', True),  # mitosheet's shape
    ("notify(outer_tb())", True),  # through a helper of a helper
    ("kept()", True),  # handed to a call inside the helper
    ("in_closure()", True),  # a nested function of the helper asks for it
    ("own_clause()", False),  # its own clause's exception, not the caller's
    ("only_debug()", False),  # handed only to a quiet call: still lost
    ("notify(1)", False),  # no helper at all
])
def test_a_helper_hands_the_running_exception_on(handler, loud):
    found = cl(HEAD.replace("{handler}", handler), select=["OC203"], table=TABLE)
    assert found == ([] if loud else [("OC203", SAVE)])


def test_the_innermost_clause_is_the_one_handed_on():
    src = HEAD.replace("{handler}", "try:\n            notify(1)\n        except ValueError:\n            get_tb()")
    # the ValueError's clause hands its own exception on; the save's failure is lost
    assert cl(src, select=["OC203"], table=TABLE) == [("OC203", SAVE)]


def test_across_files_and_alone(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.ordercheck.extend-events]\nsave = ["*.Store.save"]\n',
        "pkg/__init__.py": "",
        "pkg/errors.py": """
            import traceback

            def stacktrace():
                return "".join(traceback.format_exc())
            """,
        "pkg/app.py": """
            from pkg.errors import stacktrace

            class Store:
                def save(self, run): ...

            def show(text): ...

            def run(store: Store, run):
                try:
                    store.save(run)
                except Exception:
                    show(stacktrace())
            """,
    })
    assert oc(tmp_path, "--no-cache", "--select", "OC203", ".").codes() == []
    # the file alone reads its project's helper too (a partial run, as pre-commit's)
    assert oc(tmp_path, "--no-cache", "--select", "OC203", "pkg/app.py").codes() == []
    # and without the helper's body the handler is silent
    (tmp_path / "pkg/errors.py").write_text("def stacktrace():\n    return ''\n")
    assert oc(tmp_path, "--no-cache", "--select", "OC203", ".").codes() == [("pkg/app.py", 11, "OC203")]


ASYNC = """
import asyncio
import traceback


class Store:
    def save(self, run): ...


def notify(msg): ...


async def report():
    notify(traceback.format_exc())


def tb_lines():
    yield traceback.format_exc()


async def run(store: Store, r):
    try:
        store.save(r)
    except Exception:
        {handler}
"""


@pytest.mark.parametrize("handler, loud", [
    ("await report()", True),  # the coroutine's body runs here, in the handler
    ("asyncio.create_task(report())", False),  # a task: it runs after the handler
    ("asyncio.get_running_loop().create_task(report())", False),
    ("lines = tb_lines()", False),  # a generator's body runs where it is consumed
])
def test_a_coroutine_or_generator_hands_it_on_only_where_its_body_runs(handler, loud):
    """A review: ``format_exc()`` in a task or an unconsumed generator sees no exception."""
    src = ASYNC.replace("{handler}", handler)
    line = src.splitlines().index("        store.save(r)") + 1
    assert cl(src, select=["OC203"], table=TABLE) == ([] if loud else [("OC203", line)])
