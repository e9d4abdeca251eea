"""Stage 5 — hits become findings: the message, the witness steps, related places.

A ``Hit`` from the contracts is graph nodes; a ``Finding`` is what a user reads: the
rule's message filled in, one step per event and branch point of the witness path
(with the callee statement for events carried by a summary), and related locations
(the ``first`` event, the swallowing handler).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple, cast

import networkx as nx

from . import contracts
from . import effects as effmod
from . import managers as mgrmod
from . import summaries as summod
from .contracts import Rule, node_span, node_text
from .contracts.paths import KEEP, MAX_SEGMENT
from .findings import Finding, Related, Step
from .ir import Call, FileFacts, FunctionFacts, Span, utf16_col
from .kinds import NEARNESS, EdgeKind, EventClass, NodeKind, RegionKind, StmtKind, Way

Committed = Dict[Tuple[object, str], List[object]]


def ordering_classes(g: nx.DiGraph, classes: Dict[object, FrozenSet[str]]
                     ) -> Tuple[nx.DiGraph, Dict[object, FrozenSet[str]], Committed]:
    """The graph and node classes the ordering contracts read: a transaction's body
    commits at its normal exit, split by what its walks did (semantics §Events
    Transactions); ``swallowed`` reads ``classes``. Also, per (commit, class), the
    body's nodes that performed it: a message names the call, not the manager."""
    return mgrmod.transaction_view(g, classes)


def classes_for(rule: Rule, classes, ordered):
    """The node classes a rule's hits were found with."""
    return ordered if rule.ordering else classes


VERBS: Dict[str, str] = {
    EventClass.SAVE: "saves", EventClass.APPEND: "appends", EventClass.TERMINAL_APPEND: "appends a terminal record",
    EventClass.SURFACE: "reports", EventClass.FILE_WRITE: "writes", EventClass.FSYNC: "syncs", EventClass.RENAME: "renames",
}


def _part(g: nx.DiGraph, n: object, rule: Optional[Rule] = None, raising: bool = False) -> str:
    """Which part of the callee's summary a node stands for."""
    data = g.nodes[n]
    if data["kind"] == NodeKind.WITH_EXIT:  # a project manager's exit (semantics §Events)
        return "exit-raise" if data.get("way") == Way.RAISE else "exit"
    if data["kind"] == NodeKind.RAISED:
        return "exit-raising" if data.get("exit_raised") else "raise"
    if data["kind"] == NodeKind.OUTCOME:
        return "true" if data["value"] else "false"
    if raising or (rule is not None and rule.escaping):
        return "escape"
    if data["kind"] == NodeKind.CALL and "with_id" in data:
        return "entry"  # a manager generator's code before its ``yield``
    return "return"


def case_text(g: nx.DiGraph, n: object, cls: str) -> str:
    """How a carried class got to a point: "saves, then raises" for an on-raise effect,
    "saves only when `_claim` returns True" for a conditional one."""
    data = g.nodes[n]
    verb = VERBS.get(cls, f"performs {cls}")
    if data["kind"] == NodeKind.RAISED:
        return f"{verb}, then raises"
    if data["kind"] == NodeKind.OUTCOME:
        name = data["call"].callee.rsplit(".", 1)[-1]
        return f"{verb} only when `{name}` returns {data['value']}"
    if data["kind"] == NodeKind.EXHAUSTED:
        name = data["call"].callee.rsplit(".", 1)[-1]
        # (not "after its last `yield`": a guard's `save(); return` before its loop of
        # `yield`s is one too; a review of session 62)
        return f"{verb} once it yields no more, when the loop has taken every item of `{name}`"
    return ""


def call_shown(call: Call) -> str:
    """A call's text as a witness shows it: shortened where long, with the method it
    calls kept when the cut took it (``ledger.NodeHistory(node_id=..., ...`` wrapped
    over lines then ``.create()``: ``... .create(...)``; held-out set 60). The
    fingerprint and the message keep the call's text as it is."""
    text = call.text
    name = call.callee.rsplit(".", 1)[-1]
    cut = text.endswith("...") or call.span.end_line > call.span.line  # (joined lines stop at the limit too)
    if cut and not text.endswith("...") and (not text.endswith(")") or text.count("(") > text.count(")")):
        # a call over several lines cut at its first one's end says so (held-out set 122:
        # `journal.append(_JournalEntry(lock_version=..., id=entry.id,` read as whole)
        text += " ..."
    if not cut or not name.isidentifier() or name.startswith("__") or name in text or "." not in call.callee:
        return text
    return f"{text} .{name}(...)" if text.endswith("...") else f"{text} ... .{name}(...)"


def role_kind(rule: Rule, cls: FrozenSet[str], role: Optional[Tuple[str, ...]]) -> str:
    """The class a step or a related place names an end of a hit by: of the classes
    of the role it plays, the first it carries; else the rule's first role it
    carries (``Rule.step_kind``)."""
    if role:
        for c in role:
            if not c.startswith("!") and c in cls:
                return c
    return rule.step_kind(cls)


def hit_roles(hit: "contracts.Hit") -> Dict[object, Tuple[str, ...]]:
    """The role each end of a hit plays: its earlier event the rule's ``first``, its
    anchor the ``then`` (an ordering) or the ``event``."""
    rule = hit.rule
    out: Dict[object, Tuple[str, ...]] = {}
    if hit.first is not None:
        out[hit.first] = tuple(rule.first)
    if hit.anchor is not None and hit.anchor != hit.first:
        out[hit.anchor] = tuple(rule.then or rule.event)
    return out


def via_text(summ: summod.Summaries, callee: str, cls: str, part: str = "return",
             flags: Sequence[Tuple[str, bool]] = ()) -> Tuple[str, Optional[summod.Origin]]:
    """The helpers down to the call that performs ``cls`` for a call of ``callee``
    (with the call's flag arguments: ``Summaries.via``), and that call's origin."""
    chain = summ.via(callee, cls, part, flags=flags)
    if not chain:
        return "", None
    names = [summod.split_key(k)[1] for k, _ in chain]
    if len(names) > VIA_SHOWN:  # the first helpers and the one that performs it
        left = len(names) - VIA_SHOWN + 1
        names = names[:VIA_SHOWN - 2] + [f"… ({left} more)"] + names[-1:]
    last = chain[-1][1]
    return " → ".join(names + [call_shown(last.call)]) + f" at {last.path}:{last.call.span.line}", last


#: the classes a ``sequence`` pairing files counts only when near (OC301's): a call whose
#: own pattern makes one has no "via" to a write further down, which the rule does not
#: count (held-out set 75, s3cmd's configured `*.object_get`)
_OWN_BY_PATTERN = frozenset({EventClass.FILE_WRITE.value, EventClass.RENAME.value})


