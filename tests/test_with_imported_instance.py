"""A ``with`` over a context-manager instance imported from another module (held-out
set 73, pony's ``from pony.orm import db_session`` … ``with db_session:``): a typed module
variable keeps its class in the modules that import it (semantics §Events, Resolution),
and a ``with`` over an instance of a known class runs its ``__enter__``/``__exit__``
(docs/decisions.md "Receiver types"), so its exit's commit is a save there too."""
from __future__ import annotations

import json
import textwrap

import pytest
from checkutil import SEQ, run_tree, write_tree

CORE = """\
    class DBSessionContextManager:
        def __enter__(self):
            return self

        def __exit__(self, exc_type, exc, tb):
            self.store.save(self)


    db_session = DBSessionContextManager()
"""

USES = {
    "from-import": ("from orm.core import db_session", "db_session"),
    "module-alias": ("import orm.core as oc", "oc.db_session"),
    "from-package": ("from orm import core", "core.db_session"),
    # pony's own layout: the package re-exports its core module's names
    "star-reexport": ("from orm import db_session", "db_session"),
    "named-reexport": ("from orm.api import db_session", "db_session"),
}


def _tree(tmp_path, imp, written):
    write_tree(tmp_path, {
        "orm/__init__.py": "from orm.core import *\n",
        "orm/core.py": CORE,
        "orm/api.py": "from orm.core import db_session\n",
        "app.py": f"""\
            {imp}


            def imported_with(journal, y):
                with {written}:
                    pass
                journal.append_entry(y)
            """,
    })


@pytest.mark.parametrize("imp,written", USES.values(), ids=USES.keys())
def test_a_with_over_an_imported_instance_runs_its_exit(tmp_path, imp, written):
    _tree(tmp_path, imp, written)
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 7, "OC102")]




@pytest.mark.parametrize("imp,written", USES.values(), ids=USES.keys())
def test_a_method_called_on_an_imported_instance_resolves(tmp_path, imp, written):
    _tree(tmp_path, imp, written)
    (tmp_path / "app.py").write_text(f"{imp}\n\n\ndef f(journal, y):\n    {written}.__exit__(None, None, None)\n"
                                     "    journal.append_entry(y)\n")
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 6, "OC102")]


NOT_IT = {
    # the function's own name: a parameter, not the module's instance
    "parameter": ("from orm.core import db_session",
                  "def imported_with(journal, y, db_session):\n    with db_session:\n        pass\n"
                  "    journal.append_entry(y)\n"),
    # a name from outside the project: nothing known of it
    "outside": ("from threading import db_session",
                "def imported_with(journal, y):\n    with db_session:\n        pass\n"
                "    journal.append_entry(y)\n"),
    # an imported function is no instance
    "function": ("from orm.core import helper",
                 "def imported_with(journal, y):\n    with helper:\n        pass\n"
                 "    journal.append_entry(y)\n"),
}


@pytest.mark.parametrize("name", NOT_IT, ids=NOT_IT.keys())
def test_other_names_enter_nothing(tmp_path, name):
    imp, body = NOT_IT[name]
    _tree(tmp_path, "", "x")
    (tmp_path / "orm/core.py").write_text(textwrap.dedent(CORE) + "\n\ndef helper():\n    pass\n")
    (tmp_path / "app.py").write_text(f"{imp}\n\n\n{body}")
    assert run_tree(tmp_path, select=SEQ) == []


def test_a_one_file_run_after_a_whole_run_finds_the_same(tmp_path):
    from cliutil import oc

    _tree(tmp_path, "from orm import db_session", "db_session")
    (tmp_path / "pyproject.toml").write_text("[tool.ordercheck]\n")
    cache = tmp_path / "cache"

    def found(*args):
        out = json.loads(oc(tmp_path, "--cache-dir", cache, "--format", "json", *args).out)
        return [(f["uri"].rsplit("/", 1)[-1], d["range"]["start"]["line"], d["code"], d["data"]["witness"])
                for f in out["files"] for d in f["diagnostics"]]

    whole = found(".")
    assert [w[:3] for w in whole] == [("app.py", 6, "OC102")]
    assert found("app.py") == whole


@pytest.mark.parametrize("imp, written", [("import orm.core", "orm.core.db_session"),
                                          ("import toprt", "toprt.db_session")], ids=["dotted", "top-level"])
def test_a_with_over_an_instance_of_a_whole_module_import(tmp_path, imp, written):
    # (a review) `import pkg.runtime` then `with pkg.runtime.db_session:`, and a module at
    # the top of the tree imported whole
    _tree(tmp_path, imp, written)
    (tmp_path / "toprt.py").write_text(textwrap.dedent(CORE))
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 7, "OC102")]


def test_an_imported_name_the_module_rebinds_is_no_instance(tmp_path):
    # (a review) `from x import db_session` and then `db_session = None`: the name is
    # bound twice, and has no type (a new false OC102 before the fix)
    _tree(tmp_path, "from orm.core import db_session", "db_session")
    app = tmp_path / "app.py"
    app.write_text(app.read_text().replace("from orm.core import db_session\n", "from orm.core import db_session\n"
                                                                           "db_session = None\n"))
    assert "db_session = None" in app.read_text()
    assert run_tree(tmp_path, select=SEQ) == []


@pytest.mark.parametrize("head", [
    "try:\n    from orm.core import db_session\nexcept ImportError:\n    db_session = None\n",
    "import typing\nif typing.TYPE_CHECKING:\n    from orm.core import db_session\nelse:\n"
    "    from orm.core import db_session\n",
], ids=["import-shim", "type-checking"])
def test_a_shims_fallback_or_a_second_import_leaves_the_instance(tmp_path, head):
    # (a review) a compat shim's stand-in is no binding again: the import is what runs
    _tree(tmp_path, "from orm.core import db_session", "db_session")
    app = tmp_path / "app.py"
    app.write_text(app.read_text().replace("from orm.core import db_session\n", head))
    assert run_tree(tmp_path, select=SEQ) == [("app.py", 6 + head.count("\n"), "OC102")]
