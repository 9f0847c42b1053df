// rephyre's web player: the page around the wasm module (web/src/lib.rs). Every number it
// shows (validity, pictures, steps, status, hash) comes from the module, which runs the same
// library code as `rephyre simulate`; this file only draws, listens and keeps the URL.
import init, * as wasm from './pkg/rephyre_web.js';

const $ = (id) => document.getElementById(id);
const PHYRE_SCALE = 2; // the scene's 256 px drawn 2× (the picture `rephyre render --scale 2` writes)
const PHYRE_SIZE = 256;
const PHYRE_STEPS_PER_SECOND = 60;
const PHYQ_STEPS_PER_SECOND = 50;
const MAX_PARAM = 2000; // longest URL parameter taken (characters)

const ui = {
  scene: $('scene'), overlay: $('overlay'), message: $('message'),
  tier: $('tier'), template: $('template'), task: $('task'), taskId: $('task-id'),
  action: $('action'), validity: $('validity'), shots: $('shots'), tap: $('tap'), birds: $('birds'),
  stepCount: $('step-count'), stepTotal: $('step-total'), goalBar: $('goal-bar'), goalText: $('goal-text'),
  status: $('status-text'), hash: $('hash'), cli: $('cli'),
};

// What is on screen.
const state = {
  catalogue: null,
  taskId: null,
  tier: 'ball',        // 'ball', 'two_balls' (PHYRE action tiers), 'phyq' (the built-in Phy-Q
                       // tasks) or 'set' (the Phy-Q levels of the served level set)
  levels: null,        // the served level set's menu (wasm.load_levels), or null
  balls: [],           // PHYRE: placed balls [{x, y, r}] in scene px (y up)
  action: null,        // PHYRE: the action's numbers, or null
  run: null,           // PHYRE: a PhyreRun
  game: null,          // Phy-Q: a PhyqPlay
  queue: [],           // Phy-Q: shots [x, y, tap] still to launch (links, solutions)
  playing: false,
  drag: null,          // the pointer's drag in progress
  lastTime: null,
  carry: 0,            // steps owed to the clock
};

// Whether an id is written as a Phy-Q one: the wasm's rule (taskref), not the page's.
const isPhyq = (id) => typeof id === 'string' && wasm.benchmark(id) === 'phyq';
// Whether the task shown is a Phy-Q one (built in, or a level of the set).
const playsPhyq = () => state.tier === 'phyq' || state.tier === 'set';
// The tier the wasm's Phy-Q calls take: 'set' for the level set's levels, else the built-in ones.
const phyqTier = (tier) => (tier === 'set' ? 'set' : undefined);
// `rephyre --tasks SET ` before a command on a level of the set.
const tasksOption = () => (state.tier === 'set' ? `--tasks ${state.levels.name} ` : '');

// --- messages ----------------------------------------------------------------------------
function say(text) {
  ui.message.textContent = text;
  ui.message.hidden = !text;
}
function errorText(e) {
  return (e && e.message) ? e.message : String(e);
}
// Runs `f`, showing its error (if any) instead of letting it escape; returns its value.
function guarded(f) {
  try {
    return f();
  } catch (e) {
    say(errorText(e));
    return undefined;
  }
}

// --- drawing -----------------------------------------------------------------------------
function paint(rgba, width, height) {
  const ctx = ui.scene.getContext('2d');
  ctx.putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.length), width, height), 0, 0);
  if (window.rephyre.firstFrameMs === null) {
    window.rephyre.firstFrameMs = performance.now();
  }
}
function setCanvasSize(w, h) {
  for (const c of [ui.scene, ui.overlay]) {
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
  }
}
function clearOverlay() {
  const ctx = ui.overlay.getContext('2d');
  ctx.clearRect(0, 0, ui.overlay.width, ui.overlay.height);
  return ctx;
}

