"""Faults and gaps found in session 73 (docs/evaluation.md, docs/decisions.md)."""
from __future__ import annotations

from checkutil import write_tree
from cliutil import oc

EVENTS = '[events]\nsave = ["*.store.save"]\nappend = ["*.ledger.append"]\n'

#: the `__init__` and `__enter__` of the test managers below, which differ in their `__exit__`
MANAGER_HEAD = '''\
    def __init__(self, ledger):
        self.ledger = ledger

    def __enter__(self):
        return self
'''


EXIT_TESTS = {
    "ordercheck.toml": EVENTS,
    "steps.py": '''\
class Step:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.ledger.append("step_failed")
        return False


class Guarded:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            return
        self._fail()

    def _fail(self):
        self.ledger.append("step_failed")


class Done:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.ledger.append("step_completed")


class Both:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and self.strict:
            self.ledger.append("step_failed")
        elif exc is None or self.loud:
            self.ledger.append("step_completed")


class Rebinds:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        exc_type = self.pending
        if exc_type is not None:
            self.ledger.append("step_failed")
''',
    "run.py": '''\
from steps import Both, Done, Guarded, Rebinds, Step


def failing_only(self, state):
    with Step(self.ledger):
        self.store.save(state)


def failing_only_through_a_method(self, state):
    with Guarded(self.ledger):
        self.store.save(state)


def completed(self, state):
    with Done(self.ledger):
        self.store.save(state)


def both(self, state):
    with Both(self.ledger):
        self.store.save(state)


def rebinds(self, state):
    with Rebinds(self.ledger):
        self.store.save(state)
''',
}


