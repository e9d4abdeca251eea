"""Rules: the ordering contracts of ``rules/*.toml`` (semantics §Contracts), loaded and checked.

A rule file is data: id, name, severity, kind, the event classes it relates, a
message template, a Markdown explanation and examples. Its ``kind`` picks the class
the rule becomes (``contracts.KINDS``: one module per kind in ``ordercheck/contracts/``),
which also checks the roles the kind needs. The same file feeds the engine,
``--explain``, ``--list-rules``, ``docs/rules.md``, SARIF's rule list and the example
tests, so the documentation cannot drift from the behaviour.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, Iterable, List

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .contracts import KINDS, ROLE_KEYS, SEVERITIES, ClassExpr, Rule, expr_matches, expr_text
from .errors import UsageError
from .resources import rules_dir

__all__ = ["KINDS", "ROLE_KEYS", "RULE_KEYS", "SEVERITIES", "ClassExpr", "Rule", "builtin_rules", "expr_matches",
           "expr_text", "load_rule_file", "load_rules", "parse_rule"]

RULE_KEYS = {"id", "name", "severity", "default", "kind", "message", "help", "explanation", "examples", *ROLE_KEYS}


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
    kind = KINDS.get(data["kind"])
    if kind is None:
        raise UsageError(f"unknown kind {data['kind']!r} (one of {', '.join(KINDS)})", path, "kind")
    if data["severity"] not in SEVERITIES:
        raise UsageError(f"unknown severity {data['severity']!r} (error, warning, info)", path, "severity")
    if not isinstance(data.get("default", True), bool):
        raise UsageError("must be true or false", path, "default")
    roles = {k: _roles(data, k, path) for k in ROLE_KEYS}
    kind.validate(roles, path)
    if not isinstance(data.get("help", ""), str):
        raise UsageError("must be a string", path, "help")
    examples = data.get("examples", [])
    if not isinstance(examples, list) or not all(isinstance(e, dict) for e in examples):
        raise UsageError("must be an array of tables ([[examples]])", path, "examples")
    rid = data["id"]
    if not rid[:1].isalpha() or not rid.isalnum():
        raise UsageError("must look like OC101: letters then digits", path, "id")
    return kind(
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
