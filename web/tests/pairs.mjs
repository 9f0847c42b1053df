// The (task, action) pairs the browser tests and the speed measurement use: 25 PHYRE (both
// tiers, committed witnesses and random actions, valid or not, one in another tier than its
// task's) and 25 Phy-Q (witness shots and random shots, some more than the level has birds),
// drawn from a fixed seed so every run checks the same pairs.

// mulberry32: a small seeded generator (the pairs only need to be the same every run).
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// `catalogue`: window.rephyre.catalogue; `solution(id, tier)`: window.rephyre.solution (async).
export async function pairs(catalogue, solution, seed = 20261201) {
  const rand = generator(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const round = (v, digits) => Number(v.toFixed(digits));
  const out = [];
  const phyre = catalogue.phyre;
  for (let i = 0; i < 25; i++) {
    const t = phyre[(i * 2) % phyre.length];
    const id = pick(t.tasks);
    let tier = t.tier;
    // One ball action on a two-ball task: `simulate --tier ball`.
    if (i === 24) tier = t.tier === 'ball' ? 'two_balls' : 'ball';
    const n = tier === 'ball' ? 3 : 6;
    const witness = i % 2 === 1 && tier === t.tier ? await solution(id, tier) : null;
    const action = witness || Array.from({ length: n }, () => round(rand(), 6));
    out.push({ task: id, tier, action, kind: witness ? 'witness' : 'random' });
  }
  const phyq = catalogue.phyq;
  for (let i = 0; i < 25; i++) {
    const t = phyq[(i * 3) % phyq.length];
    const id = pick(t.tasks);
    const witness = i % 2 === 1 ? await solution(id) : null;
    let shots = witness;
    if (!shots) {
      const n = 1 + Math.floor(rand() * 3);
      shots = Array.from({ length: n }, () => {
        const x = round(-10 - 90 * rand(), 2);
        const y = round(-100 + 200 * rand(), 2);
        const tap = rand() < 0.5 ? 0 : round(0.5 + 1.5 * rand(), 2);
        return `${x},${y},${tap}`;
      }).join(';');
    }
    out.push({ task: id, action: shots, kind: witness ? 'witness' : 'random' });
  }
  return out;
}
