"""SimulationCache (computed locally, saved, reloaded) and the Gymnasium environment."""

import numpy as np
import pytest

import rephyre as phyre


def test_simulation_cache_round_trip(tmp_path, capsys):
    ids = phyre.all_task_ids()[:2500:500]
    cache = phyre.SimulationCache.compute("ball", 12, task_ids=ids, cache_dir=str(tmp_path),
                                          cache_name="small")
    assert "simulation cache: 5/5 tasks" in capsys.readouterr().err
    assert len(cache) == 12 and cache.task_ids == ids
    assert cache.action_array.shape == (12, 3)
    states = cache.load_simulation_states(ids[3])
    assert states.shape == (12,) and states.dtype == np.int8
    # The same statuses as simulating one by one.
    sim = phyre.initialize_simulator(ids, "ball")
    for k in range(len(ids)):
        for j, a in enumerate(cache.action_array):
            want = int(sim.simulate_action(k, a, need_images=False).status)
            assert cache.load_simulation_states(ids[k])[j] == want
    again = phyre.SimulationCache(str(tmp_path), cache_name="small")
    # The original's call: the cache's own folder, positional or by its keyword.
    for same in (phyre.SimulationCache(str(tmp_path / "small")),
                 phyre.SimulationCache(cache_dir=tmp_path / "small")):
        assert np.array_equal(same.action_array, cache.action_array)
    assert np.array_equal(again.action_array, cache.action_array)
    sample = again.get_sample(ids[2::-1], num_actions=5)
    assert sample["simulation_statuses"].shape == (3, 5) and sample["actions"].shape == (5, 3)
    assert np.array_equal(sample["simulation_statuses"][0], cache.load_simulation_states(ids[2])[:5])
    with pytest.raises(ValueError):
        again.load_simulation_states("00000:000x")
    with pytest.raises(ValueError):
        phyre.SimulationCache(str(tmp_path), cache_name="missing")


def test_default_cache_is_computed_once(tmp_path, monkeypatch):
    monkeypatch.setenv("REPHYRE_CACHE_DIR", str(tmp_path))
    ids = phyre.all_task_ids()[:3]
    c1 = phyre.get_default_100k_cache("ball", num_actions=4, task_ids=ids)
    c2 = phyre.get_default_100k_cache("ball", num_actions=4)
    assert c2.task_ids == ids and np.array_equal(c1.get_sample()["simulation_statuses"],
                                                 c2.get_sample()["simulation_statuses"])


def test_gym_env():
    pytest.importorskip("gymnasium")
    from rephyre.gym_env import PhyreEnv
    env = PhyreEnv(phyre.all_task_ids()[:10], "ball")
    obs, info = env.reset(seed=3)
    assert obs.shape == (256, 256) and obs.dtype == np.uint8
    assert env.observation_space.contains(obs)
    action = env.action_space.sample()
    obs2, reward, terminated, truncated, info2 = env.step(action)
    assert terminated and not truncated and reward in (0.0, 1.0)
    sim = phyre.initialize_simulator([info["task_id"]], "ball")
    assert info2["status"] == sim.simulate_action(0, action, need_images=False).status
    obs, info = env.reset(options={"task_index": 4})
    assert info["task_id"] == phyre.all_task_ids()[4]
    env.step(action)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(action)


def test_gym_env_passes_check_env():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env
    from rephyre.gym_env import PhyreEnv
    check_env(PhyreEnv(phyre.all_task_ids()[:20], "two_balls"), skip_render_check=True)
    check_env(PhyreEnv(phyre.all_task_ids()[:20], "ball", render_mode="rgb_array"))
    assert gymnasium is not None


def test_gym_env_registered_and_drawn_from_a_fold_split():
    gymnasium = pytest.importorskip("gymnasium")
    from rephyre.gym_env import ENV_ID
    env = gymnasium.make(ENV_ID, eval_setup="two_balls_cross_template", fold_id=3, split="dev")
    dev = set(phyre.get_fold("two_balls_cross_template", 3)[1])
    assert env.unwrapped.simulator.action_space_dim == 6
    seen = set()
    for seed in range(12):
        _, info = env.reset(seed=seed)
        seen.add(info["task_id"])
    assert seen <= dev and len(seen) > 1
    default = gymnasium.make(ENV_ID).unwrapped
    assert tuple(default.simulator.task_ids) == phyre.get_fold("ball_within_template", 0)[0]


def test_gym_env_rejects_bad_arguments():
    pytest.importorskip("gymnasium")
    from rephyre.gym_env import PhyreEnv
    with pytest.raises(ValueError, match="split"):
        PhyreEnv(eval_setup="ball_within_template", split="validation")
    with pytest.raises(ValueError, match="tier"):
        PhyreEnv(eval_setup="ball_within_template", action_tier="two_balls")
    with pytest.raises(ValueError, match="not both"):
        PhyreEnv(phyre.all_task_ids()[:2], eval_setup="ball_within_template")
    with pytest.raises(ValueError):
        PhyreEnv(eval_setup="no_such_setup")
