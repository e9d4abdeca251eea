"""An editor's new ``def`` (docs/performance.md, "Session 40"): when a buffer's exports
change only by functions or methods added or removed, the language server resolves
again only the changed files and the files whose text names one of those functions
(``memos.GraphMemo.remembered_around``, ``memos.added_or_removed``); anything else
resolves the whole project again."""
from __future__ import annotations

import time
from pathlib import Path

from ordercheck import memos, runner, snapshot
from ordercheck.runner import read_facts

STORE = '''
def save_run(run):
    db.execute("update runs")
'''

CALLER = '''
from pkg.store import persist


def finish(run, ledger):
    persist(run)
    ledger.append_event("run_completed")
'''

OTHER = '''
def unrelated(run):
    return run.id
'''

TABLE_TOML = '[events]\nsave = ["*.execute"]\n'


def _project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text(TABLE_TOML)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "other.py").write_text(OTHER)
    (tmp_path / "pkg" / "caller.py").write_text(CALLER)
    (tmp_path / "pkg" / "store.py").write_text(STORE)
    # every file is out of the racy window (the memo keeps what it read)
    monkeypatch.setattr(snapshot, "clock_ns", lambda: time.time_ns() + 3600 * 10**9)
    return runner.load_settings(None, tmp_path)


def _resolved(monkeypatch) -> list:
    """The files the pre-pass resolves (those it is given no remembered rows for)."""
    from ordercheck import focus

    seen: list = []
    real = focus.focus

    def counting(files, vocab, question, remembered=None, known=None):
        seen.extend(Path(f.path).name for f in files if f.error is None and (remembered is None or f.path not in remembered))
        return real(files, vocab, question, remembered, known)

    monkeypatch.setattr(runner.focusmod, "focus", counting)
    return seen


def test_a_new_function_named_by_another_file_resolves_that_file_again(tmp_path, monkeypatch):
    settings = _project(tmp_path, monkeypatch)
    store = str(tmp_path / "pkg" / "store.py")
    caller = str(tmp_path / "pkg" / "caller.py")
    memo: dict = {}
    graph = memos.GraphMemo({})
    buffers = {store: STORE.encode(), caller: CALLER.encode()}
    first = runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph)
    assert first.findings == []  # `persist` does not exist yet
    seen = _resolved(monkeypatch)
    buffers[store] = (STORE + "\n\ndef persist(run):\n    save_run(run)\n").encode()
    second = runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph)
    assert [(Path(f.path).name, f.code) for f in second.findings] == [("caller.py", "OC101")]
    # the caller names `persist`: resolved again; `other.py` does not: kept
    assert sorted(seen) == ["caller.py", "store.py"], seen
    # removed again: the caller loses its finding
    seen.clear()
    buffers[store] = STORE.encode()
    third = runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph)
    assert third.findings == [] and sorted(seen) == ["caller.py", "store.py"], seen


def test_a_new_function_called_by_another_name_resolves_its_callers_again(tmp_path, monkeypatch):
    """``pkg/__init__.py`` re-exports ``persist`` as ``keep``; the caller calls
    ``keep(run)`` and never says ``persist``: it is resolved again all the same."""
    settings = _project(tmp_path, monkeypatch)
    (tmp_path / "pkg" / "__init__.py").write_text("from pkg.store import persist as keep\nalso = keep\n")
    (tmp_path / "pkg" / "caller.py").write_text(CALLER.replace("from pkg.store import persist", "from pkg import also")
                                                .replace("persist(run)", "also(run)"))
    store = str(tmp_path / "pkg" / "store.py")
    memo: dict = {}
    graph = memos.GraphMemo({})
    caller = str(tmp_path / "pkg" / "caller.py")
    buffers = {store: STORE.encode(), caller: (tmp_path / "pkg" / "caller.py").read_bytes()}
    assert runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph).findings == []
    seen = _resolved(monkeypatch)
    buffers[store] = (STORE + "\n\ndef persist(run):\n    save_run(run)\n").encode()
    second = runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph)
    assert [(Path(f.path).name, f.code) for f in second.findings] == [("caller.py", "OC101")]
    assert sorted(seen) == ["__init__.py", "caller.py", "store.py"], seen


def test_a_new_function_nobody_names_resolves_only_its_file(tmp_path, monkeypatch):
    settings = _project(tmp_path, monkeypatch)
    store = str(tmp_path / "pkg" / "store.py")
    memo: dict = {}
    graph = memos.GraphMemo({})
    buffers = {store: (STORE + "\n\ndef persist(run):\n    save_run(run)\n").encode()}
    runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph)
    seen = _resolved(monkeypatch)
    buffers[store] += b"\n\ndef brand_new_helper(run):\n    return run\n"
    runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph)
    assert seen == ["store.py"], seen
    # an import added is no such change: the whole project again
    seen.clear()
    buffers[store] = b"import os\n" + buffers[store]
    runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph)
    assert sorted(seen) == ["__init__.py", "caller.py", "other.py", "store.py"], seen


