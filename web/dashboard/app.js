// Reactor dashboard: plain JavaScript over the JSON API (docs/observability.md). Hash routes:
// #/ (runs list), #/run/<id> (run page), #/coordination, #/workers. Every text is escaped before it is
// inserted; actions are POSTs carrying the session's CSRF token and ask for confirmation first.
"use strict";

const state = { csrf: "", version: "", filters: { reactor: "", status: "", q: "", from: "", to: "" }, cursors: [] };
const $ = (sel) => document.querySelector(sel);
const esc = (v) => String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const badge = (s) => `<span class="badge s-${esc(s)}">${esc(s)}</span>`;
const time = (ms) => (ms ? new Date(ms).toISOString().replace("T", " ").replace("Z", "") : "");

async function api(path, options = {}) {
  const res = await fetch(path, { credentials: "same-origin", ...options });
  const body = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

async function act(runId, action, body = {}) {
  if (!confirm(`${action} run ${runId}?`)) return;
  try {
    const out = await api(`/api/runs/${encodeURIComponent(runId)}/${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": state.csrf },
      body: JSON.stringify(body),
    });
    $("#notice").textContent = `${action}: ok` + (out.run_id ? ` (new run ${out.run_id})` : "");
    $("#notice").className = "done";
    if (out.run_id) location.hash = `#/run/${encodeURIComponent(out.run_id)}`;
    else render();
  } catch (e) {
    $("#notice").textContent = `${action}: ${e.message}`;
    $("#notice").className = "error";
  }
}

// ---- runs list ----
function listQuery(cursor) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(state.filters)) {
    if (!v) continue;
    p.set(k, k === "from" || k === "to" ? String(Date.parse(v) || v) : v);
  }
  if (cursor) p.set("cursor", cursor);
  return p.toString();
}

async function renderList() {
  const cursor = state.cursors[state.cursors.length - 1] || "";
  const [data, reactors] = await Promise.all([api(`/api/runs?${listQuery(cursor)}`), api("/api/reactors")]);
  const f = state.filters;
  const counts = Object.entries(data.counts).map(([s, n]) => `<span data-status="${esc(s)}">${badge(s)} ${n}</span>`).join("");
  const options = (list, sel) => ["", ...list].map((v) => `<option value="${esc(v)}" ${v === sel ? "selected" : ""}>${esc(v || "any")}</option>`).join("");
  const statuses = ["pending", "enqueued", "scheduled", "running", "waiting", "paused", "rolling_back", "completed", "failed", "halted", "quarantined", "cancelled"];
  $("#main").innerHTML = `
    <div class="filters">
      <label>Reactor <select id="f-reactor">${options(reactors.reactors.map((r) => r.name), f.reactor)}</select></label>
      <label>Status <select id="f-status">${options(statuses, f.status)}</select></label>
      <label>Updated from <input id="f-from" type="datetime-local" value="${esc(f.from)}"></label>
      <label>to <input id="f-to" type="datetime-local" value="${esc(f.to)}"></label>
      <input id="f-q" placeholder="run id or correlation id" value="${esc(f.q)}">
      <button id="f-apply">Filter</button>
    </div>
    <div class="counts" id="counts">${counts}</div>
    <p>${data.total} matching</p>
    <table id="runs"><thead><tr><th>Run</th><th>Reactor</th><th>Status</th><th>Updated</th><th>Created</th><th>Waiting at</th></tr></thead><tbody>
    ${data.runs.map((r) => `<tr data-run="${esc(r.id)}"><td><a href="#/run/${encodeURIComponent(r.id)}">${esc(r.id)}</a></td><td>${esc(r.reactor)}</td><td>${badge(r.status)}</td><td>${time(r.updated_at_ms)}</td><td>${time(r.created_at_ms)}</td><td>${r.waiting.map((w) => esc(w.step)).join(", ")}</td></tr>`).join("")}
    </tbody></table>
    <p><button id="prev" ${state.cursors.length ? "" : "disabled"}>Newer</button><button id="next" ${data.next_cursor ? "" : "disabled"}>Older</button></p>`;
  $("#f-apply").onclick = () => {
    for (const k of ["reactor", "status", "from", "to", "q"]) state.filters[k] = $(`#f-${k}`).value.trim();
    state.cursors = [];
    render();
  };
  for (const el of document.querySelectorAll("#counts span")) {
    el.onclick = () => { state.filters.status = el.dataset.status; state.cursors = []; render(); };
  }
  $("#prev").onclick = () => { state.cursors.pop(); render(); };
  $("#next").onclick = () => { state.cursors.push(data.next_cursor); render(); };
}

