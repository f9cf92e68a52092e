// grundy view: the page's script. No libraries: a canvas map of tiles (2-D) or a plot of the
// sequence (1-D), drawn from the server's API (see the grundy-view crate's documentation).
"use strict";

const TILE = 256;
const $ = (id) => document.getElementById(id);
// The token the server printed in the page's address: every API call needs it (as a header for
// fetches, in the address for images and downloads).
const TOKEN = new URLSearchParams(location.search).get("token") || "";
function withToken(path) {
  return path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(TOKEN);
}

// Everything the page knows; exposed as window.grundyView for tests and the curious.
const view = {
  info: null,
  ready: false,
  colours: "values",
  // 2-D: zoom level (2^level pixels per cell) and the cell offsets at the canvas's bottom-left.
  level: 0,
  x0: 0,
  y0: 0,
  // 1-D: heaps per pixel and the first heap's offset at the left edge.
  perPixel: 1,
  n0: 0,
  tiles: new Map(),
  requested: [],
  tilesLoaded: 0,
  tilesFailed: 0,
  hover: null,
  hoverValue: null,
  pinned: null,
  moves: null,
  counterexamples: [],
  // The claim last checked ({claim, kind, disagreements}), whose counterexamples in view are
  // asked for after each pan or zoom.
  claim: null,
  selectedLine: null,
  sequence: null,
  sequenceReport: null,
};
window.grundyView = view;

const canvas = $("map");
const ctx = canvas.getContext("2d");

function axes() {
  return view.info.axes;
}
function isBoard() {
  return axes().length === 2;
}
// Rows: offsets along the first axis (drawn upwards); columns: along the second.
function rows() {
  const a = axes()[0];
  return a.max - a.min + 1;
}
function cols() {
  const a = axes()[1];
  return a.max - a.min + 1;
}
function scale() {
  return Math.pow(2, view.level);
}
function cellsPerTile(level) {
  return level >= 0 ? TILE >> level : TILE * Math.pow(2, -level);
}

async function api(path, options) {
  const request = Object.assign({}, options);
  request.headers = Object.assign({ "X-Grundy-Token": TOKEN }, request.headers);
  let response = await fetch(path, request);
  // A busy view (503 with Retry-After: heavy requests running and waiting) is asked again a
  // few times, saying so, before its answer is shown as an error.
  for (let tries = 0; response.status === 503 && response.headers.get("Retry-After") && tries < 5; tries++) {
    setStatus("busy: other checks are running; trying again");
    const seconds = Number(response.headers.get("Retry-After")) || 2;
    await new Promise((resolve) => setTimeout(resolve, 1000 * seconds));
    response = await fetch(path, request);
  }
  if (!response.ok) {
    let message = response.status + " " + response.statusText;
    try {
      message = (await response.json()).error;
    } catch (_) {
      // not JSON
    }
    throw new Error(message);
  }
  return response;
}

function setStatus(text, isError) {
  $("status").textContent = text;
  $("status").classList.toggle("error", !!isError);
}

function positionText(pos) {
  return pos.join("x");
}

function optionText(to) {
  if (to.length === 0) return "nothing";
  return to.map(positionText).join(" + ");
}

// ---- start: wait for the table -------------------------------------------------------------

