"""A name typed by a project class that defines no ``__bool__``/``__len__`` is None or
truthy, never falsy (docs/decisions.md, "Facts as value sets"; held-out set 13: saq's
`if job:` after `if job is None: return` was walked as false, a silent handler that
Python never runs). A class that may be falsy keeps the third value."""
from checkutil import cl

TEMPLATE = """
import dataclasses
import logging
from pydantic import BaseModel
from typing import Optional

logger = logging.getLogger(__name__)

@dataclasses.dataclass
class Job:
    key: str

class Sized:
    def __len__(self):
        return 0

class Model(BaseModel):
    key: str

class Base:
    pass

class Falsy(Base):
    def __bool__(self):
        return False

class Assigned:
    __len__ = lambda self: 0

class Worker:
    def process(self, queue, store) -> bool:
        job: TYPE = None
        try:
            job = queue.dequeue()
            if job is None:
                return False
            store.save(job)
        except Exception:
            if job:
                logger.exception("Error processing job %s", job)
        return True

    def param(self, store, job: Optional[TYPE]):
        try:
            if job is None:
                return False
            store.save(job)
        except Exception:
            if job:
                logger.exception("failed %s", job)
"""


def _codes(type_name):
    return [code for code, _line in cl(TEMPLATE.replace("TYPE", type_name), ["OC203"])]


def test_a_dataclass_without_bool_or_len_is_truthy_when_not_none():
    assert _codes("Job") == []


def test_a_class_that_may_be_falsy_keeps_the_silent_walk():
    # its own `__len__`, a library base (which may define one), a project subclass's `__bool__`
    # (and a `__len__` bound by an assignment: a conformance probe, session 33)
    for name in ("Sized", "Model", "Base", "Assigned"):
        assert _codes(name) == ["OC203", "OC203"], name


def test_an_unknown_class_keeps_the_silent_walk():
    assert _codes("Unknown") == ["OC203", "OC203"]