// --- tasks, menus and the URL --------------------------------------------------------------
function templatesOf(tier) {
  if (tier === 'set') {
    return state.levels.groups.map((g) => ({ value: g.code, label: g.label, tasks: g.tasks }));
  }
  if (tier === 'phyq') {
    return state.catalogue.phyq.map((t) => ({ value: t.code, label: `${t.paper} ${t.scenario_name} (${t.code})`, tasks: t.tasks }));
  }
  return state.catalogue.phyre.filter((t) => t.tier === tier)
    .map((t) => ({ value: t.template, label: t.template, tasks: t.tasks }));
}
function fillMenus() {
  ui.tier.value = state.tier;
  const templates = templatesOf(state.tier);
  ui.template.replaceChildren(...templates.map((t) => new Option(t.label, t.value)));
  const here = templates.find((t) => t.tasks.includes(state.taskId)) || templates[0];
  ui.template.value = here.value;
  ui.task.replaceChildren(...here.tasks.map((id) => new Option(id, id)));
  ui.task.value = state.taskId;
  ui.taskId.value = state.taskId;
  document.body.classList.toggle('two_balls', state.tier === 'two_balls');
}

function updateUrl() {
  const p = new URLSearchParams();
  p.set('task', state.taskId);
  if (!playsPhyq()) {
    const own = wasmInfo(state.taskId).tier;
    if (state.tier !== own) p.set('tier', state.tier);
    if (state.action) p.set('action', state.action.join(','));
  } else {
    if (state.tier === 'set') p.set('tier', 'set');
    if (ui.shots.value) p.set('shots', ui.shots.value);
  }
  history.replaceState(null, '', `${location.pathname}?${p.toString()}`);
}

const infoCache = new Map();
// What the wasm says of a task; `tier` 'set': a level of the set (else a built-in task).
function wasmInfo(id, tier) {
  const key = `${phyqTier(tier) || ''} ${id}`;
  if (!infoCache.has(key)) infoCache.set(key, JSON.parse(wasm.task_info(id, phyqTier(tier))));
  return infoCache.get(key);
}

// Opens a task (throws when it is unknown): its menus, its scene, nothing placed. `tier`: a
// PHYRE action tier (else the task's own), or 'set' for a level of the set.
function openTask(id, tier) {
  const info = wasmInfo(id, tier);
  stop();
  state.taskId = info.id;
  state.run = null;
  state.game = null;
  state.queue = [];
  state.balls = [];
  state.action = null;
  ui.action.value = '';
  ui.shots.value = '';
  if (info.kind === 'phyq') {
    state.tier = info.tier;
    $('task-title').textContent = info.tier === 'set' ? `${info.id} (${state.levels.name})` : `${info.id}`;
    $('task-info').textContent = (info.tier === 'set' ? `From the level set ${state.levels.name}: ${info.source}. ` : '') +
      (info.template ? `Template ${info.paper} (${info.template}), scenario ${info.scenario}: ${info.scenario_name}. ` : '') +
      (info.strategy ? `Strategy: ${info.strategy} ` : '') + `Birds: ${info.birds.join(', ')}; ${info.pigs} pig${info.pigs === 1 ? '' : 's'}.`;
  } else {
    state.tier = tier === 'ball' || tier === 'two_balls' ? tier : info.tier;
    $('task-title').textContent = `${info.id} (${state.tier === 'ball' ? 'one ball' : 'two balls'})`;
    $('task-info').textContent = info.description;
  }
  $('phyre-controls').hidden = playsPhyq();
  $('phyq-controls').hidden = !playsPhyq();
  // A Phy-Q game has no fixed length, and its hash is the state's now.
  $('of-total').hidden = playsPhyq();
  $('hash-label').textContent = playsPhyq() ? 'State hash' : 'Final state hash';
  fillMenus();
  if (!playsPhyq()) checkAction();
  showInitial();
  updateUrl();
}

