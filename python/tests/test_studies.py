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
