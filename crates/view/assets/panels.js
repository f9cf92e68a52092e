// grundy view: the page's panels (claims, patterns, export). Served after view.js as one
// script (assets.rs joins them), so it uses view.js's names and runs after it.

// ---- claims ----------------------------------------------------------------------------------

$("claim-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!view.ready) return;
  const result = $("claim-result");
  result.classList.remove("bad");
  result.textContent = "checking…";
  try {
    const body = JSON.stringify({ claim: $("claim").value, kind: $("claim-kind").value });
    const report = await (await api("api/check", { method: "POST", headers: { "Content-Type": "application/json" }, body })).json();
    view.counterexamples = report.counterexamples.map((c) => c.position);
    view.claim = { claim: $("claim").value, kind: $("claim-kind").value, disagreements: report.disagreements };
    claimRegionKey = "";
    $("claim-in-view").textContent = "";
    if (report.verdict === "agrees") {
      result.textContent = "agrees on all " + report.cells + " cells." +
        (report.proved ? "\nproved: " + report.argument : report.argument ? "\nnot proved: " + report.argument : "");
    } else {
      result.classList.add("bad");
      result.textContent = "disagrees on " + report.disagreements + " of " + report.cells + " cells; the first: " +
        view.counterexamples.slice(0, 5).map(positionText).join(", ");
    }
    result.dataset.disagreements = String(report.disagreements);
  } catch (err) {
    view.counterexamples = [];
    view.claim = null;
    $("claim-in-view").textContent = "";
    result.classList.add("bad");
    result.textContent = err.message;
    result.dataset.disagreements = "";
  }
  render();
});

$("claim-clear").addEventListener("click", () => {
  view.counterexamples = [];
  view.claim = null;
  $("claim-in-view").textContent = "";
  $("claim-result").textContent = "";
  render();
});

// ---- patterns --------------------------------------------------------------------------------

async function runPatterns() {
  const box = $("patterns");
  box.textContent = "analysing…";
  try {
    const report = await (await api("api/patterns")).json();
    box.textContent = "";
    if (!isBoard()) {
      view.sequenceReport = report;
      const s = report.sequence;
      box.textContent = s.period
        ? "period " + s.period + (s.saltus ? " (saltus " + s.saltus + ")" : "") + " from " + report.axis + " = " + s.from +
          (s.proved ? ", proved: " + s.argument : ", not proved" + (s.argument ? ": " + s.argument : ""))
        : "no period found";
      render();
      return;
    }
    const summary = document.createElement("div");
    const rule = report.outcome.rule ? "P-positions: " + report.outcome.rule + (report.outcome.proved ? " (proved)" : "") : "no outcome rule found";
    summary.textContent = rule;
    box.appendChild(summary);
    const list = document.createElement("ul");
    const lines = [];
    for (const [kind, key] of [["row", "rows"], ["column", "columns"]]) {
      for (const line of report[key]) {
        if (line.period) lines.push({ kind, line });
      }
    }
    for (const { kind, line } of lines.slice(0, 500)) {
      const li = document.createElement("li");
      const name = kind === "row" ? report.axes[0] : report.axes[1];
      li.textContent = name + " = " + line.index + ": period " + line.period +
        (line.saltus ? ", saltus " + line.saltus : "") + " from " + line.from;
      li.addEventListener("click", () => {
        for (const other of list.children) other.classList.remove("selected");
        li.classList.add("selected");
        view.selectedLine = { kind, index: line.index };
        render();
      });
      list.appendChild(li);
    }
    const count = document.createElement("div");
    count.textContent = lines.length + " periodic rows and columns" + (lines.length > 500 ? " (the first 500 listed)" : "") + "; click one to mark it";
    box.appendChild(count);
    box.appendChild(list);
  } catch (err) {
    box.textContent = err.message;
    box.classList.add("error");
  }
}
$("patterns-run").addEventListener("click", () => {
  if (view.ready) runPatterns();
});

// ---- export ----------------------------------------------------------------------------------