// ---- run page ----
// Lays the graph out in columns by dependency depth; a composed child, a map's or an async
// unit's reactor is drawn nested below its node's graph.
function dagSvg(graph, stepStatus, prefix) {
  const depth = {};
  const incoming = {};
  for (const e of graph.edges) (incoming[e.to] ||= []).push(e.from);
  const depthOf = (n) => (depth[n] ??= Math.max(-1, ...(incoming[n] || []).map(depthOf)) + 1);
  const columns = [];
  for (const n of graph.nodes) (columns[depthOf(n.name)] ||= []).push(n);
  const pos = {};
  const W = 150, H = 34, GX = 40, GY = 14;
  columns.forEach((col, x) => col.forEach((n, y) => (pos[n.name] = { x: 10 + x * (W + GX), y: 10 + y * (H + GY) })));
  const width = 20 + columns.length * (W + GX);
  const height = 20 + Math.max(1, ...columns.map((c) => c.length)) * (H + GY);
  const edges = graph.edges.map((e) => `<line x1="${pos[e.from].x + W}" y1="${pos[e.from].y + H / 2}" x2="${pos[e.to].x}" y2="${pos[e.to].y + H / 2}"/>`).join("");
  const nodes = graph.nodes.map((n) => {
    const st = stepStatus[prefix + n.name] || "pending";
    const p = pos[n.name];
    return `<g class="node s-${esc(st)}" data-step="${esc(prefix + n.name)}" data-status="${esc(st)}"><rect class="s-${esc(st)}" x="${p.x}" y="${p.y}" width="${W}" height="${H}"/><text x="${p.x + 8}" y="${p.y + 21}">${esc(n.name)}${n.kind !== "step" ? " · " + esc(n.kind) : ""}</text></g>`;
  }).join("");
  let out = `<svg class="dag" width="${width}" height="${height}">${edges}${nodes}</svg>`;
  for (const n of graph.nodes) {
    if (n.child) out += `<div class="nested"><h3>${esc(n.name)} → ${esc(n.child.name)} (${esc(n.kind)})</h3>${dagSvg(n.child, stepStatus, prefix + n.name + "/")}</div>`;
  }
  return out;
}

function timelineTable(run) {
  return `<table id="timeline"><thead><tr><th>At</th><th>Type</th><th>Step</th><th>Attempt</th><th>Outcome</th><th>Worker</th><th>Token</th><th>Message</th></tr></thead><tbody>
  ${run.timeline.map((e) => `<tr class="${e.re_executed ? "reexec" : ""}"><td>${time(e.at_ms)}</td><td>${esc(e.type)}${e.re_executed ? " (re-executed)" : ""}</td><td>${esc(e.step)}</td><td>${e.attempt}</td><td>${esc(e.outcome)}</td><td>${esc(e.worker)}</td><td>${e.token || ""}</td><td>${esc(e.message)}</td></tr>`).join("")}
  </tbody></table>`;
}

function mapsSection(run) {
  if (!run.maps.length && !run.units.length) return "";
  const maps = run.maps.map((m) => `<tr><td>${esc(m.step)}</td><td>${esc(m.state)}</td><td>${m.total}</td><td>${m.done}</td><td>${m.failed}</td><td>${m.in_flight}</td><td>${m.rolled_back}</td><td>${m.failed_elements.map((id) => `<a href="#/run/${encodeURIComponent(id)}">${esc(id)}</a>`).join(" ")}</td></tr>`).join("");
  const units = run.units.map((u) => `<li>${esc(u.step)}: <a href="#/run/${encodeURIComponent(u.run_id)}">${esc(u.run_id)}</a> ${badge(u.status)}</li>`).join("");
  return `<section id="maps"><h2>Maps and async units</h2><table><thead><tr><th>Step</th><th>State</th><th>Total</th><th>Done</th><th>Failed</th><th>In flight</th><th>Rolled back</th><th>Failing elements</th></tr></thead><tbody>${maps}</tbody></table><ul>${units}</ul></section>`;
}