async function start() {
  for (;;) {
    let info;
    try {
      info = await (await api("api/info")).json();
    } catch (err) {
      setStatus("cannot reach the server: " + err.message, true);
      await sleep(1000);
      continue;
    }
    $("title").textContent = "grundy view: " + info.name;
    if (info.status === "computing") {
      const bar = $("progress");
      bar.hidden = false;
      bar.max = Math.max(1, info.total);
      bar.value = info.done;
      const share = info.total ? ((100 * info.done) / info.total).toFixed(1) : "0";
      setStatus("computing the table: " + info.done + " of " + info.total + " cells (" + share + "%)");
      await sleep(300);
      continue;
    }
    $("progress").hidden = true;
    if (info.status === "failed") {
      setStatus("the table could not be computed: " + info.error, true);
      return;
    }
    view.info = info;
    break;
  }
  const info = view.info;
  const sizes = info.axes.map((a) => a.name + " " + a.min + ".." + a.max).join(", ");
  setStatus(sizes + "; largest value " + info.max + "; " + info.p_positions + " P-positions");
  if (info.cells === "outcomes") {
    view.colours = "outcomes";
    $("colours").value = "outcomes";
    $("colours").disabled = true;
  }
  if (info.axes.length === 1) $("legend-box").hidden = true;
  if (!info.moves) {
    $("pinned").textContent = "this table's rules are not known (read from a file, or a slice of a 3-D table), so neither are its moves";
  }
  resize();
  if (isBoard()) {
    fitBoard();
  } else {
    fitSequence();
    $("patterns-run").textContent = "find the period";
    runPatterns();
  }
  updateLegend();
  view.ready = true;
  render();
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function resize() {
  const rect = canvas.getBoundingClientRect();
  canvas.width = Math.max(1, Math.floor(rect.width));
  canvas.height = Math.max(1, Math.floor(rect.height));
}

// ---- 2-D: the map of tiles ------------------------------------------------------------------

function fitBoard() {
  const side = Math.max(rows(), cols());
  const room = Math.min(canvas.width, canvas.height) - 20;
  let level = view.info.max_level;
  while (level > view.info.min_level && side * Math.pow(2, level) > room) level--;
  view.level = level;
  const s = scale();
  view.x0 = -(canvas.width / s - cols()) / 2;
  view.y0 = -(canvas.height / s - rows()) / 2;
}

function tileUrl(level, row, col) {
  return withToken("api/tile?level=" + level + "&row=" + row + "&col=" + col + "&colours=" + view.colours);
}

function tile(level, row, col) {
  const key = view.colours + "/" + level + "/" + row + "/" + col;
  let entry = view.tiles.get(key);
  if (!entry) {
    const image = new Image();
    entry = { image, loaded: false };
    image.onload = () => {
      entry.loaded = true;
      view.tilesLoaded++;
      scheduleRender();
    };
    image.onerror = () => {
      view.tilesFailed++;
    };
    image.src = tileUrl(level, row, col);
    view.requested.push(key);
    view.tiles.set(key, entry);
    if (view.tiles.size > 1500) {
      // Forget the oldest tiles (the browser's cache still has them).
      for (const old of view.tiles.keys()) {
        view.tiles.delete(old);
        if (view.tiles.size <= 1000) break;
      }
    }
  }
  return entry;
}

// The tiles that cover the canvas now: [row, col] pairs.
function visibleTiles() {
  const s = scale();
  const per = cellsPerTile(view.level);
  const jMin = view.x0, jMax = view.x0 + canvas.width / s;
  const iMin = view.y0, iMax = view.y0 + canvas.height / s;
  const lastRow = Math.ceil(rows() / per) - 1, lastCol = Math.ceil(cols() / per) - 1;
  const out = [];
  for (let r = Math.max(0, Math.floor(iMin / per)); r <= Math.min(lastRow, Math.floor(iMax / per)); r++) {
    for (let c = Math.max(0, Math.floor(jMin / per)); c <= Math.min(lastCol, Math.floor(jMax / per)); c++) {
      out.push([r, c]);
    }
  }
  return out;
}

// The canvas point of the bottom-left corner of cell offsets (i, j).
function cellCorner(i, j) {
  const s = scale();
  return { x: (j - view.x0) * s, y: canvas.height - (i - view.y0) * s };
}

// The cell offsets under a canvas point.
function cellAt(x, y) {
  const s = scale();
  return { i: Math.floor((canvas.height - y) / s + view.y0), j: Math.floor(x / s + view.x0) };
}

function renderBoard() {
  ctx.fillStyle = "#e6e6ec";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const per = cellsPerTile(view.level);
  for (const [r, c] of visibleTiles()) {
    const entry = tile(view.level, r, c);
    if (!entry.loaded) continue;
    const corner = cellCorner((r + 1) * per, c * per);
    ctx.drawImage(entry.image, Math.round(corner.x), Math.round(corner.y), TILE, TILE);
  }
  const mins = axes().map((a) => a.min);
  const s = scale();
  const mark = (pos, colour, width) => {
    const i = pos[0] - mins[0], j = pos[1] - mins[1];
    const p = cellCorner(i + 1, j);
    const size = Math.max(s, 6);
    const shift = (size - s) / 2;
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.strokeRect(p.x - shift, p.y - shift, size, size);
  };
  // Periodic line picked in the patterns list.
  if (view.selectedLine) {
    ctx.fillStyle = "rgba(40, 120, 255, 0.25)";
    const { kind, index } = view.selectedLine;
    if (kind === "row") {
      const p = cellCorner(index - mins[0] + 1, 0);
      ctx.fillRect(0, p.y, canvas.width, Math.max(s, 2));
    } else if (kind === "column") {
      const p = cellCorner(0, index - mins[1]);
      ctx.fillRect(p.x, 0, Math.max(s, 2), canvas.height);
    }
  }
  for (const pos of view.counterexamples) {
    const i = pos[0] - mins[0], j = pos[1] - mins[1];
    const p = cellCorner(i + 0.5, j + 0.5);
    if (p.x < -4 || p.y < -4 || p.x > canvas.width + 4 || p.y > canvas.height + 4) continue;
    ctx.strokeStyle = "#ff00ff";
    ctx.lineWidth = s >= 4 ? 2 : 1;
    const r = Math.max(2, s / 2);
    ctx.beginPath();
    ctx.moveTo(p.x - r, p.y - r);
    ctx.lineTo(p.x + r, p.y + r);
    ctx.moveTo(p.x + r, p.y - r);
    ctx.lineTo(p.x - r, p.y + r);
    ctx.stroke();
  }
  if (view.moves) {
    for (const group of view.moves.components[0].groups) {
      for (const option of group.options || group.classes || []) {
        for (const pos of option.to) mark(pos, option.winning ? "#ffd400" : "#ffffff", 2);
      }
    }
  }
  if (view.pinned) mark(view.pinned, "#00e5ff", 3);
  if (view.hover) mark(view.hover, "#000000", 1);
  drawAxes();
}

// The axes' names and the coordinates at the map's edges: the first axis runs up.
function drawAxes() {
  const a = axes();
  const s = scale();
  const bottom = Math.max(0, Math.floor(view.y0)) + a[0].min;
  const top = Math.min(rows() - 1, Math.floor(view.y0 + canvas.height / s)) + a[0].min;
  const left = Math.max(0, Math.floor(view.x0)) + a[1].min;
  const right = Math.min(cols() - 1, Math.floor(view.x0 + canvas.width / s)) + a[1].min;
  ctx.font = "12px sans-serif";
  const label = (text, x, y) => {
    const width = ctx.measureText(text).width;
    ctx.fillStyle = "rgba(255, 255, 255, 0.8)";
    ctx.fillRect(x - 2, y - 12, width + 4, 16);
    ctx.fillStyle = "#222";
    ctx.fillText(text, x, y);
  };
  label(a[0].name + " ↑ " + bottom + ".." + top + "   " + a[1].name + " → " + left + ".." + right, 6, 18);
}

// ---- 1-D: the sequence plot -----------------------------------------------------------------

function heaps() {
  const a = axes()[0];
  return a.max - a.min + 1;
}

function fitSequence() {
  view.perPixel = Math.max(heaps() / (canvas.width - 60), 1 / 32);
  view.n0 = 0;
}

const PLOT = { left: 50, bottom: 24, top: 16 };

function sequenceRange() {
  const first = Math.max(0, Math.floor(view.n0));
  const last = Math.min(heaps() - 1, Math.ceil(view.n0 + (canvas.width - PLOT.left) * view.perPixel));
  return [first, last];
}

let sequenceWanted = "";
async function loadSequence() {
  const [first, last] = sequenceRange();
  if (last < first) return;
  const min = axes()[0].min;
  const points = Math.max(1, Math.min(8192, canvas.width - PLOT.left));
  const url = "api/sequence?from=" + (first + min) + "&to=" + (last + min) + "&points=" + points;
  if (url === sequenceWanted) return;
  sequenceWanted = url;
  try {
    const data = await (await api(url)).json();
    if (url === sequenceWanted) {
      view.sequence = data;
      render();
    }
  } catch (err) {
    setStatus(err.message, true);
  }
}

function heapX(n) {
  return PLOT.left + (n - axes()[0].min - view.n0) / view.perPixel;
}

function valueY(value) {
  const top = Math.max(1, view.info.max);
  return canvas.height - PLOT.bottom - (value / top) * (canvas.height - PLOT.bottom - PLOT.top);
}

function renderSequence() {
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = "#888";
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(PLOT.left, PLOT.top);
  ctx.lineTo(PLOT.left, canvas.height - PLOT.bottom);
  ctx.lineTo(canvas.width, canvas.height - PLOT.bottom);
  ctx.stroke();
  ctx.fillStyle = "#333";
  ctx.font = "11px sans-serif";
  ctx.fillText(String(view.info.max), 4, valueY(view.info.max) + 4);
  ctx.fillText("0", 4, valueY(0) + 4);
  const [first, last] = sequenceRange();
  const min = axes()[0].min;
  ctx.fillText(axes()[0].name + " = " + (first + min), PLOT.left, canvas.height - 6);
  const right = axes()[0].name + " = " + (last + min);
  ctx.fillText(right, canvas.width - ctx.measureText(right).width - 4, canvas.height - 6);
  // The period found: the preperiod shaded, the first period framed.
  const report = view.sequenceReport;
  if (report && report.sequence.period) {
    const from = report.sequence.from;
    ctx.fillStyle = "rgba(0, 0, 0, 0.06)";
    ctx.fillRect(PLOT.left, PLOT.top, Math.max(0, heapX(from) - PLOT.left), canvas.height - PLOT.bottom - PLOT.top);
    ctx.fillStyle = report.sequence.proved ? "rgba(40, 160, 80, 0.15)" : "rgba(255, 160, 0, 0.15)";
    const x0 = heapX(from), x1 = heapX(from + report.sequence.period);
    ctx.fillRect(x0, PLOT.top, Math.max(1, x1 - x0), canvas.height - PLOT.bottom - PLOT.top);
  }
  const data = view.sequence;
  if (data) {
    for (let k = 0; k < data.min.length; k++) {
      const n = data.from + k * data.step;
      const x = heapX(n);
      const width = Math.max(1, data.step / view.perPixel);
      const low = data.min[k], high = data.max[k];
      ctx.fillStyle = low === 0 ? "rgb(220, 30, 50)" : "rgb(59, 82, 139)";
      const yHigh = valueY(high), yLow = valueY(low);
      ctx.fillRect(x, yHigh - 1, Math.max(1, width - (width > 3 ? 1 : 0)), Math.max(2, yLow - yHigh + 2));
    }
  }
  if (view.pinned) {
    const x = heapX(view.pinned[0] + 0.5);
    ctx.strokeStyle = "#00b8d4";
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, PLOT.top);
    ctx.lineTo(x, canvas.height - PLOT.bottom);
    ctx.stroke();
    ctx.lineWidth = 1;
  }
  if (view.hover) {
    const x = heapX(view.hover[0]);
    ctx.strokeStyle = "#000";
    ctx.beginPath();
    ctx.moveTo(x, PLOT.top);
    ctx.lineTo(x, canvas.height - PLOT.bottom);
    ctx.stroke();
  }
}

