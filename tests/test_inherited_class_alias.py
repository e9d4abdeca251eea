"""A class-level alias of a base class, called through ``self``/``cls`` in a subclass
(semantics §Events, Aliases: "a class-level alias is called through ``self``/``cls``";
Python finds ``self.warn`` along the MRO as it finds a method). The front end sees one
class at a time, so a base's aliases travel in ``ClassFacts.aliases`` and the project
phase finds them, in the same file or another (a session-28 conformance probe: six
cases, wrong both ways before)."""
from __future__ import annotations

from checkutil import cl, run_tree, write_tree

HANDLER = """
    import logging
    logger = logging.getLogger(__name__)

    class Base:
        {alias}

    class Mid(Base):
        pass

    class C(Mid):
        def f(self, run):
            try:
                self._ledger.append_terminal(run.id)
            except Exception as e:
                self.{call}({args})
    """


def test_an_inherited_warning_alias_is_a_surface():
    assert cl(HANDLER.format(alias="warn = logger.warning", call="warn", args='"lost"')) == []


def test_an_inherited_debug_alias_is_quiet():
    # handed only to a quiet call: still silent (semantics §Contracts)
    assert cl(HANDLER.format(alias="dbg = logger.debug", call="dbg", args='"lost %s", e')) == [("OC201", 14)]


def test_a_method_of_that_name_comes_first():
    src = """
    import logging
    logger = logging.getLogger(__name__)

    class Base:
        warn = logger.warning

    class Mid(Base):
        def warn(self, *args):
            pass

    class C(Mid):
        def f(self, run):
            try:
                self._ledger.append_terminal(run.id)
            except Exception as e:
                self.warn("lost %s", e)
    """
    # Mid.warn is what runs: it hands the exception nowhere loud... but it receives
    # `e`, so the handler hands it on (semantics §Contracts); no surface either way
    # comes from Base's alias. With a quiet-only override the finding stands:
    assert cl(src) == []
    quiet = src.replace("            pass", "            logger.debug(*args)")
    assert cl(quiet) == [("OC201", 15)]


def test_through_cls_in_a_classmethod():
    src = """
    import logging
    logger = logging.getLogger(__name__)

    class Base:
        err = logger.error

    class C(Base):
        @classmethod
        def f(cls, ledger, run):
            try:
                ledger.append_terminal(run.id)
            except Exception:
                cls.err("x")
    """
    assert cl(src) == []


def test_an_inherited_alias_of_a_save_is_a_save():
    src = """
    class Base:
        persist = store.save_run

    class C(Base):
        def f(self, run):
            self.persist(run)
            self._ledger.append_terminal(run.id)
    """
    assert cl(src) == [("OC101", 8)]


