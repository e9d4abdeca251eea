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