// The task's initial scene (with the placed balls, for PHYRE), and a cleared status.
function showInitial() {
  stop();
  clearOverlay();
  if (playsPhyq()) {
    setCanvasSize(640, 480);
    paint(wasm.phyq_scene(state.taskId, 1, phyqTier(state.tier)), 640, 480);
    state.game = new wasm.PhyqPlay(state.taskId, phyqTier(state.tier));
    showPhyqStatus();
  } else {
    setCanvasSize(PHYRE_SIZE * PHYRE_SCALE, PHYRE_SIZE * PHYRE_SCALE);
    const valid = state.action && !wasm.phyre_invalid_reason(state.taskId, state.tier, Float64Array.from(state.action));
    const scene = wasm.phyre_scene(state.taskId, state.tier, valid ? Float64Array.from(state.action) : undefined, PHYRE_SCALE);
    paint(scene, PHYRE_SIZE * PHYRE_SCALE, PHYRE_SIZE * PHYRE_SCALE);
    state.run = null;
    drawBalls();
    showPhyreStatus(null);
  }
}

// --- PHYRE: placing balls ------------------------------------------------------------------
function ballCount() {
  return state.tier === 'two_balls' ? 2 : 1;
}
function actionOf(balls) {
  // The action space's mapping (tasks::validate_action): x = 255·a0, y = 255·a1, r = 2 + 30·a2.
  const clamp = (v) => Math.min(1, Math.max(0, v));
  return balls.flatMap((b) => [clamp(b.x / 255), clamp(b.y / 255), clamp((b.r - 2) / 30)]);
}
function ballsOf(action) {
  const balls = [];
  for (let i = 0; i + 2 < action.length; i += 3) {
    balls.push({ x: 255 * action[i], y: 255 * action[i + 1], r: 2 + 30 * action[i + 2] });
  }
  return balls;
}
// Sets the action (numbers), checks it and shows the scene with it.
function setAction(action) {
  state.action = action;
  state.balls = action ? ballsOf(action) : [];
  ui.action.value = action ? action.join(',') : '';
  checkAction();
  showInitial();
  updateUrl();
}
function checkAction() {
  if (!state.action) {
    ui.validity.textContent = `Place ${ballCount() === 1 ? 'a ball' : 'two balls'}.`;
    ui.validity.className = '';
    return false;
  }
  const reason = wasm.phyre_invalid_reason(state.taskId, state.tier, Float64Array.from(state.action));
  ui.validity.textContent = reason ? `Invalid: ${reason}.` : 'Valid action.';
  ui.validity.className = reason ? 'bad' : 'good';
  return !reason;
}
function drawBalls(extra) {
  const ctx = clearOverlay();
  const balls = extra ? [...state.balls.slice(0, ballCount() - 1), extra] : state.balls;
  const valid = !state.action || !wasm.phyre_invalid_reason(state.taskId, state.tier, Float64Array.from(actionOf(balls)));
  for (const b of balls) {
    ctx.beginPath();
    ctx.arc(b.x * PHYRE_SCALE, (PHYRE_SIZE - b.y) * PHYRE_SCALE, b.r * PHYRE_SCALE, 0, 2 * Math.PI);
    ctx.lineWidth = 2;
    ctx.setLineDash(valid ? [] : [6, 4]);
    ctx.strokeStyle = valid ? 'rgba(0,0,0,0.55)' : '#c62828';
    ctx.stroke();
  }
}
function scenePoint(ev) {
  const r = ui.overlay.getBoundingClientRect();
  const px = (ev.clientX - r.left) * (ui.overlay.width / r.width);
  const py = (ev.clientY - r.top) * (ui.overlay.height / r.height);
  return { px, py };
}
function phyreDown(ev) {
  const { px, py } = scenePoint(ev);
  stop();
  state.run = null;
  state.drag = { x: px / PHYRE_SCALE, y: PHYRE_SIZE - py / PHYRE_SCALE, r: 2 };
  if (state.balls.length >= ballCount()) state.balls = [];
  drawBalls(state.drag);
}
function phyreMove(ev) {
  if (!state.drag) return;
  const { px, py } = scenePoint(ev);
  const d = Math.hypot(px / PHYRE_SCALE - state.drag.x, PHYRE_SIZE - py / PHYRE_SCALE - state.drag.y);
  state.drag.r = Math.min(32, Math.max(2, d));
  const balls = [...state.balls, state.drag].slice(-ballCount());
  if (balls.length === ballCount()) {
    state.action = actionOf(balls);
    ui.action.value = state.action.join(',');
    checkAction();
  }
  drawBalls(state.drag);
}
function phyreUp() {
  if (!state.drag) return;
  // Whole pixels: the action then names exactly the ball it shows (and links stay short).
  const b = { x: Math.round(state.drag.x), y: Math.round(state.drag.y), r: Math.round(state.drag.r) };
  state.drag = null;
  state.balls = [...state.balls, b].slice(-ballCount());
  if (state.balls.length === ballCount()) {
    setAction(actionOf(state.balls));
  } else {
    state.action = null;
    ui.action.value = '';
    ui.validity.textContent = 'Now the second ball.';
    ui.validity.className = '';
    drawBalls();
  }
}

