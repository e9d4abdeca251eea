"""semantics §Events: aliases, receiver types (matching by `module.T.m` and resolution by
`T`'s MRO), and `+=` on a plain local name is no `surface`. Through the engine."""
import textwrap
from pathlib import Path

from checkutil import check_source, codes_lines, settings_for

from ordercheck import frontend, runner

SEQ = ["OC101", "OC102"]
SWL = ["OC201", "OC202", "OC203"]


def cl(src, select, table=None, path="example.py"):
    return codes_lines(check_source(src, table=table, select=select, path=path))


def run_project(root: Path, files: dict, select, table=None):
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    s = settings_for(table, select=list(select))
    return sorted((Path(f.path).resolve().relative_to(root.resolve()).as_posix(), f.span.line, f.code)
                  for f in runner.run([root], s).findings)


def calls_of(src: str, module: str = "pkg.mod"):
    f = frontend.extract("pkg/mod.py", textwrap.dedent(src).encode(), module)
    return {c.text: c for fn in f.functions for c in fn.calls}


# =========================================================================== aliases

def test_module_alias_renders_and_matches_as_the_aliased_text():
    assert cl("""\
        import logging
        logger = logging.getLogger(__name__)
        error = logger.error

        def save(store, run):
            try:
                store.save(run)
            except Exception:
                error("save failed")
        """, SWL) == []


def test_a_name_bound_twice_in_the_module_is_no_alias():
    assert cl("""\
        import logging
        logger = logging.getLogger(__name__)
        error = logger.error
        error = print

        def save(store, run):
            try:
                store.save(run)
            except Exception:
                error("save failed")
        """, SWL) == [("OC203", 8)]


def test_tuple_unpacking_aliases():
    assert cl("""\
        import logging
        logger = logging.getLogger(__name__)
        debug, warn = logger.debug, logger.warning

        def save(store, run):
            try:
                store.save(run)
            except Exception:
                warn("save failed")

        def save_quietly(store, run):
            try:
                store.save(run)
            except Exception:
                debug("save failed")
        """, SWL) == [("OC203", 13)]


def test_alias_of_a_module_function_resolves_to_it():
    assert cl("""\
        def default_process_exception(ledger, run):
            ledger.append_terminal(run.id)

        process = default_process_exception

        def fail(store, ledger, run):
            store.save(run)
            process(ledger, run)
        """, SEQ) == [("OC101", 8)]


def test_function_alias_before_its_use():
    assert cl("""\
        def step(self, run):
            save = self._store.save
            save(run)
            self._ledger.append(run.id)
        """, SEQ) == [("OC102", 4)]


def test_function_alias_bound_twice_is_no_alias():
    assert cl("""\
        def step(self, run, other):
            save = self._store.save
            if other:
                save = other.keep
            save(run)
            self._ledger.append(run.id)
        """, SEQ) == []


def test_function_alias_only_after_the_binding():
    calls = calls_of("""\
        def step(self, run):
            for i in range(2):
                if i:
                    save(run)
                save = self._store.save
        """)
    assert calls["save(run)"].callee == "save"


def test_a_parameter_shadows_a_module_alias():
    assert cl("""\
        import logging
        logger = logging.getLogger(__name__)
        error = logger.error

        def save(store, run, error):
            try:
                store.save(run)
            except Exception:
                error("save failed")
        """, SWL) == [("OC203", 7)]


def test_class_level_alias_is_called_through_self():
    assert cl("""\
        import logging
        logger = logging.getLogger(__name__)

        class Runtime:
            error = logger.error

            def save(self, run):
                try:
                    self._store.save(run)
                except Exception:
                    self.error("save failed")
        """, SWL) == []


def test_class_level_alias_is_called_through_cls():
    assert cl("""\
        import logging
        logger = logging.getLogger(__name__)

        class Runtime:
            warn = logger.warning

            @classmethod
            def save(cls, store, run):
                try:
                    store.save(run)
                except Exception:
                    cls.warn("save failed")
        """, SWL) == []


def test_class_level_alias_is_not_a_bare_name_in_methods():
    # Python's scoping: a class body's names are not visible to its methods
    assert cl("""\
        import logging
        logger = logging.getLogger(__name__)

        class Runtime:
            error = logger.error

            def save(self, run):
                try:
                    self._store.save(run)
                except Exception:
                    error("save failed")
        """, SWL) == [("OC203", 9)]


def test_class_level_name_bound_twice_is_no_alias():
    assert cl("""\
        import logging
        logger = logging.getLogger(__name__)

        class Runtime:
            error = logger.error

            def error(self, msg):
                pass

            def save(self, run):
                try:
                    self._store.save(run)
                except Exception:
                    self.error("save failed")
        """, SWL) == [("OC203", 12)]


def test_alias_through_an_import_is_qualified():
    calls = calls_of("""\
        from contextlib import suppress
        quiet = suppress

        def f():
            quiet(KeyError)
        """)
    assert calls["quiet(KeyError)"].callee == "suppress"
    assert calls["quiet(KeyError)"].qualnames == ("contextlib.suppress",)


