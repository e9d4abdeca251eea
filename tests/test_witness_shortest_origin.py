"""A finding's witness is one shortest path from the function's entry (semantics
§Contracts), so its first event is the one that path passes: a save right before a
loop, not the save in the loop's handler that lies one step nearer the append but
behind a whole failed round (held-out set 52: radical.pilot's ``Flux.work`` named
"the state save at line 10" and went round the loop through its except clause)."""
from cliutil import oc, write

FLUX = '''\
class Flux:
    def advance(self, things, state):
        self.publish(things, state)
    def work(self, tasks):
        self.advance(tasks, "EXECUTING")
        for task in tasks:
            try: self._prof.prof("work_0", uid=task)
            except Exception:
                self._log.exception("failed")
                self.advance(task, "FAILED")
'''

CONFIG = '[extend-events]\nsave = ["*.advance"]\nappend = ["*._prof.prof"]\n'


def test_the_save_before_the_loop_is_the_first_event(tmp_path):
    write(tmp_path, "t.py", FLUX)
    write(tmp_path, "ordercheck.toml", CONFIG)
    r = oc(tmp_path, "--no-cache", "--select", "OC102", "t.py")
    assert r.findings() == [("t.py", 7, 18, "OC102")], r
    assert "after the state save at line 5:" in r.out, r
    steps = [line.split()[0] for line in r.out.splitlines()[1:5]]
    assert steps == ["5", "6", "7", "6"], r  # save, branch, append, the loop's way out


def test_at_most_once_names_the_nearer_earlier_event(tmp_path):
    # OC103 at line 8: both the append at line 2 and the one in the loop's handler
    # (line 7, a round earlier) reach it; the shortest witness starts at line 2
    write(tmp_path, "t.py", '''\
def sweep(ledger, runs, first):
    ledger.append_event("run.failed", first)
    for run in runs:
        try:
            check(run)
        except Exception:
            ledger.append_event("batch.failed")
        ledger.append_event("sweep.completed")
''')
    r = oc(tmp_path, "--isolated", "--no-cache", "--select", "OC103", "t.py")
    hits = [f for f in r.findings() if f[1] == 8]
    assert hits, r
    block = r.out[r.out.index("t.py:8:"):]
    assert "line 2" in block.splitlines()[0], r


def test_a_cut_segment_counts_whole_when_item_loops_compare(tmp_path):
    # OC103 over a loop's item: the append before a long `if` block (a segment past
    # MAX_SEGMENT nodes, cut in the witness) is farther than the loop's own (a review)
    lines = ["def sweep(ledger, runs, x, h):", "    if x:", '        ledger.append_event("run.failed")']
    lines += [f"        h.step{i}()" for i in range(120)]
    lines += ["    for run in runs:", '        ledger.append_event("run.failed", run)']
    lines += [f"        h.work{i}(run)" for i in range(30)]
    lines += ['        ledger.append_event("run.completed", run)']
    write(tmp_path, "g.py", "\n".join(lines) + "\n")
    r = oc(tmp_path, "--isolated", "--no-cache", "--select", "OC103", "g.py")
    last = len(lines)
    head = next(line for line in r.out.splitlines() if line.startswith(f"g.py:{last}:"))
    assert "at line 125:" in head, r