// --- PHYRE: the run --------------------------------------------------------------------------
function ensureRun() {
  if (state.run) return true;
  if (!state.action || !checkAction()) {
    say(state.action ? `The action is invalid: ${ui.validity.textContent}` : 'Place the ball(s) first: press on the scene and drag.');
    return false;
  }
  state.run = new wasm.PhyreRun(state.taskId, state.tier, Float64Array.from(state.action));
  clearOverlay();
  return true;
}
function phyreStep() {
  const moved = state.run.step();
  return moved;
}
function showPhyreStatus(s) {
  if (!s) {
    ui.stepCount.textContent = '0';
    ui.stepTotal.textContent = '–';
    ui.goalBar.style.width = '0';
    ui.goalText.textContent = 'The green object must touch the blue or purple one for 3 seconds.';
    ui.status.textContent = '–';
    ui.status.className = '';
    ui.hash.textContent = '–';
    ui.cli.textContent = 'rephyre simulate';
    return;
  }
  ui.stepCount.textContent = String(s.step);
  ui.stepTotal.textContent = String(s.steps);
  ui.goalBar.style.width = `${Math.min(100, (100 * s.hold_steps) / s.hold_needed)}%`;
  ui.goalText.textContent = `Touching for ${(s.hold_steps / PHYRE_STEPS_PER_SECOND).toFixed(2)} s of ${(s.hold_needed / PHYRE_STEPS_PER_SECOND).toFixed(0)} s.`;
  ui.status.textContent = s.status || 'running';
  ui.status.className = s.status || '';
  ui.hash.textContent = s.hash || '–';
  const tier = state.tier !== wasmInfo(state.taskId).tier ? ` --tier ${state.tier}` : '';
  ui.cli.textContent = `rephyre simulate ${state.taskId}${tier} --action ${state.action.join(',')} --json`;
}