// ---- drawing ---------------------------------------------------------------------------------

let renderQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function render() {
  if (!view.info) return;
  if (isBoard()) {
    renderBoard();
    $("zoom-text").textContent =
      view.level >= 0
        ? "zoom: " + scale() + " pixels per cell"
        : "zoom: a pixel is " + 1 / scale() + "×" + 1 / scale() + " cells (" +
          (view.colours === "values" ? "their smallest value" : "their share of P-positions") + ")";
  } else {
    renderSequence();
    loadSequence();
  }
  updateRegionLink();
}

function updateLegend() {
  $("legend").src = withToken("api/legend?colours=" + view.colours);
  $("legend-text").textContent =
    view.colours === "values"
      ? "0 (red: P-positions) to " + view.info.max + " (yellow)"
      : "N-positions dark, P-positions red";
}

// ---- hover, pin, pan and zoom ----------------------------------------------------------------

// The position (coordinates) under a canvas point, or null outside the table.
function positionAt(x, y) {
  const a = axes();
  if (isBoard()) {
    const { i, j } = cellAt(x, y);
    if (i < 0 || j < 0 || i >= rows() || j >= cols()) return null;
    return [i + a[0].min, j + a[1].min];
  }
  const n = Math.floor(view.n0 + (x - PLOT.left) * view.perPixel);
  if (x < PLOT.left || n < 0 || n >= heaps()) return null;
  return [n + a[0].min];
}

