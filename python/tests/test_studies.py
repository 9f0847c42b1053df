"""The studies library through Python: the same answers as its Rust functions' own rules."""

import pytest

import rephyre as phyre
from rephyre import studies

from conftest import PAIRS


def test_solvability_small_run_is_thread_independent():
    ids = phyre.all_task_ids()[:2]
    kw = dict(min_valid=200, max_valid=200, batch=100, seed=1)
    rows = studies.solvability("ball", ids, num_threads=1, **kw)
    assert [r["task_id"] for r in rows] == list(ids)
    for r in rows:
        assert r["valid"] == 200
        assert 0 <= r["stable"] <= r["solved"] <= r["valid"]
        assert isinstance(r["flags"], str)
    assert studies.solvability("ball", ids, num_threads=2, **kw) == rows


def test_diversity():
    ids = phyre.all_task_ids()[:3]
    d = studies.diversity("ball", 30, ids, seed=2)
    assert list(d) == ["00000"]
    assert d["00000"]["tasks"] == 3 and sum(d["00000"]["histogram"]) == 30
    assert studies.diversity("ball", 30, ids, seed=2, num_threads=1) == d


def test_sharded_runs_merge_to_the_single_run(tmp_path):
    ids = phyre.all_task_ids()[:3]
    kw = dict(min_valid=100, max_valid=100, batch=50, seed=3)
    single = studies.solvability("ball", ids, **kw)
    parts = [str(tmp_path / f"s{k}.json") for k in (1, 2)]
    for k, part in zip((2, 1), reversed(parts)):
        assert studies.solvability("ball", ids, shard=f"{k}/2", part=part, **kw) is None
    assert studies.merge(parts) == ("solvability", single)
    d_single = studies.diversity("ball", 1000, ids, seed=4)
    d_parts = [str(tmp_path / f"d{k}.json") for k in (1, 2)]
    for k, part in zip((1, 2), d_parts):
        studies.diversity("ball", 1000, ids, seed=4, shard=f"{k}/2", part=part)
    assert studies.merge(d_parts) == ("diversity", d_single)
    # A part missing, one given twice, or parts of two runs are refused, naming the file.
    with pytest.raises(ValueError, match="shard"):
        studies.merge(parts[:1])
    with pytest.raises(ValueError):
        studies.merge([parts[0], parts[0]])
    with pytest.raises(ValueError, match="s1.json|d2.json"):
        studies.merge([parts[0], d_parts[1]])
    with pytest.raises(ValueError, match="shard needs part"):
        studies.diversity("ball", 10, ids, shard="1/2")
    with pytest.raises(ValueError, match="give shard"):
        studies.diversity("ball", 10, ids, part=d_parts[0])
    with pytest.raises(ValueError):
        studies.diversity("ball", 10, ids, shard="3/2", part=d_parts[0])
    with pytest.raises(ValueError, match="cannot read part file"):
        studies.merge([str(tmp_path / "missing.json")])


def test_parity_on_a_few_reference_rows():
    path = PAIRS / "pairs-ball.csv"
    text = "".join(path.read_text().splitlines(keepends=True)[:41])
    summary, markdown = studies.parity(text)
    assert summary["rows"] == 40
    # Measured: validity and the random actions' statuses agree on all 40 rows.
    assert summary["validity_agreement"] == 1.0
    assert summary["status_agreement_random"] == 1.0
    assert markdown.startswith("# rephyre vs PHYRE 0.2.2")


def test_studies_bad_input():
    with pytest.raises(ValueError, match="unknown action tier"):
        studies.solvability("three_balls", ["00000:000"])
    with pytest.raises(ValueError, match="unknown task id"):
        studies.diversity("ball", 10, ["nope"])
    with pytest.raises(ValueError):
        studies.solvability("ball", ["00000:000"], alpha=2.0)
    with pytest.raises(ValueError, match="batch must be at least 1"):
        studies.solvability("ball", ["00000:000"], batch=0)
    with pytest.raises(ValueError):
        studies.parity("not,a,reference\n")