#: ``Vocabulary.direct``: the classes a call matches by its own text
Direct = Callable[[Call], FrozenSet[str]]


def own_event(cls: FrozenSet[str], k: str, data: Optional[dict] = None, direct: Optional[Direct] = None) -> bool:
    """Whether a node performs ``k`` by its own call's pattern: its step and related
    places name no helper down its summary. For a class whose nearness counts
    (``_OWN_BY_PATTERN``) the node's own mark says so; for a class without nearness
    (``save``, ``append``) the call node's own match (``direct``) does: a call a
    pattern names is the event whatever its helpers do (held-out set 80, a `*.copy`
    that also reached a save three helpers down showed that save as its "via"). A
    terminal append keeps its "via", which says where its marker is (``terminal_note``);
    a callee's ``raised`` and ``outcome`` points are its summary's, and keep theirs."""
    if k in _OWN_BY_PATTERN:
        return NEARNESS[k][0] in cls
    if k in NEARNESS or direct is None or data is None or data.get("kind") != NodeKind.CALL:
        return False
    call = data.get("call")
    return call is not None and k in direct(call)


#: the helpers a "via" names at most; a longer chain shows its first ones, how many
#: it leaves out, and the one whose call performs the event (held-out set 116: five
#: class-qualified helpers made a witness line of 300 characters; the performing
#: call's place is also a related location)
VIA_SHOWN = 4


#: what ``Vocabulary.marker_of`` adds to a marker an assignment gave
_PROVENANCE = re.compile(r" from `[^`]+`, lines? \d+(?:, \d+)*")
_PROVENANCE_PARTS = re.compile(r" from `([^`]+)`, lines? (\d+(?:, \d+)*)")


def _provenance_at(text: str, path: str) -> str:
    """`` from `event`, line 3`` of a helper's call as `` from `event` at t.py:3``:
    its lines are in the helper's file."""
    m = _PROVENANCE_PARTS.fullmatch(text)
    return f" from `{m.group(1)}` at {path}:{m.group(2)}" if m else ""


def terminal_note(call: Call, summ: summod.Summaries, callee: Optional[str], part: str,
                  marker: Callable[[Call], Optional[str]], own: bool = True,
                  flags: Sequence[Tuple[str, bool]] = ()) -> str:
    """What made an append terminal, as a witness step says it: the marker of the call
    itself (``terminal by "failed"``), else of the first call down its helpers that
    carries one (``terminal by "failed" in `self._resync_returning_failed(...)```: a
    marker two helpers down is no surprise to read; held-out set 62). "" when a
    ``terminal-append`` pattern made it so. ``marker``: ``Vocabulary.terminal_by``.
    ``own=False``: a ``with`` exit, where only what the manager's code does counts
    (``effects.carried_only``), never the manager call's own marker."""
    found = marker(call) if own else None
    if found is not None:
        return f"terminal by {found}" if found else ""
    if callee is None:
        return ""
    for _, origin in summ.via(callee, EventClass.TERMINAL_APPEND.value, part, flags=flags):
        # (a remembered summary's call is light: what the vocabulary said of it then)
        found = origin.marker if origin.marker is not None else marker(origin.call)
        if found:
            # ("from `outcome`, line 6" are the helper's lines, in its own file (a
            # review): named with it, "from `event` at t.py:3", since a marker an
            # assignment gave reads nowhere on the call the note names (held-out set
            # 132: lunary's `"error": error` in a helper's event dict)
            found = _PROVENANCE.sub(lambda m: _provenance_at(m.group(0), origin.path), found)
        if found is not None:
            return f"terminal by {found} in `{contracts.call_text(origin.call)}`" if found else ""
    return ""


def _branch_step(shared: Dict[Tuple[object, str], Step], n: object, kind: str, data: dict, span: Span,
                 lines: List[str]) -> Step:
    """The step of a branch point taking its ``kind`` edge (shared by every witness
    through it: thousands of findings in one huge function pass the same points); a
    call that decides an ``if``/``while`` test shows the statement's header, any other
    its statement's first line."""
    step = shared.get((n, kind))
    if step is None:
        span = data.get("header_span") or span  # (a statement's header, not its body too)
        text = data["text"] if data["kind"] != NodeKind.POINT else data.get("header", data["text"])
        if data["kind"] == NodeKind.CALL:
            first_line = data["call"].stmt_lines[0]
            text = data.get("header") or (lines[first_line - 1].strip() if 0 < first_line <= len(lines) else text)
        shown = kind
        if data["kind"] == NodeKind.LOOP:
            # (an inner `for` ending an outer loop's body goes round that loop when it
            # runs out: "(no more items, then round the loop)", held-out set 239, where
            # a test's "(false, again)" read as an `if`'s; since session 72 a test says
            # "(false, then round the loop)": held-out set 443 read "again" as a second visit)
            way, again = kind.split(", ", 1) if ", " in kind else (kind, "")
            shown = _LOOP_WORDS.get(way, way) + (", then round the loop" if again else "")
        step = shared[n, kind] = Step(span, "branch", f"{text}  ({shown})")
    return step


#: a ``for`` head's branches, as a reader says them ("(true)" read as a test's: a remark
#: of held-out set 209)
_LOOP_WORDS = {"true": "takes an item", "false": "no more items"}


