"""``self.x.m()`` where only a base class in another file types ``x`` (semantics
§Events, "Receiver types": "attributes assigned from annotated ``__init__`` parameters
... matching by qualified name ... for project and imported classes alike"). The
front end reads one file, so it types ``x`` only by that file's classes; the project
phase adds ``module.T.m`` (``Call.typed``), and every way of running agrees: the whole
project, one file, a buffer, a cold and a warm cache, the pre-pass off, and after the
base's annotation changes (the caches must not keep the old type)."""
from __future__ import annotations

import textwrap

import pytest
from cliutil import oc

BASE = """\
    from .store import RunStore
    from .ledger import Ledger


    class BaseEngine:
        def __init__(self, runs: RunStore, ledger: Ledger) -> None:
            self._runs = runs
            self._ledger = ledger
    """

STORE = """\
    class RunStore:
        def save(self, run) -> None:
            ...


    class OtherStore:
        def save(self, run) -> None:
            ...
    """

LEDGER = """\
    class Ledger:
        def record(self, event) -> None:
            ...
    """

ENGINE = """\
    from .base import BaseEngine


    class Engine(BaseEngine):
        def finish(self, run) -> None:
            self._runs.save(run)
            self._ledger.record({"run": run.id, "status": "completed"})

        def finish_fixed(self, run) -> None:
            self._ledger.record({"run": run.id, "status": "completed"})
            self._runs.save(run)
    """

CONFIG = """\
    [events]
    save = ["*.RunStore.save"]
    append = ["*.Ledger.record"]
    """


def _project(tmp_path):
    files = {"ordercheck.toml": CONFIG, "app/__init__.py": "", "app/base.py": BASE, "app/store.py": STORE,
             "app/ledger.py": LEDGER, "app/engine.py": ENGINE}
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return tmp_path


EXPECTED = [("app/engine.py", 7, "OC101")]


@pytest.mark.parametrize("args", [
    ("--no-cache", "app"),
    ("--no-cache", "--jobs", "2", "app"),
    ("--no-cache", "app/engine.py"),
])
def test_a_base_in_another_file_types_the_attribute_for_matching(tmp_path, args):
    root = _project(tmp_path)
    assert oc(root, *args).codes() == EXPECTED


def test_a_buffer_gets_the_same_finding(tmp_path):
    root = _project(tmp_path)
    got = oc(root, "--no-cache", "--stdin-filename", "app/engine.py",
             stdin=textwrap.dedent(ENGINE).encode())
    assert got.line_codes() == [(7, "OC101")]


def test_without_the_prepass_too(tmp_path, monkeypatch):
    from ordercheck import runner

    monkeypatch.setattr(runner, "PREPASS", False)
    root = _project(tmp_path)
    assert oc(root, "--no-cache", "app").codes() == EXPECTED


def test_the_caches_follow_the_base_annotation(tmp_path):
    """Cold, warm, then the base types the attribute with another class: the
    subclass's file is unchanged, its finding goes; and comes back."""
    root = _project(tmp_path)
    assert oc(root, "app").codes() == EXPECTED
    assert oc(root, "app").codes() == EXPECTED  # warm
    assert oc(root, "app/engine.py").codes() == EXPECTED  # warm, one file
    base = root / "app" / "base.py"
    base.write_text(textwrap.dedent(BASE).replace("runs: RunStore", "runs: OtherStore")
                    .replace("import RunStore", "import OtherStore"))
    assert oc(root, "app").codes() == []
    assert oc(root, "app/engine.py").codes() == []
    base.write_text(textwrap.dedent(BASE))
    assert oc(root, "app/engine.py").codes() == EXPECTED
    assert oc(root, "app").codes() == EXPECTED


def test_an_imported_class_matches_by_its_qualified_name(tmp_path):
    """``sqlalchemy.orm.Session`` typed in a base's ``__init__`` elsewhere: the
    subclass's ``self.session.commit()`` matches ``sqlalchemy.orm.Session.commit``."""
    files = {
        "ordercheck.toml": '[events]\nsave = ["sqlalchemy.orm.Session.commit"]\nappend = ["*.Ledger.record"]\n',
        "app/__init__.py": "",
        "app/ledger.py": LEDGER,
        "app/base.py": """\
            from sqlalchemy.orm import Session
            from .ledger import Ledger


            class Base:
                def __init__(self, session: Session, ledger: Ledger) -> None:
                    self.session = session
                    self.ledger = ledger
            """,
        "app/worker.py": """\
            from .base import Base


            class Worker(Base):
                def done(self, job) -> None:
                    self.session.commit()
                    self.ledger.record({"job": job.id, "status": "failed"})
            """,
    }
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    assert oc(tmp_path, "--no-cache", "app").codes() == [("app/worker.py", 7, "OC101")]
    assert oc(tmp_path, "--no-cache", "app/worker.py").codes() == [("app/worker.py", 7, "OC101")]


def test_the_subclass_own_typing_wins_and_self_is_still_no_receiver(tmp_path):
    """A subclass that types ``_runs`` itself is typed by its own class (the front
    end's); ``self.save()`` is still no typed receiver (docs/decisions.md)."""
    root = _project(tmp_path)
    (root / "app" / "engine.py").write_text(textwrap.dedent("""\
        from .base import BaseEngine
        from .store import OtherStore


        class Engine(BaseEngine):
            _runs: OtherStore

            def finish(self, run) -> None:
                self._runs.save(run)
                self._ledger.record({"run": run.id, "status": "completed"})
        """))
    assert oc(root, "--no-cache", "app").codes() == []


def test_the_language_servers_kept_facts_follow_the_base_annotation(tmp_path):
    """The server keeps each file's facts and call graph between runs: after the base
    changes its annotation, a subclass on disk (unchanged, its facts kept) is typed
    afresh, and so is the summary a buffer's function reads from it."""
    import os

    from ordercheck import memos, runner
    from ordercheck.settings import load_settings

    root = _project(tmp_path)
    (root / "app" / "helper.py").write_text(textwrap.dedent("""\
        from .base import BaseEngine


        class Helper(BaseEngine):
            def persist(self, run) -> None:
                self._runs.save(run)
        """))
    caller = textwrap.dedent("""\
        from .helper import Helper
        from .ledger import Ledger


        def finish(helper: Helper, ledger: Ledger, run) -> None:
            helper.persist(run)
            ledger.record({"run": run.id, "status": "completed"})
        """)
    settings = load_settings(None, root)
    memo: dict = {}
    graph = memos.GraphMemo({})
    name = str(root / "app" / "caller.py")

    def codes():
        got = runner.run_buffers([root / "app"], settings, {name: caller.encode()}, memo=memo, graph=graph)
        return sorted((f.code, f.span.line) for f in got.findings)

    assert codes() == [("OC101", 7)]
    assert codes() == [("OC101", 7)]  # (the helper's facts kept)
    base = root / "app" / "base.py"
    st = base.stat()
    base.write_text(textwrap.dedent(BASE).replace("runs: RunStore", "runs: OtherStore")
                    .replace("import RunStore", "import OtherStore"))
    os.utime(base, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    assert codes() == []
    base.write_text(textwrap.dedent(BASE))
    os.utime(base, ns=(st.st_atime_ns, st.st_mtime_ns + 20_000_000))
    assert codes() == [("OC101", 7)]
