"""``vocabulary.Globs`` answers as ``fnmatch.fnmatchcase`` does, whatever the shape
of the patterns (it asks the common shapes with string methods)."""
from __future__ import annotations

import fnmatch
import random

import pytest

from ordercheck.vocabulary import Globs, Vocabulary

ALPHABET = ["a", "b", ".", "_", "(", ")", "*", "?", "[", "]", "!", "x", "\n", "É"]


def _word(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, n)))


@pytest.mark.parametrize("seed", range(20))
def test_globs_match_as_fnmatch_does(seed):
    rng = random.Random(seed)
    patterns = [_word(rng, 6) for _ in range(rng.randint(1, 6))]
    globs = Globs(patterns)
    for _ in range(400):
        name = _word(rng, 8).replace("*", "").replace("?", "")
        want = any(fnmatch.fnmatchcase(name, p) for p in patterns)
        assert globs.match(name) == want, (patterns, name)


def test_the_shapes_are_asked_without_an_expression():
    globs = Globs(["os.fsync", "*.save", "journal*", "*ledger*", "*ledger*.append*", "*.x?", "[ab].c", "*"])
    assert globs.exact == {"os.fsync"} and globs.suffixes == (".save",)
    assert globs.prefixes == ("journal",) and globs.parts == ("ledger",)
    assert globs.rx is not None and globs.rx.pattern.count("|") == 3  # the last four


def test_the_default_vocabulary_matches_as_fnmatch_does():
    vocab = Vocabulary.build()
    names = ["self.store.save", "store.save_run", "self.ledger.append", "ledger.append(x).y", "log.info",
             "self._log.warning", "os.fsync", "fh.write", "sys.stderr.write", "transaction.atomic",
             "session.begin", "self.journal.append_event", "x.append", "run_store().save", "LOGGER.debug"]
    for name in names:
        for cls_name, patterns in vocab.patterns.items():
            defaults, scoped = vocab.scoped.get(cls_name, ((), ()))
            want = any(fnmatch.fnmatchcase(name, p) for p in patterns if p not in defaults) or (
                any(fnmatch.fnmatchcase(name, p) for p in patterns if p in defaults)
                and not any(fnmatch.fnmatchcase(name, p) for p in scoped))
            want = want and not any(fnmatch.fnmatchcase(name, p) for p in vocab.excludes.get(cls_name, ()))
            call_classes = vocab._match((name,))
            assert (cls_name in call_classes) == want, (name, cls_name)