def test_a_base_in_another_module(tmp_path):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": """\
            import logging
            logger = logging.getLogger(__name__)

            def report_failure(run):
                logger.error("run %s failed", run.id)

            class Base:
                warn = logger.warning
                report = report_failure
            """,
        "pkg/svc.py": """\
            from .base import Base

            class C(Base):
                def f(self, run):
                    try:
                        self._ledger.append_terminal(run.id)
                    except Exception:
                        self.warn("x")

                def g(self, run):
                    try:
                        self._ledger.append_terminal(run.id)
                    except Exception:
                        self.report(run)

                def h(self, run):
                    try:
                        self._ledger.append_terminal(run.id)
                    except Exception:
                        self.missing(run)
            """,
    })
    # f: the alias is logger.warning; g: it resolves to a project helper that logs an
    # error (its summary); h: no alias, no method, silent
    assert run_tree(tmp_path) == [("pkg/svc.py", 18, "OC201")]


def test_any_binding_earlier_in_the_mro_hides_the_alias():
    # Python's lookup stops at the first class that binds the name, whatever it binds
    for binding in ("warn = None", "warn = make_warner()", "warn = lambda self, msg: None"):
        src = f"""
        import logging
        logger = logging.getLogger(__name__)

        class Base:
            warn = logger.warning

        class Mid(Base):
            {binding}

        class C(Mid):
            def f(self, run):
                try:
                    self._ledger.append_terminal(run.id)
                except Exception:
                    self.warn("lost")
        """
        assert cl(src) == [("OC201", 14)], binding


def test_super_reaches_a_base_alias():
    src = """
    import logging
    logger = logging.getLogger(__name__)

    class Base:
        warn = logger.warning

    class Runner(Base):
        def warn(self, msg):
            super().warn(msg)

        def f(self, run):
            try:
                self._ledger.append_terminal(run.id)
            except Exception:
                super().warn("lost")
    """
    assert cl(src) == []


def test_a_module_alias_imported_from_another_module(tmp_path):
    """``loud = logger.warning`` in ``pkg/log.py``; ``from .log import loud`` elsewhere:
    a call of it matches as ``logger.warning`` (the alias is the module's), directly,
    through a class-level alias, and through a base's."""
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/log.py": """\
            import logging
            logger = logging.getLogger(__name__)
            loud = logger.warning
            quiet = logger.debug
            """,
        "pkg/run.py": """\
            from .log import loud, quiet

            class Base:
                warn = loud

            class Runner(Base):
                def f(self, ledger, run):
                    try:
                        ledger.append_terminal(run)
                    except Exception:
                        loud("lost")

                def g(self, ledger, run):
                    try:
                        ledger.append_terminal(run)
                    except Exception:
                        self.warn("lost")

                def h(self, ledger, run):
                    try:
                        ledger.append_terminal(run)
                    except Exception as e:
                        quiet("lost %s", e)
            """,
    })
    assert run_tree(tmp_path) == [("pkg/run.py", 21, "OC201")]


def test_a_class_level_alias_of_a_method():
    # `persist = _save` names the class body's own function: `self.persist(run)` runs it
    own = """
    class Runner:
        def _save(self, run):
            self._store.save(run)

        persist = _save

        def finish(self, run):
            self.persist(run)
            self._ledger.append_terminal(run)
    """
    assert cl(own) == [("OC101", 10)]
    inherited = """
    class Base:
        def _save(self, run):
            self._store.save(run)

        persist = _save

    class Runner(Base):
        def finish(self, run):
            self.persist(run)
            self._ledger.append_terminal(run)
    """
    assert cl(inherited) == [("OC101", 11)]


def test_a_class_alias_of_a_method_resolves_through_a_typed_receiver(tmp_path):
    """(Held-out set 63, sqlitedict's ``sync = commit``.) ``d.sync()`` on a
    ``SqliteDict`` is the attribute lookup ``self.sync()`` is: the alias's method, for
    a constructed, an annotated and a base-typed attribute receiver alike."""
    write_tree(tmp_path, {
        "sd.py": """
            class SqliteDict:
                def __init__(self, conn):
                    self.conn = conn

                def commit(self, blocking=True):
                    self.conn.commit(blocking)

                sync = commit
        """,
        "base.py": """
            from sd import SqliteDict

            class Holder:
                db: SqliteDict
        """,
        "app.py": """
            from sd import SqliteDict
            from base import Holder

            def constructed(conn, journal, key):
                d = SqliteDict(conn)
                d.sync()
                journal.append(key)

            def annotated(d: SqliteDict, journal, key):
                d.sync()
                journal.append(key)

            class Mine(Holder):
                def put(self, journal, key):
                    self.db.sync()
                    journal.append(key)

            def untyped(d, journal, key):
                d.sync()
                journal.append(key)
        """,
    })
    table = {"extend-events": {"save": ["*conn.commit"]}}
    assert run_tree(tmp_path, select=["OC102"], table=table) == [
        ("app.py", 8, "OC102"), ("app.py", 12, "OC102"), ("app.py", 17, "OC102")]


def test_a_subclass_alias_comes_before_a_base_method_of_that_name():
    # (a review, session 47) `sync = commit` in `Child` is what `d.sync()` and
    # `self.sync()` run, not `Base.sync` further up the MRO
    assert cl("""
    class Base:
        def __init__(self, store):
            self._store = store

        def sync(self):
            pass

    class Child(Base):
        def commit(self):
            self._store.save(1)

        sync = commit

    def use(d: Child, ledger):
        d.sync()
        ledger.append(1)

    def use_ctor(store, ledger):
        d = Child(store)
        d.sync()
        ledger.append(1)

    class User(Child):
        def go(self, ledger):
            self.sync()
            ledger.append(1)

    class Later(Child):
        def sync(self):  # a method of the subclass comes first again
            pass

        def go(self, ledger):
            self.sync()
            ledger.append(1)
    """, select=["OC102"]) == [("OC102", 17), ("OC102", 22), ("OC102", 27)]


def test_a_subclass_binding_to_no_project_function_still_comes_first():
    # (a second review) `sync = print` / `sync = None` in the subclass is what Python
    # runs, not the base's `def sync`
    for binding in ("sync = print", "sync = None"):
        assert cl(f"""
        class Base:
            def sync(self):
                self._store.save(1)

        class D(Base):
            {binding}

        def use(d: D, ledger):
            d.sync()
            ledger.append(1)
        """, select=["OC102"]) == [], binding