function interruptForms(run) {
  return run.waiting.map((w, i) => `<section class="interrupt"><h2>Paused at ${esc(w.step)}</h2>
    <p>Correlation id: ${esc(w.correlation_id) || "none"}${w.deadline_ms ? ` · deadline ${time(w.deadline_ms)}` : ""}</p>
    <form data-step="${esc(w.step)}" id="resume-form-${i}"><textarea name="payload" rows="4" cols="60">{}</textarea><br><button type="submit">Resume with this payload</button></form></section>`).join("");
}

async function renderRun(id) {
  const run = await api(`/api/runs/${encodeURIComponent(id)}`);
  let graph = null;
  try { graph = await api(`/api/reactors/${encodeURIComponent(run.reactor)}`); } catch (e) { /* not registered here */ }
  const stepStatus = Object.fromEntries(run.steps.map((s) => [s.step, s.status]));
  const err = run.error;
  const actions = ["retry", "cancel", "undo", "resume", "enqueue"].map((a) => `<button data-action="${a}">${a}</button>`).join("");
  $("#main").innerHTML = `
    <p id="notice"></p>
    <section><h2>Run <span id="run-id">${esc(run.id)}</span> ${badge(run.status)}</h2>
      <p>Reactor ${esc(run.reactor)} · ${esc(run.trace_summary)}</p>
      ${run.retried_from ? `<p>Retry of <a href="#/run/${encodeURIComponent(run.retried_from)}">${esc(run.retried_from)}</a></p>` : ""}
      ${run.retries.length ? `<p>Retried as ${run.retries.map((r) => `<a href="#/run/${encodeURIComponent(r)}">${esc(r)}</a>`).join(", ")}</p>` : ""}
      ${run.element_of ? `<p>Element ${run.element_of.index} of map ${esc(run.element_of.map_id)} · owner <a href="#/run/${encodeURIComponent(run.element_of.owner_id)}">${esc(run.element_of.owner_id)}</a></p>` : ""}
      <div id="actions">${actions}</div></section>
    ${interruptForms(run)}
    <section id="graph"><h2>Graph</h2>${graph ? dagSvg(graph, stepStatus, "") : "<p>reactor not registered in this dashboard</p>"}</section>
    ${err ? `<section id="error"><h2>Error</h2><p class="error">${esc(err.kind)} at '${esc(err.step)}': ${esc(err.message)}</p>
      ${(err.rollback_failures || []).length ? `<h3>Rollback failures</h3><pre>${esc(JSON.stringify(err.rollback_failures, null, 2))}</pre>` : ""}</section>` : ""}
    ${mapsSection(run)}
    <section><h2>Inputs</h2><pre id="inputs">${esc(JSON.stringify(run.inputs, null, 2))}</pre></section>
    <section><h2>Steps</h2><table id="steps"><thead><tr><th>Step</th><th>Status</th><th>Attempts</th><th>Re-executed</th></tr></thead><tbody>
      ${run.steps.map((s) => `<tr><td>${esc(s.step)}</td><td>${badge(s.status)}</td><td>${s.attempts}</td><td>${s.interrupted || ""}</td></tr>`).join("")}</tbody></table></section>
    <section><h2>Timeline</h2>${timelineTable(run)}</section>`;
  for (const b of document.querySelectorAll("#actions button")) b.onclick = () => act(run.id, b.dataset.action);
  for (const form of document.querySelectorAll(".interrupt form")) {
    form.onsubmit = (ev) => {
      ev.preventDefault();
      let payload;
      try { payload = JSON.parse(form.payload.value); } catch (e) { $("#notice").textContent = "payload is not JSON"; return; }
      act(run.id, "resume-interrupt", { step: form.dataset.step, payload });
    };
  }
}