// --- Phy-Q: the game -------------------------------------------------------------------------
function showPhyqStatus() {
  const s = JSON.parse(state.game.state());
  ui.stepCount.textContent = String(s.step);
  ui.stepTotal.textContent = '–';
  ui.goalBar.style.width = '0';
  ui.goalText.textContent = s.phase === 'opening' ? 'The level settles (its first 2 s: nothing can be damaged).' : '';
  ui.birds.textContent = `Pigs left: ${s.pigs_left}. Birds left: ${s.birds_left}` +
    (s.next_bird ? `, ${s.next_bird} on the slingshot.` : '.') + ` Score: ${s.score}.`;
  ui.tap.disabled = !s.can_tap;
  ui.shots.value = s.shots;
  ui.status.textContent = s.status || s.phase.replace('_', ' ');
  ui.status.className = s.status || '';
  ui.hash.textContent = s.hash || '–';
  ui.cli.textContent = s.shots ? `rephyre ${tasksOption()}simulate ${state.taskId} --shots "${s.shots}" --json` : `rephyre ${tasksOption()}simulate`;
  return s;
}
function phyqPicture() {
  paint(state.game.picture(), 640, 480);
}
// One step of the game, launching the next queued shot when a bird waits.
function phyqStep() {
  const s = JSON.parse(state.game.state());
  if (s.phase === 'aiming' && state.queue.length) {
    const [x, y, tap] = state.queue.shift();
    state.game.launch(x, y, tap);
  }
  return state.game.step();
}
function phyqRestAndRadius() {
  const [x, y] = state.game.rest_point();
  return { x, y, r: state.game.drag_radius() };
}
function phyqDown(ev) {
  const s = JSON.parse(state.game.state());
  if (s.phase === 'over') return;
  if (s.phase === 'opening') {
    state.game.skip_opening();
    phyqPicture();
  }
  if (JSON.parse(state.game.state()).phase !== 'aiming') return;
  const { px, py } = scenePoint(ev);
  const rest = phyqRestAndRadius();
  if (Math.hypot(px - rest.x, py - rest.y) > Math.max(40, rest.r * 2)) return;
  stop();
  state.drag = { rest, px, py };
  phyqDrag(px, py);
}
function phyqDrag(px, py) {
  const { rest } = state.drag;
  let dx = px - rest.x;
  let dy = py - rest.y;
  const d = Math.hypot(dx, dy);
  if (d > rest.r) { dx *= rest.r / d; dy *= rest.r / d; }
  state.drag.px = px;
  state.drag.py = py;
  const ctx = clearOverlay();
  ctx.beginPath();
  ctx.moveTo(rest.x, rest.y);
  ctx.lineTo(rest.x + dx, rest.y + dy);
  ctx.strokeStyle = '#5d4037';
  ctx.lineWidth = 3;
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(rest.x + dx, rest.y + dy, 6, 0, 2 * Math.PI);
  ctx.fillStyle = 'rgba(198,40,40,0.8)';
  ctx.fill();
  // Where it goes: the opposite way.
  ctx.beginPath();
  ctx.moveTo(rest.x, rest.y);
  ctx.lineTo(rest.x - 3 * dx, rest.y - 3 * dy);
  ctx.setLineDash([4, 4]);
  ctx.strokeStyle = 'rgba(0,0,0,0.45)';
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.setLineDash([]);
}
function phyqMove(ev) {
  if (!state.drag) return;
  const { px, py } = scenePoint(ev);
  phyqDrag(px, py);
}
function phyqUp() {
  if (!state.drag) return;
  const { rest, px, py } = state.drag;
  state.drag = null;
  clearOverlay();
  // The release point relative to the rest point, in whole picture pixels, y up.
  const x = Math.round(px - rest.x);
  const y = Math.round(rest.y - py);
  if (x === 0 && y === 0) return;
  if (guarded(() => { state.game.launch(x, y, 0); return true; })) {
    showPhyqStatus();
    updateUrl();
    play();
  }
}
function phyqTap() {
  if (!state.game) return;
  const t = state.game.tap();
  if (t !== undefined) {
    showPhyqStatus();
    updateUrl();
  }
}
// Plays a shot list (a link's, a solution's) from the start of the game.
function playShots(text) {
  const flat = wasm.phyq_parse_shots(text);
  const birds = wasmInfo(state.taskId, state.tier).birds.length;
  if (flat.length / 3 > birds) {
    // `rephyre simulate` plays none of such a list (status invalid): neither does the page.
    throw new Error(`${flat.length / 3} shots for a level of ${birds} bird${birds === 1 ? '' : 's'}: nothing is played (rephyre simulate calls it invalid)`);
  }
  showInitial();
  state.queue = [];
  for (let i = 0; i + 2 < flat.length; i += 3) state.queue.push([flat[i], flat[i + 1], flat[i + 2]]);
  ui.shots.value = text;
  play();
}

