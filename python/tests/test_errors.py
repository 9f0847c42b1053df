"""Bad input is a clear ValueError / IndexError, never a crash."""

import numpy as np
import pytest

import rephyre as phyre


@pytest.fixture(scope="module")
def sim():
    return phyre.initialize_simulator(["00000:000", "00001:000"], "ball")


@pytest.mark.parametrize("action", [[np.nan, 0.5, 0.5], [0.5, np.inf, 0.5],
                                    [0.5, 0.5, -np.inf]])
def test_non_finite_action(sim, action):
    with pytest.raises(ValueError, match="finite"):
        sim.simulate_action(0, action)
    with pytest.raises(ValueError, match="finite"):
        sim.simulate_batch([0], [action])


@pytest.mark.parametrize("action", [[0.5, 0.5], [0.5] * 6, [], [[0.5, 0.5, 0.5]]])
def test_wrong_length(sim, action):
    with pytest.raises(ValueError):
        sim.simulate_action(0, action)


def test_wrong_batch_shapes(sim):
    with pytest.raises(ValueError):
        sim.simulate_batch([0, 1], [[0.5, 0.5, 0.5]])
    with pytest.raises(ValueError):
        sim.simulate_batch([0], [[0.5, 0.5]])
    with pytest.raises(ValueError):
        sim.simulate_batch([0.5], [[0.5, 0.5, 0.5]])
    with pytest.raises(ValueError):
        sim.simulate_batch([0], [[0.5, 0.5, 0.5]], num_threads=0)


@pytest.mark.parametrize("index", [2, -3, 10**12])
def test_task_index_out_of_range(sim, index):
    with pytest.raises(IndexError, match="out of range"):
        sim.simulate_action(index, [0.5, 0.5, 0.5])
    with pytest.raises(IndexError, match="out of range"):
        sim.simulate_batch([0, index], [[0.5, 0.5, 0.5]] * 2)


def test_negative_index_counts_from_the_end(sim):
    a = [0.9, 0.9, 0.1]
    assert sim.simulate_action(-1, a, need_images=False).status == \
        sim.simulate_action(1, a, need_images=False).status


def test_unknown_tier_and_task():
    with pytest.raises(ValueError, match="unknown action tier"):
        phyre.initialize_simulator(["00000:000"], "three_balls")
    for name in ["Ball", "two-balls", "ramp", ""]:
        with pytest.raises(ValueError, match="unknown action tier"):
            phyre.initialize_simulator(["00000:000"], name)
        with pytest.raises(ValueError, match="unknown action tier"):
            phyre.studies.diversity(name, 1, ["00000:000"])
    # The library's spellings, as the CLI takes them.
    for name, canonical in [("BALL", "ball"), ("TWO_BALLS", "two_balls")]:
        sim = phyre.initialize_simulator(["00000:000"], name)
        assert sim.action_tier == canonical and sim.action_space_dim == len(sim.sample())
        assert len(phyre.studies.diversity(name, 1, ["00000:000"])) > 0
    with pytest.raises(ValueError, match="unknown task id"):
        phyre.initialize_simulator(["00000:000", "99999:999"], "ball")
    with pytest.raises(ValueError, match="unknown task id"):
        phyre.initialize_simulator(["not a task"], "ball")
    with pytest.raises(ValueError):
        phyre.initialize_simulator("00000:000", "ball")


def test_bad_setup_and_fold():
    with pytest.raises(ValueError, match="unknown evaluation setup"):
        phyre.get_fold("ball_sideways", 0)
    with pytest.raises(ValueError, match="fold"):
        phyre.get_fold("ball_cross_template", 10)
    with pytest.raises(ValueError, match="fold"):
        phyre.get_fold("ball_cross_template", -1)
    with pytest.raises(ValueError):
        phyre.eval_setup_to_action_tier("nope")


def test_bad_stride(sim):
    with pytest.raises(ValueError, match="stride"):
        sim.simulate_action(0, [0.9, 0.9, 0.1], stride=0)


def test_bad_observation():
    with pytest.raises(ValueError):
        phyre.observations_to_uint8_rgb(np.full((256, 256), 9))
    with pytest.raises(ValueError):
        phyre.featurized_objects_vector_to_raster(np.zeros((3, 13)))
