"""``sequence``: no path performs ``then`` after ``first`` (without a ``barrier``
between them, and unless-after: unless it performs ``unless-after`` again before a
normal exit).

One multi-source BFS from the normal successors of every ``first`` event in the
barrier-blocked view finds every reachable ``then``; with ``unless-after``, a backward
BFS from EXIT in the unless-blocked view says which ``then`` events still reach a
normal exit without another save. Witness: shortest ENTRY→first, the BFS path
first→then, shortest then→EXIT.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Set, Tuple

from ..errors import UsageError
from ..findings import Related
from ..kinds import EdgeKind, EventClass, NodeKind, Way, is_near
from .base import (
    ClassExpr,
    GraphInput,
    Hit,
    Ordering,
    expr_matches,
    expr_text,
    implies,
    matching,
    near_matching,
    node_span,
    node_text,
    short,
)

if TYPE_CHECKING:
    import networkx as nx

from .paths import (
    Classes,
    Gap,
    anchor,
    blocking_view,
    copy_order,
    exit_path,
    head_path,
    join,
    node_order,
    normal_successors,
    other_origin_path,
    reaching,
    segment_length,
    shortest,
    site,
    to_exit_hops,
    two_origin_bfs,
)

#: the classes a ``sequence`` that pairs file writes with renames (OC301) counts only
#: when near: where the node's own call or its callee's own call makes them, not two or
#: more calls down (docs/decisions.md "A file write or rename two calls away"); every
#: other rule, and every other class, counts at every depth, as the contract says
NEAR_ONLY = frozenset({EventClass.FILE_WRITE.value, EventClass.RENAME.value})


def _normal_forward(g: "nx.DiGraph", u: object, v: object) -> bool:
    """An edge a run takes going on normally in this round: no exception, no loop back."""
    return g.edges[u, v]["kind"] not in (EdgeKind.EXCEPTION, EdgeKind.LOOP) and not g.edges[u, v].get("exception")


def _nearest_saves(g: "nx.DiGraph", saves: Set[object]) -> Dict[object, object]:
    """Per node, the save a normal walk in this round reaches first from it (itself when
    it is one): one breadth-first walk back from every save at once, so a function's
    findings share it (``_turn_from_save``; a review found one walk per finding
    quadratic in a function of thousands of statements)."""
    nearest: Dict[object, object] = {n: n for n in sorted(saves, key=node_order)}
    frontier = list(nearest)
    while frontier:
        nxt = []
        for n in frontier:
            for u in g.predecessors(n):
                if u not in nearest and _normal_forward(g, u, n):
                    nearest[u] = nearest[n]
                    nxt.append(u)
        frontier = nxt
    return nearest


def _line(g: "nx.DiGraph", n: object) -> Optional[int]:
    """The line a node stands at for a message, or None for one with no place of its
    own (a callee's ``raised``/``outcome`` point reads its call's; a synthetic node none)."""
    data = g.nodes[n]
    span = node_span(data)
    if span is None and data.get("call") is not None:
        span = data["call"].span
    return span.line if span is not None else None


def _turn_from_save(g: "nx.DiGraph", hit: Hit, nearest: Dict[object, object]) -> Optional[Tuple[object, object]]:
    """Where the witness, after its anchor and in the same round, turns away from a
    later save: the first node of its tail whose next step reaches no save (``nearest``)
    and one of whose other successors, by a normal edge, does; and the save that way
    (``Sequence.message_fields``). None when there is no such node before the witness
    goes round a loop (a new round) or leaves out a stretch (``Gap``)."""
    if hit.anchor not in hit.path:
        return None
    # (from the anchor's last visit: the round that appends after the save; held-out set 443)
    tail = hit.path[len(hit.path) - 1 - hit.path[::-1].index(hit.anchor):]
    for u, nxt in zip(tail, tail[1:]):
        if isinstance(u, Gap) or isinstance(nxt, Gap):
            return None
        # a step back to the loop's head starts a new round: it reaches no save in this
        # one, so the node it leaves may be the turn (`if ok: save(h)` last in the body,
        # taken false; held-out set 443), and nothing after it is
        round_ends = g.edges[u, nxt]["kind"] == EdgeKind.LOOP
        if (nxt in nearest and not round_ends) or _line(g, u) is None:
            if round_ends:
                return None
            continue  # (the witness can still reach a save from here: it turns later, if at all)
        for v in sorted(g.successors(u), key=node_order):
            if (v != nxt and v != hit.anchor and v in nearest and _normal_forward(g, u, v)
                    and _line(g, nearest[v]) is not None):
                return u, nearest[v]
        if round_ends:
            return None
    return None


def _covered_by_call(g: "nx.DiGraph", nodes: Set[object], cover: Tuple[ClassExpr, ...],
                     graph: GraphInput) -> Set[object]:
    """The outcome points among ``nodes`` whose call performs a ``cover`` class on every
    way back (``GraphInput.must``: its callee's ``Effects.always``): on that branch the
    call performed both, and a node's own barrier or unless-after class covers its own
    first or then (semantics §Contracts). `if finish(run):` of a helper that saves,
    then appends only when it returns False, carries its save on the call and its
    append on the false outcome: the call's own save covers it, as when the call
    carries both unsplit (held-out set 475: a false OC102). A class the call performs
    only on some ways back covers nothing (it may be on another way than the
    outcome's: a review), nor does one a `raised` point's call performs on its other
    ways; a negated class of the cover reads the outcome's own classes and the call's
    (``call_points``). The call node itself is still read alone (docs/decisions.md
    "OC301's `then`")."""
    out: Set[object] = set()
    for n in nodes:
        must = graph.must.get(n)
        if must and g.nodes[n].get("kind") == NodeKind.OUTCOME:
            here = must | graph.classes.get(n, frozenset())
            if any(expr and expr_matches(expr, here, graph.also.get(n, frozenset())) for expr in cover):
                out.add(n)
    return out


class Sequence(Ordering, kind="sequence"):
    roles = ("first", "then")
    fields = Ordering.fields + ("later_skipped",)
    finding_needs = ("first", "then")  # a pair: a node of each

    def summary(self) -> str:
        s = f"sequence: first={expr_text(self.first)}, then={expr_text(self.then)}"
        if self.barrier:
            s += f", barrier={expr_text(self.barrier)}"
        if self.unless_after:
            s += f", unless-after={expr_text(self.unless_after)}"
        return s

    @classmethod
    def validate(cls, roles: Dict[str, ClassExpr], path: str) -> None:
        """Also: a rule whose every ``first`` or ``then`` event is covered by its own
        ``barrier`` (or every ``then`` by its ``unless-after``) can never fire: a node
        carrying both is neither end (docs/decisions.md "A node carrying both `first`
        and `barrier`"). Said at load time, with the file and the key, rather than
        left to find by a run that finds nothing (held-out set 298: `then = ["save"]`
        beside `barrier = ["save"]`)."""
        super().validate(roles, path)
        for role, cover in (("first", "barrier"), ("then", "barrier"), ("then", "unless-after")):
            if roles[cover] and implies(roles[role], roles[cover]):
                raise UsageError(f"every `{role}` event is also a `{cover}` event, which covers it, so the rule "
                                 f"can never fire (a node carrying both is no `{role}`)", path, cover)

    def first_role(self, cls: FrozenSet[str]) -> str:
        return "state saved here" if self.first_kind(cls) == EventClass.SAVE else super().first_role(cls)

    def message_fields(self, hit: Hit, g: "nx.DiGraph", classes: Classes) -> Tuple[Dict[str, object], List[Related]]:
        """Also ``later_skipped``: with ``unless-after``, when the witness, after the
        anchor, turns at a node from which another way (a test's other branch, the call
        that raised going on normally) leads on to a later save its own next step no
        longer reaches, where it turns and the nearest save that way (" (the path taken at line 18 skips the later save at
        line 22)"): a reader who sees that save below the append took the finding for
        a false alarm (held-out set 404); "" otherwise."""
        fmt, related = super().message_fields(hit, g, classes)
        fmt["later_skipped"] = ""
        if not self.unless_after:
            return fmt, related
        cache = g.graph.setdefault("_nearest_saves", {})  # (per graph and cover: a function's findings share it)
        cover = tuple(self.unless_after)
        if cover not in cache:
            cache[cover] = _nearest_saves(g, matching(classes, self.unless_after, g.nodes))
        turned = _turn_from_save(g, hit, cache[cover])
        if turned is not None:
            at, save = turned
            kind = self.step_kind(classes.get(save, frozenset()))
            data = g.nodes[save]
            turn_line, save_line = _line(g, at), _line(g, save)
            # (`if done: store.save(r)` on one line: "skips the later save on that line",
            # not "at line 706 ... at line 706"; held-out set 438)
            where = "on that line" if save_line == turn_line else f"at line {save_line}"
            skipped = f"the path taken at line {turn_line} skips the later {kind} {where}"
            fmt["later_skipped"] = f" ({skipped})"
            first_pass = str(fmt.get("first_pass") or "")
            if first_pass.endswith(")") and "{first_pass}{later_skipped}" in self.message:
                # one parenthesis, not two: "(on an earlier pass of the loop; the path ...)"
                fmt["first_pass"] = f"{first_pass[:-1]}; {skipped})"
                fmt["later_skipped"] = ""
            span = node_span(data) or data["call"].span
            related.append(Related(span, f"the later {kind} this path skips: {short(node_text(data), 60)}"))
        return fmt, related

    def check(self, graph: GraphInput) -> List[Hit]:
        g, classes, reachable = graph.g, graph.classes_for(self), graph.reachable
        barrier = matching(classes, self.barrier, classes, graph.also) if self.barrier else set()
        unless = matching(classes, self.unless_after, classes, graph.also) if self.unless_after else set()
        near = NEAR_ONLY if self.pairs_files() else frozenset()
        firsts = near_matching(classes, self.first, reachable, near, graph.also) - barrier
        firsts -= _covered_by_call(g, firsts, (self.barrier,), graph)
        thens = near_matching(classes, self.then, classes, near, graph.also) - barrier - unless
        thens -= _covered_by_call(g, thens, (self.barrier, self.unless_after), graph)
        found = []
        if firsts and thens:
            # a node never pairs with itself: the order inside a call is the callee's
            # business, even when a loop brings the same call round again
            labels = two_origin_bfs(g, blocking_view(g, barrier), firsts, reachable.depth)
            for t in sorted(thens, key=node_order):
                pair = other_origin_path(labels, t, site(g, t))
                if pair is not None:
                    found.append((t, pair))
        found += self._written_in_body(g, classes, reachable, barrier, unless, {t for t, _ in found}, graph.also)
        if not found:
            return []
        found.sort(key=lambda item: node_order(item[0]))
        if self.unless_after:
            view_u = blocking_view(g, unless)
            hops = to_exit_hops(view_u)  # (its keys: the nodes with a clean way out)
        # of an anchor's copies (a `finally` body's, a state's of correlated tests), the
        # one whose witness is shortest, then the first; its witness alone is built
        # (docs/decisions.md "Of an anchor's copies, the shortest witness")
        best: Dict[object, Tuple[Tuple[int, Tuple[int, Tuple[int, str]]], object, object, List[object], object]] = {}
        for t, (first, middle) in found:
            nxt = None
            tail_length = 0
            if self.unless_after:
                nxts = [s for s in normal_successors(g, t) if s in hops]
                if not nxts:
                    continue
                nxt = nxts[0]
                tail_length = hops[nxt][1]
            key = anchor(g, t)
            rank = (reachable.depth.get(first, 0) + segment_length(middle) + tail_length, copy_order(g, t))
            if key not in best or rank < best[key][0]:
                best[key] = (rank, t, first, middle, nxt)
        hits = []
        for key, (_, t, first, middle, nxt) in sorted(best.items(), key=lambda item: node_order(item[1][1])):
            tail = exit_path(g, view_u, nxt, hops) if nxt is not None else []
            hits.append(Hit(self, t, join(head_path(g, reachable, first), middle, tail), first=first, key=key))
        return hits

    def counted(self, cls: FrozenSet[str]) -> FrozenSet[str]:
        if not self.pairs_files():
            return cls
        return frozenset(c for c in cls if c not in NEAR_ONLY or is_near(cls, c))

    def pairs_files(self) -> bool:
        """Whether the rule pairs a file write with a rename (OC301, or a user's rule of
        that shape): only there do the ends count when near."""
        first = {c for c in self.first if not c.startswith("!")}
        then = {c for c in self.then if not c.startswith("!")}
        return EventClass.FILE_WRITE.value in first and EventClass.RENAME.value in then

    def _written_in_body(self, g, classes, reachable, barrier, unless, done, also) -> list:
        """A write too far down to count (``NEAR_ONLY``) still pairs with the exit of
        a ``with`` around it that renames by the manager's own call: what an
        atomic-write manager's body writes is what its exit renames, however deep the
        body's helpers write it (`with atomic_write(path) as f: yaml.save_to_file(data,
        file=f)`); docs/decisions.md "A file write or rename two calls away". Only with
        that exit; (then, (first, path)) per exit not found already."""
        if not self.pairs_files():
            return []
        exits: dict = {}
        for t in near_matching(classes, self.then, classes, NEAR_ONLY, also) - barrier - unless:
            d = g.nodes[t]
            # its normal way out (the body's file is renamed into place), of an item
            # that binds what the body writes to (`as f`)
            if d.get("kind") == NodeKind.WITH_EXIT and d.get("target") and d.get("way") != Way.RAISE and t not in done:
                exits.setdefault(d.get("with_id"), []).append(t)
        if not exits:
            return []
        view = blocking_view(g, barrier)
        ways_to: dict = {}  # exit -> the nodes with a way to it (one backward walk per exit)
        out = []
        for n in sorted(matching(classes, self.first, reachable, also) - barrier, key=node_order):
            call = g.nodes[n].get("call")
            for w in g.nodes[n].get("withs", ()):
                for t in exits.get(w, ()):
                    if t in done or call is None or g.nodes[t]["target"] not in call.reads:
                        continue  # (only a write handed the item's file: `save_to_file(data, file=f)`)
                    if t not in ways_to:
                        ways_to[t] = reaching(view, t)
                    # (from the write's normal successors: a write that raised wrote nothing)
                    starts = [s for s in normal_successors(g, n) if s in ways_to[t]]
                    if starts:
                        done.add(t)
                        out.append((t, (n, [n] + min((shortest(view, s, t) for s in starts), key=len))))
        return out