let hoverAsked = 0;
async function hoverAt(pos) {
  const box = $("hover");
  if (!pos) {
    view.hover = null;
    box.textContent = "outside the table";
    box.dataset.pos = "";
    box.dataset.value = "";
    scheduleRender();
    return;
  }
  if (view.hover && positionText(view.hover) === positionText(pos)) return;
  view.hover = pos;
  scheduleRender();
  const asked = ++hoverAsked;
  try {
    const cell = await (await api("api/cell?pos=" + pos.join(","))).json();
    if (asked !== hoverAsked) return;
    const names = axes().map((a, d) => a.name + " = " + pos[d]).join(", ");
    const value = cell.value === null ? "" : "value " + cell.value + ", ";
    box.textContent = names + ": " + value + (cell.outcome === "P" ? "P (the player to move loses)" : "N (the player to move wins)");
    box.dataset.pos = positionText(pos);
    box.dataset.value = cell.value === null ? cell.outcome : String(cell.value);
    view.hoverValue = cell;
  } catch (err) {
    box.textContent = err.message;
  }
}

async function pin(pos) {
  view.pinned = pos;
  view.moves = null;
  scheduleRender();
  const box = $("pinned");
  if (!view.info.moves) return;
  box.textContent = "finding the moves of " + positionText(pos) + "…";
  try {
    const moves = await (await api("api/moves?pos=" + pos.join(","))).json();
    if (view.pinned !== pos) return;
    view.moves = moves;
    showMoves(moves, pos);
    scheduleRender();
  } catch (err) {
    box.textContent = err.message;
    box.classList.add("error");
  }
}

