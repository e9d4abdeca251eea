"""Event classes: which calls are saves, appends, surfaces... (semantics §Events).

The default patterns are the TOML files of ``rules/vocab``; configuration replaces
(``events``) or extends (``extend-events``) them per class. Matching is
``fnmatch``-style and case-sensitive, against the dotted callee text and against each
import-qualified name of the callee.
"""
from __future__ import annotations

import fnmatch
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import AbstractSet, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from .ir import Call
from .kinds import OPEN_TERMINAL, OWN_MARKS, OWN_RENAME, OWN_TERMINAL, OWN_WRITE, EventClass
from .markers import found_marker, split_tokens
from .patterns import literal_subscripts
from .resources import vocab_dir

#: the class a ``with`` item over an object of no known class may match by its text
#: (``Call.bare_enter``): a transaction, which only a ``with`` makes one, by the
#: configuration's own patterns (``Vocabulary.item_transactions``)
TRANSACTION = EventClass.TRANSACTION.value
#: the callee of the stand-in call of a transaction the configuration says a framework
#: opens around a function (``transaction-functions``): no call of a file has it
DECLARED_TRANSACTION = "<transaction-functions>"
_WITH_ITEM_ONLY = frozenset({TRANSACTION})

#: a call's literal flag that says it saves nothing (``Call.flags``): ``vocabulary.direct``
NO_COMMIT = ("commit", False)


#: an event pattern with an argument part: ``*.execute("INSERT INTO audit*")``, the
#: callee's glob and a glob over the call's leading string (``Call.lead``)
_WITH_ARGUMENT = re.compile(r"""^(?P<callee>.+?)\((?P<q>["'])(?P<arg>.*)(?P=q)\)$""", re.S)


def argument_form(pattern: str) -> Optional[str]:
    """A pattern with an argument part as it is matched (``lead_names``): the callee's
    glob, then the argument's glob in double quotes, its whitespace runs as one space
    and in upper case as ``Call.lead`` is (``*.execute('commit')`` is
    ``*.execute("COMMIT")``); None for a pattern without one."""
    m = _WITH_ARGUMENT.match(pattern)
    if m is None:
        return None
    # (`[` is itself in an argument part: SQL's bracketed names, `[test.runs]`, not a
    # character class; held-out set 392)
    arg = " ".join(m.group("arg").split()).upper().replace("[", "[[]")
    return f'{m.group("callee")}("{arg}")'


def lead_names(names: Iterable[str], lead: Optional[str]) -> Tuple[str, ...]:
    """The names a call with a leading string is matched by for a pattern with an
    argument part: each of its names with the string (``conn.execute("COMMIT")``);
    none without one. A pattern without an argument part never sees them."""
    if lead is None:
        return ()
    return tuple(f'{n}("{lead}")' for n in names)


@dataclass(frozen=True)
class _Patterns:
    """A set of event patterns, those with an argument part apart: ``plain`` asks a
    call's names, ``args`` (in ``argument_form``) its ``lead_names`` only, so a plain
    pattern never sees a call's statement (the default `*ledger*.append*(*` would take
    `ledger.append("done")`)."""

    plain: Optional["Globs"]
    args: Optional["Globs"]

    @classmethod
    def of(cls, patterns: Iterable[str]) -> Optional["_Patterns"]:
        """None for no pattern at all."""
        plain: List[str] = []
        args: List[str] = []
        for p in patterns:
            form = argument_form(p)
            (plain if form is None else args).append(p if form is None else form)
        got = cls(_compile(plain), _compile(args))
        return None if got.plain is None and got.args is None else got

    def any(self, names: Tuple[str, ...], leads: Tuple[str, ...] = ()) -> bool:
        return (self.plain is not None and self.plain.any(names)) or (
            bool(leads) and self.args is not None and self.args.any(leads))


