"""A generic class subscripted in an annotation is that class (docs/decisions.md
"A generic class in an annotation"): ``store: Store[int]``,
``Optional[Store[int]]``, ``BaseStatePersistence[StateT, RunEndT]`` type the
receiver as ``Store``, so its method's summary is carried and qualified patterns
match, as for ``class Svc(Base[int])``. Containers and special forms
(``List[Store]``, ``Type[Store]``, ``Callable[..., Store]``) still give no type:
what is called on a list is the list's."""
from __future__ import annotations

import pytest
from checkutil import cl

SRC = """\
    from typing import Generic, List, Optional, Type, TypeVar

    T = TypeVar("T")


    class Store(Generic[T]):
        def persist(self, run: T) -> None:
            self._db.save_run(run)


    class Runner:
        def __init__(self, store: {annotation}, ledger) -> None:
            self.store = store
            self.ledger = ledger

        def finish(self, run) -> None:
            self.store.persist(run)
            self.ledger.append_terminal(run)
    """


@pytest.mark.parametrize("annotation", [
    "Store",
    "Store[int]",
    "Optional[Store[int]]",
    "Store[int] | None",
    "'Store[int]'",
    "Store[int, str]",
    "Annotated[Store[int], 'doc']",
    "SerializeAsAny[Store[int]] | None",
])
def test_a_generic_class_types_its_receiver(annotation):
    assert cl(SRC.format(annotation=annotation), select=["OC101"]) == [("OC101", 18)]


@pytest.mark.parametrize("annotation", ["List[Store]", "Type[Store]", "list[Store]", "Callable[[], Store]"])
def test_a_container_or_special_form_does_not(annotation):
    assert cl(SRC.format(annotation=annotation), select=["OC101"]) == []


def test_a_qualified_pattern_matches_through_the_subscript():
    src = """\
        from typing import Generic, TypeVar

        from acme.persistence import BaseStatePersistence

        S = TypeVar("S")


        class GraphRun(Generic[S]):
            def __init__(self, persistence: BaseStatePersistence[S, int], ledger) -> None:
                self.persistence = persistence
                self.ledger = ledger

            def next(self, node) -> None:
                self.persistence.snapshot_end(node)
                self.ledger.append_terminal(node)
        """
    table = {"events": {"save": ["acme.persistence.BaseStatePersistence.snapshot_end"]}}
    assert cl(src, select=["OC101"], table=table) == [("OC101", 15)]
    assert cl(src, select=["OC101"]) == []