def test_a_method_a_managers_exit_calls_on_self_resolves_everything(tmp_path, monkeypatch):
    """(A review, session 40.) ``with Sub():`` runs ``Base.__exit__``'s
    ``self._commit()``, and ``Sub`` gains ``_commit``: the caller reaches it by no
    name, so the whole project is resolved again."""
    settings = _project(tmp_path, monkeypatch)
    (tmp_path / "pkg" / "base.py").write_text(
        "class Base:\n    def __enter__(self):\n        return self\n\n"
        "    def __exit__(self, *exc):\n        self._commit()\n\n    def _commit(self):\n        pass\n")
    sub = str(tmp_path / "pkg" / "sub.py")
    use = str(tmp_path / "pkg" / "use.py")
    plain = "import os\nfrom pkg.base import Base\n\n\nclass Sub(Base):\n    pass\n"
    buffers = {sub: plain.encode(),
               use: b"from pkg.sub import Sub\n\n\ndef f(fh, data):\n    with Sub():\n        fh.write(data)\n"}
    memo: dict = {}
    graph = memos.GraphMemo({})
    assert runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph).findings == []
    buffers[sub] = plain.replace("    pass\n", "    def _commit(self):\n        os.replace('a.tmp', 'a')\n").encode()
    got = runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph)
    assert [(Path(f.path).name, f.code) for f in got.findings] == [("use.py", "OC301")]


def _record(src: str) -> list:
    return memos.stub_record(read_facts(Path("/tmp/m.py"), src.encode(), "m.py"))


def test_added_or_removed_names_only_functions_and_methods():
    base = "import os\n\nclass A:\n    def m(self):\n        pass\n\ndef f():\n    pass\n"
    assert memos.added_or_removed(_record(base), _record(base)) == set()
    assert memos.added_or_removed(_record(base), _record(base + "\ndef g():\n    pass\n")) == {"g"}
    assert memos.added_or_removed(_record(base + "\ndef g():\n    pass\n"), _record(base)) == {"g"}
    method = base.replace("        pass\n", "        pass\n\n    def n(self):\n        pass\n", 1)
    assert memos.added_or_removed(_record(base), _record(method)) == {"n"}
    nested = base.replace("def f():\n    pass", "def f():\n    def inner():\n        pass")
    assert memos.added_or_removed(_record(base), _record(nested)) == {"inner"}
    for other in (
        base.replace("import os", "import sys"),                      # an import
        base + "\nclass B:\n    pass\n",                               # a class
        base.replace("class A:", "class A(Base):"),                   # a class's bases
        base + "\nkeep = f\n",                                         # an alias
        base + "\ndef f():\n    pass\n",                               # defined twice
        base + "\ndef __getattr__(name):\n    pass\n",                 # a special name
        base.replace("    def m(self):", "    def __bool__(self):"),  # a class's truth
        base.replace("def f():", "@contextlib.contextmanager\ndef f():"),  # changed in place
    ):
        assert memos.added_or_removed(_record(base), _record(other)) is None, other


def test_an_unsaved_init_buffer_makes_its_folder_a_package(tmp_path, monkeypatch):
    """(A review, session 40.) A buffer stands for its file, saved or not: a new
    ``__init__.py`` open in the editor makes its folder a package, so ``sub.store`` is
    the module an import names, as a cold run with the file saved finds."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "store.py").write_text("def persist(store, run):\n    store.save(run)\n")
    use = tmp_path / "use.py"
    use.write_text("from sub.store import persist\n\n\ndef f(store, ledger, run):\n"
                   "    persist(store, run)\n    ledger.append(run)\n")
    monkeypatch.setattr(snapshot, "clock_ns", lambda: time.time_ns() + 3600 * 10**9)
    settings = runner.load_settings(None, tmp_path)
    memo: dict = {}
    graph = memos.GraphMemo({})
    buffers = {str(use): use.read_bytes()}
    assert runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph).findings == []
    buffers[str(tmp_path / "pkg" / "sub" / "__init__.py")] = b"\n"
    got = runner.run_buffers([tmp_path], settings, buffers, memo=memo, graph=graph)
    assert [(Path(f.path).name, f.code) for f in got.findings] == [("use.py", "OC102")]
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("\n")  # saved: the same
    cold = runner.run([tmp_path], settings)
    assert [(Path(f.path).name, f.code) for f in cold.findings] == [("use.py", "OC102")]


def test_a_buffers_parse_error_stands_where_the_buffer_has_it(tmp_path, monkeypatch):
    """(A fuzz of warm runs, session 40.) CPython takes a syntax error's line from the
    file its file name names and clamps the column to it: a buffer that does not parse
    got the column of its file's line on disk (``X = 1``). It is parsed under a name
    that is no file (``frontend.source.PARSED_AS``)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ordercheck.toml").write_text("")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    on_disk = tmp_path / "app" / "m.py"
    on_disk.write_text("import os\n\n\nX = 1\n")
    buffer = b"import os\n\n\ndef broken(run:\n    pass\n"
    settings = runner.load_settings(None, tmp_path)
    got = runner.run_buffers([tmp_path], settings, {str(on_disk): buffer}).findings
    on_disk.write_bytes(buffer)
    saved = runner.run([tmp_path], settings).findings
    assert [(f.code, f.span.line, f.span.col) for f in got] == [(f.code, f.span.line, f.span.col) for f in saved]
    assert [(f.code, f.span.line) for f in saved] == [("OC900", 4)] and saved[0].span.col > 5