# =========================================================================== receiver types: matching

PERSIST = {"extend-events": {"save": ["*.RunStore.persist"]}}


def _typed(header: str, body: str = "") -> str:
    """``RunStore``, then a function: ``body`` lines, ``store.persist(run)``, an append."""
    lines = ["class RunStore:", "    pass", "", header]
    lines += ["    " + b for b in body.splitlines() if b.strip()]
    lines += ["    store.persist(run)", "    ledger.append(run.id)"]
    return "\n".join(lines) + "\n"


def test_parameter_annotation_types_the_receiver():
    assert cl(_typed("def step(store: RunStore, ledger, run):"), SEQ, PERSIST) == [("OC102", 6)]


def test_unannotated_receiver_is_matched_by_patterns_only():
    assert cl(_typed("def step(store, ledger, run):"), SEQ, PERSIST) == []


def test_optional_union_and_quoted_annotations():
    for ann in ("Optional[RunStore]", "RunStore | None", "'RunStore'", "Union[RunStore, None]",
                "'Optional[RunStore]'", "typing.Optional[RunStore]"):
        assert cl(_typed(f"def step(store: {ann}, ledger, run):"), SEQ, PERSIST) == [("OC102", 6)], ann


def test_annotations_naming_other_shapes_give_no_type():
    for ann in ("List[RunStore]", "Union[RunStore, int]", "RunStore | int"):
        assert cl(_typed(f"def step(store: {ann}, ledger, run):"), SEQ, PERSIST) == [], ann


def test_variable_annotation_and_constructor_assignment():
    assert cl(_typed("def step(ledger, run):", "store: RunStore = get_store()"), SEQ, PERSIST) == [("OC102", 7)]
    assert cl(_typed("def step(ledger, run):", "store = RunStore()"), SEQ, PERSIST) == [("OC102", 7)]


def test_a_lower_case_factory_is_no_constructor():
    assert cl(_typed("def step(ledger, run):", "store = make_store()"), SEQ, PERSIST) == []


def test_two_different_constructors_leave_the_type_unknown():
    src = _typed("def step(ledger, run, x):", "store = RunStore() if x else OtherStore()")
    assert cl(src, SEQ, PERSIST) == []
    src = _typed("def step(ledger, run, x):", "store = RunStore()\nif x:\n    store = OtherStore()")
    assert cl(src, SEQ, PERSIST) == []


def test_self_attribute_types():
    for setup in (
        "    store: RunStore\n\n    def __init__(self):\n        self.store = get()\n",  # class-level
        "    def __init__(self):\n        self.store: RunStore = get()\n",
        "    def __init__(self):\n        self.store = RunStore()\n",
        "    def __init__(self, store: RunStore):\n        self.store = store\n",
        "    def setup(self):\n        self.store = RunStore()\n",  # any method of the class
        "    def attach(self, store: 'RunStore | None'):\n        self.store = store\n",
    ):
        src = (
            "class RunStore:\n    pass\n\n"
            "class Runtime:\n" + setup + "\n"
            "    def step(self, run):\n"
            "        self.store.persist(run)\n"
            "        self._ledger.append(run.id)\n"
        )
        found = cl(src, SEQ, PERSIST)
        assert [c for c, _ in found] == ["OC102"], setup


def test_self_attribute_from_an_unannotated_parameter_is_unknown():
    src = (
        "class RunStore:\n    pass\n\n"
        "class Runtime:\n"
        "    def __init__(self, store):\n        self.store = store\n\n"
        "    def step(self, run):\n"
        "        self.store.persist(run)\n"
        "        self._ledger.append(run.id)\n"
    )
    assert cl(src, SEQ, PERSIST) == []


def test_imported_class_matches_by_its_qualified_name():
    table = {"extend-events": {"save": ["sqlalchemy.orm.Session.commit"]}}
    src = """\
        from sqlalchemy.orm import Session

        def step(session: Session, ledger, run):
            session.commit()
            ledger.append(run.id)

        def other(conn, ledger, run):
            conn.commit()
            ledger.append(run.id)
        """
    assert cl(src, SEQ, table) == [("OC102", 5)]
    calls = calls_of(src)
    assert calls["session.commit()"].qualnames == ("sqlalchemy.orm.Session.commit",)
    assert calls["session.commit()"].receiver_type == "Session"


def test_alias_to_a_typed_attribute_keeps_the_type():
    src = (
        "class RunStore:\n    pass\n\n"
        "class Runtime:\n"
        "    def __init__(self, store: RunStore):\n        self._store = store\n\n"
        "    def step(self, run):\n"
        "        store = self._store\n"
        "        store.persist(run)\n"
        "        self._ledger.append(run.id)\n"
    )
    assert cl(src, SEQ, PERSIST) == [("OC102", 11)]