function showMoves(moves, pos) {
  const box = $("pinned");
  box.classList.remove("error");
  box.textContent = "";
  const component = moves.components[0];
  const head = document.createElement("div");
  head.id = "pinned-head";
  head.textContent = positionText(pos) + ": value " + component.value + ", " +
    (component.value === 0 ? "P (every move leaves an N-position)" : "N (a move to a P-position wins)");
  box.appendChild(head);
  const mex = document.createElement("div");
  mex.className = "mex";
  mex.id = "pinned-mex";
  mex.textContent = component.option_values.length === 0
    ? "no options, so the value is 0"
    : "options take {" + component.option_values.join(", ") + "}; the smallest missing is " + moves.mex;
  box.appendChild(mex);
  const list = document.createElement("ul");
  list.id = "pinned-moves";
  const items = [];
  for (const group of component.groups) {
    for (const option of group.options || []) {
      items.push({ winning: option.winning, text: "→ " + optionText(option.to) + "  value " + option.value + "  [" + group.kind + "]", to: option.to });
    }
    for (const cls of group.classes || []) {
      const more = cls.count > 1 ? " and " + (cls.count - 1) + " more" : "";
      items.push({ winning: cls.winning, text: "→ " + optionText(cls.to) + more + "  value " + cls.value + "  [" + group.kind + "]", to: cls.to });
    }
  }
  items.sort((a, b) => (b.winning ? 1 : 0) - (a.winning ? 1 : 0));
  for (const item of items) {
    const li = document.createElement("li");
    li.textContent = (item.winning ? "★ " : "  ") + item.text;
    li.dataset.to = item.to.map(positionText).join("+");
    if (item.winning) li.className = "winning";
    list.appendChild(li);
  }
  box.appendChild(list);
}