// ---- coordination ----
async function renderCoordination() {
  const c = await api("/api/coordination");
  const runLinks = (ids) => ids.map((id) => `<a href="#/run/${encodeURIComponent(id)}">${esc(id)}</a>`).join(" ");
  $("#main").innerHTML = `
    <section><h2>Locks and semaphores</h2><table><thead><tr><th>Key</th><th>Kind</th><th>Held</th><th>Available</th><th>Runs</th></tr></thead><tbody>
      ${c.holds.map((h) => `<tr><td>${esc(h.key)}</td><td>${esc(h.kind)}</td><td>${h.held}/${h.limit}</td><td>${h.available}</td><td>${runLinks(h.holders)}</td></tr>`).join("")}</tbody></table></section>
    <section><h2>Rate-limit windows</h2><table><thead><tr><th>Key</th><th>Window</th><th>From</th><th>Count</th></tr></thead><tbody>
      ${c.rate_windows.map((w) => `<tr><td>${esc(w.key)}</td><td>${w.window_ms} ms</td><td>${time(w.bucket_start_ms)}</td><td>${w.count}</td></tr>`).join("")}</tbody></table></section>
    <section><h2>Ordered chains</h2><table><thead><tr><th>Key</th><th>Next</th><th>Failed</th><th>Runs</th></tr></thead><tbody>
      ${c.ordered.map((o) => `<tr><td>${esc(o.key)}</td><td>${o.next_seq}</td><td>${o.failed ? runLinks([o.failed_run]) : ""}</td><td>${runLinks(o.members.map((m) => m.run_id))}</td></tr>`).join("")}</tbody></table></section>`;
}

// ---- workers and queues ----
async function renderWorkers() {
  const w = await api("/api/workers");
  const runLinks = (ids) => ids.map((id) => `<a href="#/run/${encodeURIComponent(id)}">${esc(id)}</a>`).join(" ");
  const sweep = w.sweeper ? `${esc(w.sweeper.worker)} at ${time(w.sweeper.at_ms)}` : "none in the last two windows";
  $("#main").innerHTML = `
    <section><h2>Queues</h2><table id="queues"><thead><tr><th>Queue</th><th>Ready</th><th>Delayed</th><th>In flight</th><th>Oldest due</th><th>Served by</th></tr></thead><tbody>
      ${w.queues.map((q) => `<tr><td>${esc(q.queue)}</td><td>${q.ready}</td><td>${q.delayed}</td><td>${q.in_flight}</td><td>${q.oldest_due_age_seconds.toFixed(1)} s</td><td>${q.served_by ? esc(q.served_by) : '<span class="error">no live worker</span>'}</td></tr>`).join("")}</tbody></table></section>
    <section><h2>Live workers</h2><table id="workers"><thead><tr><th>Worker</th><th>Serves</th><th>Running</th></tr></thead><tbody>
      ${w.workers.map((x) => `<tr><td>${esc(x.worker)}</td><td>${x.queues.map(esc).join(", ")}</td><td>${runLinks(x.runs)}</td></tr>`).join("")}</tbody></table></section>
    <section><h2>Runs</h2><p id="counts">${Object.entries(w.counts).map(([s, n]) => `${badge(s)} ${n}`).join(" ")}</p>
      <p>Sweeper's last pass: <span id="sweeper">${sweep}</span></p></section>`;
}

// Renders run one after another, in the order they were asked for, each for the hash of when it
// starts: a slow one (a poll's, begun on the page the hash named before) never overwrites a later.
let rendering = Promise.resolve();
function render() {
  rendering = rendering.then(renderNow);
  return rendering;
}

async function renderNow() {
  const hash = location.hash || "#/";
  try {
    if (hash.startsWith("#/run/")) await renderRun(decodeURIComponent(hash.slice(6)));
    else if (hash === "#/coordination") await renderCoordination();
    else if (hash === "#/workers") await renderWorkers();
    else await renderList();
  } catch (e) {
    $("#main").innerHTML = `<p class="error">${esc(e.message)}</p>`;
  }
}

// Live updates: a cheap poll; the view is redrawn only when the store changed and no form is
// being filled in.
async function poll() {
  try {
    const { version } = await api("/api/changes");
    const busy = document.activeElement && ["TEXTAREA", "INPUT", "SELECT"].includes(document.activeElement.tagName);
    if (state.version && version !== state.version && !busy) await render();
    state.version = version;
    $("#live").textContent = "live";
  } catch (e) {
    $("#live").textContent = "offline";
  }
}

(async () => {
  state.csrf = (await api("/api/session")).csrf_token;
  window.addEventListener("hashchange", render);
  await render();
  setInterval(poll, 2000);
})();