def witness_steps(g: nx.DiGraph, path: List[object], classes, callees, rule: Rule, summ: summod.Summaries, facts_lines: List[str],
                  raises: Optional[Dict[object, FrozenSet[str]]] = None,
                  then: Optional[Tuple[int, Step]] = None, ends: FrozenSet[object] = frozenset(),
                  marker: Optional[Callable[[Call], Optional[str]]] = None,
                  direct: Optional[Direct] = None,
                  exit_raises: Optional[Dict[object, Tuple[str, FrozenSet[str]]]] = None,
                  dropped: FrozenSet[int] = frozenset(),
                  committed_calls: Optional[Dict[object, List[Tuple[str, dict]]]] = None,
                  roles: Optional[Dict[object, Tuple[str, ...]]] = None,
                  tail: Optional[Tuple[int, str]] = None) -> List[Step]:
    """One step per event and branch point of ``path``. ``raises``: the classes whose
    failure each node can raise (``effects.NodeSets.raises``): a call the path leaves
    by its exceptional edge is a step for those too (a project manager's exit code,
    which fails out of the ``with``'s entry, performs nothing there). ``then``: a step
    that follows the step(s) of the path's node at that index (where a walk leaves a
    handler silently, before what it does after). ``ends``: the hit's own events,
    shown whatever the rule counts elsewhere (``Rule.counted``). ``marker``: the
    terminal marker a call carries (``Vocabulary.marker_of``), for a terminal append's
    step to say what made it terminal (``terminal_note``). ``direct``: the classes a
    call matches by its own text (``Vocabulary.direct``; ``own_event``). ``exit_raises``:
    a class manager's call whose ``__exit__`` alone raises some classes
    (``effects.NodeSets.exit_raises``): its failing step is the exit's, "`Rec(conn)`
    exits: save (raises)", with the exit's "via" (held-out set 93). ``dropped``: the
    ids of calls that make a project coroutine and drop it unrun: an event by its own
    pattern there says so, since the missing ``await`` is the bug (held-out set 95).
    ``roles``: the classes of the role each of the hit's ends plays (``role_kind``).
    ``tail``: where the path goes on from the anchored event to the exit (an
    ``unless-after`` rule's proof that no later event covers it) and what its first step
    says of that (held-out sets 188 and 196: the steps after the anchor, line numbers
    going back round a loop, read as unexplained)."""
    steps: List[Step] = []
    tail_at: Optional[int] = None
    roles = roles or {}
    relevant = rule.shown_classes()
    lines = facts_lines
    swallowing = g.graph.get("with_entries")  # once per graph, not per finding
    if swallowing is None:
        swallowing = g.graph["with_entries"] = {r.entry for r in g.graph["handlers"].values() if r.kind == RegionKind.WITH}
    # branch steps are the same in every witness through them: shared, not rebuilt
    # (thousands of findings in one huge function pass the same branch points)
    shared: Dict[Tuple[object, str], Step] = g.graph.setdefault("branch_steps", {})
    failed_call: Optional[int] = None  # the call whose failure the last step showed
    deferred: Optional[Tuple[int, Step]] = None  # a test's branch, shown after its call's conditional event
    # a `return f(...)` (`break`, `continue`) whose own calls come next on the path: its
    # step comes after theirs, as Python calls `f` and then returns; dropped when one
    # of them raises (the statement never completes)
    leaving: Optional[Step] = None
    # a `swallowed` witness: what reports before the failing event is no part of the
    # handler's silence (held-out set 179: a `warnings.warn` two calls down, before the
    # `try`, read as "surface" in a "fails silently" finding)
    loud_only = frozenset(rule.loud)
    start = next((i for i, n in enumerate(path) if n in ends), 0) if rule.escaping and loud_only else 0
    for i, n in enumerate(path):
        if isinstance(n, contracts.Gap):
            steps.append(_gap_step(g, path, i))
            continue
        data = g.nodes[n]
        if leaving is not None and not _of_statement(data, leaving):
            steps.append(leaving)
            leaving = None
        if tail is not None and i == tail[0]:
            tail_at = len(steps)
        span: Optional[Span] = data.get("span")  # (None at the points, ``finally`` copies and re-raises)
        nxt = path[i + 1] if i + 1 < len(path) else None
        kind = g.edges[n, nxt]["kind"] if nxt is not None and g.has_edge(n, nxt) else None
        raising = data["kind"] == NodeKind.CALL and kind == EdgeKind.EXCEPTION
        cls = classes.get(n, frozenset())
        if n not in ends:
            cls = rule.counted(cls)  # (a far write is no event of OC301: no step either)
        if raising and raises is not None and n in raises:
            # (``raises`` is given for ``swallowed``, whose finding is this call's own
            # failure: the step says it, and its ``raised`` point next is none)
            cls = cls | raises[n]
        # (a `swallowed` finding's event is the call's own failure: its ``raised`` point
        # next is no step of its own, not also "saves, then raises")
        repeated = rule.escaping and data["kind"] == NodeKind.RAISED and failed_call is not None and data["call"].id == failed_call
        failed_call = None
        if raising and not rule.escaping and _raises_into_own_point(g, n, nxt, classes, relevant, rule, ends):
            # (an ordering finding: the call left by its exceptional edge performed what
            # its ``raised`` point next carries, "saves, then raises": one step, that one)
            pass
        elif repeated:
            pass
        elif i < start and cls & relevant and cls & relevant <= loud_only:
            pass
        elif data["kind"] in (NodeKind.CALL, NodeKind.RAISED, NodeKind.OUTCOME, NodeKind.EXHAUSTED) and cls & relevant:
            k = role_kind(rule, cls, roles.get(n))
            at_exit = exit_raises.get(n) if raising and exit_raises else None
            if at_exit is not None and k in at_exit[1]:
                via, origin = via_text(summ, at_exit[0], k, "escape")
            else:
                at_exit = None
                via, origin = (via_text(summ, callees[n], k, _part(g, n, raising=raising),
                                        effmod.call_flags(data["call"], callees[n]))
                               if n in callees and not own_event(cls, k, data, direct) else ("", None))
            case = case_text(g, n, k)
            # what fingerprints read of the step (``Step.key``): the call's own text and
            # how its summary applied, as before witnesses said more (session 47)
            key = data["call"].text + (f" ({case})" if case else "") + (" (raises)" if raising else "")
            if data["call"].id in dropped and not raising:
                case = f"{case}; never awaited: its coroutine never runs" if case else "never awaited: its coroutine never runs"
            elif data["call"].detached and not raising:
                # (held-out set 180: "after the state save" read as if the task had run
                # there; it may, or may run after what follows: §2 keeps it at its call)
                note = "scheduled as a task: it may run here or later"
                case = f"{case}; {note}" if case else note
            if k == EventClass.TERMINAL_APPEND and marker is not None:
                if at_exit is not None:  # down the exit's code, never the manager call's words
                    made = terminal_note(data["call"], summ, at_exit[0], "escape", marker, own=False)
                else:
                    made = terminal_note(data["call"], summ, callees.get(n), _part(g, n, raising=raising), marker,
                                         flags=effmod.call_flags(data["call"], callees.get(n)))
                case = f"{case}; {made}" if case and made else case or made
            text = call_shown(data["call"]) + (f" ({case})" if case else "")
            if at_exit is not None:
                text = f"`{data['call'].text}` exits: {k}" + (f" ({case})" if case else "")
            text += " (raises)" if raising else ""
            steps.append(Step(cast(Span, span), k, text, via, origin.path if origin is not None else "",
                              key if key != text else "", helper=_carries(summ, callees.get(n), k)))  # (a call's span, on calls, raised and outcome points)
            if raising:
                failed_call = data["call"].id
            way = g.edges[n, nxt].get("outcome") if kind == EdgeKind.LOOP else None
            if way in (EdgeKind.TRUE, EdgeKind.FALSE) and span is not None and data["kind"] == NodeKind.CALL:
                # (`if store.save(b):` ending the loop's body: its way is on the back edge)
                steps.append(_branch_step(shared, n, f"{way}, then round the loop", data, span, lines))
            elif kind in (EdgeKind.TRUE, EdgeKind.FALSE) and span is not None and data["kind"] == NodeKind.CALL:
                # the event is the test's last call (``if self.revoked(run) is True:``):
                # the branch it decides is a step of its own, after the event, and after
                # the call's conditional event too when it has one (its outcome point next)
                step = _branch_step(shared, n, kind, data, span, lines)
                if _outcome_event(g, data, nxt, classes, relevant):
                    deferred = (i + 1, step)
                else:
                    steps.append(step)
        elif (data["kind"] == NodeKind.WITH_EXIT and kind == EdgeKind.EXCEPTION
              and _raises_into_own_point(g, n, nxt, classes, relevant, rule, ends)):
            # (the exit raised into its own ``raised`` point, which carries what it did,
            # "saves, then raises": one step, that one; held-out set 310)
            pass
        elif data["kind"] == NodeKind.WITH_EXIT and cls & relevant:
            # a project manager's exit or a transaction's commit
            k = role_kind(rule, cls, roles.get(n))
            via, origin = via_text(summ, callees[n], k, _part(g, n)) if n in callees else ("", None)
            shown = [c for c in sorted(cls & relevant)]
            # (its ``__exit__`` raised, instead of the way out going on: what it does
            # took no effect, as a call's "(raises)" says; a held-out set, session 40)
            key = mgrmod.exit_step_text(g, n, classes, shown) + (" (raises)" if kind == EdgeKind.EXCEPTION else "")
            if kind != EdgeKind.EXCEPTION:
                # the body's calls the commit stands for, where the reader finds them
                # (held-out sets 97, 98: the witness named only the `with` line)
                inner = dict((committed_calls or {}).get(n, ()))
                shown = [f"{c} `{contracts.short(node_text(inner[c]))}` at line {node_span(inner[c]).line}"
                         if c in inner else c for c in shown]
            # (what fingerprints read is the text before the notes: ``Step.key``)
            text = mgrmod.exit_step_text(g, n, classes, shown) + (" (raises)" if kind == EdgeKind.EXCEPTION else "")
            if k == EventClass.TERMINAL_APPEND and marker is not None and data.get("manager") is not None:
                # what made it terminal, down the manager's code (held-out set 65)
                made = terminal_note(data["manager"], summ, callees.get(n), _part(g, n), marker, own=False)
                text = f"{text} ({made})" if made else text
            steps.append(Step(node_span(data), k, text, via, origin.path if origin is not None else "",
                              key if key != text else ""))
            if n in swallowing:  # (and its exit swallowed the exception: a step of its own)
                steps.append(Step(cast(Span, span), "suppress", data["text"]))
        elif data["kind"] == NodeKind.HANDLER:
            # (a handler node has its clause's span). A clause the failure passes on
            # from, unmatched, to the next clause or out: said so, as a branch's
            # `(false)` is (held-out set 72: two clauses of one `try` read as both run)
            passed = "  (does not match)" if kind == EdgeKind.EXCEPTION else ""
            steps.append(Step(cast(Span, span), "except", data["text"] + passed))
        elif data["kind"] == NodeKind.WITH_EXIT and n in swallowing:
            steps.append(Step(cast(Span, span), "suppress", data["text"]))  # (a with exit has its statement's span)
        elif data["kind"] == NodeKind.FINALLY and span is not None:
            steps.append(Step(span, "finally", data["text"]))
        elif data["kind"] == NodeKind.FINALLY and data.get("way") == Way.RAISE and data.get("ctx"):
            # the copy a failure runs (no span of its own): its clause, as an `except`
            # step shows a handler (held-out set 60: a `return` in it swallowed a save)
            region = g.graph["handlers"].get(data["ctx"][-1])
            if region is not None and region.span is not None:
                steps.append(Step(region.span, "finally", f"{region.text}  (with the failure in flight)"))
        elif kind in (EdgeKind.TRUE, EdgeKind.FALSE) and data["kind"] == NodeKind.POINT and data.get("header_span"):
            steps.append(_branch_step(shared, n, kind, data, data["header_span"], lines))
        elif kind in (EdgeKind.TRUE, EdgeKind.FALSE) and span is not None and data["kind"] in (NodeKind.STMT, NodeKind.LOOP, NodeKind.CASE, NodeKind.CALL):
            step = _branch_step(shared, n, kind, data, span, lines)
            if data["kind"] == NodeKind.CALL and _outcome_event(g, data, nxt, classes, relevant):
                # (`if claim(run):` false, whose False way saves: the call saved, then
                # the test went that way; the event's step comes first, as Python runs it)
                deferred = (i + 1, step)
            else:
                steps.append(step)
        elif kind == EdgeKind.LOOP and span is not None:
            outcome = g.edges[n, nxt].get("outcome")
            if outcome in (EdgeKind.TRUE, EdgeKind.FALSE) and data["kind"] in (NodeKind.STMT, NodeKind.LOOP, NodeKind.CASE, NodeKind.CALL):
                # (a test that ends the loop's body, `if x:` last in it: the way it
                # went is on the back edge, as correlated tests read it; the step says
                # both, a held-out set, session 41)
                steps.append(_branch_step(shared, n, f"{outcome}, then round the loop", data, span, lines))
            else:
                # (a `with` ending the loop's body goes round from its exit: said so,
                # held-out set 146, a `with` line read as the loop)
                exit_of = "its exit, " if data["kind"] == NodeKind.WITH_EXIT else ""
                steps.append(Step(data.get("header_span") or span, "loop", f"{data['text']}  ({exit_of}then round the loop)"))
        elif (data["kind"] == NodeKind.STMT and data.get("stmt") in (StmtKind.RETURN, StmtKind.BREAK, StmtKind.CONTINUE)
              and span is not None and kind != EdgeKind.EXCEPTION):
            step = Step(span, str(data["stmt"]), data["text"])  # (a StmtKind: a step holds its string)
            if nxt is not None and _of_statement(g.nodes[nxt], step) and (then is None or then[0] != i):
                leaving = step  # (its own calls first: `return ledger.append_terminal(run)`)
            else:
                steps.append(step)
        elif kind == EdgeKind.EXCEPTION and span is not None and data["kind"] == NodeKind.CALL:
            # a call that is no event of the rule raised: the way the path leaves, shown
            # (held-out set 35: the save's own argument `set([lb])` raised into the
            # handler, and the witness went from the append to the `except` as if the
            # append had raised)
            steps.append(_raising_call_step(data["call"], span, lines))
        elif kind == EdgeKind.EXCEPTION and data["kind"] == NodeKind.POINT and data.get("raising"):
            # an attribute or subscript on a call's result raised after the call took
            # effect (`network.submit_scrobbles(batch).get`, held-out set 225): the way
            # the path leaves, as a call that is no event says it
            steps.append(Step(data["raising"][0], "raises", data["raising"][1]))
        elif kind == EdgeKind.EXCEPTION and span is not None and data.get("stmt") == StmtKind.RAISE:
            steps.append(Step(span, "raise", data["text"]))
        elif kind == EdgeKind.EXCEPTION and data["kind"] == NodeKind.WITH_EXIT and data.get("raise_stmt"):
            # `save_and_reraise_exception()`'s exit hands the failure on, as a `raise`
            # there would (docs/decisions.md "A manager that re-raises what is being handled")
            steps.append(Step(node_span(data), "raise", f"{data['text']}  (re-raises)"))
        elif (kind == EdgeKind.EXCEPTION and data["kind"] == NodeKind.WITH_EXIT and span is not None
              and data.get("way") != Way.RAISE):  # (not the copy that passes a failure on: a review)
            # a `with` exit that is no event raised (a file's `close()` flushing, a
            # library's manager; held-out set 136, elyra's `secure_write`): the way the
            # path leaves, after the body's events took effect, as a call's `raises` says
            steps.append(Step(span, "raises", f"{data['text']}  (its exit)"))
        elif kind == EdgeKind.EXCEPTION and span is not None and data.get("stmt") == StmtKind.ASSERT:
            steps.append(Step(span, "assert", f"{data['text']}  (fails)"))
        elif kind == EdgeKind.EXCEPTION and span is not None and data["kind"] in (NodeKind.STMT, NodeKind.LOOP):
            # a statement that raises by itself (a subscript, an attribute, a `with`
            # header's entry, a `for`'s next item): the way the path leaves (a review)
            steps.append(Step(span, "raises", data["text"]))
        if leaving is not None and kind == EdgeKind.EXCEPTION:
            leaving = None  # (its call raised: the statement never returns)
        if deferred is not None and deferred[0] == i:
            steps.append(deferred[1])
            deferred = None
        if then is not None and then[0] == i:
            if leaving is not None and leaving.span.line == then[1].span.line:
                # (`return out.get(rec)` leaving a handler: the way out, then the verdict last)
                steps.append(leaving)
                leaving = None
            same = bool(steps) and _same_start(steps[-1].span, then[1].span) and then[1].text.startswith(
                steps[-1].text + "  (")
            if same and steps[-1].kind == "suppress":
                pass  # (a suppressing `with` is where the exception is dropped: its step says it)
            else:
                if same and steps[-1].kind in _LEAVING:
                    steps.pop()  # (`return run` is where the handler is left: one step says both)
                elif steps and _starts_within(steps[-1].span, then[1].span) and (
                        steps[-1].kind == "loop" or steps[-1].text.endswith(", then round the loop)")):
                    # (the handler's last line going round the loop: left there, one step;
                    # the silent step may quote the statement around the call that goes
                    # round, `await asyncio.sleep(d)`)
                    steps.pop()
                steps.append(then[1])
    if leaving is not None:
        steps.append(leaving)
    if tail is not None and tail_at is not None and 0 < tail_at < len(steps):
        # (where the way out goes back up, round a loop: the first branch or loop step
        # above the anchored event, after a test below it too (held-out set 217: `if n %
        # 10 == 1:` then the loop's head); a `return` right after the event needs no
        # words; its key keeps the step's own text: a baseline's fingerprint reads that)
        anchor_line = steps[tail_at - 1].span.line
        up = next((j for j in range(tail_at, len(steps))
                   if steps[j].kind in ("branch", "loop") and steps[j].span.line < anchor_line), None)
        if up is not None:
            step = steps[up]
            steps[up] = Step(step.span, step.kind, f"{step.text}  ({tail[1]})", step.via, step.via_path,
                             step.key or step.text)
    return steps


