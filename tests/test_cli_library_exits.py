"""A command-line program ends a handler of a failed save by reporting it the way its
library does: argparse's ``parser.error(...)`` prints and exits, click's
``click.echo(..., err=True)`` prints to standard error, ``ctx.fail(...)`` ends the
program with a usage error (docs/decisions.md "A command line's own ways out"; held-out
set 226: todo and time-tracking CLIs)."""
from __future__ import annotations

import pytest
from checkutil import cl

TABLE = {"extend-events": {"save": ["save_db"]}, "swallow-types": ["OSError"]}

ARGPARSE = """
import argparse


def save_db(data):
    pass


def main(argv=None):
    parser = argparse.ArgumentParser()
    args = parser.parse_args(argv)
    try:
        save_db(args.task)
    except OSError:
        {handler}
    return 0
"""

CLICK = """
import sys

import click


def save_db(data):
    pass


@click.command()
@click.pass_context
def add(ctx, task):
    try:
        save_db(task)
    except OSError:
        {handler}
"""


@pytest.mark.parametrize("handler, silent", [
    ('parser.error("could not write the todo file")', False),
    ("parser.exit(2)", False),
    ('parser.print_usage()', True),  # prints, and the program goes on
])
def test_argparse(handler, silent):
    assert cl(ARGPARSE.replace("{handler}", handler), select=["OC203"], table=TABLE) == (
        [("OC203", 13)] if silent else [])


@pytest.mark.parametrize("handler, silent", [
    ('click.echo("could not write the todo file", err=True)', False),
    ('click.secho("could not write", fg="red", err=True)', False),
    ('click.echo("could not write", file=sys.stderr)', False),
    ('click.echo("could not write")', True),  # standard output
    ('click.echo("could not write", err=False)', True),
    ('ctx.fail("could not write the todo file")', False),
    ("ctx.abort()", False),
    ('ctx.info_name.upper()', True),
])
def test_click(handler, silent):
    assert cl(CLICK.replace("{handler}", handler), select=["OC203"], table=TABLE) == (
        [("OC203", 15)] if silent else [])


def test_a_ctx_click_does_not_hand_in_is_no_context():
    src = CLICK.replace("@click.pass_context\n", "").replace("{handler}", 'ctx.fail("x")')
    assert cl(src, select=["OC203"], table=TABLE) == [("OC203", 14)]


def test_an_annotated_context():
    src = CLICK.replace("@click.pass_context\ndef add(ctx, task)", "def add(ctx: click.Context, task)").replace(
        "{handler}", 'ctx.fail("x")')
    assert cl(src, select=["OC203"], table=TABLE) == []


@pytest.mark.parametrize("imports, decorator", [
    ("import click as ck", "@ck.pass_context"),
    ("import click\nfrom click import pass_context", "@pass_context"),
])
def test_pass_context_through_the_files_imports(imports, decorator):
    """A review: the decorator is read through the imports, as its calls are."""
    src = CLICK.replace("import click", imports, 1).replace("@click.pass_context", decorator).replace(
        "{handler}", 'ctx.fail("x")')
    assert cl(src, select=["OC203"], table=TABLE) == []



TYPER = """
import sys

import typer


def save_db(data):
    pass


def add(ctx: typer.Context, task: str):
    try:
        save_db(task)
    except OSError:
        {handler}
"""


@pytest.mark.parametrize("handler, silent", [
    # held-out set 246 (socialcli): typer's `echo`/`secho` are click's, re-exported
    ('typer.echo("could not save the result", err=True)', False),
    ('typer.secho("could not save", fg=typer.colors.RED, err=True)', False),
    ('typer.echo("could not save")', True),
    ('ctx.fail("could not save")', False),
])
def test_typer(handler, silent):
    assert cl(TYPER.replace("{handler}", handler), select=["OC203"], table=TABLE) == (
        [("OC203", 13)] if silent else [])
