"""Stage 2 — project summaries: which event classes each function may perform (SPEC §2).

Built from the per-file facts alone (no re-parsing), so cached facts are enough. A call
to a project function carries every class its callee may perform on some path,
transitively; recursion converges because the fixpoint runs over the strongly
connected components of the call graph (``nx.condensation``), callees first.

Resolution covers ``self.m()``/``cls.m()`` (the class and its project bases),
``super().m()``, module-level functions, functions and classes imported from project
modules (relative imports and package ``__init__`` re-exports included), and nested
functions by name. Calling a project class carries its ``__init__``. Anything else is
matched by patterns only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

import networkx as nx

from .facts import Call, ClassFacts, FileFacts, FunctionFacts
from .vocabulary import Vocabulary

NOT_CARRIED = {"suppressor"}


def fkey(path: str, qualname: str) -> str:
    """A function's or class's key: its file (as shown) and qualified name. Keys are
    per file, not per module name, so two files with the same module name (scripts,
    test folders without ``__init__.py``) never share summaries."""
    return f"{path}::{qualname}"


def split_key(key: str) -> Tuple[str, str]:
    path, _, qual = key.rpartition("::")
    return path, qual


@dataclass
class Origin:
    """Where a function gets a class from: its own call, or a callee's summary."""

    call: Call
    path: str
    callee: Optional[str] = None  # function key when carried


