"""A Jinja/Django template saved as ``.py`` is one OC900, as any file that does not
parse (SPEC §10); its message says the line reads like a template's, so a first run
over a package that ships code templates (held-out set 46: 53 bare OC900s on
mage-ai's) tells the user what to leave out."""
from __future__ import annotations

import json

import pytest
from cliutil import oc, write

HINT = "reads like a template's"


@pytest.mark.parametrize("src, hint", [
    ("{% if x %}\nimport os\n{% endif %}\n", True),
    ("import os\n\n{# a comment #}\nx = 1\n", True),
    ("def f():\n    return 1\n{%- for c in cols %}\n", True),
    ("def f(:\n    pass\n", False),
    ('x = {"a": 1}}\n', False),
    ('print "{%s}" % name\n', False),  # Python 2, no template (a review)
    ("x = {% if a %}1{% endif %}\n", True),  # a tag inside the line (a second review)
    ("def {{ name }}(store):\n    pass\n", True),
    ("from {{ pkg }} import run\n", True),
    ("def load():\n    return run(query)  {# a note #}\n", True),
    ("print 'a {{ b }}'\n", False),
    # (held-out set 66: crawlee's templates) the parser stops after the template's line
    ("browser = launch(\n    headless=True,\n    {{ options }}\n)\n", True),
    ("x = 1\nprint 'a {{ b }}'\ny = (\n", False),
])
def test_a_template_line_is_said(tmp_path, src, hint):
    write(tmp_path, "t.py", src)
    diags = json.loads(oc(tmp_path, "--no-cache", "--isolated", "--format", "json", "t.py").out)["files"][0]["diagnostics"]
    assert [d["code"] for d in diags] == ["OC900"]
    assert (HINT in diags[0]["message"]) is hint


def test_a_file_in_a_cookiecutter_folder_is_said(tmp_path):
    # (held-out set 66) `{{cookiecutter.project_name}}/__main__.py`: the folder says it
    write(tmp_path, "{{cookiecutter.project_name}}/__main__.py", "import asyncio\n\nasyncio.run(main(\n")
    diags = json.loads(oc(tmp_path, "--no-cache", "--isolated", "--format", "json", ".").out)["files"][0]["diagnostics"]
    assert [d["code"] for d in diags] == ["OC900"] and HINT in diags[0]["message"]
