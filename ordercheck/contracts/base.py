"""A rule, and the base of the contract kinds (semantics §Contracts).

A rule file (``rules/*.toml``) is data: id, name, severity, kind, the event classes it
relates, a message template, a Markdown explanation and examples. Its ``kind`` names
the class the rule becomes: each contract kind is one subclass of ``Rule`` in its own
module of this package, registered under its TOML name by ``__init_subclass__``::

    class Sequence(Ordering, kind="sequence"):
        roles = ("first", "then")
        def check(self, graph): ...

The class declares everything that is particular to its kind: the roles its TOML must
give (``roles``, checked by ``validate``), how ``--explain`` describes it
(``summary``), the check on one function's graph (``check``), the fields of its
message template and the related places of a finding (``message_fields``), and how
its witness reads (``loud``, ``escaping``, ``first_role``). Kinds not checked on
graphs (``on_graph = False``) are reported by the pipeline's own stages.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    AbstractSet,
    ClassVar,
    Dict,
    FrozenSet,
    Iterable,
    List,
    Optional,
    Sequence,
    Tuple,
    Type,
)

from ..errors import UsageError
from ..findings import Related
from ..kinds import EdgeKind, EventClass, NodeKind, is_near
from .paths import Classes, Reach, witness_rank

if TYPE_CHECKING:
    import networkx as nx

    from ..cfg import HandlerRegion
    from ..ir import Call, Span

ROLE_KEYS = ("first", "then", "barrier", "unless-after", "event")
SEVERITIES = {"error": 1, "warning": 2, "info": 3, "hint": 4}

ClassExpr = Tuple[str, ...]


def expr_matches(expr: ClassExpr, classes: FrozenSet[str], also: AbstractSet[str] = frozenset()) -> bool:
    """``["append", "!terminal-append"]``: carries append and not terminal-append.
    ``also``: what the same call performs besides on that way back (``call_points``),
    which a negated class excludes too."""
    if not expr:
        return False
    positive = [c for c in expr if not c.startswith("!")]
    negative = [c[1:] for c in expr if c.startswith("!")]
    if positive and not any(c in classes for c in positive):
        return False
    if not positive and not classes:
        return False
    return not any(c in classes or c in also for c in negative)


def implies(expr: ClassExpr, other: ClassExpr) -> bool:
    """Whether every node ``expr`` matches also matches ``other`` (``expr_matches``,
    whatever else the node carries): each class ``expr`` accepts is one ``other``
    accepts, and ``other`` rules out nothing ``expr`` does not."""
    positive = {c for c in expr if not c.startswith("!")}
    negative = {c[1:] for c in expr if c.startswith("!")}
    other_positive = {c for c in other if not c.startswith("!")}
    other_negative = {c[1:] for c in other if c.startswith("!")}
    return bool(positive) and positive <= other_positive and other_negative <= negative


def expr_text(expr: ClassExpr) -> str:
    pos = [c for c in expr if not c.startswith("!")]
    neg = [c[1:] for c in expr if c.startswith("!")]
    text = " or ".join(pos)
    if neg:
        text += " (not " + ", ".join(neg) + ")"
    return text


def matching(classes: Classes, expr: ClassExpr, nodes: Iterable[object], also: Optional[Classes] = None) -> set:
    """The nodes among ``nodes`` whose classes match ``expr``; ``also``: per outcome
    point of a call (``call_points``), what the call performs besides on that way."""
    if not also:
        return {n for n in nodes if n in classes and expr_matches(expr, classes[n])}
    return {n for n in nodes if n in classes and expr_matches(expr, classes[n], also.get(n, frozenset()))}


def near_matching(classes: Classes, expr: ClassExpr, nodes: Iterable[object], distanced: FrozenSet[str],
                  also: Optional[Classes] = None) -> set:
    """``matching``, where a class of ``distanced`` (classes of ``kinds.NEARNESS``)
    makes a node match only when it is near: the node's own call's, or its callee's
    own (``kinds.is_near``). A negated class still excludes at any distance."""
    positive = [c for c in expr if not c.startswith("!")]
    if not positive or not any(c in distanced for c in positive):
        return matching(classes, expr, nodes, also)
    return {n for n in matching(classes, expr, nodes, also)
            if any(c in classes[n] and (c not in distanced or is_near(classes[n], c)) for c in positive)}


def call_points(g: "nx.DiGraph", classes: Classes) -> Dict[object, FrozenSet[str]]:
    """For a call whose callee has conditional effects, per ``outcome`` point of it
    (the branch of the test it is): what the call node performs, on every way back.
    A negated class looks there too: on that branch the call performed both (an
    atomic-write helper that writes, then renames only when it returns True, is no
    rename end of OC301's ``["rename", "!file-write"]`` on its True branch:
    docs/decisions.md "OC301's `then`"). The call node itself is read alone: what
    the call performs besides depends on the branch that follows it.

    Also per ``raised`` point of a call (its callee's on-raise effects), the rename
    the call performs on its other ways: an atomic-write helper whose rename raised
    wrote its temporary file and is still no write end of OC301 (rules.md, OC301:
    such a helper is neither end of a pair; held-out set 405, jaros' ``_write_status``
    paired with the caller's later move of another file)."""
    points: Dict[object, List[object]] = {}
    raised: Dict[object, List[object]] = {}
    for n, data in g.nodes(data=True):
        if data.get("call") is None:
            continue
        if data.get("kind") == NodeKind.OUTCOME:
            points.setdefault(data["call"].id, []).append(n)
        elif data.get("kind") == NodeKind.RAISED:
            raised.setdefault(data["call"].id, []).append(n)
    if not points and not raised:
        return {}
    every: Dict[object, FrozenSet[str]] = {}
    for n, data in g.nodes(data=True):
        if data.get("kind") == NodeKind.CALL and data.get("call") is not None and (
                data["call"].id in points or data["call"].id in raised):
            every[data["call"].id] = every.get(data["call"].id, frozenset()) | classes.get(n, frozenset())
    out = {n: every[cid] for cid, nodes in points.items() if every.get(cid) for n in nodes}
    for cid, nodes in points.items():  # (a helper that renames only when it returns True)
        if cid in raised:
            for n in nodes:
                every[cid] = every.get(cid, frozenset()) | classes.get(n, frozenset())
    for cid, nodes in raised.items():
        files = every.get(cid, frozenset()) & _FILE_ENDS
        if files:
            out.update((n, out.get(n, frozenset()) | files) for n in nodes)
    return out


#: the class an atomic-write helper's call performs that its ``raised`` point counts
#: besides its own (``call_points``): its rename, so the temporary file it wrote before
#: the rename raised is no write end. Not its write: a helper that renamed and then
#: raised out of a later write did rename (scrapy's `render`, session 35: still an
#: OC301 rename end, as the session's full suite showed)
_FILE_ENDS = frozenset({EventClass.RENAME.value})


@dataclass(frozen=True)
class Rule:
    """One rule, an instance of its kind's class (``rulebook.parse_rule`` builds it)."""

    id: str
    name: str
    severity: str
    default: bool
    kind: str
    message: str
    explanation: str
    first: ClassExpr = ()
    then: ClassExpr = ()
    barrier: ClassExpr = ()
    unless_after: ClassExpr = ()
    event: ClassExpr = ()
    # (not in the rule's repr or equality: a run's findings never depend on them, and a
    # shipped rule reads them only when asked, ``rulebook.ExamplesLater``)
    examples: Sequence[dict] = field(default=(), repr=False, compare=False)
    source: str = ""
    help: str = ""  # short Markdown for whoever reads an alert (SARIF help, fullDescription)

    #: every contract kind by its TOML name, in the order the package defines them
    #: (the order an unknown kind's error lists them in)
    KINDS: ClassVar[Dict[str, Type["Rule"]]] = {}
    #: the kind's TOML name (set by registration)
    KIND: ClassVar[str] = ""
    #: the roles a rule of this kind must give (`first`, `then`, `event`, ...)
    roles: ClassVar[Tuple[str, ...]] = ()
    #: the placeholders its ``message`` may use (``rulebook`` refuses any other: a
    #: user rule's `{evnt_text}` was printed as written); a kind whose hits stand in a
    #: handler also names ``handler`` and ``handler_line`` (``diagnose.to_finding``
    #: fills them)
    fields: ClassVar[Tuple[str, ...]] = ()
    #: the roles whose classes a function's graph must all hold for a finding (the
    #: outline pre-pass's question, ``focus.question_for``); None: any one role's
    finding_needs: ClassVar[Optional[Tuple[str, ...]]] = None
    #: checked on each function's graph by ``check`` (False: reported by a stage of
    #: the pipeline: parse errors by the reader, unused suppressions by ``suppression``)
    on_graph: ClassVar[bool] = True
    #: reads the ordering classes: a transaction's body commits at its normal exit
    #: (semantics §Events Transactions)
    ordering: ClassVar[bool] = False
    #: on whatever the selection says; only its exact code in an ignore turns it off
    always_on: ClassVar[bool] = False
    #: reports the suppression comments that suppressed nothing
    on_suppressions: ClassVar[bool] = False
    #: event classes a witness shows besides the rule's own roles
    loud: ClassVar[Tuple[str, ...]] = ()
    #: the anchor's event is named by what escapes its callee (a summary's "escape" part)
    escaping: ClassVar[bool] = False
    #: what a function must hold itself for a finding, when no event class says it
    #: (``kinds.HOLDS_HANDLER``: an ``except`` clause): the outline pre-pass's question
    #: (``focus.Question.own``); None: its roles' classes say it
    holds: ClassVar[Optional[str]] = None

    def __init_subclass__(cls, kind: str = "", **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if kind:
            if kind in Rule.KINDS:
                raise TypeError(f"contract kind {kind!r} is defined twice ({Rule.KINDS[kind].__name__}, {cls.__name__})")
            cls.KIND = kind
            Rule.KINDS[kind] = cls

    # ------------------------------------------------------------ the rule file

    @classmethod
    def validate(cls, roles: Dict[str, ClassExpr], path: str) -> None:
        """Raise a ``UsageError`` (file and key) when the TOML lacks a role the kind needs."""
        for needed in cls.roles:
            if not roles[needed]:
                raise UsageError(f"a `{cls.KIND}` rule needs `{needed}`", path, needed)

    def summary(self) -> str:
        """The contract in one line (``--explain``, ``--list-rules``, docs/rules.md, SARIF)."""
        return self.kind

    def format_message(self, fields: Dict[str, object]) -> str:
        """The message template filled in; unknown placeholders stay as written."""

        class Keep(dict):
            def __missing__(self, key: str) -> str:
                return "{" + key + "}"

        try:
            return self.message.format_map(Keep(fields))
        except (ValueError, IndexError, AttributeError):
            return self.message

    def documented_examples(self, heading: str = "##") -> str:
        """The examples that carry a `doc` caption, as Markdown (shown by `--explain`
        and in docs/rules.md after the explanation); "" when there are none."""
        shown = [e for e in self.examples if isinstance(e.get("doc"), str) and isinstance(e.get("code"), str)]
        if not shown:
            return ""
        out = [f"{heading} Examples", ""]
        for e in shown:
            found = ", ".join(f"{x.get('code')} at line {x.get('line')}" for x in e.get("expect", []) if isinstance(x, dict))
            out += [f"{e['doc']} *({'flagged: ' + found if found else 'not flagged'})*", "",
                    "```python", e["code"].rstrip(), "```", ""]
        return "\n".join(out).rstrip() + "\n"

    # ------------------------------------------------------------ the check

    def check(self, graph: "GraphInput") -> List["Hit"]:
        """This rule's violations on one function's graph."""
        return []

    # ------------------------------------------------------------ the finding

    def message_fields(self, hit: "Hit", g: nx.DiGraph, classes: Classes) -> Tuple[Dict[str, object], List[Related]]:
        """The kind's fields of the message template and its related places (the
        ``handler`` fields of a hit in a handler, and the places a summary's event
        was performed, are every kind's: ``diagnose.to_finding``)."""
        return {}, []

    def statement_lines(self, hit: "Hit", lines: Tuple[int, int]) -> Tuple[int, int]:
        """The lines whose suppression comments silence a finding (by default the
        anchor's statement, ``lines``)."""
        return lines

    def step_kind(self, cls: FrozenSet[str]) -> str:
        """The class a witness step or a related place names an event by: the first
        of the rule's roles it carries."""
        for role in (self.first, self.then, self.event, self.barrier, self.unless_after):
            for c in role:
                if not c.startswith("!") and c in cls:
                    return c
        if not cls:  # a swallowed event that only raises (nothing performed on return)
            return next((c for c in self.event + self.then if not c.startswith("!")), "event")
        # then a class that makes a handler loud (a `with` exit that also writes a
        # file: "surface", the class its text shows; a held-out set, session 40)
        return next((c for c in self.loud if c in cls), None) or sorted(cls)[0]

    def counted(self, cls: FrozenSet[str]) -> FrozenSet[str]:
        """Of a node's classes, those the rule counts there (a witness shows no step
        for the others; ``Sequence`` leaves out far file writes and renames)."""
        return cls

    def shown_classes(self) -> set:
        """The event classes a witness shows a step for."""
        relevant = {c for role in (self.first, self.then, self.event, self.barrier, self.unless_after) for c in role if not c.startswith("!")}
        relevant.update(self.loud)
        return relevant


@dataclass
class Hit:
    """A contract violation before it is dressed as a ``Finding``."""

    rule: Rule
    anchor: object  # the node the finding is anchored at
    path: List[object]  # one shortest witness path (graph nodes, ENTRY first)
    first: Optional[object] = None  # the earlier event (sequence, at-most-once)
    handler: Optional[HandlerRegion] = None
    key: object = None  # dedupe key: the anchored call site / handler


@dataclass
class GraphInput:
    """What a check reads of one function: its graph and the classes of its nodes."""

    g: nx.DiGraph
    classes: Classes  # what each node performs
    ordered: Classes  # what the ordering kinds read (transactions commit at their exit)
    raises: Optional[Classes]  # the classes whose failure each node can raise (None: ``classes``)
    swallow_types: Sequence[str]  # exception types that count as swallowing (config)
    reachable: Reach  # the nodes reachable from ENTRY, with their BFS tree
    # the nodes that carry a callee's summary (``effects.NodeSets.callees``): the
    # order of their own classes is the callee's business (semantics §Events)
    carried: AbstractSet[object] = frozenset()
    # per outcome point of a call with conditional effects, what its call node performs (``call_points``)
    also: Dict[object, FrozenSet[str]] = field(default_factory=dict)
    # per (transaction commit, class), the body's nodes that performed it
    # (``managers.transaction_view``): a commit reads what they read (``paths.ItemLoops``)
    committed: Dict[Tuple[object, str], List[object]] = field(default_factory=dict)
    # per outcome point of a call, what the call performs on every way back (``effects.NodeSets.must``)
    must: Dict[object, FrozenSet[str]] = field(default_factory=dict)

    def self_ordered(self, node: object) -> bool:
        """Whether ``node``'s classes are several events in an order of their own: a
        call carrying a summary, a manager's exit, a transaction's commit."""
        return node in self.carried or self.g.nodes[node].get("kind") == NodeKind.WITH_EXIT

    def classes_for(self, rule: Rule) -> Classes:
        return self.ordered if rule.ordering else self.classes


# ------------------------------------------------------------ how a node reads


def node_span(data: dict) -> Span:
    """Where a node stands for a finding: a ``with`` exit at its manager call (semantics §Contracts)."""
    if data.get("kind") == NodeKind.WITH_EXIT and data.get("manager") is not None:
        return data["manager"].span
    return data["span"]


def node_text(data: dict) -> str:
    """A node's text as a finding names it: a ``with`` exit by its manager call, a
    callee's ``raised`` or ``outcome`` point by its call's text (the graph's label
    "`render(dst)  (raised)`" is no code)."""
    if data.get("kind") == NodeKind.WITH_EXIT and data.get("manager") is not None:
        return data["manager"].text
    if data.get("kind") in (NodeKind.RAISED, NodeKind.OUTCOME, NodeKind.EXHAUSTED) and data.get("call") is not None:
        return data["call"].text
    return data["text"]


def short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def call_text(call: Call, limit: int = 60) -> str:
    """A call's text as a message names it: whole when short, else by what it calls
    (`self.router.CompleteInitialRouter(...)`, not cut mid-name; held-out set 318)."""
    text = call.text
    if len(text) <= limit:
        return text
    return _call_head(text, call, limit) or short(text, limit)


def message_text(data: dict, limit: Optional[int] = 60) -> str:
    """A node's text as a message names it: ``node_text``, and a ``with`` exit as the
    method that runs there, ``AutoCommit(ledger).__exit__`` (``__aexit__`` for an
    ``async with``): "ledger append `AutoCommit(ledger)` after the state save" read as
    if the constructor appended (held-out sets 82 and before). ``limit``: shortened to
    it (the suffix kept), None for the whole text."""
    text = node_text(data)
    manager = data.get("manager") if data.get("kind") == NodeKind.WITH_EXIT else None
    if manager is None:
        if limit is None or len(text) <= limit:
            return text
        return _call_head(text, data.get("call"), limit) or short(text, limit)
    return exit_text(text, manager, limit)


_DOTTED_HEAD = re.compile(r"^(?:await )?[A-Za-z_][\w.]*$")


def _call_head(text: str, call: Optional[Call], limit: int) -> Optional[str]:
    """A long call named by what it calls, as written: `self._nb_man.cell_complete(...)`,
    not `self._nb_man.cell_complete(self._nb.cells[index], cell_in...` (held-out set
    117: the messages of two such calls said neither's name whole). Only when the
    text's first parenthesis holds the call's own arguments (`a.b(c).d(e)` stays cut)."""
    head = text.split("(", 1)[0]
    if (call is None or "(" not in text or "(" in call.callee or len(head) + 5 > limit or not _DOTTED_HEAD.match(head)
            or head.rsplit(".", 1)[-1].removeprefix("await ") != call.callee.rsplit(".", 1)[-1]):
        return None
    return head + "(...)"


def exit_text(text: str, manager: Call, limit: Optional[int] = 60) -> str:
    """``text``, the text of the ``with`` item ``manager``, as the exit method that runs
    there: ``AutoCommit(ledger).__exit__`` (``message_text``)."""
    suffix = ".__aexit__" if manager.async_with else ".__exit__"
    if limit is None or len(text) + len(suffix) <= limit:
        return text + suffix
    compact = f"{manager.callee}(...)"  # `rewrite(...).__exit__`, not `rewrite(path, enc....__exit__`
    if not manager.bare_enter and "(" in text and len(compact) + len(suffix) <= limit:
        return compact + suffix
    return short(text, limit - len(suffix)) + suffix


class Ordering(Rule):
    """The kinds that order two events on a path (``sequence``, ``at-most-once``,
    ``requires-before``): they read the ordering classes, and their messages name the
    anchored event as ``then`` and the earlier one as ``first``."""

    ordering = True
    #: (``event_*`` name the anchor too: an ``at-most-once`` rule's role is ``event``)
    fields = Rule.fields + ("then_text", "then_line", "first_text", "first_line", "first_pass", "event_text",
                            "event_line")

    def message_fields(self, hit: Hit, g: nx.DiGraph, classes: Classes) -> Tuple[Dict[str, object], List[Related]]:
        anchor = g.nodes[hit.anchor]
        fmt: Dict[str, object] = dict(then_text=message_text(anchor), then_line=node_span(anchor).line)
        fmt.update(event_text=fmt["then_text"], event_line=fmt["then_line"], first_pass="")
        related: List[Related] = []
        if hit.first is not None:
            first = g.nodes[hit.first]
            first_span = node_span(first)
            fmt.update(first_text=message_text(first), first_line=first_span.line)
            if _round_the_loop(g, hit.path, hit.first, hit.anchor):
                # ("after the file write at line 309" said of a rename at line 307 read
                # backwards: the write was a pass before; held-out sets 157, 163). Only
                # an anchor in the body of the loop gone round: one after the loop, or in
                # its `else`, is after it anyway (a held-out set, 170); one in the other
                # branch of the same pass is not (held-out set 194)
                fmt["first_pass"] = " (on an earlier pass of the loop)"
            related.append(Related(first_span, f"{self.first_role(classes.get(hit.first, frozenset()))}: "
                                               f"{message_text(first, None)}"))
        return fmt, related

    def first_kind(self, cls: FrozenSet[str]) -> str:
        """The class the earlier event is named by: of the rule's `first` role, the
        first class it carries, else ``step_kind``'s (its witness step says the same:
        ``diagnose.role_kind``; held-out set 118 and a review)."""
        return next((c for c in self.first if not c.startswith("!") and c in cls), None) or self.step_kind(cls)

    def first_role(self, cls: FrozenSet[str]) -> str:
        """What the related place of the earlier event says it did."""
        return f"{self.first_kind(cls)} here"


def _round_the_loop(g: nx.DiGraph, path: List[object], first: object, anchor: object) -> bool:
    """Whether the witness goes round a loop (a back edge) between the earlier event
    and the anchored one, and the anchored one stands in that loop's body: the earlier
    one ran on an earlier pass. After its last way back to the loop's head the walk
    enters the body again (the head's true edge: a `for`'s or a `while`'s, also in a
    graph whose correlated tests copied the head) and the anchor lies within the loop's
    lines. An anchor the loop's way out reaches (its `else`, a `with` exit around the
    loop that renames: held-out sets 170, 191) is after the earlier event anyway."""
    try:
        end = len(path) - 1 - path[::-1].index(anchor)
        start = max(i for i in range(end) if path[i] == first)
    except ValueError:
        return False
    back = [i + 1 for i in range(start, end)
            if g.has_edge(path[i], path[i + 1]) and g.edges[path[i], path[i + 1]].get("kind") == EdgeKind.LOOP]
    if not back:
        return False
    at = head = back[-1]
    # (a test that calls, `while q.pending():`, decides at its last call: the walk goes
    # from the head through the test's calls to their true edge; held-out set 250)
    while at < end and g.has_edge(path[at], path[at + 1]) \
            and g.edges[path[at], path[at + 1]].get("kind") not in (EdgeKind.TRUE, EdgeKind.FALSE) \
            and g.nodes[path[at + 1]].get("kind") == NodeKind.CALL:
        at += 1
    if at >= end or not g.has_edge(path[at], path[at + 1]) or g.edges[path[at], path[at + 1]].get("kind") != EdgeKind.TRUE:
        return False
    loop, here = g.nodes[path[head]].get("span"), node_span(g.nodes[anchor])
    return loop is None or here is None or loop.line <= here.line <= loop.end_line


# ------------------------------------------------------------ every rule on one graph


def evaluate(
    g: nx.DiGraph,
    classes: Classes,
    rules: Iterable[Rule],
    swallow_types: Sequence[str] = (),
    raises: Optional[Classes] = None,
    ordered: Optional[Classes] = None,
    carried: AbstractSet[object] = frozenset(),
    committed: Optional[Dict[Tuple[object, str], List[object]]] = None,
    must: Optional[Dict[object, FrozenSet[str]]] = None,
) -> List[Hit]:
    """Every hit of every rule on one graph, one per (rule, anchor site).
    ``ordered``: the classes the ordering kinds read where they differ from
    ``classes`` (a transaction's body commits at once: semantics §Events Transactions);
    ``committed``: the body's nodes each commit's classes come from; ``must``: per
    outcome point of a call, what the call performs on every way back."""
    graph = GraphInput(g, classes, classes if ordered is None else ordered, raises, swallow_types, Reach(g), carried,
                       call_points(g, classes), committed or {}, must or {})
    out: List[Hit] = []
    for rule in rules:
        # of an anchor's copies (a `finally` body's, a state's of correlated tests), the
        # hit with the shortest witness, then the one that fails on fewer edges, then
        # the first (held-out sets 71, 72; docs/decisions.md "Of an anchor's copies, the
        # shortest witness")
        best: Dict[object, Tuple[tuple, int, Hit]] = {}
        for i, h in enumerate(rule.check(graph)):
            rank = witness_rank(g, h.path, h.anchor)
            if h.key not in best or rank < best[h.key][0]:
                best[h.key] = (rank, best[h.key][1] if h.key in best else i, h)
        out.extend(h for _, _, h in sorted(best.values(), key=lambda item: item[1]))
    return out
