"""Gaps held-out sets 176 to 179 found where the contract is silent (docs/decisions.md,
session 57):

- a Django relation field (``mailbox = models.ForeignKey(Mailbox, ...)``) types the
  attribute as the related model, not the field (a descriptor);
- ``other = self.__class__(...)``, ``type(self)(...)`` and a classmethod's ``cls(...)``
  are of the class itself.
"""
from __future__ import annotations

import pytest
from checkutil import check_source, cl

TABLE = {"extend-events": {"save": ["self.save"], "append": ["Log.objects.create"]}}

MODELS = """
from django.db import models


class Log(models.Model):
    pass


class Mailbox(models.Model):
    def record_outgoing_message(self, m):
        Log.objects.create(message=m)


class Message(models.Model):
    mailbox = {field}

    def reply(self, m):
        self.save()
        return self.mailbox.record_outgoing_message(m)
"""


@pytest.mark.parametrize("field", [
    "models.ForeignKey(Mailbox, on_delete=models.CASCADE)",
    "models.ForeignKey(to=Mailbox, on_delete=models.CASCADE)",
    "models.OneToOneField(Mailbox, on_delete=models.CASCADE)",
    'models.ForeignKey("Mailbox", on_delete=models.CASCADE)',
    'models.ForeignKey("mail.Mailbox", on_delete=models.CASCADE)',
])
def test_a_relation_field_is_of_the_related_model(field):
    # (held-out set 177, django-mailbox's `Message.reply`)
    assert cl(MODELS.replace("{field}", field), select=["OC102"], table=TABLE) == [("OC102", 19)]


@pytest.mark.parametrize("field", [
    'models.ForeignKey("self", on_delete=models.CASCADE)',
    "models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)",
    "models.ManyToManyField(Mailbox)",
])
def test_a_relation_to_no_known_class_types_nothing(field):
    assert cl(MODELS.replace("{field}", field), select=["OC102"], table=TABLE) == []


INDEX = """
import os
import shutil


class Index:
    def __init__(self, path):
        self.path = path
        self.f = open(path, "ab")

    def close_index(self):
        self.f.flush()
        os.fsync(self.f.fileno())
        self.f.close()

    {decorator}
    def compact({me}):
        other = {make}
        other.f.write(b"data")
        other.close_index()
        shutil.move(other.path, "dst")
"""


@pytest.mark.parametrize("me, decorator, make", [
    ("self", "", 'self.__class__("x")'),
    ("self", "", 'type(self)("x")'),
    ("cls", "@classmethod", 'cls("x")'),
    ("self", "", 'Index("x")'),
])
def test_an_instance_of_the_class_itself_is_typed(me, decorator, make):
    # (held-out set 179, CodernityDB's `compact`): `close_index` fsyncs the written file
    src = INDEX.replace("{me}", me).replace("{decorator}", decorator).replace("{make}", make)
    assert cl(src, select=["OC301"]) == []


def test_an_unknown_class_is_still_unknown():
    src = INDEX.replace("{me}", "self").replace("{decorator}", "").replace("{make}", 'self.factory("x")')
    assert cl(src, select=["OC301"]) == [("OC301", 21)]


@pytest.mark.parametrize("annotation", ["tp.Any", "tp.Optional[tp.Any]", "typing_extensions.Any", "Any", "A"])
def test_any_however_typing_is_imported_types_nothing(annotation):
    # (held-out set 176, exca's `value: tp.Any`): a qualified pattern on `Any` matched it
    src = """
import typing as tp
import typing_extensions
from typing import Any
from typing import Any as A


def dump(value: {annotation}, ledger, tmp):
    value.save(tmp)
    ledger.append_event("x")
"""
    table = {"events": {"save": ["typing.Any.save", "*typing_extensions.Any.save", "Any.save"],
                        "append": ["*.append_event"]}}
    assert cl(src.replace("{annotation}", annotation), select=["OC102"], table=table) == []
    # the same receiver of a class is typed
    assert cl(src.replace("{annotation}", "tp.Sequence"), select=["OC102"],
              table={"events": {"save": ["typing.Sequence.save"], "append": ["*.append_event"]}}) == [("OC102", 10)]


@pytest.mark.parametrize("write", ["os.write(fd, b'x')", "os.pwrite(fd, b'x', 0)", "os.pwritev(fd, [b'x'], 0)",
                                   "os.writev(fd, [b'x'])"])
def test_the_positional_writes_are_file_writes(write):
    # (held-out set 176, exca's `os.pwrite`)
    src = f"""
import os


def mark(tmp, dst):
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT)
    {write}
    os.close(fd)
    os.replace(tmp, dst)
"""
    assert cl(src, select=["OC301"]) == [("OC301", 9)]


TWISTED = """
from twisted.internet import defer
from twisted.python.failure import Failure


def create(store, d, run):
    try:
        store.save(run)
    except Exception:
        {handler}
    return run
"""


