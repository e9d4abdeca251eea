"""A call through a parenthesised choice of receivers, ``(storage or self._store).save(run)``
or ``(a if c else b).append(x)``, is the call of each alternative (held-out set 13:
streaq's ``(lib or self._lib).publish_task(...)`` and a ``(storage or self._storage).save``
matched no pattern, so no finding could name them; docs/decisions.md "A choice of
receivers")."""
from checkutil import cl


def test_an_or_of_receivers_matches_each_alternatives_pattern():
    src = """
        class Runner:
            def step(self, run, storage=None):
                (storage or self._store).save(run)
                self._ledger.append(run)

            def step2(self, run, lib=None):
                self._store.save(run)
                (lib or self._ledger).append(run)

            def chosen(self, run, flag):
                self._store.save(run)
                (self._ledger if flag else self._journal).append(run)
    """
    assert cl(src, ["OC102"]) == [("OC102", 5), ("OC102", 9), ("OC102", 13)]


def test_a_choice_with_no_persistence_alternative_is_no_event():
    src = """
        def step(store, run, items, extra):
            store.save(run)
            (items or []).append(run)
            (items if extra else []).append(run)
    """
    assert cl(src, ["OC102"]) == []


def test_a_choice_of_callees_is_each_alternatives_call():
    # held-out set 247 (gtfs-rt-aggregator's `(logger.error if fatal else
    # logger.warning)(msg)`): a handler reporting through a chosen logger method was
    # read as silent
    src = """
        import logging
        logger = logging.getLogger(__name__)

        def loud(store, run, fatal, warn):
            try:
                store.save(run)
            except Exception:
                (logger.error if fatal else logger.warning)("save failed")
            try:
                store.save(run)
            except Exception:
                (warn or logger.warning)("save failed")

        def quiet(store, run, fatal, note):
            try:
                store.save(run)
            except Exception:
                (logger.debug if fatal else logger.info)("save failed")
            try:
                store.save(run)
            except Exception:
                (note or (lambda m: None))("save failed")

        def chosen(store, run, ledger, journal, flag):
            store.save(run)
            (ledger.append if flag else journal.append)(run)
    """
    assert cl(src, ["OC102", "OC203"]) == [("OC102", 27), ("OC203", 17), ("OC203", 21)]
