"""A library context manager that re-raises the exception being handled at its exit
(docs/decisions.md "A manager that re-raises what is being handled"): oslo.utils'
``with excutils.save_and_reraise_exception():`` in an ``except`` clause hands the
failure on when its body ends, so the clause is not silent and what the body does
after a save is on a way to RAISE (the caller's). A block whose target's ``reraise``
is set (``ctx.reraise = False``) may end normally, as any manager's."""
from conformance import run_case


def check(src, extra=()):
    got, want, detail = run_case(src, extra=extra)
    assert got == want, detail


def test_a_handler_that_ends_in_save_and_reraise_is_not_silent():
    check("""\
from oslo_utils import excutils

def execute(store, run):
    try:
        store.save(run)
    except Exception:
        with excutils.save_and_reraise_exception():
            rollback(run)

def execute_returning(store, run):
    try:
        store.save(run)
    except Exception:
        with excutils.save_and_reraise_exception():
            rollback(run)
            return None
""")


def test_a_block_that_may_clear_reraise_may_end_normally():
    check("""\
from oslo_utils import excutils

def delete(store, run, force):
    try:
        store.save(run)   # !OC203
    except Exception:
        with excutils.save_and_reraise_exception() as ctx:
            if force:
                ctx.reraise = False

def delete_logged(store, run, force):
    try:
        store.save(run)   # !OC203
    except Exception:
        with excutils.save_and_reraise_exception(reraise=False):
            rollback(run)
""")


def test_an_append_after_a_save_in_the_block_is_the_callers_to_order():
    # (held-out set 60, cinder) the error status saved, then its message created, in a
    # block that re-raises: both reach only RAISE
    check("""\
from oslo_utils import excutils

def create(store, ledger, run):
    try:
        work(run)
    except Exception:
        with excutils.save_and_reraise_exception():
            store.save(run)
            ledger.append(run)

def create_forced(store, ledger, run, force):
    try:
        work(run)
    except Exception:
        with excutils.save_and_reraise_exception() as ctx:
            store.save(run)
            ledger.append(run)   # !OC102
            if force:
                ctx.reraise = False
""")


def test_a_swallowing_outer_handler_still_loses_it():
    # the failure handed on by the block and dropped again outside
    check("""\
from oslo_utils import excutils

def execute(store, run):
    try:
        try:
            store.save(run)   # !OC203
        except Exception:
            with excutils.save_and_reraise_exception():
                rollback(run)
    except Exception:
        pass
""")


def test_the_name_alone_does_it_through_any_import():
    check("""\
from oslo_utils.excutils import save_and_reraise_exception
import oslo_utils.excutils as eu

def execute(store, run):
    try:
        store.save(run)
    except Exception:
        with save_and_reraise_exception():
            rollback(run)

def execute2(store, run):
    try:
        store.save(run)
    except Exception:
        with eu.save_and_reraise_exception():
            rollback(run)
""")


def test_a_positional_or_unpacked_reraise_may_clear_it():
    # (a review, session 48) `save_and_reraise_exception(False)`: its first parameter
    # is `reraise`; `**opts` may hold it
    check("""\
from oslo_utils import excutils

def delete(store, run):
    try:
        store.save(run)   # !OC203
    except Exception:
        with excutils.save_and_reraise_exception(False):
            cleanup(run)

def delete_opts(store, run, opts):
    try:
        store.save(run)   # !OC203
    except Exception:
        with excutils.save_and_reraise_exception(**opts):
            cleanup(run)

def kept(store, run):
    try:
        store.save(run)
    except Exception:
        with excutils.save_and_reraise_exception(True):
            cleanup(run)
""")


def test_the_witness_shows_the_re_raise():
    # (a review, session 48) the exit is a step, as a `raise` statement would be
    from checkutil import check_source
    found = check_source("""\
        from oslo_utils import excutils

        def returned(store, run):
            try:
                try:
                    store.save(run)
                except Exception:
                    with excutils.save_and_reraise_exception():
                        if run.gone:
                            return None
                        cleanup(run)
            except Exception:
                pass
        """, select=["OC203"])
    assert [(s.span.line, s.kind, s.text) for s in found[0].witness][-4:] == [
        (10, "return", "return None"),
        (8, "raise", "with excutils.save_and_reraise_exception():  (re-raises)"),
        (12, "except", "except Exception:"),
        (13, "silent", "pass  (leaves the handler silently)"),
    ]