def _of_statement(data: dict, step: Step) -> bool:
    """Whether a node is a call (or a call's point) of the statement ``step`` stands
    for (a ``return`` and the calls of its value), or a point of its evaluation (a
    branch of a conditional expression, a comprehension: a review)."""
    if data["kind"] == NodeKind.POINT and data.get("span") is None and data.get("call") is None:
        return True
    call = data.get("call")
    return call is not None and call.stmt_lines[0] == step.span.line


def _raising_call_step(call: Call, span: Span, lines: List[str]) -> Step:
    """The step of a call that is no event and raises: ``raises`` and the call, or,
    for the exception a ``raise`` statement constructs (``raise ValueError(run)``,
    also after ``if not ok:`` on its line), that statement's ``raise``. A call in the
    constructor's arguments (``raise ValueError(store.load(run))``) raised before any
    ``raise`` ran: it is itself."""
    first = call.stmt_lines[0]
    line = lines[first - 1] if 0 < first <= len(lines) else ""
    head = call.text.split("\n", 1)[0]
    head = head[:-3] if head.endswith("...") else head
    found = re.search(r"\braise\s+" + re.escape(head), line) if head else None
    if found is not None:
        return Step(span, "raise", line[found.start():].strip())
    return Step(span, "raises", call.text)


def _outcome_event(g: nx.DiGraph, data: dict, nxt: object, classes, relevant) -> bool:
    """Whether ``nxt`` is the outcome point of the call ``data`` holds and carries an
    event the witness shows (a helper's conditional effects)."""
    if nxt is None or nxt not in g:
        return False
    d = g.nodes[nxt]
    return (d["kind"] == NodeKind.OUTCOME and d.get("call") is not None and d["call"].id == data["call"].id
            and bool(classes.get(nxt, frozenset()) & relevant))


