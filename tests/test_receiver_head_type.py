"""An attribute of a typed receiver (docs/decisions.md "An attribute of a typed
receiver"; held-out set 69: todoman's CLI calls ``ctx.db.save(todo)`` with ``ctx``
typed ``AppContext``, whose ``db`` is typed ``Database``): ``x.y.m()`` resolves and
matches through the class of ``x``, whatever file types ``y``."""
from conformance import run_case, run_files

TABLE = {"extend-events": {"save": ["*.Database.save"], "append": ["*ledger.append"]}}


def check(src, table=TABLE):
    got, want, detail = run_case(src, table=table)
    assert got == want, detail


def test_an_attribute_of_a_typed_parameter_matches_by_its_class():
    check("""\
class Database:
    def save(self, todo):
        pass

class AppContext:
    db: Database

class Ctx2:
    def __init__(self, db: Database):
        self.db = db

def edit(ctx: AppContext, todo, ledger):
    ctx.db.save(todo)
    ledger.append(todo)   # !OC102

def edit2(ctx: Ctx2, todo, ledger):
    ctx.db.save(todo)
    ledger.append(todo)   # !OC102

def edit3(ctx, todo, ledger):
    ctx.db.save(todo)
    ledger.append(todo)

def edit4(todo, ledger):
    ctx = AppContext()
    ctx.cache.save(todo)
    ledger.append(todo)
""")


def test_across_files_and_into_the_helpers_summary(tmp_path):
    files = {
        "app/__init__.py": "",
        "app/db.py": """\
class Database:
    def save(self, todo):
        pass

    def persist(self, todo):
        self._store.save(todo)
""",
        "app/context.py": """\
from app.db import Database


class Base:
    db: Database


class AppContext(Base):
    pass
""",
        "app/cli.py": """\
from app.context import AppContext


def edit(ctx: AppContext, todo, ledger):
    ctx.db.persist(todo)
    ledger.append(todo)   # !OC102


def edit_untyped(ctx, todo, ledger):
    ctx.db.persist(todo)
    ledger.append(todo)
""",
    }
    table = {"extend-events": {"save": ["*._store.save"], "append": ["*ledger.append"]}}
    got, want, detail = run_files(tmp_path, files, table=table)
    assert got == want, detail
