"""The vocabulary's matching (``Vocabulary._match``: the string-method shapes, one
expression for the rest, and a test of every class's patterns at once that turns
away the callees no class matches) answers what ``fnmatchcase`` over each class's
patterns and exclusions answers (semantics §Events "Matching")."""
from __future__ import annotations

from fnmatch import fnmatchcase

from hypothesis import given, settings
from hypothesis import strategies as st

from ordercheck.vocabulary import Vocabulary

PIECES = ["self", "_store", "store", "save", "save_run", "ledger", "append", "append_event", "journal",
          "log", "logger", "LOG", "warning", "debug", "os", "replace", "rename", "write", "sys", "stderr",
          "begin", "atomic", "transaction", "metrics", "inc", "sentry_sdk", "capture_exception", "bind()",
          "get_store()", "Path", "pathlib", "fsync", "x", "_"]

names = st.lists(st.sampled_from(PIECES), min_size=1, max_size=5).map(".".join)


def reference(v: Vocabulary, callees) -> frozenset:
    out = set()
    for cls, pats in v.patterns.items():
        defaults, scoped = v.scoped.get(cls, ((), ()))
        own = any(fnmatchcase(n, p) for p in pats if p not in defaults for n in callees)
        by_default = (any(fnmatchcase(n, p) for p in pats if p in defaults for n in callees)
                      and not any(fnmatchcase(n, e) for e in scoped for n in callees))
        if own or by_default:
            if not any(fnmatchcase(n, e) for e in v.excludes.get(cls, ()) for n in callees):
                out.add(cls)
    return frozenset(out)


DEFAULT = Vocabulary.build()
CUSTOM = Vocabulary.build(extend_events={
    "save": ["*.sav?", "store.[sp]ave*", "*store*.*save*", "exact.name"],
    "append": ["**ledger", "log**"],
    "surface": ["*"],
})


@settings(max_examples=400, deadline=None)
@given(st.lists(names, min_size=1, max_size=3).map(tuple))
def test_the_default_vocabulary_matches_as_fnmatch_does(callees):
    assert DEFAULT._match(callees) == reference(DEFAULT, callees)


@settings(max_examples=400, deadline=None)
@given(st.lists(names, min_size=1, max_size=3).map(tuple))
def test_a_vocabulary_of_every_shape_matches_as_fnmatch_does(callees):
    assert CUSTOM._match(callees) == reference(CUSTOM, callees)


def test_a_callee_no_class_matches_is_turned_away_and_one_that_matches_is_not():
    assert DEFAULT._match(("self.cache.get", "app.cache.Cache.get")) == frozenset()
    assert "save" in DEFAULT._match(("self._store.save_run",))
    assert DEFAULT._match(("sys.stderr.write",)) == frozenset({"surface"})  # excluded from file-write