def _same_start(a: Span, b: Span) -> bool:
    """Two steps at one statement: a branch step's range is its header's, the
    statement's own step's the whole statement's (session 48)."""
    return (a.line, a.col) == (b.line, b.col)


def _starts_within(a: Span, b: Span) -> bool:
    """A step that starts where ``b`` does, or inside ``b`` on its first line (a call's
    step within its statement's)."""
    return a.line == b.line and (a.col == b.col or (b.col <= a.col and (b.end_line > b.line or a.col < b.end_col)))


def _carries(summ: summod.Summaries, key: Optional[str], cls: str) -> bool:
    """Whether the project function ``key`` performs ``cls`` by its body (its summary):
    a call of it matched by its own name is then a wrapper of that event, whose body
    may do more (``Step.helper``)."""
    eff = summ.effects.get(key) if key is not None else None
    return eff is not None and cls in (eff.on_return | eff.on_raise)


def _raises_into_own_point(g: nx.DiGraph, n: object, nxt: object, classes, relevant, rule: Rule,
                           ends: FrozenSet[object]) -> bool:
    """Whether the path goes from the call ``n`` to its own ``raised`` point, which
    carries some of the ``relevant`` classes the rule counts there (the callee's on-raise
    effects; a file written two calls down is none of OC301's: then the call is the
    step that raises, held-out set 69)."""
    if nxt is None or nxt not in g:
        return False
    d, own = g.nodes[nxt], g.nodes[n].get("call") or g.nodes[n].get("manager")  # (a `with` exit: its manager's)
    if d["kind"] != NodeKind.RAISED or own is None or d["call"].id != own.id:
        return False
    cls = classes.get(nxt, frozenset())
    return bool((cls if nxt in ends else rule.counted(cls)) & relevant)


