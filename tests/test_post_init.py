"""A dataclass's generated ``__init__`` calls ``__post_init__`` (attrs:
``__attrs_post_init__``): constructing one carries that hook's summary, as a class's
own ``__init__`` is carried (docs/decisions.md, "A dataclass's ``__post_init__``")."""
from __future__ import annotations

import pytest
from checkutil import cl, run_tree, write_tree

CASE = """
    import dataclasses

    import attrs


    {decorator}
    class Checkpoint:
        run: object
        store: object

        def {hook}(self):
            self.store.save(self.run)


    def finish(store, ledger, run):
        Checkpoint(run, store)
        ledger.append_terminal(run)
    """


@pytest.mark.parametrize("decorator, hook", [
    ("@dataclasses.dataclass", "__post_init__"),
    ("@dataclasses.dataclass(frozen=True)", "__post_init__"),
    ("@attrs.define", "__attrs_post_init__"),
])
def test_constructing_carries_the_hook(decorator, hook):
    assert cl(CASE.format(decorator=decorator, hook=hook)) == [("OC101", 18)]


def test_an_own_init_still_wins():
    src = """
        class Checkpoint:
            def __init__(self, run, store):
                self.run, self.store = run, store

            def __post_init__(self):
                self.store.save(self.run)


        def finish(store, ledger, run):
            Checkpoint(run, store)
            ledger.append_terminal(run)
        """
    assert cl(src) == []


def test_from_another_module(tmp_path):
    write_tree(tmp_path, {
        "app/__init__.py": "",
        "app/model.py": """
            from dataclasses import dataclass


            @dataclass
            class Checkpoint:
                run: object
                store: object

                def __post_init__(self):
                    self.store.save(self.run)
            """,
        "app/worker.py": """
            from app.model import Checkpoint


            def finish(store, ledger, run):
                Checkpoint(run, store)
                ledger.append_terminal(run)
            """,
    })
    assert run_tree(tmp_path) == [("app/worker.py", 7, "OC101")]
