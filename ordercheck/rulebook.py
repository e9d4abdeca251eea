"""Rules: the ordering contracts of ``rules/*.toml`` (semantics §Contracts), loaded and checked.

A rule file is data: id, name, severity, kind, the event classes it relates, a
message template, a Markdown explanation and examples. The same file feeds the
engine, ``--explain``, ``--list-rules``, ``docs/rules.md``, SARIF's rule list and the
example tests, so the documentation cannot drift from the behaviour.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .errors import UsageError
from .resources import rules_dir

KINDS = {
    "sequence": ("first", "then"),
    "swallowed": ("event",),
    "at-most-once": ("event",),
    "requires-before": ("first", "then"),
    "silent-handler": (),
    "unused-suppression": (),
    "parse-error": (),
}
ROLE_KEYS = ("first", "then", "barrier", "unless-after", "event")
SEVERITIES = {"error": 1, "warning": 2, "info": 3, "hint": 4}
RULE_KEYS = {"id", "name", "severity", "default", "kind", "message", "help", "explanation", "examples", *ROLE_KEYS}


ClassExpr = Tuple[str, ...]


def expr_matches(expr: ClassExpr, classes: FrozenSet[str]) -> bool:
    """``["append", "!terminal-append"]``: carries append and not terminal-append."""
    if not expr:
        return False
    positive = [c for c in expr if not c.startswith("!")]
    negative = [c[1:] for c in expr if c.startswith("!")]
    if positive and not any(c in classes for c in positive):
        return False
    if not positive and not classes:
        return False
    return not any(c in classes for c in negative)


def expr_text(expr: ClassExpr) -> str:
    pos = [c for c in expr if not c.startswith("!")]
    neg = [c[1:] for c in expr if c.startswith("!")]
    text = " or ".join(pos)
    if neg:
        text += " (not " + ", ".join(neg) + ")"
    return text


@dataclass(frozen=True)
class Rule:
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
    examples: Tuple[dict, ...] = ()
    source: str = ""
    help: str = ""  # short Markdown for whoever reads an alert (SARIF help, fullDescription)

    @property
    def lsp_severity(self) -> int:
        return SEVERITIES[self.severity]

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

    def summary(self) -> str:
        k = self.kind
        if k == "sequence":
            s = f"sequence: first={expr_text(self.first)}, then={expr_text(self.then)}"
            if self.barrier:
                s += f", barrier={expr_text(self.barrier)}"
            if self.unless_after:
                s += f", unless-after={expr_text(self.unless_after)}"
            return s
        if k in ("swallowed", "at-most-once"):
            return f"{k}: {expr_text(self.event)}"
        if k == "requires-before":
            return f"requires-before: first={expr_text(self.first)}, then={expr_text(self.then)}"
        return k


def _roles(data: dict, key: str, path: str) -> ClassExpr:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip("!") for v in value):
        raise UsageError("must be a list of event-class names", path, key)
    return tuple(value)


def parse_rule(data: dict, path: str) -> Rule:
    unknown = set(data) - RULE_KEYS
    if unknown:
        import difflib

        key = sorted(unknown)[0]
        close = difflib.get_close_matches(key, sorted(RULE_KEYS), n=1)
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        raise UsageError(f"unknown rule key{hint}", path, key)
    for key in ("id", "name", "severity", "kind", "message"):
        if not isinstance(data.get(key), str) or not data.get(key):
            raise UsageError("is required and must be a string", path, key)
    if data["kind"] not in KINDS:
        raise UsageError(f"unknown kind {data['kind']!r} (one of {', '.join(KINDS)})", path, "kind")
    if data["severity"] not in SEVERITIES:
        raise UsageError(f"unknown severity {data['severity']!r} (error, warning, info)", path, "severity")
    if not isinstance(data.get("default", True), bool):
        raise UsageError("must be true or false", path, "default")
    roles = {k: _roles(data, k, path) for k in ROLE_KEYS}
    for needed in KINDS[data["kind"]]:
        if not roles[needed]:
            raise UsageError(f"a `{data['kind']}` rule needs `{needed}`", path, needed)
    if not isinstance(data.get("help", ""), str):
        raise UsageError("must be a string", path, "help")
    examples = data.get("examples", [])
    if not isinstance(examples, list) or not all(isinstance(e, dict) for e in examples):
        raise UsageError("must be an array of tables ([[examples]])", path, "examples")
    rid = data["id"]
    if not rid[:1].isalpha() or not rid.isalnum():
        raise UsageError("must look like OC101: letters then digits", path, "id")
    return Rule(
        id=rid,
        name=data["name"],
        severity=data["severity"],
        default=data.get("default", True),
        kind=data["kind"],
        message=data["message"],
        explanation=data.get("explanation", "").strip(),
        first=roles["first"],
        then=roles["then"],
        barrier=roles["barrier"],
        unless_after=roles["unless-after"],
        event=roles["event"],
        examples=tuple(examples),
        source=path,
        help=data.get("help", "").strip(),
    )


def load_rule_file(path: Path) -> Rule:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise UsageError(f"cannot read rule file: {exc.strerror}", str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"invalid TOML: {exc}", str(path)) from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"not valid UTF-8 (byte {exc.object[exc.start:exc.start + 1]!r} at offset {exc.start}); TOML files must be UTF-8", str(path)) from None
    except (RecursionError, MemoryError):
        raise UsageError("invalid TOML: nested too deeply", str(path)) from None
    return parse_rule(data, str(path))


def builtin_rules() -> List[Rule]:
    return [load_rule_file(p) for p in sorted(rules_dir().glob("*.toml"))]


def load_rules(extra: Iterable[Path] = ()) -> Dict[str, Rule]:
    """Built-in rules plus users' rule files; a user file may not reuse an id."""
    rules: Dict[str, Rule] = {}
    for rule in builtin_rules():
        rules[rule.id] = rule
    for path in extra:
        rule = load_rule_file(Path(path))
        if rule.id in rules:
            raise UsageError(f"rule id {rule.id} is already defined by {rules[rule.id].source}", str(path), "id")
        rules[rule.id] = rule
    return dict(sorted(rules.items()))