def item_names(call: Call) -> Tuple[str, ...]:
    """The texts a ``with`` item over an object of no known class (``Call.bare_enter``)
    is named by for a ``transaction`` pattern: as written (``conn`` of ``conn =
    self._conn``) and what it stands for (``self._conn``). Only a function's own name,
    ``self.x`` or an attribute of either (``local_head``, ``self_call``); an imported
    object by its qualified name, never by its text (a project's instance is also
    typed by its module; docs/decisions.md "A with over an object named a
    transaction")."""
    if not (call.local_head or call.self_call):
        # an imported object (``ScopeResolver.instance_manager``): by its qualified name
        # only, `with transaction.manager:` after `import transaction` (zope's; held-out
        # set 286: a configured pattern matched it only when the function imported it)
        return tuple(dict.fromkeys(q.rsplit(".", 1)[0] for q in call.qualnames or (call.callee,)))
    if not (call.local_head or call.self_call == "self"):
        return ()
    return tuple(dict.fromkeys((call.text, call.callee.rsplit(".", 1)[0])))


#: what an idempotency guard's predicate asks, whatever the configured markers
#: (``is_finished``, ``is_final``, ``is_done``, ``is_terminal``, ``is_completed``)
GUARD_WORDS = frozenset({"final", "finished", "done", "terminal", "terminated", "complete", "completed", "ended"})

BUILTIN_CLASSES = tuple(c.value for c in EventClass)


def load_default_vocab(folder: Optional[Path] = None) -> Tuple[Dict[str, Tuple[str, ...]], Tuple[str, ...], Dict[str, str]]:
    """(patterns per class, terminal markers, description per class) from rules/vocab."""
    folder = folder or vocab_dir()
    classes: Dict[str, Tuple[str, ...]] = {}
    descriptions: Dict[str, str] = {}
    markers: Tuple[str, ...] = ()
    for path in sorted(folder.glob("*.toml")):
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for name, table in data.get("classes", {}).items():
            classes[name] = classes.get(name, ()) + tuple(table.get("patterns", ()))
            if table.get("description"):
                descriptions[name] = table["description"]
        if "terminal-markers" in data:
            markers = tuple(data["terminal-markers"])
    return classes, markers, descriptions


def _class_lists(key: str, folder: Optional[Path] = None) -> Dict[str, Tuple[str, ...]]:
    """Per class, the list ``key`` of its tables in rules/vocab (``exclude``,
    ``exclude-defaults``), joined over the files."""
    folder = folder or vocab_dir()
    out: Dict[str, Tuple[str, ...]] = {}
    for path in sorted(folder.glob("*.toml")):
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for name, table in data.get("classes", {}).items():
            if table.get(key):
                out[name] = out.get(name, ()) + tuple(table[key])
    return out


def load_default_excludes(folder: Optional[Path] = None) -> Dict[str, Tuple[str, ...]]:
    """Per class, the calls its patterns match that are still not of the class (a
    class table's ``exclude``: ``sys.stderr.write`` is no file write). They hold
    whatever a config does to the class's patterns."""
    return _class_lists("exclude", folder)


def load_default_scoped_excludes(folder: Optional[Path] = None) -> Dict[str, Tuple[str, ...]]:
    """Per class, the calls its *default* patterns match that are still not of the
    class (a class table's ``exclude-defaults``: a call chained on a save's result,
    ``store.save_run(run).wait()``, is no second save, which ``*store.save_*`` would
    make it). Unlike ``exclude``, they leave a configuration's own patterns alone: a
    user's ``*.commit`` still matches ``self._kv_store.put(run).commit()``."""
    return _class_lists("exclude-defaults", folder)


class Globs:
    """A set of ``fnmatch`` patterns (case-sensitive) asked whether any matches a
    name. The shapes a vocabulary is made of are asked with string methods, not a
    regular expression: an exact name, ``*suffix``, ``prefix*``, ``*part*``; only the
    rest (``*ledger*.append*``, ``?``, ``[...]``) go to one compiled expression. A
    project asks some 50,000 distinct callees, and each ``.*`` alternative of an
    expression is tried at every position (docs/performance.md, "Vocabulary")."""

    def __init__(self, patterns: Iterable[str]) -> None:
        exact, suffixes, prefixes, parts, rest = set(), [], [], [], []
        for p in map(literal_subscripts, patterns):
            if any(ch in p for ch in "?["):
                rest.append(p)
                continue
            stars = p.count("*")
            inner = p.strip("*")
            if stars == 0:
                exact.add(p)
            elif "*" in inner or not inner:
                rest.append(p)  # (two or more pieces, or `*` alone)
            elif stars == 1 and p.startswith("*"):
                suffixes.append(inner)
            elif stars == 1:
                prefixes.append(inner)
            elif stars == 2 and p.startswith("*") and p.endswith("*"):
                parts.append(inner)
            else:
                rest.append(p)  # (`**x`, `x**`)
        self.exact = frozenset(exact)
        self.suffixes = tuple(suffixes)
        self.prefixes = tuple(prefixes)
        self.parts = tuple(parts)
        self.rx = re.compile("|".join(fnmatch.translate(p) for p in rest)) if rest else None

    def match(self, name: str) -> bool:
        if name in self.exact or name.endswith(self.suffixes) or name.startswith(self.prefixes):
            return True
        for part in self.parts:
            if part in name:
                return True
        return self.rx is not None and self.rx.match(name) is not None

    def any(self, names: Iterable[str]) -> bool:
        return any(self.match(n) for n in names)


