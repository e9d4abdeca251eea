"""A module variable of a known class, imported into another module, is a receiver of
known type there for matching too (docs/decisions.md "A module variable's type crosses
an import", session 25): with ``STORE = SqlRunStore()`` in ``pkg/store.py``,
``from .store import STORE; STORE.save(run)`` matches ``*.RunStore.save`` (its class
and its bases), and ``SESSION = Session()`` matches ``sqlalchemy.orm.Session.commit``.
Every way of running agrees, and an edit of the other module reaches the caller."""
from __future__ import annotations

import textwrap

import pytest
from cliutil import oc

STORE = """\
    from sqlalchemy.orm import Session


    class RunStore:
        def save(self, run):
            ...


    class SqlRunStore(RunStore):
        pass


    STORE = SqlRunStore()
    SESSION = Session()
    """

ENGINE = """\
    from .store import SESSION, STORE


    def finish(run, ledger):
        STORE.save(run)
        ledger.append_terminal(run)


    def finish_session(run, ledger):
        SESSION.commit()
        ledger.append_terminal(run)


    def shadowed(run, ledger, STORE):
        STORE.save(run)
        ledger.append_terminal(run)
    """

TOML = '[events]\nsave = ["*.RunStore.save", "sqlalchemy.orm.Session.commit"]\n'
EXPECTED = [("pkg/engine.py", 6, "OC101"), ("pkg/engine.py", 11, "OC101")]


def _project(root):
    for rel, text in {"ordercheck.toml": TOML, "pkg/__init__.py": "", "pkg/store.py": STORE,
                      "pkg/engine.py": ENGINE}.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return root


@pytest.mark.parametrize("args", [("--no-cache", "pkg"), ("--no-cache", "pkg/engine.py")])
def test_an_imported_instance_matches_by_its_class(tmp_path, args):
    assert oc(_project(tmp_path), *args).codes() == EXPECTED


def test_a_buffer_and_the_prepass_off_agree(tmp_path, monkeypatch):
    root = _project(tmp_path)
    got = oc(root, "--no-cache", "--stdin-filename", "pkg/engine.py", stdin=textwrap.dedent(ENGINE).encode())
    assert got.line_codes() == [(6, "OC101"), (11, "OC101")]
    from ordercheck import runner

    monkeypatch.setattr(runner, "PREPASS", False)
    assert oc(root, "--no-cache", "pkg").codes() == EXPECTED


def test_the_caches_follow_the_other_module(tmp_path):
    root = _project(tmp_path)
    assert oc(root, "pkg").codes() == EXPECTED
    store = root / "pkg" / "store.py"
    store.write_text(textwrap.dedent(STORE).replace("STORE = SqlRunStore()", "STORE = make_store()"))
    assert oc(root, "pkg").codes() == EXPECTED[1:]
    assert oc(root, "pkg/engine.py").codes() == EXPECTED[1:]
    store.write_text(textwrap.dedent(STORE))
    assert oc(root, "pkg/engine.py").codes() == EXPECTED
