"""docs/configuration.md "Notifications are not the ledger": a maintainer maps pub/sub
and event-stream calls to a class of their own with a rule that wants them *after* the
commit, instead of naming them `append` (held-out set 13: five of ten false alarms were
notifications named as ledger appends). The recipe must work as written there."""
from cliutil import oc, write

PYPROJECT = '''
[tool.ordercheck]
rules = ["tools/ordercheck/*.toml"]

[tool.ordercheck.extend-events]
notify = ["*.publish", "*.write_event_to_stream"]
'''

RULE = '''
id = "UR401"
name = "notify-before-commit"
severity = "warning"
kind = "sequence"
first = ["notify"]
then = ["save"]
unless-after = ["notify"]
message = "state save `{then_text}` after the notification at line {first_line}: a subscriber woken before the commit reads the state it replaces"
'''

APP = '''
def finish(store, bus, run):
    bus.publish("run.done", run.id)
    store.save(run)


def finish_then_notify(store, bus, run):
    store.save(run)
    bus.publish("run.done", run.id)


def notify_again(store, bus, run):
    bus.publish("run.saving", run.id)
    store.save(run)
    bus.publish("run.done", run.id)
'''


def test_a_notification_class_with_its_own_rule(tmp_path):
    write(tmp_path, "pyproject.toml", PYPROJECT)
    write(tmp_path, "tools/ordercheck/notify.toml", RULE)
    write(tmp_path, "app.py", APP)
    r = oc(tmp_path, "--no-cache", "app.py")
    assert r.codes() == [("app.py", 4, "UR401")], r
    assert "no `save` and no `append`" not in r.err