def _compile(patterns: Iterable[str]) -> Optional[Globs]:
    got = Globs(patterns)
    empty = not (got.exact or got.suffixes or got.prefixes or got.parts or got.rx)
    return None if empty else got


def names_function(glob: str, modules: Sequence[str], qualname: str) -> bool:
    """Whether a ``transaction-functions`` glob names the function ``module.qualname``
    under any name of its module (``Vocabulary.declared_transaction``). A nested
    function runs where it is called, maybe after the commit, as an `on_commit`
    callback does: only a glob that names `<locals>` matches one (a second review)."""
    if "<locals>" in qualname and "<locals>" not in glob:
        return False
    return any(fnmatch.fnmatchcase(name, glob) for name in [f"{m}.{qualname}" for m in modules if m] or [qualname])


@dataclass

class Vocabulary:
    """Compiled event classes and terminal markers."""

    patterns: Dict[str, Tuple[str, ...]]
    markers: Tuple[str, ...]
    descriptions: Dict[str, str] = field(default_factory=dict)
    excludes: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    # per class: (its default patterns still in force, the calls they match that are
    # not of the class: ``load_default_scoped_excludes``); the class's other patterns
    # are a configuration's own, and match as written
    scoped: Dict[str, Tuple[Tuple[str, ...], Tuple[str, ...]]] = field(default_factory=dict)
    # the configuration's own ``transaction`` patterns (not the defaults): those alone
    # may name a ``with`` item over an object of no known class (``with conn:``), §2
    # counting "a ``with`` over a call" of the class (``direct``)
    item_transactions: Tuple[str, ...] = ()
    # ``transaction-functions``: ``module.qualname`` globs of functions a framework runs
    # inside a transaction (``declared_transaction``)
    transaction_functions: Tuple[str, ...] = ()
    # the configuration's own ``exclude-events`` (not the defaults' ``exclude`` lists):
    # those alone also take a class out of what a helper's summary carries to a call
    # (``not_excluded``)
    own_excludes: Mapping[str, Tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # (a pattern with an argument part, `*.execute("COMMIT")`, is matched apart,
        # against ``lead_names`` only: ``_Patterns``)
        self._compiled = {name: _Patterns.of(p) for name, p in self.patterns.items()}
        self._excluded = {name: _Patterns.of(p) for name, p in self.excludes.items() if p}
        self._own_excluded = {name: _Patterns.of(p) for name, p in self.own_excludes.items() if p}
        self._items = _compile(self.item_transactions)
        self._scoped = {}
        for name, (defaults, excluded) in self.scoped.items():
            own = _Patterns.of(p for p in self.patterns.get(name, ()) if p not in defaults)
            self._scoped[name] = (_compile(defaults), _compile(excluded), own)
        # every class's patterns at once: most callees match none, and one test of
        # the union turns them away where ten classes' tests would each be asked
        self._matches_any = _Patterns.of(p for pats in self.patterns.values() for p in pats)
        # (an excluded argument alone, `*conn.execute("SELECT*")` beside a broad
        # `*conn.execute`, asks for the leading string too)
        self.reads_leads = any(got is not None and got.args is not None
                               for got in (self._matches_any, *self._excluded.values()))
        self._marker_tokens = tuple(split_tokens(m) for m in self.markers if split_tokens(m))
        # ``direct`` by the names it reads: a project calls the same few thousand
        # callees over and over (37,000 calls, 7,000 distinct, on dbos + temporalio)
        self._direct: Dict[Tuple[str, Tuple[str, ...], Optional[str]], FrozenSet[str]] = {}
        # one object per distinct set of classes (most are empty): a frozenset is 216
        # bytes, and 46,000 answers on the seven packages of the bench were 10 MB
        self._sets: Dict[FrozenSet[str], FrozenSet[str]] = {}

    def canonical(self, classes: FrozenSet[str]) -> FrozenSet[str]:
        """The one shared object equal to ``classes`` (answers are kept by the
        thousand: ``direct``'s, and the pre-pass's rows, ``focus``)."""
        return self._sets.setdefault(classes, classes)

    @classmethod
    def build(
        cls,
        events: Optional[Mapping[str, Sequence[str]]] = None,
        extend_events: Optional[Mapping[str, Sequence[str]]] = None,
        markers: Optional[Sequence[str]] = None,
        exclude_events: Optional[Mapping[str, Sequence[str]]] = None,
        transaction_functions: Sequence[str] = (),
    ) -> "Vocabulary":
        """The default classes, with a configuration's ``events`` (replacing a class's
        patterns), ``extend-events`` (adding to them) and ``exclude-events`` (calls
        never of the class, whatever pattern matches them: as a default class's own
        ``exclude``, ``TRACER.log``'s ``self._output.write`` to a console stream)."""
        defaults, default_markers, descriptions = load_default_vocab()
        patterns = dict(defaults)
        for name, pats in dict(events or {}).items():
            patterns[name] = tuple(pats)
        for name, pats in dict(extend_events or {}).items():
            patterns[name] = patterns.get(name, ()) + tuple(pats)
        replaced = set(dict(events or {}))
        scoped = {name: (defaults.get(name, ()), excluded) for name, excluded in load_default_scoped_excludes().items()
                  if name not in replaced and defaults.get(name)}
        # (a pattern the configuration writes counts, even one the defaults hold too: a review)
        own_transactions = tuple(dict.fromkeys(tuple(dict(events or {}).get(TRANSACTION, ()))
                                               + tuple(dict(extend_events or {}).get(TRANSACTION, ()))))
        excludes = dict(load_default_excludes())
        for name, pats in dict(exclude_events or {}).items():
            excludes[name] = excludes.get(name, ()) + tuple(pats)
        if transaction_functions:  # the stand-in of such a function's transaction
            patterns[TRANSACTION] = patterns.get(TRANSACTION, ()) + (DECLARED_TRANSACTION,)
        own_excludes = {name: tuple(pats) for name, pats in dict(exclude_events or {}).items() if pats}
        return cls(patterns, tuple(markers) if markers is not None else default_markers, descriptions,
                   excludes, scoped, own_transactions, tuple(transaction_functions), own_excludes)

    def declared_transaction(self, modules: Sequence[str], qualname: str) -> bool:
        """Whether the configuration says a framework runs the function ``module.qualname``
        inside a transaction (``transaction-functions``; docs/decisions.md "A transaction a
        framework opens"), under any name of its module (``modules``: a namespace
        package's longer name too, ``odoo.addons.pkg.wiz``; held-out set 244)."""
        return any(names_function(p, modules, qualname) for p in self.transaction_functions)

    def direct(self, call: Call) -> FrozenSet[str]:
        """Classes a call matches by its own text (no summaries, no markers)."""
        if call.aug:  # semantics §Events: `+=` on an attribute, subscript or global/nonlocal name is a surface (a counter)
            return frozenset({EventClass.SURFACE.value}) if call.callee == "+=" else frozenset()
        if call.bare_enter:  # (``Call.bare_enter``: by the class the project phase found, if any)
            # and a transaction by the item as written (`async with self._db:` over a
            # connection whose `with` commits; docs/decisions.md "A with over an instance")
            own = _WITH_ITEM_ONLY if self._items is not None and self._items.any(item_names(call)) else frozenset()
            if not call.typed:
                return self.canonical(own) if own else frozenset()
            return self.canonical(self._match(call.typed) | own)
        lead = call.statement if self.reads_leads else None
        key = (call.callee, call.qualnames + call.typed if call.typed else call.qualnames, lead)
        known = self._direct.get(key)
        if known is None:
            names = (call.callee,) + key[1]
            known = self._direct[key] = self.canonical(self._match(names, lead_names(names, lead)))
        if EventClass.SAVE in known and NO_COMMIT in call.flags:
            # `form.save(commit=False)`: the call says it commits nothing (Django's
            # ModelForm idiom; held-out set 331; docs/decisions.md "A save told
            # `commit=False`"), as a project function's flag gate reads it
            return known - {EventClass.SAVE.value}
        if (self._items is not None and call.callee.endswith((".__enter__", ".__aenter__"))
                and (call.local_head or call.callee.startswith("self."))
                and self._items.any((call.text, call.callee.rsplit(".", 1)[0]))):
            # a typed item is named as written too (`with conn:` of `conn:
            # sqlite3.Connection`, `with self.conn:` of `conn: sqlite3.Connection`, by
            # `transaction = ["conn"]`: SPEC §2 matches a typed receiver by its text as
            # usual; held-out set 419, a review)
            return known | self.canonical(_WITH_ITEM_ONLY)
        return known

    def excludes_call(self, cls_name: str, call: Call) -> bool:
        """Whether ``call`` is never of the class by its names (a default class's
        ``exclude``, a configuration's ``[exclude-events]``): ``suggest`` proposes no
        pattern for it there."""
        names = (call.callee,) + call.qualnames + call.typed
        ex = self._excluded.get(cls_name)
        return ex is not None and ex.any(names, lead_names(names, call.statement))

    def not_excluded(self, call: Call, carried: AbstractSet[str]) -> FrozenSet[str]:
        """What a callee's summary carries to a call, less the classes the configuration's
        ``[exclude-events]`` says the call is never of by its own names (``save =
        ["*._connect"]``: the helper's schema commit is no save where it is called,
        held-out set 240; docs/decisions.md "A helper named in `[exclude-events]`"). The
        defaults' own ``exclude`` lists do not: ``io.StringIO.*`` names a project
        subclass's ``write`` too, whose file write is its own (a review)."""
        if not carried or not self._own_excluded:
            return frozenset(carried)
        names: Optional[Tuple[str, ...]] = None
        out = set(carried)
        for cls_name in carried:
            ex = self._own_excluded.get(cls_name)
            if ex is None:
                continue
            if names is None:
                names = (call.callee,) + call.qualnames + call.typed
            if ex.any(names, lead_names(names, call.statement)):
                out.discard(cls_name)
        return frozenset(out)

    def _match(self, names: Tuple[str, ...], leads: Tuple[str, ...] = ()) -> FrozenSet[str]:
        """The classes ``names`` match, and ``leads`` (``lead_names``) by the patterns
        with an argument part."""
        if self._matches_any is None or not self._matches_any.any(names, leads):
            return frozenset()
        out = set()
        for cls_name, patterns in self._compiled.items():
            if patterns is None or not patterns.any(names, leads):
                continue
            ex = self._excluded.get(cls_name)
            if ex is not None and ex.any(names, leads):
                continue
            scoped = self._scoped.get(cls_name)
            if scoped is not None:
                defaults, excluded, own = scoped
                by_default = defaults is not None and defaults.any(names) and not (
                    excluded is not None and excluded.any(names))
                if not by_default and not (own is not None and own.any(names, leads)):
                    continue
            out.add(cls_name)
        return frozenset(out)

    def carries_marker(self, call: Call) -> bool:
        """Whether the call's marker token runs (its arguments, the assignments that
        bind the plain names they read, its own callee's last component; semantics
        §Events) hold a terminal marker: one token, or a multi-word marker's tokens in
        a row."""
        return self.marker_of(call) is not None

    def terminal_by(self, call: Call) -> Optional[str]:
        """What makes the call a terminal append by itself: "" for a ``terminal-append``
        pattern it matches, its marker (``marker_of``) otherwise, None for neither (a
        helper down its summary did it)."""
        if EventClass.TERMINAL_APPEND in self.direct(call):
            return ""
        return self.marker_of(call)

    def marker_of(self, call: Call) -> Optional[str]:
        """The terminal marker ``carries_marker`` finds in the call, as its tokens read
        and quoted (``"failed"``, ``"dead letter"``), or None: what a witness says made
        an append terminal. A marker only an assignment's right-hand side gave (a plain
        name the arguments read, one level deep) says so: ``"failed" from `outcome`,
        line 12``, since nothing on the call's own line reads "failed"
        (held-out set 89, pydantic-ai)."""
        # each run's marker, once each, in order: `event_status = DONE` and, in a
        # handler, `event_status = ERROR`, both read by `event_update(..., event_status)`,
        # make it terminal by either, whichever walk the witness takes (held-out set 71)
        direct = call.marker_runs[:len(call.marker_runs) - len(call.bound_runs)]
        found: Dict[str, Optional[str]] = {}  # marker -> the name that gave it (None: the call)
        lines: Dict[str, List[int]] = {}  # name -> the lines of its assignments that did
        for run in direct:
            m = found_marker((run,), self._marker_tokens)
            if m is not None:
                found.setdefault(" ".join(m), None)
        for name, line, run in call.bound_runs:
            m = found_marker((run,), self._marker_tokens)
            if m is not None:
                # (an assignment on the call's own lines is the call's: `summary =
                # self._terminal_result(job_id, summary)`; held-out set 336)
                source = None if call.span.line <= line <= call.span.end_line else name
                found.setdefault(" ".join(m), source)
                if source is not None and found[" ".join(m)] == name and line not in lines.setdefault(name, []):
                    lines[name].append(line)
        if not found and call.own_run:
            own = found_marker((call.own_run,), self._marker_tokens)
            if own is not None:
                found[" ".join(own)] = None
        if not found:
            return None
        shown = list(found.items())[:3]
        groups: List[Tuple[Optional[str], List[str]]] = []  # markers of one source, in order
        for marker, source in shown:
            if groups and groups[-1][0] == source:
                groups[-1][1].append(marker)
            else:
                groups.append((source, [marker]))
        out = []
        for source, ms in groups:
            text = " or ".join(f'"{x}"' for x in ms)
            if source is not None:
                at = lines[source]
                text += f" from `{source}`, line{'s' if len(at) > 1 else ''} {', '.join(map(str, at))}"
            out.append(text)
        return " or ".join(out + (['"..."'] if len(found) > 3 else []))

    def is_guard(self, run: Tuple[str, ...]) -> bool:
        """Whether an ``is_``/``has_`` predicate asks if a record already ended: what
        follows ``is``/``has`` is exactly a word of ``GUARD_WORDS`` or a terminal marker
        (``is_finished``, ``is_final``, ``has_failed``; not ``is_final_attempt``,
        ``is_not_failed``; docs/decisions.md "Idempotency guards")."""
        rest = run[1:]
        return (len(rest) == 1 and rest[0] in GUARD_WORDS) or rest in self._marker_tokens

    def classify(self, call: Call, carried: FrozenSet[str] = frozenset()) -> FrozenSet[str]:
        """Classes of a call node: its own matches plus what a callee's summary
        carries; an ``append`` with a terminal marker in its arguments is a
        ``terminal-append``, and every ``terminal-append`` is an ``append``."""
        direct = self.direct(call)
        classes = set(direct) | self.not_excluded(call, carried)
        # a record built for another call appends only incidentally through its summary
        # (docs/decisions.md "A record built for another call")
        built = call.builds and EventClass.APPEND not in direct and EventClass.TERMINAL_APPEND not in direct
        promoted = marked = False
        classes -= OWN_MARKS  # (a node's own marks: never carried)
        if EventClass.FILE_WRITE in direct:
            classes.add(OWN_WRITE)  # the call itself writes a file
        if EventClass.RENAME in direct:
            classes.add(OWN_RENAME)  # the call itself renames one
        if EventClass.APPEND in classes and not built and self.carries_marker(call):
            promoted = EventClass.TERMINAL_APPEND not in classes
            marked = True
            classes.add(EventClass.TERMINAL_APPEND.value)
        if EventClass.TERMINAL_APPEND in classes:
            classes.add(EventClass.APPEND.value)
            if promoted or EventClass.TERMINAL_APPEND in direct:
                classes.add(OPEN_TERMINAL)  # its own, outside any guard of a callee
            if marked or EventClass.TERMINAL_APPEND in direct:
                classes.add(OWN_TERMINAL)  # the call itself ends a record
        return frozenset(classes)

    def is_suppressor(self, call: Call) -> bool:
        return EventClass.SUPPRESSOR in self.direct(call)
