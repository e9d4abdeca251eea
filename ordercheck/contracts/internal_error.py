"""``internal-error``: a function ordercheck failed to check (an exception inside the
engine, ``runner.check_file``; message fields ``{function}``, ``{error}`` and ``{part}``: what was lost, the function's
check or its summary's order). The rest of
the file and the run go on, and the failure is a finding, not a silent skip: like a
parse error it is on whatever the selection says."""
from __future__ import annotations

from .base import Rule


class InternalError(Rule, kind="internal-error"):
    on_graph = False
    always_on = True
    fields = ("function", "error", "part")