def _dropped(path: List[object], g: nx.DiGraph, facts: FileFacts, fn: FunctionFacts,
             summ: summod.Summaries) -> FrozenSet[int]:
    """The calls on ``path`` that make a project coroutine and drop it unrun
    (``ProjectIndex.drops``; semantics §Summaries): what they match by their own
    pattern is still an event, and its step says the ``await`` is missing."""
    out = set()
    for n in path:
        call = g.nodes[n].get("call") if not isinstance(n, contracts.Gap) else None
        if call is not None and call.discarded and not call.awaited:
            if summ.index.drops(call, summ.index.callee_key(facts, fn, call)):
                out.add(call.id)
    return frozenset(out)


def _gap_step(g: nx.DiGraph, path: List[object], i: int) -> Step:
    """The step standing for the nodes a long witness leaves out: where the path
    picks up again (docs/decisions.md, "Long witnesses")."""
    spans = [g.nodes[n].get("span") for n in path[i + 1:] if not isinstance(n, contracts.Gap)]
    spans += [g.nodes[n].get("span") for n in reversed(path[:i]) if not isinstance(n, contracts.Gap)]
    span = next((sp for sp in spans if sp is not None), None) or g.nodes[path[0]].get("span") or Span(1, 0, 1, 0)
    gap = path[i]
    count = gap.count if isinstance(gap, contracts.Gap) else 0
    return Step(span, "elided", f"... {count} more graph node{'s' if count != 1 else ''} of this path left out")


def _inner_lines(inner: Iterable[Tuple[str, dict]]) -> Tuple[int, ...]:
    """The first and last lines of the statements of a commit's body calls the finding
    names (``_name_committed``): a suppression comment there covers the finding
    anchored at the transaction's ``with`` (``Finding.inner_lines``)."""
    out: List[int] = []
    for _, node in inner:
        call = node.get("call")
        if call is not None:
            out += [call.stmt_lines[0], call.stmt_lines[-1]]
    return tuple(dict.fromkeys(out))


def _distinct(related: List[Related]) -> List[Related]:
    """Each related place once: both ends of an OC103 through one helper's call site
    (``self._flush()`` in a loop and after it) name the same place in it, which an
    editor would list twice (held-out set 344)."""
    seen: Set[Tuple[int, int, int, int, str, Optional[str]]] = set()
    out = []
    for r in related:
        key = (r.span.line, r.span.col, r.span.end_line, r.span.end_col, r.message, r.path)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def to_finding(hit: contracts.Hit, g: nx.DiGraph, facts: FileFacts, fn: FunctionFacts, classes, callees, summ: summod.Summaries,
               raises: Optional[Dict[object, FrozenSet[str]]] = None, committed: Optional[Committed] = None,
               marker: Optional[Callable[[Call], Optional[str]]] = None, direct: Optional[Direct] = None,
               exit_raises: Optional[Dict[object, Tuple[str, FrozenSet[str]]]] = None) -> Finding:
    rule = hit.rule
    if committed and rule.ordering:
        hit = dataclasses.replace(hit, path=through_commits(hit.path, g, committed, rule.shown_classes()))
    anchor = g.nodes[hit.anchor]
    span: Span = node_span(anchor)
    anchor_text = node_text(anchor)
    call: Optional[Call] = anchor.get("call") or anchor.get("manager")
    stmt_lines = rule.statement_lines(hit, call.stmt_lines if call is not None else (span.line, span.line))
    fmt, related = rule.message_fields(hit, g, classes)  # the kind's fields and related places
    # a class manager whose ``__exit__`` alone raises the event: the message names the
    # exit, as a sequence rule's does (held-out set 93, osxphotos' ``ExportRecord``)
    at_exit = exit_raises.get(hit.anchor) if exit_raises and rule.escaping else None
    exit_kind: Optional[str] = None
    if at_exit is not None and call is not None and at_exit[1] & rule.shown_classes():
        exit_kind = rule.step_kind(at_exit[1] & rule.shown_classes())
        fmt["event_text"] = contracts.exit_text(anchor_text, call)
    # the class each end of the hit is named by: the role it plays (a helper that
    # removes and then saves is the `then` save at the anchor; held-out set 118)
    roles = hit_roles(hit)
    inner_calls: Dict[object, List[Tuple[str, dict]]] = {}
    if committed and rule.ordering:
        inner_calls = _name_committed(hit, g, classes, committed, fmt, related)
    if committed:
        _name_passed_commits(hit, g, classes, committed, inner_calls)
    if hit.handler is not None:
        h = hit.handler
        fmt.update(handler_line=h.span.line if h.span else span.line, handler=f"`{h.text.rstrip(':')}`" if h.text else "a handler")
    for node in (hit.first, hit.anchor):
        if node == hit.anchor and exit_kind is not None and at_exit is not None:
            via, origin = via_text(summ, at_exit[0], exit_kind, "escape")
            if origin is not None:
                related.append(Related(origin.call.span, f"{exit_kind} performed via {via}", origin.path))
            continue
        if node is None or node not in callees:
            continue
        k = role_kind(rule, classes.get(node, frozenset()), roles.get(node))
        if own_event(classes.get(node, frozenset()), k, g.nodes[node], direct):
            continue  # (its own pattern makes it: nothing down its helpers is the event)
        call_of = g.nodes[node].get("call")
        via, origin = via_text(summ, callees[node], k, _part(g, node, rule if node == hit.anchor else None),
                               effmod.call_flags(call_of, callees[node]) if call_of is not None else ())
        if origin is not None:
            case = case_text(g, node, k)
            related.append(Related(origin.call.span, f"{k} performed via {via}" + (f" ({case})" if case else ""), origin.path))
    message = rule.format_message(fmt)
    silent: Optional[Tuple[int, Step]] = None
    if hit.handler is not None:
        # where control leaves the handler without raising or surfacing: a step right
        # after that node's own, before what the walk does once out of the handler
        inside = [i for i, n in enumerate(hit.path) if not isinstance(n, contracts.Gap)
                  and hit.handler.id in g.nodes[n].get("ctx", ()) and g.nodes[n].get("span")]
        if inside:
            last = g.nodes[hit.path[inside[-1]]]
            text = last["text"] if last["kind"] != NodeKind.HANDLER else "(the handler's end)"
            span_left = last["span"]
            tests = [g.nodes[hit.path[i]]["span"] for i in inside[:-1] if g.nodes[hit.path[i]].get("stmt") in _TESTS]
            test = next((t for t in tests if last["kind"] == NodeKind.CALL
                         and t.line in (last["span"].line, last["call"].stmt_lines[0])), None)
            if test is not None:
                # a call of a test (`if not isinstance(e, ...):`) whose branch leaves: the
                # branch step says which way; the handler is left at its end, not at the call
                # (also when the test is wrapped over lines: its calls' statement is the
                # header, whose line the step takes; held-out set 140)
                text = "(the handler's end)"
                if test.line != span_left.line:
                    span_left = test
            if last["kind"] == NodeKind.CALL:
                # `return self._execute(x)`, `return wrap(out.get(x))`: the handler is left
                # by the `return`, whose value's calls stand after it in the graph
                # (held-out set 73; a review: more than one call)
                for i in reversed(inside[:-1]):
                    before = g.nodes[hit.path[i]]
                    if before["kind"] == NodeKind.CALL and before["call"].stmt_lines == last["call"].stmt_lines:
                        continue
                    if (before.get("stmt") in (StmtKind.RETURN, StmtKind.BREAK, StmtKind.CONTINUE, StmtKind.SIMPLE)
                            and last["call"].stmt_lines[0] == before["span"].line):
                        # (and a plain statement around its calls: `msg = describe(run)`,
                        # `"failed: %s" % str(name)`, not the call alone; held-out set 102)
                        text, span_left = before["text"], before["span"]
                    break
            silent = (inside[-1], Step(span_left, "silent", f"{text}  (leaves the handler silently)"))
    steps = witness_steps(g, hit.path, classes, callees, rule, summ, facts.lines, raises if rule.escaping else None,
                          then=silent, ends=frozenset(n for n in (hit.first, hit.anchor) if n is not None),
                          marker=marker, direct=direct, exit_raises=exit_raises if rule.escaping else None,
                          dropped=_dropped(hit.path, g, facts, fn, summ), committed_calls=inner_calls, roles=roles,
                          tail=_tail(hit, rule))
    return Finding(
        code=rule.id, name=rule.name, severity=rule.severity, path=facts.path, span=span,
        message=message, function=fn.qualname, witness=steps, related=_distinct(related),
        anchor_text=anchor_text, stmt_lines=stmt_lines, inner_lines=_inner_lines(inner_calls.get(hit.anchor, ())),
    )