def test_an_exit_that_appends_only_with_an_exception_appends_nothing_at_a_normal_exit(tmp_path):
    """A class manager whose `__exit__` appends the failure record only when an
    exception is in flight (`if exc_type is not None:`) was read as appending it at
    every exit: a false OC101 after the body's save. Python calls `__exit__` with three
    Nones at a normal exit, so that branch is not taken there; a branch taken only
    without an exception still appends there (`Done`), a test of something else beside
    the exception decides nothing (`Both`: its `elif` may append "completed"), and a
    parameter the exit binds again tells nothing (`Rebinds`)."""
    write_tree(tmp_path, EXIT_TESTS)
    want = [("run.py", 15, "OC101"), ("run.py", 20, "OC101"), ("run.py", 25, "OC101")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want  # (a cold run that fills the cache)
    assert oc(tmp_path, ".").codes() == want  # (a warm one: the split is remembered)
    assert oc(tmp_path, "run.py").codes() == want
    both = oc(tmp_path, "--no-cache", ".").out.split("run.py:20")[1].split("run.py:25")[0]
    # the "via" of a normal exit names the append that runs there
    assert 'self.ledger.append("step_completed")' in both and "step_failed" not in both


ACKS = '''\
from hl7.ack import Result, build_ack


class Bridge:
    def handle(self, msg):
        self.store.upsert(msg)
        reply = self._ack(msg, "AA")
        return reply

    def nack(self, msg):
        return self._ack(msg, "AE")

    def _ack(self, msg, code):
        text = build_ack(code, msg=msg, app=self.cfg.app)
        return Result(text, code, msg.control_id)


async def consume(message, store):
    store.upsert(message)
    await message.ack()


def consume_sync(message, store):
    store.upsert(message)
    message.ack()
'''


def test_suggest_reads_an_ack_whose_value_is_kept_as_no_commit_point(tmp_path):
    """Set 459 (an HL7 bridge): `self._ack(msg, "AA")` builds the acknowledgement the
    bridge returns, and was offered as a consumer's commit point; a message's `ack()`
    whose value nobody keeps (awaited or not) still is."""
    write_tree(tmp_path, {"bridge.py": ACKS})
    rows = suggested_rows(tmp_path)
    assert ("save", "*._ack") not in rows
    assert ("save", "*message.ack") in rows, rows


def suggested_rows(tmp_path):
    """`suggest`'s (class, pattern) rows over the folder, in its order."""
    import json
    return [(r["class"], r["pattern"]) for r in
            json.loads(oc(tmp_path, "suggest", "--format", "json", "--no-cache", ".").out)["suggestions"]]


UPLOADS = '''\
from flask import request


def upload(db, path):
    for file in request.files.getlist("attachments"):
        file.save(path)
    request.files["cover"].save(path)
    db.session.commit()


def store(state_file, run, path):
    state_file.save(path)
    run.save()
    file = open(path)
    file.save()
'''


def test_suggest_leaves_an_uploaded_file_written_out(tmp_path):
    """Set 462 (a Flask quiz app): `file.save(save_path)` of `for file in
    request.files.getlist(...)` and `request.files["cover"].save(path)` write an upload
    to disk and were offered as saves; a `file.save()` with no path still is."""
    write_tree(tmp_path, {"app.py": UPLOADS})
    patterns = [p for _, p in suggested_rows(tmp_path)]
    assert "*file.save" in patterns, patterns  # (the argument-less one still reads as a save)
    assert "*run.save" in patterns
    assert not [p for p in patterns if "files" in p]
    head = oc(tmp_path, "suggest", "--no-cache", ".").out.split("[tool.ordercheck")[0]
    assert "1 function, 0 with both kinds; e.g. app.py:15  file.save()" in head, head


SAME_FILE_FACTORY = {
    "pyproject.toml": "",
    "ordercheck.toml": '[events]\nsave = ["sqlalchemy.orm.Session.commit", "pkg.core.save"]\n'
                       'append = ["*.append_entry", "*.Log.add"]\n',
    "pkg/__init__.py": "",
    "pkg/core.py": "class Log:\n    def add(self, n):\n        pass\n\n\ndef save(x):\n    pass\n",
    "pkg/same.py": '''\
from sqlalchemy.orm import Session

from .core import Log, save


def make_session() -> Session:
    return Session()


def _load(path) -> Log:
    return Log()


def redeem(ledger, card):
    db = make_session()
    db.commit()
    ledger.append_entry(card)


def run(path):
    log = _load(path)
    save(log)
    log.add(1)


def shadowed(ledger, make_session):
    db = make_session()
    db.commit()
    ledger.append_entry(1)


def rebound(ledger):
    db = other()
    db.commit()
    ledger.append_entry(1)


def other() -> Session:
    return Session()


other = print
''',
}


def test_a_factory_in_the_same_file_types_what_it_makes(tmp_path):
    """Set 463 (gopromotional-siplog's `log = _load(path)`, `_load -> HydrationLog` in
    the same module): a project function's return annotation typed its product only
    where another module imported it; now in its own module too. A parameter of the
    same name, or a module name bound otherwise as well, makes nothing known."""
    write_tree(tmp_path, SAME_FILE_FACTORY)
    want = [("pkg/same.py", 17, "OC102"), ("pkg/same.py", 23, "OC102")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, "pkg/same.py").codes() == want
    source = (tmp_path / "pkg/same.py").read_bytes()
    assert oc(tmp_path, "--stdin-filename", "pkg/same.py", "-", stdin=source).codes() == want


EXIT_REVIEW = {
    "ordercheck.toml": '[events]\nsave = ["*.save"]\nappend = ["*.append"]\nsurface = ["*.warning"]\n',
    "steps.py": '''\
class Quiet:
    def __init__(self, ledger, quiet=False):
        self.ledger, self.quiet = ledger, quiet

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and self.quiet:
            return False
        if exc_type is not None:
            self.ledger.append("step_failed")


class Always:
    def __init__(self, ledger, always=False):
        self.ledger, self.always = ledger, always

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None or self.always:
            self.ledger.append("step_completed")


class Typed:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if isinstance(exc, Exception):
            self.ledger.append("step_failed")


class Narrow:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, OSError):
            self.ledger.append("step_failed")


class EarlyReturn:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if not exc_type:
            return
        self.ledger.append("step_failed")


class Base:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self._on_fail()

    def _on_fail(self):
        pass


class Overrides(Base):
    def _on_fail(self):
        self.ledger.append("step_failed")


class Both:
''' + MANAGER_HEAD + '''
    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.ledger.append("step_completed")
        else:
            self.ledger.append("step_failed")
''',
    "run.py": '''\
from steps import Always, Both, EarlyReturn, Narrow, Overrides, Quiet, Typed


def quiet_raising(store, ledger, log, run):
    try:
        with Quiet(ledger):
            store.save(run)
            risky()
    except Exception:
        log.warning("step failed")


def always_raising(ledger, log):
    try:
        with Always(ledger, always=True):
            risky()
    except Exception:
        ledger.append("run_failed")
        log.warning("x")


def typed(store, ledger, run):
    with Typed(ledger):
        store.save(run)


def narrow(store, ledger, run):
    with Narrow(ledger):
        store.save(run)


def early_return(store, ledger, run):
    with EarlyReturn(ledger):
        store.save(run)


def overrides(store, ledger, run):
    with Overrides(ledger):
        store.save(run)


def both_raising(ledger, log):
    try:
        with Both(ledger):
            risky()
    except Exception:
        ledger.append("run_failed")
        log.warning("x")
''',
}


def test_an_exit_is_split_only_where_its_test_is_decided_and_names_what_runs(tmp_path):
    """Session 73's review of the split: at an exception exit a conjunction with
    something else (`exc_type is not None and self.quiet`) or `isinstance(exc, E)` is
    not decided, so the append under it still may run there (the first engine cut it:
    a lost OC101 and OC103); at a normal exit a test with a call in it (`isinstance`,
    `issubclass`) is decided too, an early `if not exc_type: return` ends the exit, and
    a helper the exit calls only with an exception is not at a normal exit even where a
    subclass overrides it (four false OC101s). The exception exit's "via" names the
    append that runs there, not the normal exit's."""
    write_tree(tmp_path, EXIT_REVIEW)
    want = [("run.py", 6, "OC101"), ("run.py", 18, "OC103"), ("run.py", 47, "OC103")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, "run.py").codes() == want
    both = oc(tmp_path, "--no-cache", ".").out.split("run.py:47")[1]
    assert 'self.ledger.append("step_failed")' in both and "step_completed" not in both, both


METHOD_IMPORT = {
    "ordercheck.toml": ('[extend-events]\nappend = ["app.ledger.Ledger.record", "*.journal.append_event"]\n'
                        'save = ["*.store.save"]\n'),
    "app/__init__.py": "",
    "app/ledger.py": '''\
class Ledger:
    def record(self, entry):
        pass

    def write(self, entry):
        self.journal.append_event(entry)
''',
    "app/other.py": "class Ledger:\n    def record(self, entry):\n        pass\n",
    "app/service.py": '''\
class Daemon:
    def __init__(self, store, ledger=None):
        from .ledger import Ledger
        self.store = store
        self.ledger = ledger or Ledger()

    def step(self, k):
        self.store.save(k)
        self.ledger.record({"k": k})

    def step2(self, k):
        self.store.save(k)
        self.ledger.write({"k": k})
''',
    "app/ambiguous.py": '''\
class A:
    def __init__(self, store):
        from .ledger import Ledger
        self.store = store
        self.ledger = Ledger()

    def step(self, k):
        self.store.save(k)
        self.ledger.record({"k": k})


class B:
    def __init__(self):
        from .other import Ledger
        self.ledger = Ledger()
''',
}


def test_an_attribute_made_by_a_class_the_method_imports_itself_is_typed(tmp_path):
    """Set 464 (agent-saga's `RecoveryDaemon.__init__`: `from .ledger import
    FileLedger`, then `self.ledger = ledger or FileLedger(...)`): the attribute's class
    was qualified only through the module's imports, so `app.ledger.Ledger.record`
    matched nothing and `self.ledger.write` carried nothing. A name two methods import
    from different modules stays unknown."""
    write_tree(tmp_path, METHOD_IMPORT)
    want = [("app/service.py", 9, "OC102"), ("app/service.py", 13, "OC102")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, "app/service.py").codes() == want
    source = (tmp_path / "app/service.py").read_bytes()
    assert oc(tmp_path, "--stdin-filename", "app/service.py", "-", stdin=source).codes() == want


ATOMIC_EXIT = {
    "pyproject.toml": "",
    "pkg/__init__.py": "",
    "pkg/util.py": '''\
import os
import shutil


def replace_file(src, dst):
    os.replace(src, dst)


def deep_replace(src, dst):
    replace_file(src, dst)


class AtomicReplace:
    def __init__(self, filename):
        self.filename = filename
        self.temporary_file = filename + ".tmp"

    def __enter__(self):
        return self.temporary_file

    def __exit__(self, exc_type=None, exc_value=None, traceback=None):
        if exc_type is None:
            replace_file(self.temporary_file, self.filename)


class Deeper:
    def __init__(self, filename):
        self.filename = filename

    def __enter__(self):
        return self.filename + ".tmp"

    def __exit__(self, exc_type, exc_value, traceback):
        deep_replace(self.filename + ".tmp", self.filename)


class Synced(AtomicReplace):
    pass


def put(path, handle):
    with AtomicReplace(path) as tmp:
        with open(tmp, "wb") as fh:
            shutil.copyfileobj(handle, fh)


def put_deeper(path, data):
    with Deeper(path) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)


def put_synced(path, data):
    with AtomicReplace(path) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
''',
}


def test_a_managers_exit_renaming_through_a_project_function_renames_at_the_with(tmp_path):
    """Set 465 (pip-accel's `AtomicReplace`, whose `__exit__` calls `replace_file(tmp,
    name)`, which calls `os.replace`): the body's write was never paired with the
    exit's rename, since the rename stood two calls from the `with`; an exit that
    renames through `self._commit()` counted already. A function that renames by its
    own call is now the manager's own rename; one further down (`deep_replace`) is not,
    and an fsync in the body still covers it."""
    write_tree(tmp_path, ATOMIC_EXIT)
    want = [("pkg/util.py", 42, "OC301")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want
    assert oc(tmp_path, "pkg/util.py").codes() == want


RECORD_NOUNS = '''\
def chain(entry, prev, ledger, wal):
    digest = record_hash(entry, prev)
    ident = record_identity(entry)
    ledger.record_entry(entry)
    wal.record_event(entry)
    return digest, ident
'''


def test_suggest_reads_a_records_digest_as_no_append(tmp_path):
    """Set 464 (agent-saga): `record_hash(entry, prev)` and `record_identity(entry)`
    compute a record's digest and were offered as appends; `record_entry` still is."""
    write_tree(tmp_path, {"wal.py": RECORD_NOUNS})
    patterns = [p for _, p in suggested_rows(tmp_path)]
    assert "*ledger.record_entry" in patterns, patterns
    assert not [p for p in patterns if "hash" in p or "identity" in p], patterns


BOOKS = '''\
class Book:
    def __init__(self, journal=None):
        self.journal = journal

    def fail(self):
        self.journal.append("run_failed")
'''

IMPORT_REVIEW = {
    "pyproject.toml": "",
    "ordercheck.toml": '[extend-events]\nsave = ["*.store.save"]\nappend = ["*.journal.append"]\n',
    "pkg/__init__.py": "",
    "pkg/books.py": BOOKS,
    "pkg/module_as.py": '''\
class Svc:
    def __init__(self, store):
        import pkg.books as m
        self.store = store
        self.book = m.Book()

    def run(self, r):
        self.store.save(r)
        self.book.fail()
''',
    "pkg/parameter.py": '''\
def helper():
    from .books import Book
    return Book


class Svc:
    def __init__(self, store, Book):
        self.store = store
        self.book = Book()

    def run(self, r):
        self.store.save(r)
        self.book.fail()
''',
    "pkg/local.py": '''\
class A:
    def go(self):
        from .books import Book
        return Book()


class Svc:
    def __init__(self, store, factory):
        Book = factory
        self.store = store
        self.book = Book()

    def run(self, r):
        self.store.save(r)
        self.book.fail()
''',
    "pkg/two_defs.py": '''\
import os

from .books import Book


class Other:
    def fail(self):
        pass


if os.environ.get("X"):
    def make() -> Other:
        return Other()
else:
    def make() -> Book:
        return Book()


def run(store, r):
    b = make()
    store.save(r)
    b.fail()
''',
}


def test_a_methods_own_import_types_only_what_nothing_else_binds(tmp_path):
    """The second review of session 73: the file's functions' imports typed
    `self.book = Book()` where `Book` was `__init__`'s parameter, or a local bound to a
    factory, since another function imported a `Book` (false OC101s); `import pkg.books
    as m` then `m.Book()` in the method typed nothing; and a factory defined twice (under
    an `if`) typed by its last definition. Only the method-import case is flagged."""
    write_tree(tmp_path, IMPORT_REVIEW)
    want = [("pkg/module_as.py", 9, "OC101")]
    assert oc(tmp_path, "--no-cache", ".").codes() == want
    assert oc(tmp_path, ".").codes() == want


ZIP_WRITE = '''\
import zipfile


def rewrite(out, members):
    tmp = out.with_suffix(".tmp.zip")
    with zipfile.ZipFile(tmp, "w") as zout:
        for name, data in members.items():
            zout.writestr(name, data)
    tmp.replace(out)
'''


def test_a_zip_members_write_is_a_default_file_write(tmp_path):
    """Set 466 (beambam's `.3mf` files): a zip archive written member by member with
    `writestr` into a temporary file, then replaced into place unsynced, was no OC301."""
    write_tree(tmp_path, {"pack.py": ZIP_WRITE})
    assert oc(tmp_path, "--no-cache", "pack.py").codes() == [("pack.py", 9, "OC301")]


def test_a_negated_pattern_is_a_configuration_error(tmp_path):
    """Set 468: `transaction = ["!*"]` was accepted and matched nothing, silently; `!`
    negates a class in a rule's class list, never a pattern. Now exit 2, naming the file
    and the key."""
    write_tree(tmp_path, {"ordercheck.toml": '[events]\ntransaction = ["!*"]\n', "a.py": "x = 1\n"})
    r = oc(tmp_path, "--no-cache", "a.py")
    assert r.code == 2, r.out + r.err
    assert "ordercheck.toml" in r.err and "events.transaction" in r.err and "[exclude-events]" in r.err, r.err
