"""Conformance to the contract (docs/semantics.md, version 2), §2 "Resolution" and "Aliases": small valid and invalid cases
written from the contract's sentences (docs/semantics.md) alone (marks as in tests/conformance.py)."""
import pytest
from conformance import run_case, run_files

CASES = {
    # ------------------------------------------------------------ resolution
    "resolve-self-method-through-mro": """
        class Base:
            def _persist(self, run):
                self._store.save(run)

        class Worker(Base):
            def step(self, run):
                self._persist(run)
                self._ledger.append(run.id, Status.FAILED)  # !OC101
        """,
    "resolve-cls-method": """
        class Worker:
            @classmethod
            def _persist(cls, store, run):
                store.save(run)

            @classmethod
            def step(cls, store, ledger, run):
                cls._persist(store, run)
                ledger.append(run.id, Status.FAILED)  # !OC101
        """,
    "resolve-super": """
        class Base:
            def finish(self, run):
                self._store.save(run)

        class Worker(Base):
            def finish(self, run):
                super().finish(run)
                self._ledger.append(run.id, Status.COMPLETED)  # !OC101
        """,
    "resolve-override-wins-in-mro": """
        class Base:
            def _persist(self, run):
                self._store.save(run)

        class Worker(Base):
            def _persist(self, run):
                self._cache[run.id] = run

            def step(self, run):
                self._persist(run)
                self._ledger.append(run.id, Status.FAILED)
        """,
    "resolve-module-function-same-module": """
        def persist(store, run):
            store.save(run)

        def step(store, ledger, run):
            persist(store, run)
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    "resolve-nested-function-by-name": """
        def step(store, ledger, run):
            def persist():
                store.save(run)
            persist()
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    # ------------------------------------------------------------ receiver types
    "type-parameter-annotation": """
        class RunRepo:
            def put(self, run):
                self._store.save(run)

        def step(repo: RunRepo, ledger, run):
            repo.put(run)
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-unannotated-parameter-resolves-nothing": """
        class RunRepo:
            def put(self, run):
                self._store.save(run)

        def step(repo, ledger, run):
            repo.put(run)
            ledger.append(run.id, "run_failed")
        """,
    "type-optional": """
        from typing import Optional

        class RunRepo:
            def put(self, run):
                self._store.save(run)

        def step(repo: Optional[RunRepo], ledger, run):
            repo.put(run)
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-pipe-none": """
        class RunRepo:
            def put(self, run):
                self._store.save(run)

        def step(repo: RunRepo | None, ledger, run):
            repo.put(run)
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-quoted": """
        def step(repo: "RunRepo", ledger, run):
            repo.put(run)
            ledger.append(run.id, "run_failed")  # !OC101

        class RunRepo:
            def put(self, run):
                self._store.save(run)
        """,
    "type-variable-annotation": """
        class RunRepo:
            def put(self, run):
                self._store.save(run)

        def step(ledger, run):
            repo: RunRepo = lookup()
            repo.put(run)
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-constructor-assignment": """
        class RunRepo:
            def put(self, run):
                self._store.save(run)

        def step(ledger, run):
            repo = RunRepo()
            repo.put(run)
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-class-level-annotation": """
        class RunRepo:
            def put(self, run):
                self._store.save(run)

        class Worker:
            repo: RunRepo

            def step(self, run):
                self.repo.put(run)
                self._ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-self-attribute-annotation": """
        class RunRepo:
            def put(self, run):
                self._store.save(run)

        class Worker:
            def __init__(self):
                self.repo: RunRepo = connect()

            def step(self, run):
                self.repo.put(run)
                self._ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-self-attribute-constructor-in-any-method": """
        class RunRepo:
            def put(self, run):
                self._store.save(run)

        class Worker:
            def start(self):
                self.repo = RunRepo()

            def step(self, run):
                self.repo.put(run)
                self._ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-init-annotated-parameter": """
        class RunRepo:
            def put(self, run):
                self._store.save(run)

        class Worker:
            def __init__(self, repo: RunRepo):
                self._repo = repo

            def step(self, run):
                self._repo.put(run)
                self._ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-mro-of-the-receiver": """
        class BaseRepo:
            def put(self, run):
                self._store.save(run)

        class RunRepo(BaseRepo):
            pass

        def step(repo: RunRepo, ledger, run):
            repo.put(run)
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    "type-qualified-name-of-a-project-class": ("""
        class RunRepo:
            def commit(self, run):
                pass

        def step(repo: RunRepo, ledger, run):
            repo.commit(run)
            ledger.append(run.id, "run_failed")  # !OC101
        """, {"extend-events": {"save": ["*.RunRepo.commit"]}}),
    "type-qualified-name-of-an-imported-class": ("""
        from sqlalchemy.orm import Session

        def step(session: Session, ledger, run):
            session.add(run)
            session.commit()
            ledger.append(run.id, "run_failed")  # !OC101
        """, {"extend-events": {"save": ["sqlalchemy.orm.Session.commit"]}}),
    "type-qualified-name-unknown-type-is-text-only": ("""
        def step(session, ledger, run):
            session.add(run)
            session.commit()
            ledger.append(run.id, "run_failed")
        """, {"extend-events": {"save": ["sqlalchemy.orm.Session.commit"]}}),
    "type-qualified-name-through-import-alias": ("""
        import sqlalchemy.orm as orm

        def step(session: orm.Session, ledger, run):
            session.commit()
            ledger.append(run.id, "run_failed")  # !OC101
        """, {"extend-events": {"save": ["sqlalchemy.orm.Session.commit"]}}),
    "type-constructor-of-imported-class": ("""
        from acme.db import RunStore

        def step(ledger, run):
            db = RunStore()
            db.write(run)
            ledger.append(run.id, "run_failed")  # !OC101
        """, {"extend-events": {"save": ["*.RunStore.write"]}}),
    # `import acme.db` binds `acme`: `acme.db.RunStore` is already the qualified name.
    "type-constructor-through-a-plain-import": ("""
        import acme.db

        def step(ledger, run):
            db = acme.db.RunStore()
            db.write(run)
            ledger.append(run.id, "run_failed")  # !OC101
        """, {"extend-events": {"save": ["acme.db.RunStore.write"]}}),
    "type-annotation-through-a-plain-import": ("""
        import sqlalchemy.orm

        def step(session: sqlalchemy.orm.Session, ledger, run):
            session.commit()
            ledger.append(run.id, "run_failed")  # !OC101
        """, {"extend-events": {"save": ["sqlalchemy.orm.Session.commit"]}}),
    "type-from-import-as": ("""
        from sqlalchemy.orm import Session as S

        def step(s: S, ledger, run):
            s.commit()
            ledger.append(run.id, "run_failed")  # !OC101
        """, {"extend-events": {"save": ["sqlalchemy.orm.Session.commit"]}}),
    # ------------------------------------------------------------ aliases
    "alias-module-level-surface": """
        error = logger.error

        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                error("ledger append lost")
        """,
    "alias-tuple-quiet": """
        debug, info = logger.debug, logger.info

        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                debug("lost: %s", e)
        """,
    "alias-function-local-save": """
        def step(self, run, rec):
            save = self._store.save
            save(run)
            self._ledger.append(rec)  # !OC102
        """,
    "alias-module-function": """
        def default_persist(store, run):
            store.save(run)

        persist = default_persist

        def step(store, ledger, run):
            persist(store, run)
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    "alias-class-level-through-self": """
        class Worker:
            warn = logger.warning

            def step(self, rec):
                try:
                    self._ledger.append(rec)
                except Exception:
                    self.warn("ledger append lost")
        """,
    "alias-class-level-through-cls": """
        class Worker:
            save = store.save

            @classmethod
            def step(cls, ledger, run):
                cls.save(run)
                ledger.append(run.id, "run_failed")  # !OC101
        """,
    "alias-bound-twice-is-no-alias": """
        def step(self, run, rec, other):
            save = self._store.save
            save = other.save
            save(run)
            self._ledger.append(rec)
        """,
    "alias-after-use-is-no-alias": """
        def step(self, run, rec):
            save(run)
            save = self._store.save
            self._ledger.append(rec)
            return save
        """,
    "alias-in-module-bound-twice-is-no-alias": """
        error = logger.error
        error = print_nothing

        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception:
                error("ledger append lost")
        """,
}


def _param(name, case):
    src, table = case if isinstance(case, tuple) else (case, None)
    return pytest.param(src, table, id=name)


@pytest.mark.parametrize("src,table", [_param(k, v) for k, v in CASES.items()])
def test_case(src, table):
    got, want, detail = run_case(src, table)
    assert got == want, detail


# ---------------------------------------------------------------- across modules

PROJECTS = {
    "resolve-relative-import": {
        "pkg/__init__.py": "",
        "pkg/store.py": """
            def persist(store, run):
                store.save(run)
            """,
        "pkg/worker.py": """
            from .store import persist

            def step(store, ledger, run):
                persist(store, run)
                ledger.append(run.id, "run_failed")  # !OC101
            """,
    },
    "resolve-import-module-as": {
        "pkg/__init__.py": "",
        "pkg/store.py": """
            def persist(store, run):
                store.save(run)
            """,
        "pkg/worker.py": """
            import pkg.store as s

            def step(store, ledger, run):
                s.persist(store, run)
                ledger.append(run.id, "run_failed")  # !OC101
            """,
    },
    "resolve-imported-class-init": {
        "pkg/__init__.py": "",
        "pkg/ckpt.py": """
            class Checkpoint:
                def __init__(self, store, run):
                    store.save(run)
            """,
        "pkg/worker.py": """
            from pkg.ckpt import Checkpoint

            def step(store, ledger, run):
                Checkpoint(store, run)
                ledger.append(run.id, "run_failed")  # !OC101
            """,
    },
    "type-project-class-from-another-module": {
        "pkg/__init__.py": "",
        "pkg/repo.py": """
            class RunRepo:
                def put(self, run):
                    self._store.save(run)
            """,
        "pkg/worker.py": """
            from pkg.repo import RunRepo

            class Worker:
                def __init__(self, repo: RunRepo):
                    self._repo = repo

                def step(self, run):
                    self._repo.put(run)
                    self._ledger.append(run.id, "run_failed")  # !OC101
            """,
    },
    "type-qualified-name-names-the-defining-module": {
        "pkg/__init__.py": "",
        "pkg/repo.py": """
            class RunRepo:
                def commit(self, run):
                    pass
            """,
        "pkg/worker.py": """
            from pkg.repo import RunRepo

            def step(repo: RunRepo, ledger, run):
                repo.commit(run)
                ledger.append(run.id, "run_failed")  # !OC101
            """,
    },
    "resolve-not-imported-is-not-resolved": {
        "pkg/__init__.py": "",
        "pkg/store.py": """
            def persist(store, run):
                store.save(run)
            """,
        "pkg/worker.py": """
            def step(store, ledger, run):
                persist(store, run)
                ledger.append(run.id, "run_failed")
            """,
    },
    "module-name-package-rule": {
        "app/__init__.py": "",
        "app/core/__init__.py": "",
        "app/core/store.py": """
            def persist(store, run):
                store.save(run)
            """,
        "app/core/worker.py": """
            from app.core.store import persist
            from ..core import store as st

            def step(store, ledger, run):
                persist(store, run)
                ledger.append(run.id, "run_failed")  # !OC101

            def step2(store, ledger, run):
                st.persist(store, run)
                ledger.append(run.id, "run_failed")  # !OC101
            """,
    },
}

TABLES = {
    "type-qualified-name-names-the-defining-module": {"extend-events": {"save": ["pkg.repo.RunRepo.commit"]}},
}


@pytest.mark.parametrize("name", list(PROJECTS))
def test_project(tmp_path, name):
    got, want, detail = run_files(tmp_path, PROJECTS[name], TABLES.get(name))
    assert got == want, detail