// --- the clock ---------------------------------------------------------------------------------
function stepsPerSecond() {
  const base = playsPhyq() ? PHYQ_STEPS_PER_SECOND : PHYRE_STEPS_PER_SECOND;
  return base * Number($('speed').value || 1);
}
// One step of whatever runs; false when it cannot go on.
function stepOnce() {
  if (playsPhyq()) {
    const moved = phyqStep();
    const s = showPhyqStatus();
    return moved || (s.phase === 'aiming' && state.queue.length > 0);
  }
  if (!ensureRun()) return false;
  const moved = phyreStep();
  showPhyreStatus(JSON.parse(state.run.state()));
  return moved;
}
function redraw() {
  if (playsPhyq()) {
    phyqPicture();
  } else if (state.run) {
    paint(state.run.picture(PHYRE_SCALE), PHYRE_SIZE * PHYRE_SCALE, PHYRE_SIZE * PHYRE_SCALE);
  }
}
function frame(now) {
  if (!state.playing) return;
  if (state.lastTime === null) state.lastTime = now;
  state.carry += ((now - state.lastTime) / 1000) * stepsPerSecond();
  state.lastTime = now;
  // At most a quarter second's steps per frame: a hidden tab does not race when it returns.
  let n = Math.min(Math.floor(state.carry), Math.ceil(stepsPerSecond() / 4));
  state.carry -= Math.floor(state.carry);
  let going = true;
  while (n-- > 0 && going) going = guarded(stepOnce) === true;
  redraw();
  if (!going) {
    stop();
    return;
  }
  requestAnimationFrame(frame);
}
function play() {
  if (state.playing) return;
  if (!playsPhyq() && !guarded(ensureRun)) return;
  if (playsPhyq() && !state.game) return;
  say('');
  state.playing = true;
  state.lastTime = null;
  state.carry = 1; // the first step at once
  requestAnimationFrame(frame);
}
function stop() {
  state.playing = false;
}

// --- the automation handle -------------------------------------------------------------------
// `window.rephyre.simulate(taskId, action)`: the status, hash and steps `rephyre simulate
// --json` prints for the same input, computed in this page's wasm. A PHYRE action is an array
// of numbers (or their text, comma-separated); a Phy-Q action is the shots' text
// (`x,y,tap;…`) or an array of [x, y, tap]. `tier` overrides a PHYRE task's own tier; for a
// Phy-Q id, 'set' names the level of the served level set (`rephyre --tasks SET simulate`).
function simulate(taskId, action, tier) {
  if (typeof taskId !== 'string') throw new Error('the task id must be a string');
  if (isPhyq(taskId)) {
    const text = Array.isArray(action) ? action.map((s) => s.join(',')).join(';') : String(action);
    return JSON.parse(wasm.simulate_phyq(taskId, text, phyqTier(tier)));
  }
  const numbers = typeof action === 'string' ? action.split(',').map((v) => Number(v.trim())) : Array.from(action, Number);
  return JSON.parse(wasm.simulate_phyre(taskId, tier || '', Float64Array.from(numbers)));
}

// `window.rephyre.solution(taskId, tier)`: the committed witness of a task (PHYRE: its action's
// numbers; Phy-Q: its shots' text), or null (a level of the set, tier 'set', has none).
function solution(taskId, tier) {
  const found = isPhyq(taskId) ? wasm.phyq_solution(taskId, phyqTier(tier)) : wasm.phyre_solution(taskId, tier || '');
  return found === undefined ? null : (typeof found === 'string' ? found : Array.from(found));
}

window.rephyre = {
  ready: false,
  firstFrameMs: null,
  simulate,
  solution,
  // What the player says of a task: tier, template, description; Phy-Q: scenario, birds
  // (`tier` 'set': a level of the set).
  info: (taskId, tier) => JSON.parse(wasm.task_info(taskId, phyqTier(tier))),
  // The served level set's menu ({name, count, groups: [{code, label, tasks}]}), or null.
  levels: null,
  // What is on screen (for tests): task, tier, action, shots and the status line.
  current: () => ({
    task: state.taskId, tier: state.tier, action: state.action, shots: ui.shots.value,
    status: ui.status.textContent, hash: ui.hash.textContent, step: Number(ui.stepCount.textContent),
    playing: state.playing, message: ui.message.hidden ? '' : ui.message.textContent,
    validity: ui.validity.textContent,
    // Phy-Q: the game's phase, and the slingshot's rest point and drag radius (canvas pixels).
    phase: state.game ? JSON.parse(state.game.state()).phase : null,
    slingshot: state.game ? phyqRestAndRadius() : null,
  }),
};