def _tail(hit: contracts.Hit, rule: Rule) -> Optional[Tuple[int, str]]:
    """Where an ``unless-after`` rule's witness goes on past its anchored event to the
    exit, and the words its first step there says (``witness_steps``' ``tail``)."""
    unless = [c for c in getattr(rule, "unless_after", ()) if not c.startswith("!")]
    if not unless or hit.anchor not in hit.path:
        return None
    at = len(hit.path) - hit.path[::-1].index(hit.anchor)
    if at >= len(hit.path) - 1:
        return None  # (the anchored event is the last step before the exit)
    return at, f"then on to the exit with no {' or '.join(unless)} after it"


#: the steps of a statement that leaves a block, which a handler's silent step can repeat
_LEAVING = frozenset({"return", "break", "continue"})

#: statements whose test a path's branch step shows (``if``, ``while``; an ``elif`` is an ``if``)
_TESTS = frozenset({StmtKind.IF, StmtKind.WHILE})


def through_commits(path: List[object], g: nx.DiGraph, committed: Committed,
                    shown: Iterable[str] = ()) -> List[object]:
    """A witness that passes a transaction's commit by a walk through its body that
    did none of what the commit stands for takes, instead, a walk through a call that
    did it: from the manager's call to that call, then on to the commit. A commit
    split by what its walks did keeps its body whole when the body holds a handler
    (``managers._split_exit``), so the shortest way to the right copy of the exit
    could be a walk that did nothing (``with atomic(): try: for run in runs:
    store.save(run)``, by the loop's "no more items"; held-out set 285). Two
    breadth-first searches per such commit (not one per call of its body: a review),
    and a long new segment keeps only its ends, as "Long witnesses" says. Only the
    classes the rule shows (``shown``) are walked to: a `+=` the commit also stands
    for would take the walk off the save again.""" 
    wanted = set(shown) - mgrmod.UNSPLIT  # (the rule's classes: a later one's walk may undo an earlier's)
    bodies: Dict[object, List[List[object]]] = {}
    for (node, cls), body in sorted(committed.items(), key=lambda kv: str(kv[0][1])):
        if cls in wanted:
            bodies.setdefault(node, []).append(body)
    out = list(path)
    i = 0
    while i < len(out):
        c = out[i]
        i += 1
        if isinstance(c, contracts.Gap) or c not in bodies:
            continue
        w = g.nodes[c].get("with_id")
        for body in bodies[c]:
            at = i - 1
            if any(b in body for b in out[:at]):
                continue
            # the manager's call: the last node before the commit that enters its `with`
            j = next((k for k in range(at - 1, -1, -1) if not isinstance(out[k], contracts.Gap)
                      and g.nodes[out[k]].get("with_id") == w and g.nodes[out[k]].get("kind") != NodeKind.WITH_EXIT), None)
            if j is None or any(isinstance(n, contracts.Gap) for n in out[j:at]):
                continue
            ahead = _bfs(g, out[j], g.successors)
            back = _bfs(g, c, g.predecessors)
            reached = [b for b in body if b in ahead[1] and b in back[1]]
            if not reached:
                continue
            b = min(reached, key=lambda n: (ahead[1][n] + back[1][n], _node_order(n)))
            best = _walk(ahead[0], b)[::-1] + _walk(back[0], b)[1:]
            if len(best) > MAX_SEGMENT:
                best = best[:KEEP] + [contracts.Gap(len(best) - 2 * KEEP)] + best[-KEEP:]
            out[j:at + 1] = best
            i = j + len(best)
    return out


def _node_order(n: object) -> Tuple[int, str]:
    return (0, "") if not isinstance(n, int) else (1, f"{n:012d}")


def _bfs(g: nx.DiGraph, start: object, step: Callable[[object], Iterable[object]]
         ) -> Tuple[Dict[object, object], Dict[object, int]]:
    """One breadth-first search from ``start`` along ``step`` (successors in
    ``cfg.normal_first`` order, as ``shortest``): each node's parent and depth."""
    parents: Dict[object, object] = {start: None}
    depth: Dict[object, int] = {start: 0}
    order = [start]
    k = 0
    while k < len(order):
        u = order[k]
        k += 1
        for v in step(u):
            if v not in parents:
                parents[v] = u
                depth[v] = depth[u] + 1
                order.append(v)
    return parents, depth


def _walk(parents: Dict[object, object], n: object) -> List[object]:
    """From ``n`` back to the search's start, by ``parents``."""
    out = [n]
    while parents[out[-1]] is not None:
        out.append(parents[out[-1]])
    return out


