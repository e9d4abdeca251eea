"""A transaction as a decorator (docs/decisions.md, "A transaction as a decorator").

Django's ``@transaction.atomic`` (bare, called, or imported as ``atomic``) runs the
whole body in one transaction, as ``with transaction.atomic():`` around it would: for
``sequence`` and ``at-most-once`` the body commits at once at the function's normal
exit and rolls back on an exception; for ``swallowed`` its events still raise where
they stand. Any decorator of the ``transaction`` class counts.
"""
from __future__ import annotations

import textwrap

import pytest
from checkutil import cl, run_tree, write_tree


def _finish(imports: str, decorator: str) -> str:
    return (f"{imports}\n\n\n{decorator}\n"
            "def finish(store, ledger, run):\n"
            "    store.save(run)\n"
            "    ledger.append_terminal(run)\n")


@pytest.mark.parametrize("imports, decorator", [
    ("from django.db import transaction", "@transaction.atomic"),
    ("from django.db import transaction", "@transaction.atomic()"),
    ("from django.db import transaction", '@transaction.atomic(using="runs")'),
    ("from django.db.transaction import atomic", "@atomic"),
    ("from django.db.transaction import atomic", "@atomic(savepoint=False)"),
    ("import peewee\ndb = peewee.SqliteDatabase('runs.db')", "@db.atomic()"),
])
def test_a_transaction_decorator_commits_the_body_at_once(imports, decorator):
    assert cl(_finish(imports, decorator)) == []


@pytest.mark.parametrize("decorator", ["", "@functools.cache", "@retry(times=3)", "@staticmethod"])
def test_any_other_decorator_leaves_the_order(decorator):
    src = _finish("import functools\nfrom tenacity import retry", decorator)
    line = src.splitlines().index("    ledger.append_terminal(run)") + 1
    assert cl(src) == [("OC101", line)]


def test_stacked_with_staticmethod():
    src = """
        from django.db import transaction


        class Runs:
            @staticmethod
            @transaction.atomic
            def finish(store, ledger, run):
                store.save(run)
                ledger.append_terminal(run)
        """
    assert cl(src) == []


def test_a_swallowed_append_still_raises_where_it_stands():
    src = """
        from django.db import transaction


        @transaction.atomic
        def finish(store, ledger, run):
            store.save(run)
            try:
                ledger.append_terminal(run)
            except Exception:
                pass
        """
    assert cl(src) == [("OC201", 9)]


def test_the_commit_carries_the_body_to_callers():
    """A decorated helper that appends a terminal record, called after a save: the
    call is the terminal append (on return, at its commit)."""
    src = """
        from django.db import transaction


        @transaction.atomic
        def record_end(ledger, run):
            ledger.append_terminal(run)


        def finish(store, ledger, run):
            store.save(run)
            record_end(ledger, run)
        """
    assert cl(src) == [("OC101", 12)]


def test_a_failed_transaction_saved_nothing():
    """A helper that saves, then raises: undecorated, its save took effect before the
    caller's handler appends; in a transaction, the exception rolled the save back."""
    body = """
        def settle(store, run):
            store.save(run)
            raise RuntimeError("settlement failed")


        def finish(store, ledger, run):
            try:
                settle(store, run)
            except RuntimeError:
                ledger.append_terminal(run)
        """
    body = textwrap.dedent(body)
    plain = "from django.db import transaction\n\n" + body
    decorated = "from django.db import transaction\n\n@transaction.atomic" + body
    assert cl(plain) == [("OC101", 13)]
    assert cl(decorated) == []


def test_across_files_and_with_a_configured_class(tmp_path):
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/uow.py": """
            def unit_of_work(fn):
                return fn
            """,
        "app/service.py": """
            from app.uow import unit_of_work


            @unit_of_work
            def finish(store, ledger, run):
                store.save(run)
                ledger.append_terminal(run)


            def unwrapped(store, ledger, run):
                store.save(run)
                ledger.append_terminal(run)
            """,
    })
    plain = run_tree(tmp_path)
    assert plain == [("app/service.py", 8, "OC101"), ("app/service.py", 13, "OC101")]
    configured = run_tree(tmp_path, table={"extend-events": {"transaction": ["app.uow.unit_of_work"]}})
    assert configured == [("app/service.py", 13, "OC101")]


def test_a_decorator_through_an_alias():
    """An alias of the decorator renders as the aliased text, as a call through it
    does (semantics §Events "Aliases")."""
    src = """
        from django.db import transaction
        from django.db.transaction import atomic as atomic_block

        atomic = transaction.atomic
        commit_on_success = atomic_block


        @atomic
        def finish(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run)


        @atomic(using="runs")
        def finish_on(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run)


        @commit_on_success
        def finish_old(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run)


        class Runs:
            atomic = transaction.atomic

            @atomic
            def finish(self, store, ledger, run):
                store.save(run)
                ledger.append_terminal(run)
        """
    assert cl(src) == []


@pytest.mark.parametrize("form", ["decorator", "with"])
def test_conditional_effects_through_the_commit(form):
    """A helper that saves only on the way that returns True keeps that, when every
    ``return`` is inside the transaction: its commit ends the walks of the body's save
    (docs/decisions.md, "What a transaction commits")."""
    if form == "decorator":
        helper = """
            @transaction.atomic
            def revoke(store, run, revoked):
                if not revoked:
                    return False
                store.save(run)
                return True
            """
    else:
        helper = """
            def revoke(store, run, revoked):
                with transaction.atomic():
                    if not revoked:
                        return False
                    store.save(run)
                    return True
            """
    src = "from django.db import transaction\n\n" + textwrap.dedent(helper) + textwrap.dedent("""
        def step(store, ledger, run, revoked):
            if revoke(store, run, revoked):
                return
            ledger.append_record(run)
        """)
    assert cl(src) == []