// --- wiring ----------------------------------------------------------------------------------
function wire() {
  ui.tier.addEventListener('change', () => guarded(() => {
    const templates = templatesOf(ui.tier.value);
    openTask(templates[0].tasks[0], ui.tier.value);
  }));
  ui.template.addEventListener('change', () => guarded(() => {
    const t = templatesOf(state.tier).find((x) => x.value === ui.template.value);
    openTask(t.tasks[0], state.tier);
  }));
  ui.task.addEventListener('change', () => guarded(() => openTask(ui.task.value, state.tier)));
  $('goto').addEventListener('submit', (ev) => {
    ev.preventDefault();
    // A Phy-Q id typed while the set is shown is the set's level; else a built-in task.
    const id = ui.taskId.value.trim();
    guarded(() => { say(''); openTask(id, state.tier === 'set' && isPhyq(id) ? 'set' : undefined); });
  });
  ui.action.addEventListener('change', () => guarded(() => {
    const text = ui.action.value.trim();
    if (!text) { setAction(null); return; }
    const numbers = text.split(',').map((v) => Number(v.trim()));
    if (numbers.length !== 3 * ballCount() || numbers.some((v) => !Number.isFinite(v))) {
      say(`An action is ${3 * ballCount()} numbers in [0, 1], comma-separated.`);
      return;
    }
    say('');
    setAction(numbers);
  }));
  ui.shots.addEventListener('change', () => guarded(() => { say(''); playShots(ui.shots.value.trim()); }));
  ui.overlay.addEventListener('pointerdown', (ev) => {
    ui.overlay.setPointerCapture(ev.pointerId);
    guarded(() => (playsPhyq() ? phyqDown(ev) : phyreDown(ev)));
  });
  ui.overlay.addEventListener('pointermove', (ev) => guarded(() => (playsPhyq() ? phyqMove(ev) : phyreMove(ev))));
  ui.overlay.addEventListener('pointerup', () => guarded(() => (playsPhyq() ? phyqUp() : phyreUp())));
  $('play').addEventListener('click', () => guarded(() => {
    if (!playsPhyq() && state.run && JSON.parse(state.run.state()).done) {
      state.run = null; // play again from the start
    }
    play();
  }));
  $('pause').addEventListener('click', stop);
  $('step').addEventListener('click', () => guarded(() => { stop(); stepOnce(); redraw(); }));
  $('reset').addEventListener('click', () => guarded(() => { say(''); showInitial(); }));
  $('solution').addEventListener('click', () => guarded(() => {
    say('');
    if (playsPhyq()) {
      const shots = wasm.phyq_solution(state.taskId, phyqTier(state.tier));
      if (shots === undefined) { say('No committed solution for this task.'); return; }
      playShots(shots);
      updateUrl();
    } else {
      const a = wasm.phyre_solution(state.taskId, state.tier);
      if (a === undefined) { say(`No committed solution for this task in the ${state.tier} tier.`); return; }
      setAction(Array.from(a));
      play();
    }
  }));
  $('share').addEventListener('click', () => {
    updateUrl();
    const link = location.href;
    navigator.clipboard?.writeText(link).then(() => say(''), () => {});
    ui.taskId.blur();
  });
  ui.tap.addEventListener('click', () => guarded(phyqTap));
  document.addEventListener('keydown', (ev) => {
    if (ev.code === 'Space' && playsPhyq() && ev.target.tagName !== 'INPUT') {
      ev.preventDefault();
      guarded(phyqTap);
    }
  });
  $('show-grid').addEventListener('click', () => guarded(showGrid));
}

// The template's tasks as thumbnails (drawn a few at a time, the page stays responsive).
function showGrid() {
  const templates = templatesOf(state.tier);
  const t = templates.find((x) => x.value === ui.template.value) || templates[0];
  const thumbs = $('thumbs');
  thumbs.replaceChildren();
  const dialog = $('grid');
  dialog.showModal();
  let i = 0;
  const batch = () => {
    if (!dialog.open) return;
    for (let k = 0; k < 6 && i < t.tasks.length; k++, i++) {
      const id = t.tasks[i];
      const button = document.createElement('button');
      const canvas = document.createElement('canvas');
      if (playsPhyq()) {
        canvas.width = 160; canvas.height = 120;
        canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(wasm.phyq_scene(id, 4, phyqTier(state.tier)).buffer), 160, 120), 0, 0);
      } else {
        canvas.width = PHYRE_SIZE; canvas.height = PHYRE_SIZE;
        const rgba = wasm.phyre_scene(id, state.tier, undefined, 1);
        canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer), PHYRE_SIZE, PHYRE_SIZE), 0, 0);
      }
      const label = document.createElement('span');
      label.textContent = id;
      button.append(canvas, label);
      button.addEventListener('click', () => guarded(() => { dialog.close(); openTask(id, state.tier); }));
      thumbs.append(button);
    }
    if (i < t.tasks.length) setTimeout(batch, 0);
  };
  batch();
}