def test_inherited_method_matches_under_the_receiver_type_and_its_bases():
    # decision (docs/decisions.md, session 25): `store.persist()` with `store:
    # RunStore` is `mod.RunStore.persist` and `mod.BaseStore.persist`; never a
    # subclass's name
    table = {"extend-events": {"save": ["*.BaseStore.persist"]}}
    sub = {"extend-events": {"save": ["*.RunStore.persist"]}}
    src = """\
        class BaseStore:
            def persist(self, run):
                pass

        class RunStore(BaseStore):
            pass

        def step(store: RunStore, ledger, run):
            store.persist(run)
            ledger.append(run.id)

        def base(store: BaseStore, ledger, run):
            store.persist(run)
            ledger.append(run.id)
        """
    assert cl(src, SEQ, table) == [("OC102", 10), ("OC102", 14)]
    assert cl(src, SEQ, sub) == [("OC102", 10)]


# =========================================================================== receiver types: resolution

def test_receiver_type_resolves_through_the_mro():
    src = """\
        class BaseStore:
            def close(self, run):
                self._journal.append_terminal(run.id)

        class RunStore(BaseStore):
            pass

        def finish(store: RunStore, other, run):
            other._store.save(run)
            store.close(run)

        def finish_untyped(store, other, run):
            other._store.save(run)
            store.close(run)
        """
    assert cl(src, SEQ) == [("OC101", 10)]


def test_receiver_type_override_wins():
    src = """\
        class BaseStore:
            def close(self, run):
                self._journal.append_terminal(run.id)

        class RunStore(BaseStore):
            def close(self, run):
                pass

        def finish(store: RunStore, other, run):
            other._store.save(run)
            store.close(run)
        """
    assert cl(src, SEQ) == []


def test_receiver_type_from_another_project_module(tmp_path):
    found = run_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/store.py": """\
            class RunStore:
                def close(self, run):
                    self._journal.append_terminal(run.id)
            """,
        "pkg/runtime.py": """\
            from .store import RunStore

            class Runtime:
                def __init__(self, store: RunStore):
                    self._runs = store

                def finish(self, run):
                    self._db.save(run)
                    self._runs.close(run)
            """,
    }, SEQ, {"extend-events": {"save": ["*._db.save"]}})
    assert found == [("pkg/runtime.py", 9, "OC101")]


def test_receiver_type_qualname_names_the_project_module(tmp_path):
    table = {"extend-events": {"save": ["pkg.store.RunStore.persist"]}}
    found = run_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/store.py": "class RunStore:\n    def persist(self, run):\n        pass\n",
        "pkg/runtime.py": """\
            def step(ledger, run):
                from .store import RunStore
                store = RunStore()
                store.persist(run)
                ledger.append(run.id)
            """,
    }, SEQ, table)
    assert found == [("pkg/runtime.py", 5, "OC102")]


# =========================================================================== += on a plain local name

def _handler(stmt: str, pre: str = "pass") -> str:
    """A save at line 7 whose handler runs ``stmt``; ``pre`` opens the function."""
    return "\n".join([
        "LOST = 0", "", "def save(self, store, run, stats):", "    " + pre, "    failures = 0",
        "    try:", "        store.save(run)", "    except Exception:", "        " + stmt, "",
    ])


def test_local_plus_equals_is_no_surface():
    assert cl(_handler("failures += 1"), SWL) == [("OC203", 7)]


def test_attribute_subscript_global_and_nonlocal_plus_equals_are_surfaces():
    assert cl(_handler("self.failures += 1"), SWL) == []
    assert cl(_handler('stats["lost"] += 1'), SWL) == []
    assert cl(_handler("LOST += 1", pre="global LOST"), SWL) == []
    assert cl("""\
        def outer(store, run):
            lost = 0
            def inner():
                nonlocal lost
                try:
                    store.save(run)
                except Exception:
                    lost += 1
            inner()
        """, SWL) == []


def test_module_and_class_body_plus_equals_on_a_name_is_a_surface():
    # decision (docs/decisions.md): a module body's name is a global, a class body's
    # a class attribute: both outlive the code that counts
    assert cl("""\
        lost = 0
        for run in RUNS:
            try:
                store.save(run)
            except Exception:
                lost += 1

        class Loader:
            lost = 0
            try:
                store.save(RUN)
            except Exception:
                lost += 1
        """, SWL) == []
    assert cl("""\
        for run in RUNS:
            try:
                store.save(run)
            except Exception:
                lost = 1
        """, SWL) == [("OC203", 3)]


def test_a_receiver_through_an_alias_also_matches_as_written():
    # decision (docs/decisions.md): `store = self._db` renders `store.save()` as
    # `self._db.save`, and the written `store.save` still matches `*store.save`
    calls = calls_of("""\
        def step(self, run):
            store = self._db
            store.save(run)
            save = self._db.save
            save(run)
        """)
    assert calls["store.save(run)"].callee == "self._db.save"
    assert "store.save" in calls["store.save(run)"].qualnames
    assert calls["save(run)"].qualnames == ()
    assert cl("""\
        def step(self, run):
            store = self._db
            store.save(run)
            self._ledger.append(run.id)
        """, SEQ) == [("OC102", 4)]