def _name_committed(hit: contracts.Hit, g: nx.DiGraph, classes, committed: Committed,
                     fmt: Dict[str, object], related: List[Related]) -> Dict[object, List[Tuple[str, dict]]]:
    """A transaction's commit stands for the calls of its body: the message names the
    call that performed the event (``self._ledger.append_terminal(...)`` at line 6),
    and a related place the manager that commits it ("committed by
    `transaction.atomic()` at line 5"), not the manager's call alone. Returns, per
    commit node of the hit, the body calls it stands for, with their classes (its
    witness step names them)."""
    inner_calls: Dict[object, List[Tuple[str, dict]]] = {}
    rule = hit.rule
    on_path = set(n for n in hit.path if not isinstance(n, contracts.Gap))
    for node, prefix in ((hit.first, "first"), (hit.anchor, "then")):
        if node is None:
            continue
        # the class of the role this end plays (a configured rule may relate two
        # classes the commit both carries: `first = append`, `then = save`)
        role = rule.first if prefix == "first" else (rule.then or rule.event)
        have = classes.get(node, frozenset())
        k = next((c for c in role if not c.startswith("!") and c in have), rule.step_kind(have))
        body = committed.get((node, k))
        if not body:
            continue
        # the call on the witness's walk through the body (a split body's copy lists
        # the calls of every walk that reaches some copy), else the first in the body
        inner = g.nodes[next((b for b in body if b in on_path), body[0])]
        manager = g.nodes[node]
        fields = ("first",) if prefix == "first" else ("then", "event")
        for f in fields:
            fmt[f"{f}_text"] = contracts.message_text(inner)  # (a long call by its callee, as elsewhere)
            fmt[f"{f}_line"] = node_span(inner).line
        committed_at = node_span(manager).line
        if prefix == "first" and "first_pass" in fmt and committed_at != node_span(inner).line:
            # "after the state save at line 3 (committed at line 2)": the witness's step
            # and the contract put the save at the `with` item (held-out set 453 and
            # conformance probe 444 read the two lines as disagreeing)
            earlier = str(fmt["first_pass"] or "")
            fmt["first_pass"] = f" (committed at line {committed_at}" + (f"; {earlier[2:]}" if earlier else ")")
        if prefix == "first" and isinstance(hit.rule, contracts.Ordering):  # (its related place: the call itself)
            said = f"{hit.rule.first_role(classes.get(node, frozenset()))}: "
            related[:] = [Related(node_span(inner), said + node_text(inner))
                          if r.span == node_span(manager) and r.message == said + contracts.message_text(manager, None)
                          else r
                          for r in related]
        related.append(Related(node_span(manager), f"{k} committed here, by `{node_text(manager)}`"))
        if (k, inner) not in inner_calls.setdefault(node, []):
            inner_calls[node].append((k, inner))
    return inner_calls


def _name_passed_commits(hit: contracts.Hit, g: nx.DiGraph, classes, committed: Committed,
                         inner_calls: Dict[object, List[Tuple[str, dict]]]) -> None:
    """The body calls of every other commit the witness passes (a ``with
    transaction.atomic(): intent.save()`` before the hit's own save): its step names
    them as the hit's own commit's does, "commits: save `intent.save()` at line 6"
    (held-out set 260: the step said "commits: save" alone)."""
    on_path = [n for n in hit.path if not isinstance(n, contracts.Gap)]
    seen = set(on_path)
    for node in on_path:
        if node in inner_calls:
            continue
        for k in sorted(classes.get(node, frozenset())):
            body = committed.get((node, k))
            if body:
                inner = g.nodes[next((b for b in body if b in seen), body[0])]
                inner_calls.setdefault(node, []).append((k, inner))


#: what an OC901 says was lost (its ``{part}``)
NOT_CHECKED = "did not check it"
SUMMARY_FALLBACK = "read its calls as made on every way out of it, for its callers"
UNRESOLVED = "matched its calls by their text only (none resolved to a project function)"


def internal_error_finding(facts: FileFacts, fn: FunctionFacts, rule: Rule, error: str,
                           part: str = NOT_CHECKED) -> Finding:
    """OC901 on ``fn``'s name: the engine failed on it (``runner.check_file``), or on
    its summary (``part``). A suppression comment may stand on any line of its
    ``def`` header (the module body's: any line of the file); its fingerprint is the
    function's and its header's, not the error's (which may name an address)."""
    module = fn.qualname == "<module>"
    line = 1 if module else max(1, fn.span.line)
    text = facts.lines[line - 1] if 0 < line <= len(facts.lines) else ""
    col = 0 if module else min(max(0, fn.span.col), len(text))
    c16 = utf16_col(text, col)
    span = Span(line, col, line, col, c16, c16)
    if module:
        last = max(1, len(facts.lines))
    else:  # the header's lines: up to its body's first statement
        last = max(line, fn.body[0].span.line - 1) if fn.body and fn.body[0].span.line > line else line
    message = rule.format_message({"function": fn.qualname, "error": error, "part": part})
    return Finding(code=rule.id, name=rule.name, severity=rule.severity, path=facts.path, span=span,
                   message=message, function=fn.qualname, anchor_text=text.strip(), stmt_lines=(line, last),
                   within=True)


NOT_READ = "did not read it"


def file_internal_error_finding(facts: FileFacts, rule: Rule) -> Finding:
    """OC901 on line 1 of a file the engine failed to read (``ParseError.internal``):
    as the module body's, a suppression may stand on any line, and the fingerprint
    is the file's, not the error's."""
    err = facts.error
    if err is None or not err.internal:
        raise ValueError(f"{facts.path} has no internal error")
    text = facts.lines[0] if facts.lines else ""
    span = Span(1, 0, 1, 0, 0, 0)
    name = facts.path.replace("\\", "/").rsplit("/", 1)[-1]
    message = rule.format_message({"function": name, "error": err.message, "part": NOT_READ})
    return Finding(code=rule.id, name=rule.name, severity=rule.severity, path=facts.path, span=span,
                   message=message, function="<module>", anchor_text=text.strip(),
                   stmt_lines=(1, max(1, len(facts.lines))), within=True)


def parse_error_finding(facts: FileFacts, rule: Optional[Rule]) -> Finding:
    err = facts.error
    if err is None:
        raise ValueError(f"{facts.path} has no parse error")
    line = max(1, err.line or 1)
    text = facts.lines[line - 1] if 0 < line <= len(facts.lines) else ""
    col = min(max(0, err.col), len(text))
    c16 = utf16_col(text, col)
    span = Span(line, col, line, col, c16, c16)
    message = rule.format_message({"error": err.message}) if rule else err.message
    return Finding(code="OC900", name=rule.name if rule else "parse-error", severity=rule.severity if rule else "error",
                   path=facts.path, span=span, message=message, stmt_lines=(line, line))