let drag = null;
canvas.addEventListener("mousedown", (event) => {
  drag = { x: event.offsetX, y: event.offsetY, moved: false, x0: view.x0, y0: view.y0, n0: view.n0 };
  canvas.classList.add("dragging");
});
window.addEventListener("mouseup", (event) => {
  if (!drag) return;
  const wasClick = !drag.moved;
  drag = null;
  canvas.classList.remove("dragging");
  if (wasClick && event.target === canvas && view.ready) {
    const pos = positionAt(event.offsetX, event.offsetY);
    if (pos) pin(pos);
  }
});
canvas.addEventListener("mousemove", (event) => {
  if (!view.ready) return;
  if (drag) {
    const dx = event.offsetX - drag.x, dy = event.offsetY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.moved) {
      if (isBoard()) {
        view.x0 = drag.x0 - dx / scale();
        view.y0 = drag.y0 + dy / scale();
      } else {
        view.n0 = clampN0(drag.n0 - dx * view.perPixel);
      }
      scheduleRender();
      return;
    }
  }
  hoverAt(positionAt(event.offsetX, event.offsetY));
});
canvas.addEventListener("mouseleave", () => {
  if (view.ready) hoverAt(null);
});

function clampN0(n0) {
  const span = (canvas.width - PLOT.left) * view.perPixel;
  return Math.max(-span / 2, Math.min(heaps() - span / 2, n0));
}

// Zooms by `steps` (positive: closer) keeping the point (x, y) of the canvas where it is.
function zoom(steps, x, y) {
  if (!view.ready) return;
  if (isBoard()) {
    const level = Math.max(view.info.min_level, Math.min(view.info.max_level, view.level + steps));
    if (level === view.level) return;
    const before = scale();
    const jAt = x / before + view.x0, iAt = (canvas.height - y) / before + view.y0;
    view.level = level;
    const after = scale();
    view.x0 = jAt - x / after;
    view.y0 = iAt - (canvas.height - y) / after;
  } else {
    const nAt = view.n0 + (x - PLOT.left) * view.perPixel;
    const most = Math.max(1, heaps() / (canvas.width - PLOT.left));
    view.perPixel = Math.max(1 / 32, Math.min(most, view.perPixel / Math.pow(2, steps)));
    view.n0 = clampN0(nAt - (x - PLOT.left) * view.perPixel);
  }
  scheduleRender();
}

canvas.addEventListener("wheel", (event) => {
  event.preventDefault();
  zoom(event.deltaY < 0 ? 1 : -1, event.offsetX, event.offsetY);
}, { passive: false });

canvas.addEventListener("keydown", (event) => {
  const step = 64;
  if (event.key === "+" || event.key === "=") zoom(1, canvas.width / 2, canvas.height / 2);
  else if (event.key === "-") zoom(-1, canvas.width / 2, canvas.height / 2);
  else if (isBoard() && event.key.startsWith("Arrow")) {
    const s = scale();
    if (event.key === "ArrowLeft") view.x0 -= step / s;
    if (event.key === "ArrowRight") view.x0 += step / s;
    if (event.key === "ArrowUp") view.y0 += step / s;
    if (event.key === "ArrowDown") view.y0 -= step / s;
    scheduleRender();
  } else return;
  event.preventDefault();
});

window.addEventListener("resize", () => {
  if (!view.ready) return;
  resize();
  render();
});

$("colours").addEventListener("change", () => {
  view.colours = $("colours").value;
  updateLegend();
  render();
});