// The box of the table in view: {from, to, cells}, or null when none of it is.
function visibleRegion() {
  const a = axes();
  if (isBoard()) {
    const s = scale();
    const i0 = Math.max(0, Math.floor(view.y0)), j0 = Math.max(0, Math.floor(view.x0));
    const i1 = Math.min(rows() - 1, Math.floor(view.y0 + canvas.height / s));
    const j1 = Math.min(cols() - 1, Math.floor(view.x0 + canvas.width / s));
    if (i1 < i0 || j1 < j0) return null;
    return {
      from: [i0 + a[0].min, j0 + a[1].min],
      to: [i1 + a[0].min, j1 + a[1].min],
      cells: (i1 - i0 + 1) * (j1 - j0 + 1),
    };
  }
  const [first, last] = sequenceRange();
  if (last < first) return null;
  return { from: [first + a[0].min], to: [last + a[0].min], cells: last - first + 1 };
}

const MAX_REGION_CELLS = 4194304;

function updateRegionLink() {
  const link = $("region-link");
  const region = visibleRegion();
  if (!region) {
    link.removeAttribute("href");
    return;
  }
  link.href = withToken("api/region.csv?from=" + region.from.join(",") + "&to=" + region.to.join(","));
  $("region-text").textContent = positionText(region.from) + " to " + positionText(region.to) + " (" + region.cells + " cells" +
    (region.cells > MAX_REGION_CELLS ? ": too many for one download, zoom in" : "") + ")";
  scheduleClaimInView();
}

// After a pan or zoom settles, the claim's counterexamples in view (the whole table's first
// ones are in row-major order, so zoomed in elsewhere they would not show).
let claimTimer = null;
let claimRegionKey = "";
function scheduleClaimInView() {
  if (!view.claim || view.claim.disagreements === 0) return;
  clearTimeout(claimTimer);
  claimTimer = setTimeout(claimInView, 250);
}

async function claimInView() {
  const region = visibleRegion();
  if (!view.claim || !region || region.cells > MAX_REGION_CELLS) return;
  const key = JSON.stringify([view.claim.claim, view.claim.kind, region.from, region.to]);
  if (key === claimRegionKey) return;
  claimRegionKey = key;
  try {
    const body = JSON.stringify({ claim: view.claim.claim, kind: view.claim.kind, from: region.from, to: region.to });
    const report = await (await api("api/check", { method: "POST", headers: { "Content-Type": "application/json" }, body })).json();
    if (key !== claimRegionKey) return;
    view.counterexamples = report.counterexamples.map((c) => c.position);
    view.claim.inView = report.disagreements;
    $("claim-in-view").textContent = report.disagreements + " of them in view" +
      (report.disagreements > view.counterexamples.length ? " (the first " + view.counterexamples.length + " marked ✕)" : " (marked ✕)");
    scheduleRender();
  } catch (err) {
    $("claim-in-view").textContent = err.message;
  }
}

$("png-link").addEventListener("click", () => {
  $("png-link").href = canvas.toDataURL("image/png");
});

// For tests: the page coordinates of the centre of the cell at `pos`.
view.cellToClient = (pos) => {
  const rect = canvas.getBoundingClientRect();
  const a = axes();
  if (isBoard()) {
    const p = cellCorner(pos[0] - a[0].min + 0.5, pos[1] - a[1].min + 0.5);
    return { x: rect.left + p.x, y: rect.top + p.y };
  }
  return { x: rect.left + heapX(pos[0] + 0.5), y: rect.top + canvas.height / 2 };
};
view.visibleTiles = () => visibleTiles();
// For tests and the README's picture: show the cell offsets (i, j) at the canvas's centre, at
// `level`.
view.centreOn = (i, j, level) => {
  view.level = Math.max(view.info.min_level, Math.min(view.info.max_level, level));
  view.x0 = j - canvas.width / 2 / scale();
  view.y0 = i - canvas.height / 2 / scale();
  render();
};

start();