@pytest.mark.parametrize("handler, found", [
    ("return defer.fail()", []),
    ("return Failure()", []),
    ("d.errback()", []),
    ("return defer.fail(RuntimeError('x'))", [("OC203", 8)]),   # a new failure, not the one caught
    ("return Failure(RuntimeError('x'))", [("OC203", 8)]),
    ("d.errback(RuntimeError('x'))", [("OC203", 8)]),
])
def test_twisteds_failure_with_no_argument_hands_the_exception_on(handler, found):
    # (held-out sets 22 and 182, tahoe-lafs): `Failure()` captures the exception being
    # handled, `defer.fail()` wraps one, `d.errback()` gives one to the errbacks
    assert cl(TWISTED.replace("{handler}", handler), select=["OC203"]) == found


NESTED = """
import os
import shutil


class Index:
    def close_index(self):
        self.f.write("x")


class Outer:
    class Index:
        def close_index(self):
            os.fsync(self.fd)

        def compact(self, path, tmp):
            other = {make}
            with open(tmp, "w") as f:
                f.write("data")
            other.close_index()
            shutil.move(tmp, path)

    class Meta(type):
        @classmethod
        def build(cls, path, tmp):
            other = type(cls)("x", (), {{}})
            with open(tmp, "w") as f:
                f.write("data")
            other.close_index()
            shutil.move(tmp, path)
"""


@pytest.mark.parametrize("make", ['self.__class__(tmp)', 'type(self)(tmp)'])
def test_a_nested_class_and_a_metaclass_are_not_the_modules_class(make):
    # (a review): `Outer.Index` is not the top-level `Index`, whose `close_index` writes
    # and would show in the witness; `type(cls)(...)` is an instance of the metaclass
    found = check_source(NESTED.replace("{make}", make).replace("{{}}", "{}"), select=["OC301"])
    assert [(f.code, f.span.line) for f in found] == [("OC301", 21), ("OC301", 30)]
    assert not any("close_index" in s.text for f in found for s in f.witness), found


def test_a_classmethods_metaclass_call_is_not_the_class_whatever_its_parameter_is_called():
    src = INDEX.replace("{me}", "klass").replace("{decorator}", "@classmethod").replace("{make}", 'type(klass)("x")')
    assert cl(src, select=["OC301"]) == [("OC301", 21)]
    src = INDEX.replace("{me}", "klass").replace("{decorator}", "@classmethod").replace("{make}", 'klass("x")')
    assert cl(src, select=["OC301"]) == []


def test_a_projects_own_errback_method_hands_nothing_on():
    src = """
class Job:
    def errback(self):
        self.state = "retry"

    def create(self, store, run):
        try:
            store.save(run)
        except Exception:
            self.errback()
        return run
"""
    assert cl(src, select=["OC203"]) == [("OC203", 8)]


def test_the_third_reviews_cases():
    # a Deferred kept in an attribute receives the failure; a typed project `Job` does not
    src = """
from twisted.internet import defer


class Job:
    def errback(self):
        self.state = "retry"


class Saver:
    def __init__(self, store):
        self.store = store
        self.d = defer.Deferred()

    def finish(self, run):
        try:
            self.store.save(run)
        except Exception:
            self.d.errback()

    def other(self, run, job: Job):
        try:
            self.store.save(run)
        except Exception:
            job.errback()
"""
    assert cl(src, select=["OC203"]) == [("OC203", 23)]



@pytest.mark.parametrize("name, other", [
    ("pkg.state.PENDING.errback", False),                      # a module's Deferred instance
    ("twisted.internet.defer.DeferredList.errback", False),   # a Deferred subclass
    ("twisted.internet.defer.Deferred.errback", False),
    ("pkg.jobs.Job.errback", True),                            # a project's own method
])
def test_whose_errback_hands_the_failure_on(name, other):
    # (a fourth review: `PENDING.errback()` imported, `DeferredList`)
    from ordercheck.frontend.expressions import _of_other_class
    assert _of_other_class(name) is other


CLAIMS = """
import contextlib
import typing as tp


class InflightClaim:
    def record_worker_info(self, job):
        pass


{decorator}
def inflight_session(reg) -> {returns}:
    yield InflightClaim()


class Submitter:
    {decorator}
    def _session(self, reg) -> {returns}:
        yield InflightClaim()

    def submit(self, reg, store, job):
        with self._session(reg) as claim:
            store.write_status(job)
            claim.record_worker_info(job)


def submit(reg, store, job):
    with inflight_session(reg) as claim:
        store.write_status(job)
        claim.record_worker_info(job)
"""


@pytest.mark.parametrize("decorator, returns, found", [
    ("@contextlib.contextmanager", "tp.Iterator[InflightClaim]", [("OC102", 24), ("OC102", 30)]),
    ("@contextlib.contextmanager", '"Generator[InflightClaim, None, None]"', [("OC102", 24), ("OC102", 30)]),
    ("", "tp.Iterator[InflightClaim]", []),                   # no manager: `with` over a generator fails
    ("@contextlib.contextmanager", "tp.Iterator[tp.Any]", []),
])
def test_a_managers_annotation_types_what_it_yields(decorator, returns, found):
    # (held-out set 176, exca's `inflight_session`, in one file)
    table = {"extend-events": {"save": ["*.write_status"], "append": ["*.InflightClaim.record_worker_info"]}}
    src = CLAIMS.replace("{decorator}", decorator).replace("{returns}", returns)
    assert cl(src, select=["OC102"], table=table) == found
