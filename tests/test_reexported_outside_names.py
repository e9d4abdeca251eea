"""A name from outside the project that a project module re-exports (``pkg/util.py``:
``from contextlib import suppress``; ``pkg/compat.py``: ``from sqlalchemy.orm import
Session``) is that outside name where it is used (semantics §Events, Matching: "where
the callee resolves through imports, against its qualified name"). The front end
reads one file, so the project phase adds the outside name (``Call.typed``); every
way of running agrees, and an edit of the re-exporting module reaches the caches."""
from __future__ import annotations

import textwrap

import pytest
from cliutil import oc, write

WORKER = """\
    from .util import suppress


    def a(db, run):
        with suppress(Exception):
            db.save_run(run)


    def b(db, run):
        with suppress(KeyError):
            db.save_run(run)
    """


def _tree(root, files):
    for rel, text in files.items():
        write(root, rel, text)
    return root


def _suppress_project(tmp_path, util="from contextlib import suppress  # noqa: F401\n"):
    return _tree(tmp_path, {"ordercheck.toml": "", "pkg/__init__.py": "", "pkg/util.py": util,
                            "pkg/worker.py": WORKER})


@pytest.mark.parametrize("args", [("--no-cache", "pkg"), ("--no-cache", "pkg/worker.py"),
                                  ("--no-cache", "--jobs", "2", "pkg")])
def test_a_reexported_contextlib_suppress_swallows(tmp_path, args):
    root = _suppress_project(tmp_path)
    assert oc(root, *args).codes() == [("pkg/worker.py", 6, "OC203")]


def test_through_two_reexports_and_as_a_buffer(tmp_path):
    root = _suppress_project(tmp_path, "from .compat import suppress  # noqa: F401\n")
    (root / "pkg" / "compat.py").write_text("from contextlib import suppress  # noqa: F401\n")
    got = oc(root, "--no-cache", "--stdin-filename", "pkg/worker.py", stdin=textwrap.dedent(WORKER).encode())
    assert got.line_codes() == [(6, "OC203")]


def test_a_project_suppress_is_not_contextlibs(tmp_path):
    """A project's own ``suppress`` (defined, not imported) is a project function."""
    root = _suppress_project(tmp_path, """\
        import contextlib


        def suppress(*types):
            return contextlib.nullcontext()
        """)
    assert oc(root, "--no-cache", "pkg").codes() == []


def test_the_cache_follows_an_edit_of_the_reexporting_module(tmp_path):
    root = _suppress_project(tmp_path)
    assert oc(root, "pkg").codes() == [("pkg/worker.py", 6, "OC203")]
    assert oc(root, "pkg/worker.py").codes() == [("pkg/worker.py", 6, "OC203")]  # warm
    (root / "pkg" / "util.py").write_text(textwrap.dedent("""\
        import contextlib


        def suppress(*types):
            return contextlib.nullcontext()
        """))
    assert oc(root, "pkg/worker.py").codes() == []
    assert oc(root, "pkg").codes() == []
    (root / "pkg" / "util.py").write_text("from contextlib import suppress  # noqa: F401\n")
    assert oc(root, "pkg").codes() == [("pkg/worker.py", 6, "OC203")]


def test_a_class_reexported_by_a_compat_module_matches_by_its_outside_name(tmp_path):
    root = _tree(tmp_path, {
        "ordercheck.toml": '[events]\nsave = ["sqlalchemy.orm.Session.commit"]\nappend = ["*.Ledger.record"]\n',
        "app/__init__.py": "",
        "app/compat.py": "from sqlalchemy.orm import Session  # noqa: F401\n",
        "app/ledger.py": "class Ledger:\n    def record(self, event) -> None:\n        ...\n",
        "app/worker.py": """\
            from .compat import Session
            from .ledger import Ledger


            def done(session: Session, ledger: Ledger, job) -> None:
                session.commit()
                ledger.record({"job": job.id, "status": "failed"})
            """,
    })
    assert oc(root, "--no-cache", "app").codes() == [("app/worker.py", 7, "OC101")]
    assert oc(root, "--no-cache", "app/worker.py").codes() == [("app/worker.py", 7, "OC101")]


