// The web player in a real browser (Debian's Chromium driven by playwright-core), against the
// command line: scripts/player-test.sh starts `rephyre serve` and runs this file with
//   PLAYER_URL  the served page (http://127.0.0.1:PORT/)
//   PLAYER_SET_URL, PLAYER_SET  the page served with `--tasks PLAYER_SET`, a Phy-Q level set
//   REPHYRE     the rephyre binary that serves it (the command line the page must agree with)
//   CHROMIUM    the browser (default /usr/bin/chromium)
//   PLAYER_SPEED_OUT  when set: measure speed, size and time to first frame, write them there
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { pairs } from './pairs.mjs';

const BASE = process.env.PLAYER_URL;
const REPHYRE = process.env.REPHYRE;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SET_BASE = process.env.PLAYER_SET_URL;
const SET = process.env.PLAYER_SET;
if (!BASE || !REPHYRE || !SET_BASE || !SET) {
  throw new Error('PLAYER_URL, PLAYER_SET_URL, PLAYER_SET and REPHYRE must be set (scripts/player-test.sh sets them)');
}
const scratch = mkdtempSync(join(tmpdir(), 'rephyre-player-'));

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
});
after(async () => {
  await browser?.close();
});

// A page at `query` (of the server at `base`), ready, with every console error or warning, page
// error and failed request collected in `problems`.
async function open(query = '', base = BASE) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(base + query);
  await page.waitForFunction(() => window.rephyre && window.rephyre.ready, null, { timeout: 30000 });
  return { page, problems, close: () => context.close() };
}

