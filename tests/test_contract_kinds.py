"""Contract kinds are registered classes, one module each (docs/architecture.md,
"Adding a contract kind"); the event classes the engine names are one enum."""
from __future__ import annotations

from typing import Dict, List, Tuple

import pytest
from checkutil import check_source

from ordercheck import contracts
from ordercheck.contracts import KINDS, GraphInput, Hit, Rule, node_span, node_text
from ordercheck.errors import UsageError
from ordercheck.findings import Related
from ordercheck.kinds import EventClass
from ordercheck.rulebook import builtin_rules, parse_rule
from ordercheck.vocabulary import BUILTIN_CLASSES, load_default_vocab


def test_each_kind_is_one_module_of_the_contracts_package():
    assert list(KINDS) == ["sequence", "swallowed", "at-most-once", "requires-before", "silent-handler",
                           "unused-suppression", "parse-error", "internal-error"]
    for kind, cls in KINDS.items():
        assert cls.KIND == kind
        assert cls.__module__ == "ordercheck.contracts." + kind.replace("-", "_")


def test_every_shipped_rule_is_an_instance_of_its_kind():
    for rule in builtin_rules():
        assert type(rule) is KINDS[rule.kind]


def test_a_kind_is_defined_once():
    with pytest.raises(TypeError, match="defined twice"):
        class Again(Rule, kind="sequence"):
            pass
    assert KINDS["sequence"].__name__ == "Sequence"


def test_an_unknown_kind_lists_the_known_ones():
    data = {"id": "X1", "name": "x", "severity": "error", "kind": "sequense", "message": "m"}
    with pytest.raises(UsageError) as err:
        parse_rule(data, "r.toml")
    assert "one of sequence, swallowed, at-most-once" in str(err.value)


def test_the_kind_validates_its_roles():
    data = {"id": "X1", "name": "x", "severity": "error", "kind": "requires-before", "message": "m", "then": ["save"]}
    with pytest.raises(UsageError) as err:
        parse_rule(data, "r.toml")
    assert "a `requires-before` rule needs `first`" in str(err.value)


def test_a_new_kind_is_one_class_and_a_rule_file(tmp_path):
    class EveryEvent(Rule, kind="test-every-event"):
        """Flags every reachable event of its class (a toy kind)."""

        roles = ("event",)
        fields = Rule.fields + ("event_text", "event_line")  # what its message may say

        def check(self, graph: GraphInput) -> List[Hit]:
            return [Hit(self, n, [n], key=n) for n in sorted(graph.reachable, key=str)
                    if n in graph.classes and self.event[0] in graph.classes[n]]

        def message_fields(self, hit: Hit, g, classes) -> Tuple[Dict[str, object], List[Related]]:
            data = g.nodes[hit.anchor]
            return {"event_text": node_text(data), "event_line": node_span(data).line}, []

    try:
        rule_file = tmp_path / "X1.toml"
        rule_file.write_text('id = "X1"\nname = "every-save"\nseverity = "warning"\nkind = "test-every-event"\n'
                             'event = ["save"]\nmessage = "a save: `{event_text}` at line {event_line}"\n')
        findings = check_source("""
            def f(store, run):
                store.save(run)
                if run:
                    store.save(run)
        """, table={"rules": [str(rule_file)]}, select=["X1"])
        assert [(f.code, f.span.line, f.message) for f in findings] == [
            ("X1", 3, "a save: `store.save(run)` at line 3"),
            ("X1", 5, "a save: `store.save(run)` at line 5"),
        ]
        assert isinstance(parse_rule({"id": "X2", "name": "x", "severity": "error", "kind": "test-every-event",
                                      "message": "m", "event": ["save"]}, "r.toml"), EveryEvent)
    finally:
        del KINDS["test-every-event"]


def test_the_event_classes_the_engine_names_are_the_default_vocabulary():
    classes, _, _ = load_default_vocab()
    assert set(EventClass) == set(classes)
    assert BUILTIN_CLASSES == tuple(c.value for c in EventClass)
    assert all(type(c) is str for c in BUILTIN_CLASSES)


def test_the_contracts_package_imports_no_graph_library():
    """The rule loader imports the contracts package on every run; a warm run builds
    no graph, so networkx and the graph module come in on first use."""
    import ast
    from pathlib import Path

    for path in Path(contracts.__file__).parent.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "networkx" for a in node.names), path.name
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("cfg", "networkx") and not (node.module or "").startswith("networkx"), path.name
