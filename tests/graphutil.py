"""Helpers for graph tests: build the graph of one function from source text and
describe its edges with readable labels."""
from __future__ import annotations

import textwrap
from typing import Set, Tuple

from ordercheck import cfg, frontend
from ordercheck.vocabulary import Vocabulary

_VOCAB = None


def vocab() -> Vocabulary:
    global _VOCAB
    if _VOCAB is None:
        _VOCAB = Vocabulary.build()
    return _VOCAB


def graph_of(source: str, qualname: str = "f"):
    ff = frontend.extract("t.py", textwrap.dedent(source).encode(), "t")
    assert ff.error is None, ff.error
    fn = next(f for f in ff.functions if f.qualname == qualname)
    return cfg.build(fn, vocab().is_suppressor)


def label(g, n) -> str:
    if isinstance(n, str):
        return n
    d = g.nodes[n]
    k = d["kind"]
    if k == "call":
        return f"{d['call'].callee}()@{d['line']}"
    if k == "stmt":
        return f"{d['stmt']}@{d['line']}"
    if k == "with-exit":
        return f"with-exit({d['way']})@{d['line']}"
    if k in ("finally",):
        return d["text"].replace(" ", "")
    if k in ("point", "reraise"):
        return f"{k}:{d['text']}"
    return f"{k}@{d['line']}"


def edges(g) -> Set[Tuple[str, str, str]]:
    return {(label(g, u), label(g, v), d["kind"]) for u, v, d in g.edges(data=True)}


def show(g) -> str:
    return "\n".join(sorted(f"{a} -[{k}]-> {b}" for a, b, k in edges(g)))
