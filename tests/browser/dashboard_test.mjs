// The dashboard end to end in real headless Chromium (Debian's), driven by playwright-core:
// seed a SQLite store with runs in every state (dashboard_fixture seed), serve it
// (dashboard_fixture dashboard), then open the list, filter it, open runs, see the DAG and the
// timeline, resume the interrupt through its form, retry the failed run, and check each effect in
// the store with `dashboard_fixture show --json`. Screenshots of the list and of a run page go to
// $ARTIFACTS. Usage: node dashboard_test.mjs <fixture> <artifacts dir>
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";

const [fixture, artifacts] = process.argv.slice(2);
mkdirSync(artifacts, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), "reactor-dashboard-"));
const storage = `sqlite://${join(dir, "store.db")}`;
const browserPath = process.env.CHROMIUM || ["/usr/lib/chromium/chromium", "/usr/bin/chromium"].find(existsSync);

const show = (id) => JSON.parse(execFileSync(fixture, ["show", id, "--json", "--storage", storage]).toString());

// Seed: its lines name the run of each state; the process ends inside the Crash run's step.
const seeded = Object.fromEntries(
  execFileSync(fixture, ["seed", "--storage", storage]).toString().trim().split("\n").map((l) => l.split(" ")));
for (const state of ["failed", "waiting", "paused"]) assert.ok(seeded[state], `seed printed no ${state} run`);

const server = spawn(fixture, ["dashboard", "--storage", storage, "--listen", "127.0.0.1:0"]);
const url = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    const m = out.match(/dashboard: (http:\/\/\S+)/);
    if (m) resolve(m[1]);
  });
  server.on("exit", (code) => reject(new Error(`dashboard exited ${code}`)));
  setTimeout(() => reject(new Error("dashboard did not start")), 10000);
});

const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10000);
  page.on("dialog", (d) => d.accept());  // every action asks for confirmation

  // The list: every seeded run, the counts per status, no secret.
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll("#runs tbody tr").length >= 7);
  const statuses = await page.$$eval("#runs tbody tr td:nth-child(3)", (tds) => tds.map((t) => t.textContent));
  for (const s of ["completed", "failed", "running", "waiting", "paused"]) assert.ok(statuses.includes(s), `no ${s} run listed`);
  assert.ok(!(await page.content()).includes("4111-1111"), "the list shows a redacted input");
  await page.screenshot({ path: join(artifacts, "runs-list.png"), fullPage: true });

  // Filter by status.
  await page.selectOption("#f-status", "failed");
  await page.click("#f-apply");
  await page.waitForFunction(() => document.querySelectorAll("#runs tbody tr").length === 1);
  assert.equal(await page.getAttribute("#runs tbody tr", "data-run"), seeded.failed);

  // The failed run: its DAG, its error with the rollback failure; retry it.
  await page.click(`#runs tbody tr a`);
  await page.waitForSelector("#graph svg g.node");
  assert.match(await page.getAttribute('#graph g.node[data-step="flight"]', "data-status"), /^(failed|compensated)$/);
  assert.match(await page.textContent("#error"), /hotel cancellation desk closed/);
  await page.click('#actions button[data-action="retry"]');
  await page.waitForFunction((id) => location.hash.startsWith("#/run/") && !location.hash.includes(id), seeded.failed);
  const retryId = decodeURIComponent((await page.evaluate(() => location.hash)).slice(6));
  assert.equal(show(retryId).retried_from, seeded.failed, "the store holds no retry of the failed run");

  // The paused run: its DAG and timeline; resume its interrupt through the form.
  await page.goto(`${url}#/run/${encodeURIComponent(seeded.paused)}`);
  await page.waitForSelector("#graph svg g.node");
  assert.equal(await page.getAttribute('#graph g.node[data-step="approve"]', "data-status"), "paused");
  assert.equal(await page.getAttribute('#graph g.node[data-step="check"]', "data-status"), "completed");
  // Each node is coloured by its state.
  const fill = (step) => page.$eval(`#graph g.node[data-step="${step}"] rect`, (r) => getComputedStyle(r).fill);
  assert.equal(await fill("check"), "rgb(46, 125, 50)");
  assert.equal(await fill("approve"), "rgb(142, 36, 170)");
  assert.ok((await page.$$("#timeline tbody tr")).length >= 1, "no timeline");
  await page.screenshot({ path: join(artifacts, "run-page.png"), fullPage: true });
  await page.fill(".interrupt textarea", '{"approved": true}');
  await page.click(".interrupt button[type=submit]");
  await page.waitForFunction(() => document.querySelector("#notice")?.textContent.includes("resume-interrupt: ok"));
  assert.notEqual(show(seeded.paused).status, "paused", "the interrupt was not resumed in the store");

  // The map's run page shows its progress; a completed run's inputs are masked.
  await page.goto(`${url}#/run/${encodeURIComponent(seeded.waiting)}`);
  await page.waitForSelector("#maps");
  assert.match(await page.textContent("#maps"), /squares/);

  // Workers and queues: no worker serves the fixture's store, and the page says so; the runs
  // waiting and paused are counted.
  await page.goto(`${url}#/workers`);
  await page.waitForSelector("#queues tbody tr");
  assert.match(await page.textContent("#queues"), /no live worker/);
  assert.match(await page.textContent("#counts"), /waiting/);
  await page.screenshot({ path: join(artifacts, "workers.png"), fullPage: true });

  // The dashboard's /metrics: the store's runs by status, in Prometheus' text format.
  const metrics = await (await fetch(new URL("/metrics", url))).text();
  assert.match(metrics, /^reactor_stored_runs\{status="completed"\} [1-9]/m);
  console.log("dashboard_browser: ok", { url, retryId });
} finally {
  await browser.close();
  server.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