@dataclass
class ProjectIndex:
    functions: Dict[str, Tuple[FileFacts, FunctionFacts]] = field(default_factory=dict)
    classes: Dict[str, ClassFacts] = field(default_factory=dict)
    files: Dict[str, FileFacts] = field(default_factory=dict)  # by shown path
    modules: Dict[str, FileFacts] = field(default_factory=dict)  # by module name; first file wins
    _mro: Dict[str, List[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, files: Iterable[FileFacts]) -> "ProjectIndex":
        idx = cls()
        for f in files:
            if f.error is not None:
                continue
            idx.files[f.path] = f
            idx.modules.setdefault(f.module, f)
            for fn in f.functions:
                idx.functions[fkey(f.path, fn.qualname)] = (f, fn)
            for c in f.classes:
                idx.classes[fkey(f.path, c.qualname)] = c
        for f in idx.files.values():  # other import names never shadow a module name
            for alias in f.module_aliases:
                idx.modules.setdefault(alias, f)
        return idx

    # ---- resolution

    def bases(self, key: str) -> List[str]:
        """The project base classes of a class key, in order (others are opaque)."""
        cls = self.classes.get(key)
        if cls is None:
            return []
        facts = self.files[split_key(key)[0]]
        out: List[str] = []
        for base in cls.bases:
            target = self.class_key(facts, base)
            if target is not None and target != key and target not in out:
                out.append(target)
        return out

    def mro(self, key: str, _stack: Tuple[str, ...] = ()) -> List[str]:
        """Python's C3 linearisation over project classes (depth-first, left to right
        where the bases are inconsistent, as a linter must not fail)."""
        if key in self._mro:
            return self._mro[key]
        if key in _stack:  # a cycle through bad code
            return [key]
        bases = self.bases(key)
        seqs = [self.mro(b, _stack + (key,)) for b in bases] + [list(bases)]
        out = [key]
        seqs = [list(q) for q in seqs if q]
        while seqs:
            head = next((q[0] for q in seqs if not any(q[0] in r[1:] for r in seqs)), None)
            if head is None:  # inconsistent: fall back to depth-first order
                for q in seqs:
                    out.extend(x for x in q if x not in out)
                break
            out.append(head)
            seqs = [[x for x in q if x != head] for q in seqs]
            seqs = [q for q in seqs if q]
        self._mro[key] = out
        return out

    def method(self, class_key: str, name: str, skip_self: bool = False) -> Optional[str]:
        """``name`` looked up along the class's MRO over project classes."""
        for k in self.mro(class_key)[1 if skip_self else 0 :]:
            cls = self.classes.get(k)
            if cls is not None and name in cls.methods:
                path, qual = split_key(k)
                return fkey(path, f"{qual}.{name}")
        return None

    def class_key(self, facts: FileFacts, name: str) -> Optional[str]:
        """A class named in a file (by local name, dotted import, or full name)."""
        key = self.resolve_name(facts, name)
        return key if key in self.classes else None

    def resolve_qualified(self, full: str, depth: int = 0) -> Optional[str]:
        """``pkg.store.save_run`` → the function or class key it names."""
        if depth > 8 or not full:
            return None
        parts = full.split(".")
        for i in range(len(parts) - 1, 0, -1):
            mod, rest = ".".join(parts[:i]), parts[i:]
            facts = self.modules.get(mod)
            if facts is None:
                continue
            key = fkey(facts.path, ".".join(rest))
            if key in self.functions or key in self.classes:
                return key
            if rest[0] in facts.imports:  # a re-export, e.g. from a package __init__
                return self.resolve_qualified(".".join([facts.imports[rest[0]]] + rest[1:]), depth + 1)
            return None
        return None

    def resolve_name(self, facts: FileFacts, dotted: str) -> Optional[str]:
        """A dotted name as written in ``facts``' module."""
        parts = dotted.split(".")
        key = fkey(facts.path, dotted)
        if key in self.functions or key in self.classes:
            return key
        if parts[0] in facts.imports:
            return self.resolve_qualified(".".join([facts.imports[parts[0]]] + parts[1:]))
        return None  # a dotted name nobody imported is not a project module (`audit.record`)

    def owner_class(self, facts: FileFacts, fn: FunctionFacts) -> Optional[str]:
        """The class (key) whose ``self`` a function sees: its own, or (for a function
        nested in a method) the enclosing method's."""
        qual = fn.qualname
        current: Optional[FunctionFacts] = fn
        while current is not None:
            if current.class_name:
                return fkey(facts.path, current.class_name)
            if ".<locals>." not in qual:
                return None
            qual = qual.rsplit(".<locals>.", 1)[0]
            entry = self.functions.get(fkey(facts.path, qual))
            current = entry[1] if entry else None
        return None

    def callee_key(self, facts: FileFacts, fn: FunctionFacts, call: Call) -> Optional[str]:
        """The project function a call runs, or None."""
        if call.aug:
            return None
        text = call.callee
        parts = text.split(".")
        owner = self.owner_class(facts, fn)
        if call.self_call in ("self", "cls") and len(parts) == 2 and owner:
            return self.method(owner, parts[1])
        if call.self_call == "super" and text.startswith("super().") and text.count(".") == 1 and owner:
            return self.method(owner, parts[1], skip_self=True)
        if not all(p.isidentifier() for p in parts):
            return None
        if len(parts) == 1:
            # nested functions by name, innermost enclosing function first
            scope: Optional[FunctionFacts] = fn
            qual = fn.qualname
            while scope is not None:
                if parts[0] in scope.local_functions:
                    return self._callable(fkey(facts.path, scope.local_functions[parts[0]]))
                if ".<locals>." not in qual:
                    break
                qual = qual.rsplit(".<locals>.", 1)[0]
                entry = self.functions.get(fkey(facts.path, qual))
                scope = entry[1] if entry else None
        key = self.resolve_name(facts, text)
        if key is None:
            for q in call.qualnames:
                key = self.resolve_qualified(q)
                if key:
                    break
        if key is None and len(parts) == 1:
            for star in facts.star_imports:  # `from .ops import *`
                key = self.resolve_qualified(f"{star}.{text}")
                if key:
                    break
        return self._callable(key) if key else None

    def _callable(self, key: str) -> Optional[str]:
        if key in self.functions:
            return key
        if key in self.classes:
            return self.method(key, "__init__")
        return None


@dataclass
class Summaries:
    """May-perform classes per function key, and how each class gets there."""

    index: ProjectIndex
    classes: Dict[str, FrozenSet[str]]
    origins: Dict[str, Dict[str, Origin]]
    callees: Dict[Tuple[str, int], str]  # (file, call id) -> callee key
    graph: nx.DiGraph

    def carried(self, path: str, call: Call) -> Tuple[FrozenSet[str], Optional[str]]:
        """The classes a call carries from its callee, and the callee's key."""
        callee = self.callees.get((path, call.id))
        if callee is None:
            return frozenset(), None
        return self.classes.get(callee, frozenset()), callee

    def via(self, callee: str, cls: str, limit: int = 6) -> List[Tuple[str, Origin]]:
        """The chain of (function key, origin) down to the call that performs ``cls``."""
        out: List[Tuple[str, Origin]] = []
        key: Optional[str] = callee
        seen = set()
        while key is not None and key not in seen and len(out) < limit:
            seen.add(key)
            origin = self.origins.get(key, {}).get(cls)
            if origin is None:
                break
            out.append((key, origin))
            key = origin.callee
        return out


def build(files: Iterable[FileFacts], vocab: Vocabulary,
          live: Optional[Dict[str, Set[int]]] = None) -> Summaries:
    """Summaries of every function. ``live`` (file → ids of the calls on some path
    from their function's entry, from the graphs) keeps unreachable calls out: a
    summary is what a callee may perform *on some path*. Two definitions under one
    key (a property's getter and setter, ``if``/``else`` defs) share one summary."""
    files = list(files)
    index = ProjectIndex.of(files)
    graph = nx.DiGraph()
    defs: Dict[str, List[Tuple[FileFacts, FunctionFacts]]] = {}
    for facts in files:
        if facts.error is None:
            for fn in facts.functions:
                defs.setdefault(fkey(facts.path, fn.qualname), []).append((facts, fn))
    origins: Dict[str, Dict[str, Origin]] = {}
    callees: Dict[Tuple[str, int], str] = {}
    calls_of: Dict[str, List[Tuple[FileFacts, Call, Optional[str]]]] = {}
    for key, versions in defs.items():
        graph.add_node(key)
        own: Dict[str, Origin] = {}
        mine = calls_of.setdefault(key, [])
        for facts, fn in versions:
            reachable = live.get(facts.path) if live is not None else None
            for call in fn.calls:
                if reachable is not None and call.id not in reachable:
                    continue
                for cls in sorted(vocab.classify(call) - NOT_CARRIED):
                    own.setdefault(cls, Origin(call, facts.path))
                target = index.callee_key(facts, fn, call)
                if target is not None:
                    callees[(facts.path, call.id)] = target
                    graph.add_edge(key, target)
                    mine.append((facts, call, target))
        origins[key] = own
    # fixpoint over the condensation, callees first; inside a cycle, repeat until
    # nothing changes (markers at a call site can add terminal-append on the way)
    classes: Dict[str, FrozenSet[str]] = {}
    cond = nx.condensation(graph)
    for comp in reversed(list(nx.topological_sort(cond))):
        members = sorted(cond.nodes[comp]["members"])
        changed = True
        while changed:
            changed = False
            shared = frozenset(c for m in members for c in origins[m])
            for m in members:
                for facts, call, target in calls_of.get(m, ()):
                    carried = shared if target in cond.nodes[comp]["members"] else classes.get(target, frozenset())
                    for cls in vocab.classify(call, carried) - NOT_CARRIED:
                        if cls not in origins[m]:
                            origins[m][cls] = Origin(call, facts.path, target)
                            changed = True
        for m in members:
            classes[m] = frozenset(origins[m])
    return Summaries(index, classes, origins, callees, graph)
