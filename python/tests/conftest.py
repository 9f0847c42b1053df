import csv
import os
import pathlib

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
PAIRS = REPO / "studies" / "data" / "phyre-0.2.2" / "speed"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """REPHYRE_NO_SKIP=1 (CI sets it): a test that would skip, for want of an optional package
    such as gymnasium or Pillow, fails instead, so no check can vanish from a passing run."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("REPHYRE_NO_SKIP") == "1":
        report.outcome = "failed"
        report.longrepr = f"skipped, which REPHYRE_NO_SKIP=1 forbids: {report.longrepr}"


def read_pairs(tier, limit):
    """(task ids, actions, the original's statuses) of the first `limit` rows of the
    original PHYRE's timing pairs (random and discrete actions, status column = phyre 0.2.2)."""
    path = PAIRS / f"pairs-{tier}.csv"
    assert path.exists(), f"{path} not found (the tests run from a checkout of the workspace)"
    ids, actions, statuses = [], [], []
    with open(path) as f:
        for row in csv.DictReader(f):
            ids.append(row["task_id"])
            actions.append([float(x) for x in row["action"].split()])
            statuses.append(int(row["status"]))
            if len(ids) == limit:
                break
    return ids, np.array(actions, dtype=np.float64), np.array(statuses)


@pytest.fixture(scope="session")
def ball_pairs():
    return read_pairs("ball", 400)


@pytest.fixture(scope="session")
def two_ball_pairs():
    return read_pairs("two_balls", 200)