// The URL's task, tier and action or shots; anything wrong is said and the rest still opens.
function openFromUrl() {
  const p = new URLSearchParams(location.search);
  const get = (k) => {
    const v = p.get(k);
    if (v !== null && v.length > MAX_PARAM) {
      say(`The link's ${k} is too long (${v.length} characters; at most ${MAX_PARAM}).`);
      return null;
    }
    return v;
  };
  const task = get('task');
  const tier = get('tier');
  const fallback = state.catalogue.phyre[0].tasks[0];
  const tiers = state.levels ? ['ball', 'two_balls', 'set'] : ['ball', 'two_balls'];
  if (tier === 'set' && !state.levels) {
    say('The link\'s tier set is a level set\'s, and this player was served without one (rephyre --tasks SET serve).');
  } else if (tier !== null && !tiers.includes(tier)) {
    say(`Unknown tier ${JSON.stringify(tier.slice(0, 40))} in the link (${state.levels ? 'ball, two_balls or set' : 'ball or two_balls'}).`);
  }
  const okTier = tiers.includes(tier) ? tier : undefined;
  const opened = task !== null && guarded(() => { openTask(task, okTier); return true; });
  if (!opened) {
    if (task !== null && !ui.message.hidden && !ui.message.textContent.startsWith('The link')) {
      say(`The link's task: ${ui.message.textContent}`);
    }
    const message = ui.message.hidden ? '' : ui.message.textContent;
    openTask(fallback);
    say(message);
    return;
  }
  if (playsPhyq()) {
    const shots = get('shots');
    if (shots) {
      guarded(() => { wasm.phyq_parse_shots(shots); playShots(shots); });
    }
    return;
  }
  const action = get('action');
  if (action) {
    const numbers = action.split(',').map((v) => Number(v.trim()));
    const bad = numbers.findIndex((v) => !Number.isFinite(v));
    if (numbers.length !== 3 * ballCount()) {
      say(`The link's action has ${numbers.length} numbers; the ${state.tier} tier takes ${3 * ballCount()}.`);
    } else if (bad >= 0) {
      say(`The link's action: component ${bad} is not a number.`);
    } else {
      setAction(numbers);
      if (!checkAction()) say(`The link's action is invalid: ${ui.validity.textContent.replace(/^Invalid: /, '')}`);
    }
  }
}

// The level set the player was served with (`rephyre --tasks SET serve`, at levels.json): its
// levels become the tier 'set', beside the built-in ones. None (HTTP 204), or none to be had:
// the built-in tasks alone; a set the wasm refuses is said, and the rest goes on.
async function loadLevels() {
  let response;
  try {
    response = await fetch('levels.json', { cache: 'no-cache' });
  } catch (e) {
    return;
  }
  if (response.status !== 200) return;
  const named = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') || '');
  const bytes = new Uint8Array(await response.arrayBuffer());
  guarded(() => {
    state.levels = JSON.parse(wasm.load_levels(bytes, named ? named[1] : 'levels.json'));
    window.rephyre.levels = state.levels;
    ui.tier.append(new Option(`Phy-Q: level set ${state.levels.name} (${state.levels.count})`, 'set'));
  });
}

async function main() {
  try {
    await init({ module_or_path: new URL('./pkg/rephyre_web_bg.wasm', import.meta.url) });
    state.catalogue = JSON.parse(wasm.catalogue());
    window.rephyre.catalogue = state.catalogue;
    await loadLevels();
    wire();
    openFromUrl();
    $('loading').hidden = true;
    window.rephyre.ready = true;
  } catch (e) {
    $('loading').textContent = `The player could not start: ${errorText(e)}`;
    throw e;
  }
}
main();