// `rephyre ARGS…` → its JSON line.
function cli(...args) {
  const r = spawnSync(REPHYRE, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, `rephyre ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}
function cliSimulate(pair) {
  if (pair.task.startsWith('phyq:')) return cli('simulate', pair.task, '--shots', pair.action, '--json');
  return cli('simulate', pair.task, '--tier', pair.tier, '--action', pair.action.join(','), '--json');
}
// The decoded RGBA of a PNG from `rephyre render ARGS… --out F`.
function rendered(...args) {
  const out = join(scratch, `render-${Math.random().toString(36).slice(2)}.png`);
  const r = spawnSync(REPHYRE, ['render', ...args, '--out', out], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return PNG.sync.read(readFileSync(out));
}
function differingPixels(a, b) {
  assert.equal(a.width, b.width, 'width');
  assert.equal(a.height, b.height, 'height');
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) n++;
  }
  return n;
}
// The scene canvas's own pixels (what is drawn on it, not what lies over it).
async function canvasPixels(page) {
  const { width, height, data } = await page.evaluate(() => {
    const c = document.getElementById('scene');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    return { width: c.width, height: c.height, data: Array.from(d.data) };
  });
  return { width, height, data };
}
async function waitFor(page, predicate, arg, timeout = 60000) {
  await page.waitForFunction(predicate, arg, { timeout, polling: 50 });
}
const current = (page) => page.evaluate(() => window.rephyre.current());
// The pairs of pairs.mjs, drawn with the page's catalogue and witnesses.
async function pairsOf(page) {
  const catalogue = await page.evaluate(() => window.rephyre.catalogue);
  return pairs(catalogue, (id, tier) => page.evaluate(([t, r]) => window.rephyre.solution(t, r), [id, tier]));
}
async function fast(page) {
  await page.selectOption('#speed', '64');
}
// A Phy-Q launch as a player makes it: press on the bird at the slingshot, move twice (pixels
// from the slingshot, y down), let go.
async function pullBird(page, [dx1, dy1], [dx2, dy2]) {
  const { slingshot } = await current(page);
  const box = await page.locator('#overlay').boundingBox();
  const at = (dx, dy) => [box.x + slingshot.x + dx, box.y + slingshot.y + dy];
  await page.mouse.move(...at(0, 0));
  await page.mouse.down();
  await page.mouse.move(...at(dx1, dy1), { steps: 4 });
  await page.mouse.move(...at(dx2, dy2), { steps: 4 });
  await page.mouse.up();
}

test('the page loads and draws with no console error, failed request or page error', async () => {
  const { page, problems, close } = await open();
  const first = await page.evaluate(() => window.rephyre.firstFrameMs);
  assert.ok(first > 0, 'a first frame was drawn');
  const c = await current(page);
  assert.equal(c.task, '00000:000');
  assert.equal(c.message, '');
  assert.deepEqual(problems, []);
  await close();
});

test('50 (task, action) pairs of both tiers give the command line\'s status, hash and steps', async () => {
  const { page, problems, close } = await open();
  const list = await pairsOf(page);
  assert.equal(list.length, 50);
  const kinds = new Set(list.map((p) => `${p.task.startsWith('phyq:') ? 'phyq' : p.tier}/${p.kind}`));
  for (const k of ['ball/witness', 'ball/random', 'two_balls/witness', 'two_balls/random', 'phyq/witness', 'phyq/random']) {
    assert.ok(kinds.has(k), `the pairs include ${k}`);
  }
  const statuses = new Set();
  for (const pair of list) {
    const got = await page.evaluate(([t, a, tier]) => window.rephyre.simulate(t, a, tier), [pair.task, pair.action, pair.tier]);
    const want = cliSimulate(pair);
    const label = `${pair.task} ${JSON.stringify(pair.action)}`;
    assert.equal(got.status, want.status, label);
    assert.equal(got.hash ?? null, want.final_hash ?? null, label);
    assert.equal(got.steps ?? null, want.steps ?? null, label);
    if (pair.task.startsWith('phyq:')) assert.equal(got.pigs_left, want.pigs_left, label);
    statuses.add(got.status);
  }
  // Both tiers' outcomes of every kind were compared.
  for (const s of ['SOLVED', 'NOT_SOLVED', 'INVALID', 'passed', 'not_passed']) assert.ok(statuses.has(s), `a pair ends ${s}`);
  assert.deepEqual(problems, []);
  await close();
});

test('a ball placed by drag and drop runs to the command line\'s status and hash', async () => {
  const { page, problems, close } = await open('?task=00002:017');
  const witness = await page.evaluate(() => window.rephyre.solution('00002:017', 'ball'));
  // The witness's ball (px, y up): press at its centre, drag out its radius.
  const [x, y, r] = [255 * witness[0], 255 * witness[1], 2 + 30 * witness[2]].map(Math.round);
  const box = await page.locator('#overlay').boundingBox();
  // Canvas pixel 2·x is scene x exactly (the scene is drawn 2×, y up).
  const at = (sx, sy) => [box.x + 2 * sx, box.y + 2 * (256 - sy)];
  await page.mouse.move(...at(x, y));
  await page.mouse.down();
  await page.mouse.move(...at(x + r / 2, y), { steps: 3 });
  await page.mouse.move(...at(x + r, y), { steps: 3 });
  await page.mouse.up();
  let c = await current(page);
  assert.equal(c.validity, 'Valid action.');
  assert.equal(c.action.length, 3);
  assert.deepEqual(c.action, [x / 255, y / 255, (r - 2) / 30]);
  // The link in the address bar names the action.
  assert.ok(page.url().includes(`action=${encodeURIComponent(c.action.join(','))}`), page.url());
  await fast(page);
  await page.click('#play');
  await waitFor(page, () => ['SOLVED', 'NOT_SOLVED'].includes(window.rephyre.current().status));
  c = await current(page);
  const want = cli('simulate', '00002:017', '--action', c.action.join(','), '--json');
  assert.equal(c.status, want.status);
  assert.equal(c.hash, want.final_hash);
  assert.equal(c.step, want.steps);
  assert.equal(c.status, 'SOLVED', 'the witness\'s ball solves the task');
  assert.deepEqual(problems, []);
  await close();
});

test('a two-ball task takes two drags', async () => {
  const { page, problems, close } = await open('?task=00101:003');
  const box = await page.locator('#overlay').boundingBox();
  const drag = async (sx, sy, r) => {
    await page.mouse.move(box.x + 2 * sx, box.y + 2 * (256 - sy));
    await page.mouse.down();
    await page.mouse.move(box.x + 2 * (sx + r), box.y + 2 * (256 - sy), { steps: 4 });
    await page.mouse.up();
  };
  await drag(40, 240, 6);
  assert.equal((await current(page)).action, null, 'one ball is not an action yet');
  await drag(200, 240, 8);
  const c = await current(page);
  assert.equal(c.action.length, 6);
  const reason = cli('simulate', '00101:003', '--action', c.action.join(','), '--json').reason;
  assert.equal(c.validity, reason ? `Invalid: ${reason}.` : 'Valid action.');
  assert.deepEqual(problems, []);
  await close();
});

test('a ball dropped on a scene body is shown invalid, with the command line\'s reason', async () => {
  // 00000:000's blue ball sits around (200, 70) px, y up (its picture: the scene test's).
  const { page, problems, close } = await open('?task=00000:000');
  const box = await page.locator('#overlay').boundingBox();
  await page.mouse.move(box.x + 2 * 200, box.y + 2 * (256 - 70));
  await page.mouse.down();
  await page.mouse.move(box.x + 2 * 210, box.y + 2 * (256 - 70), { steps: 3 });
  await page.mouse.up();
  const c = await current(page);
  const want = cli('simulate', '00000:000', '--action', c.action.join(','), '--json');
  assert.equal(want.status, 'INVALID');
  assert.equal(c.validity, `Invalid: ${want.reason}.`);
  // Play refuses it with a message, and nothing runs.
  await page.click('#play');
  assert.match((await current(page)).message, /invalid/i);
  assert.equal((await current(page)).playing, false);
  assert.deepEqual(problems, []);
  await close();
});

test('the template\'s thumbnails open a task', async () => {
  for (const [query, count, pick] of [['?task=00003:000', 100, 7], ['?task=phyq:2_1_3:00001', 100, 41]]) {
    const { page, problems, close } = await open(query);
    await page.click('#show-grid');
    await waitFor(page, (n) => document.querySelectorAll('#thumbs button').length === n, count);
    const label = await page.locator('#thumbs button span').nth(pick).textContent();
    await page.locator('#thumbs button').nth(pick).click();
    const c = await current(page);
    assert.equal(c.task, label);
    assert.ok(!(await page.locator('#grid').evaluate((d) => d.open)), 'the grid closed');
    assert.deepEqual(problems, []);
    await close();
  }
});

test('a screenshot of the initial scene is the picture rephyre render draws (both tiers)', async () => {
  for (const [query, args] of [
    ['?task=00012:034', ['00012:034', '--scale', '2']],
    ['?task=00110:005', ['00110:005', '--scale', '2']],
    ['?task=phyq:3_6_4:00042', ['phyq:3_6_4:00042']],
  ]) {
    const { page, problems, close } = await open(query);
    const shot = PNG.sync.read(await page.locator('#scene').screenshot());
    const want = rendered(...args);
    assert.equal(differingPixels(shot, want), 0, `${query}: pixels differing from rephyre render`);
    assert.deepEqual(problems, []);
    await close();
  }
});

test('a link restores the action or the shots, and plays to the command line\'s result', async () => {
  const action = [0.7, 0.9, 0.25];
  let { page, problems, close } = await open(`?task=00007:030&action=${action.join(',')}`);
  let c = await current(page);
  assert.deepEqual(c.action, action);
  assert.equal(c.message, '');
  const want = cli('simulate', '00007:030', '--action', action.join(','), '--json');
  if (want.status !== 'INVALID') {
    // The scene shows the action's ball where rephyre render puts it.
    assert.equal(differingPixels(await canvasPixels(page), rendered('00007:030', '--action', action.join(','), '--scale', '2')), 0);
  }
  await fast(page);
  await page.click('#play');
  await waitFor(page, () => ['SOLVED', 'NOT_SOLVED'].includes(window.rephyre.current().status));
  c = await current(page);
  assert.equal(c.hash, want.final_hash);
  assert.deepEqual(problems, []);
  await close();

  const shots = '-17.28,-5.98,0';
  ({ page, problems, close } = await open(`?task=phyq:1_1_4:00001&shots=${encodeURIComponent(shots)}`));
  await fast(page);
  await waitFor(page, () => window.rephyre.current().phase === 'over');
  c = await current(page);
  const phyqWant = cli('simulate', 'phyq:1_1_4:00001', '--shots', shots, '--json');
  assert.equal(c.status, phyqWant.status);
  assert.equal(c.hash, phyqWant.final_hash);
  assert.equal(c.shots, shots);
  // "Copy link" keeps task and shots in the address bar.
  await page.click('#share');
  assert.ok(page.url().includes('task=phyq%3A1_1_4%3A00001') && page.url().includes('shots='), page.url());
  assert.deepEqual(problems, []);
  await close();
});

test('"show a solution" plays the committed witness (PHYRE and Phy-Q)', async () => {
  for (const id of ['00020:051', 'phyq:2_3_5:00007']) {
    const { page, problems, close } = await open(`?task=${id}`);
    await fast(page);
    await page.click('#solution');
    await waitFor(page, () => ['SOLVED', 'passed'].includes(window.rephyre.current().status));
    const c = await current(page);
    const witness = await page.evaluate((t) => window.rephyre.solution(t), id);
    const want = id.startsWith('phyq:')
      ? cli('simulate', id, '--shots', witness, '--json')
      : cli('simulate', id, '--action', witness.join(','), '--json');
    assert.equal(c.hash, want.final_hash, id);
    assert.deepEqual(problems, []);
    await close();
  }
});

test('a Phy-Q bird dragged from the slingshot and tapped in flight replays on the command line', async () => {
  const { page, problems, close } = await open('?task=phyq:3_9_1:00005');
  const info = await page.evaluate(() => window.rephyre.info('phyq:3_9_1:00005'));
  assert.notEqual(info.birds[0], 'red', 'a first bird with a power to tap');
  await fast(page);
  await page.selectOption('#speed', '1');
  // Drag the bird back and down: a shot up and to the right.
  await pullBird(page, [-10, 5], [-15, 9]);
  let c = await current(page);
  assert.equal(c.phase, 'flying');
  const launched = c.step;
  await waitFor(page, (s) => window.rephyre.current().step >= s + 20, launched);
  await page.keyboard.press('Space');
  c = await current(page);
  const [, , tap] = c.shots.split(';')[0].split(',').map(Number);
  assert.ok(tap > 0, `the shot has a tap: ${c.shots}`);
  await fast(page);
  await waitFor(page, () => ['aiming', 'over'].includes(window.rephyre.current().phase));
  c = await current(page);
  const want = cli('simulate', 'phyq:3_9_1:00005', '--shots', c.shots, '--json');
  assert.equal(c.hash, want.final_hash, c.shots);
  assert.equal(Number((await page.textContent('#birds')).match(/Pigs left: (\d+)/)[1]), want.pigs_left);
  // The score the page shows is simulate's for the same shots (the game's last shot has ended).
  if (c.phase === 'over') {
    assert.equal(Number((await page.textContent('#birds')).match(/Score: (\d+)/)[1]), want.score);
  }
  assert.deepEqual(problems, []);
  await close();
});

test('bad link parameters show a message and never break the page', async () => {
  const long = 'x'.repeat(10 * 1024);
  const cases = [
    ['?task=99999:999', /unknown|99999/i],
    ['?task=phyq:9_9_9:00001', /Phy-Q/],
    ['?task=00000%3A000%3Cscript%3E', /./],
    ['?task=00000:000&action=NaN,0.5,0.5', /not a number/],
    ['?task=00000:000&action=2,0.5,0.5', /outside \[0, 1\]/],
    ['?task=00000:000&action=0.5,0.5', /takes 3/],
    ['?task=00000:000&tier=three_balls', /Unknown tier/],
    ['?task=00000:000&tier=two_balls&action=0.5,0.5,0.3', /takes 6/],
    [`?task=${long}`, /too long/],
    [`?task=00000:000&action=${'1,'.repeat(5000)}1`, /too long/],
    ['?task=phyq:1_1_4:00001&shots=abc,0,0', /not a number/],
    ['?task=phyq:1_1_4:00001&shots=abc', /expected 3 numbers/],
    ['?task=phyq:1_1_4:00001&shots=1e999,0,0', /finite|range/],
    [`?task=phyq:1_1_4:00001&shots=${'-17,-6,0;'.repeat(9)}-17,-6,0`, /10 shots for a level of \d birds?/],
  ];
  for (const [query, message] of cases) {
    const { page, problems, close } = await open(query);
    const c = await current(page);
    assert.match(c.message, message, `${query.slice(0, 80)}: message ${JSON.stringify(c.message)}`);
    assert.ok(c.message.length < 400, 'a message is one line');
    assert.deepEqual(problems, [], query.slice(0, 80));
    // Still usable: a task opens and simulates.
    const ok = await page.evaluate(() => window.rephyre.simulate('00000:001', [0.5, 0.5, 0.3]).status);
    assert.equal(ok, 'NOT_SOLVED');
    assert.ok(await page.evaluate(() => window.rephyre.firstFrameMs > 0), 'a scene is drawn');
    await close();
  }
  // Bad input to the handle throws an Error with the command line's words, and the page goes on.
  const { page, problems, close } = await open();
  const thrown = await page.evaluate(() => {
    const out = [];
    for (const [t, a] of [['00000:999', [0.5, 0.5, 0.3]], ['phyq:1_1_4:00001', '1,2'], [42, []]]) {
      try { window.rephyre.simulate(t, a); out.push(null); } catch (e) { out.push(e instanceof Error ? e.message : 'not an Error'); }
    }
    return out;
  });
  assert.equal(thrown.length, 3);
  for (const m of thrown) assert.ok(typeof m === 'string' && m.length > 0, JSON.stringify(thrown));
  assert.deepEqual(problems, []);
  await close();
});

test('a level set served with --tasks is a tier of its own, and its levels play as rephyre --tasks SET plays them', async () => {
  // The set's two templates as written: their ids are built-in ids too.
  const id = 'phyq:2_1_3:00001';
  let { page, problems, close } = await open('', SET_BASE);
  const levels = await page.evaluate(() => window.rephyre.levels);
  assert.equal(levels.name, basename(SET));
  assert.equal(levels.count, 2);
  await page.selectOption('#tier', 'set');
  let c = await current(page);
  assert.equal(c.tier, 'set');
  assert.equal(c.task, 'phyq:1_1_4:00001');
  const templates = await page.$$eval('#template option', (os) => os.map((o) => o.value));
  assert.deepEqual(templates, ['1_1_4', '2_1_3']);
  await page.selectOption('#template', '2_1_3');
  c = await current(page);
  assert.equal(c.task, id);
  assert.match(await page.textContent('#task-info'), /level set set\.json: 2_1_3_1\.xml/);
  // Its scene is the picture `rephyre --tasks SET render` draws, not the built-in task's.
  const shot = PNG.sync.read(await page.locator('#scene').screenshot());
  assert.equal(differingPixels(shot, rendered('--tasks', SET, id)), 0, 'pixels differing from rephyre --tasks SET render');
  assert.ok(differingPixels(shot, rendered(id)) > 0, 'the built-in task of the same id looks otherwise');
  // A bird dragged from the slingshot: the game ends where `rephyre --tasks SET simulate` ends.
  await fast(page);
  await pullBird(page, [-20, 6], [-40, 12]);
  await waitFor(page, () => ['aiming', 'over'].includes(window.rephyre.current().phase) && window.rephyre.current().shots);
  c = await current(page);
  const want = cli('--tasks', SET, 'simulate', id, '--shots', c.shots, '--json');
  assert.equal(c.hash, want.final_hash, c.shots);
  assert.notEqual(cli('simulate', id, '--shots', c.shots, '--json').final_hash, want.final_hash, 'not the built-in task');
  assert.equal(await page.textContent('#cli'), `rephyre --tasks set.json simulate ${id} --shots "${c.shots}" --json`);
  // The handle takes the tier too.
  const handle = await page.evaluate(([t, a]) => window.rephyre.simulate(t, a, 'set'), [id, c.shots]);
  assert.equal(handle.hash, want.final_hash);
  // The link names the tier: it opens the set's level again, with its shots.
  const url = page.url();
  assert.ok(url.includes('tier=set') && url.includes('shots='), url);
  assert.deepEqual(problems, []);
  await close();
  ({ page, problems, close } = await open(url.slice(url.indexOf('?')), SET_BASE));
  await fast(page);
  await waitFor(page, () => {
    const now = window.rephyre.current();
    return !now.playing && ['aiming', 'over'].includes(now.phase);
  });
  c = await current(page);
  assert.equal(c.tier, 'set');
  assert.equal(c.hash, want.final_hash);
  assert.deepEqual(problems, []);
  await close();

  // Served without a set: no such tier, and a link that asks for one says so and opens the
  // built-in task.
  ({ page, problems, close } = await open(`?task=${id}&tier=set`));
  c = await current(page);
  assert.equal(await page.evaluate(() => window.rephyre.levels), null);
  assert.equal(await page.locator('#tier option[value=set]').count(), 0);
  assert.match(c.message, /served without one/);
  assert.equal(c.tier, 'phyq');
  assert.equal(c.task, id);
  assert.deepEqual(problems, []);
  await close();
});

test('speed, size and time to first frame (measured, not asserted)', { skip: !process.env.PLAYER_SPEED_OUT }, async () => {
  const { page, close } = await open();
  const list = await pairsOf(page);
  const timed = await page.evaluate(async (list) => {
    const run = (subset) => {
      let n = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < 3000) {
        for (const p of subset) { window.rephyre.simulate(p.task, p.action, p.tier); n++; }
      }
      return n / ((performance.now() - t0) / 1000);
    };
    return {
      phyre: run(list.filter((p) => !p.task.startsWith('phyq:'))),
      phyq: run(list.filter((p) => p.task.startsWith('phyq:'))),
    };
  }, list);
  await close();
  // Time to first frame, over five fresh loads.
  const firsts = [];
  for (let i = 0; i < 5; i++) {
    const o = await open();
    firsts.push(await o.page.evaluate(() => window.rephyre.firstFrameMs));
    await o.close();
  }
  firsts.sort((a, b) => a - b);
  const pairsFile = join(scratch, 'pairs.json');
  writeFileSync(pairsFile, JSON.stringify(list));
  const report = { wasm_simulations_per_second: timed, first_frame_ms: { median: firsts[2], all: firsts }, pairs: pairsFile };
  writeFileSync(process.env.PLAYER_SPEED_OUT, JSON.stringify(report, null, 2));
  console.log(JSON.stringify(report));
});