def test_a_method_named_suppress_is_no_suppressing_manager(tmp_path):
    root = _tree(tmp_path, {"ordercheck.toml": "", "pkg/__init__.py": "", "pkg/w.py": """\
        class Alerts:
            def suppress(self, kind):
                return self


        def a(db, run, alerts: Alerts):
            with alerts.suppress(Exception):
                db.save_run(run)
        """})
    assert oc(root, "--no-cache", "pkg").codes() == []


def _worker(imp, call="suppress"):
    return WORKER.replace("from .util import suppress", imp).replace("with suppress(", f"with {call}(")


@pytest.mark.parametrize("util,imp,call", [
    # contextlib's suppress under another name, at the re-export or at the use
    ("from contextlib import suppress as ignore  # noqa: F401\n", "from .util import ignore", "ignore"),
    ("from contextlib import suppress  # noqa: F401\n", "from .util import suppress as quietly", "quietly"),
    # a dotted use of the re-exporting module, and of the package itself
    ("from contextlib import suppress  # noqa: F401\n", "import pkg.util", "pkg.util.suppress"),
    ("from contextlib import suppress  # noqa: F401\n", "import pkg.util as u", "u.suppress"),
])
@pytest.mark.parametrize("target", ["pkg", "pkg/worker.py"])
def test_contextlib_suppress_under_any_name_or_path(tmp_path, util, imp, call, target):
    root = _tree(tmp_path, {"ordercheck.toml": "", "pkg/__init__.py": "", "pkg/util.py": util,
                            "pkg/worker.py": _worker(imp, call)})
    assert oc(root, "--no-cache", target).codes() == [("pkg/worker.py", 6, "OC203")]


def test_a_package_that_reexports_suppress_used_by_its_dotted_name(tmp_path):
    root = _tree(tmp_path, {"ordercheck.toml": "", "pkg/__init__.py": "from contextlib import suppress  # noqa: F401\n",
                            "pkg/worker.py": _worker("import pkg", "pkg.suppress")})
    assert oc(root, "--no-cache", "pkg").codes() == [("pkg/worker.py", 6, "OC203")]


def test_an_imported_manager_of_another_name_is_not_suppress(tmp_path):
    """Recording an imported manager's argument types makes nothing a suppressing
    manager by itself: a project generator under another name stays a project one."""
    root = _tree(tmp_path, {"ordercheck.toml": "", "pkg/__init__.py": "", "pkg/util.py": """\
        from contextlib import contextmanager


        @contextmanager
        def ignore(*types):
            yield
        """, "pkg/worker.py": _worker("from .util import ignore", "ignore")})
    assert oc(root, "--no-cache", "pkg").codes() == []


SHADOWING = """\
    {first}


    {second}


    def a(db, run):
        with suppress(Exception):
            db.save_run(run)
    """
OWN_DEF = "def suppress(*types):\n        return contextlib.nullcontext()"


@pytest.mark.parametrize("imp", ["from contextlib import suppress", "from .util import suppress"])
def test_a_definition_after_the_import_rebinds_the_name(tmp_path, imp):
    """Python runs the module body in order: a ``def`` after the import is what the
    name holds when ``a`` runs; a ``def`` before it is replaced by the import."""
    util = "from contextlib import suppress  # noqa: F401\n"
    after = "import contextlib\n" + textwrap.dedent(SHADOWING.format(first=imp + "  # noqa: F401", second=OWN_DEF))
    before = "import contextlib\n" + textwrap.dedent(SHADOWING.format(first=OWN_DEF, second=imp + "  # noqa: F811"))
    root = _tree(tmp_path, {"ordercheck.toml": "", "pkg/__init__.py": "", "pkg/util.py": util,
                            "pkg/after.py": after, "pkg/before.py": before})
    assert oc(root, "--no-cache", "pkg").codes() == [("pkg/before.py", 11, "OC203")]


def test_a_fallback_definition_in_a_handler_leaves_the_import(tmp_path):
    root = _tree(tmp_path, {"ordercheck.toml": "", "pkg/__init__.py": "", "pkg/w.py": """\
        try:
            from contextlib import suppress
        except ImportError:
            def suppress(*types):
                return None


        def a(db, run):
            with suppress(Exception):
                db.save_run(run)
        """})
    assert oc(root, "--no-cache", "pkg").codes() == [("pkg/w.py", 10, "OC203")]
