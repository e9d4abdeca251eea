"""The pool's files go out in batches (``sources.batches``): neighbouring files, in
order, every file once, about equal bytes, a large file alone; the results come back
in the plan's order whatever the batches (docs/performance.md, "Session 23")."""
from __future__ import annotations

from pathlib import Path

import pytest

from ordercheck import sources


def _files(tmp_path: Path, sizes):
    out = []
    for i, size in enumerate(sizes):
        p = tmp_path / f"m{i}.py"
        p.write_text("#" * max(size - 1, 0) + "\n")
        out.append(p)
    return out


@pytest.mark.parametrize("sizes", [[10] * 500, [10] * 3, [100_000] + [10] * 200, [10] * 100 + [50_000] + [10] * 100])
@pytest.mark.parametrize("jobs", [2, 4])
def test_batches_cover_every_file_once_in_order(tmp_path, sizes, jobs):
    files = _files(tmp_path, sizes)
    ranges = sources.batches(files, jobs)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(files)
    assert all(a < b for a, b in ranges)
    assert all(prev[1] == nxt[0] for prev, nxt in zip(ranges, ranges[1:]))
    assert all(b - a <= sources.BATCH_FILES for a, b in ranges)
    budget = sum(sizes) / (jobs * sources.BATCHES_PER_WORKER)
    for a, b in ranges:  # over the budget only by a single file
        assert b - a == 1 or sum(sizes[a:b]) <= budget + 1


def test_a_large_file_is_a_batch_of_its_own(tmp_path):
    sizes = [10] * 100 + [50_000] + [10] * 100
    ranges = sources.batches(_files(tmp_path, sizes), 2)
    assert (100, 101) in ranges


def test_many_small_files_share_batches(tmp_path):
    ranges = sources.batches(_files(tmp_path, [10] * 3000), 2)
    assert len(ranges) <= 3000 // sources.BATCH_FILES + 2 * sources.BATCHES_PER_WORKER + 1


def test_a_pool_run_gives_the_facts_in_the_plans_order(tmp_path):
    """Files of very different sizes, read in a pool of two: each file's facts in its
    place, as the single-process read gives them."""
    files = []
    for i in range(40):
        body = "\n".join(f"    x{j} = {j}" for j in range(1 + (i * 37) % 300))
        p = tmp_path / f"m{i}.py"
        p.write_text(f"def f{i}():\n{body}\n    store.save(x0)\n")
        files.append(p)
    pooled, _ = sources.read_all(files, jobs=2, roots=[tmp_path])
    single, _ = sources.read_all(files, jobs=1, roots=[tmp_path])
    assert [f.path for f in pooled] == [f.path for f in single]
    assert [Path(f.path).name for f in pooled] == [p.name for p in files]
    assert [[fn.qualname for fn in f.functions] for f in pooled] == [[fn.qualname for fn in f.functions] for f in single]
