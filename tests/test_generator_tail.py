"""A generator's body runs as its consumer pulls items (semantics §Graph: edges follow
Python exactly): what it does after its last ``yield`` runs on the ``next()`` that finds
it exhausted, so a ``for`` over a call of it performs that on its way out when the items
run out, not where the call stands, and not when the loop breaks (docs/decisions.md, "A
generator's tail"). A conformance probe, session 42: `for rec in self._drain(run):
ledger.append(rec)` with `_drain` saving after its last `yield` was a false OC102."""
from __future__ import annotations

from checkutil import cl

DRAIN = '''
class Queue:
    def _drain(self, run):
        for rec in run.pending:
            yield rec
        self._store.save(run)

    def flush(self, run):
        for rec in self._drain(run):
            self._ledger.append(rec)

    def flush_then(self, run):
        for rec in self._drain(run):
            pass
        self._ledger.append(run)

    def partial(self, run):
        for rec in self._drain(run):
            if rec:
                break
        else:
            return
        self._ledger.append(run)
'''


def test_a_generators_tail_runs_when_the_loop_is_exhausted():
    # flush: every append before the drain's save, no finding; flush_then: the
    # append after the loop follows the save; partial: only a break reaches the
    # append, and a break never runs the tail
    assert cl(DRAIN) == [("OC102", 15)]


def test_what_a_generator_does_before_a_yield_still_stands_at_the_loop():
    src = '''
def _claim(store, jobs):
    for j in jobs:
        store.save(j)
        yield j


def consume(store, ledger, jobs):
    for j in _claim(store, jobs):
        ledger.append(j)
'''
    assert cl(src) == [("OC102", 10)]


def test_a_class_both_before_and_after_the_last_yield_stays_at_the_call():
    src = '''
def _batches(store, rows):
    store.save(rows)
    for r in rows:
        yield r
    store.save(rows)


def consume(store, ledger, rows):
    for r in _batches(store, rows):
        ledger.append(r)
'''
    assert cl(src) == [("OC102", 11)]


def test_a_generator_called_and_not_iterated_by_a_for_is_as_before():
    """Only a ``for`` over the call itself moves the tail; elsewhere the generator's
    events stand at its call (docs/decisions.md, "A generator function's call ...")."""
    src = '''
def _drain(store, run):
    for rec in run.pending:
        yield rec
    store.save(run)


def consume(store, ledger, run):
    items = list(_drain(store, run))
    ledger.append(items)
'''
    assert cl(src) == [("OC102", 10)]


def test_the_witness_says_the_tail_ran_on_the_loops_way_out(tmp_path):
    from checkutil import check_source

    found = check_source(DRAIN)
    steps = [(s.kind, s.text) for s in found[0].witness]
    assert ("save", "self._drain(run) (saves once it yields no more, when the loop has taken every item of `_drain`)") in steps


def _around(shape: str) -> str:
    heads = {
        "try/finally": ("        try:\n", "        finally:\n            self._ledger.append(run)\n"),
        "with": ("        with self._lock:\n", "            self._ledger.append(run)\n"),
        "try/except": ("        try:\n", "        except ValueError:\n            self._ledger.append(run)\n"),
    }
    head, tail = heads[shape]
    return (
        "class Store:\n"
        "    def put(self, run):\n"
        f"{head}"
        "            for rec in run.pending:\n"
        "                yield rec\n"
        f"{tail}\n"
        "    def flush(self, run):\n"
        "        for rec in self.put(run):\n"
        "            self._store.save(rec)\n")


def test_the_rest_of_a_with_body_after_the_last_yield_is_the_tail():
    # held-out set 104: what a `with` body does after its loop of `yield`s runs only
    # when the loop is exhausted, after the consumer's saves
    src = _around("with")
    line = src.splitlines().index("        for rec in self.put(run):") + 1
    assert cl(src) == [("OC102", line)]


def test_a_finally_or_a_handler_around_the_yield_is_no_tail():
    # a `finally` also runs when the consumer breaks and the generator is closed, and
    # an `except` clause may run in the middle of the items: neither is only the
    # exhausted loop's (a review); they stand at the call, as before (tilecloud's
    # `finally: send` is a limit, docs/decisions.md "A generator's tail")
    assert cl(_around("try/finally")) == []
    assert cl(_around("try/except")) == []
    # the consumer that saves, breaks, and has the `finally` append: still found
    src = _around("try/finally").replace(
        "        for rec in self.put(run):\n            self._store.save(rec)\n",
        "        self._store.save(run)\n        for rec in self.put(run):\n            break\n")
    assert [c for c, _ in cl(src)] == ["OC102"], src


FOREVER = '''
class KombuManager:
    def _listen(self, queue):
        while True:
            message = queue.get(block=True)
            message.ack()
            yield message.payload

    def _ack_after(self, queue):
        while True:
            message = queue.get(block=True)
            yield message.payload
            message.ack()

    def _never_yields(self, queue):
        while True:
            message = queue.get(block=True)
            message.ack()

    def relay(self, queue):
        for payload in self._listen(queue):
            self._publish(payload)

    def relay_next(self, queue):
        it = self._listen(queue)
        self._publish(next(it))

    def relay_after(self, queue):
        for payload in self._ack_after(queue):
            self._publish(payload)

    def _publish(self, data):
        self.producer.publish(data)

    def drain(self, queue):
        self._never_yields(queue)
        self._publish(None)
'''


def test_a_generator_whose_body_never_ends_still_runs_what_comes_before_its_yield():
    """Held-out set 128 (python-socketio's `kombu_manager._listen`): a `while True:`
    consumer reaches no EXIT, and its ack before the `yield` was lost at the call; the
    consumer gets control back at every `yield`, so the ack stands at the call as
    for a loop that ends. An ack after the `yield` runs before the next item is
    pulled, so it stands there too (`relay_after`); a loop that never yields is no
    generator and never returns (nothing after its call)."""
    table = {"extend-events": {"save": ["message.ack"], "append": ["*.producer.publish"]}}
    assert cl(FOREVER, table=table) == [("OC102", 22), ("OC102", 26), ("OC102", 30)]
