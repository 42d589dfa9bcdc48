// graph.html in a real browser: Debian's chromium, driven by playwright-core. Everything is checked
// through the page (its canvas draw records, clicks at screen positions, its DOM), not by reading the
// HTML text: labels are drawn inside the window, a click opens a package, search finds a module and
// shows its panel, the cycles tab lists every cycle of bundle.json and opens one, and the URL keeps
// the view across a reload. Takes a screenshot of the first view.
//
// usage: node graph.test.mjs INDEX_DIR SCREENSHOT.png
//        node graph.test.mjs --first-view INDEX_DIR SCREENSHOT.png   (the first view's checks only)
//        node graph.test.mjs --bench INDEX_DIR [RUNS]   (first-render times, package view vs all modules)
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { chromium } from "playwright-core";

const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const args = process.argv.slice(2);
const bench = args[0] === "--bench";
const firstViewOnly = args[0] === "--first-view";
if (bench || firstViewOnly) args.shift();
const [indexDir, extra] = args;
if (!indexDir) {
  console.error("usage: node graph.test.mjs INDEX_DIR SCREENSHOT.png | --bench INDEX_DIR [RUNS]");
  process.exit(2);
}
const pageUrl = pathToFileURL(join(indexDir, "graph.html")).href;
const bundle = JSON.parse(readFileSync(join(indexDir, "bundle.json"), "utf8"));
const nodes = Object.values(bundle.nodes);

const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
let failures = 0;
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures += 1;
}

async function open(hash = "") {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  const t0 = Date.now();
  await page.goto(pageUrl + hash);
  await page.waitForFunction(() => window.strataView && window.strataView.firstRenderMs() !== null, null, { timeout: 30000 });
  const firstRender = Date.now() - t0;
  await page.waitForFunction(() => window.strataView.settled(), null, { timeout: 60000 });
  await page.waitForTimeout(500); // the zoom-to-fit transition
  return { page, errors, firstRender };
}

const view = (page) => page.evaluate(() => window.strataView.nodes());
const labels = (page) => page.evaluate(() => window.strataView.labels());
const inside = (p) => p.x >= 0 && p.x <= 1280 && p.y >= 40 && p.y <= 800;

if (bench) {
  const runs = Number(extra || 3);
  const allFolders = [...new Set(nodes.map((n) => n.folder))].map(encodeURIComponent).join(",");
  for (const [name, hash] of [["package view (default)", ""], ["every module (all folders open)", "#open=" + allFolders]]) {
    const times = [];
    const settled = [];
    for (let i = 0; i < runs; i++) {
      const t0 = Date.now();
      const { page, firstRender } = await open(hash);
      settled.push(Date.now() - t0);
      times.push(firstRender);
      await page.close();
    }
    times.sort((a, b) => a - b);
    settled.sort((a, b) => a - b);
    const median = (xs) => xs[Math.floor(xs.length / 2)];
    console.log(`${name}: first render median ${median(times)} ms (runs ${times.join(", ")}); laid out ${median(settled)} ms`);
  }
  await browser.close();
  process.exit(0);
}

// 1. The first view: packages, labelled, inside the window. A folder with more than 60 modules of its
// own is open (rich showed one box, `rich (78)`); labels several nodes share get their folder (celery's two
// `signals`); every label is whole inside the canvas and below the bar (`_internal/` was cut to
// "ternal/", and a label cut at the top edge).
const { page, errors, firstRender } = await open();
await page.screenshot({ path: extra || join(indexDir, "graph.png") });
let shown = await view(page);
let drawn = await labels(page);
const packages = shown.filter((n) => n.kind === "package");
const byFolder = {};
for (const n of nodes) byFolder[n.folder] = (byFolder[n.folder] || 0) + 1;
const large = Object.keys(byFolder).filter((f) => f !== "." && byFolder[f] > 60);
const largeModules = large.reduce((sum, f) => sum + byFolder[f], 0);
check(shown.length > 0 && shown.length <= 80 + largeModules, `the first view shows ${shown.length} nodes (at most 80 besides the modules of large packages), first render ${firstRender} ms`);
check(drawn.length >= packages.length && drawn.some(inside), `${drawn.length} labels drawn, inside the window`);
check(packages.every((p) => drawn.some((l) => l.text === p.label)), "every package is labelled");
check(large.every((f) => !packages.some((p) => p.path === f)), `packages with more than 60 modules of their own are open: ${large.join(", ") || "none here"}`);
const texts = shown.map((n) => n.label);
check(new Set(texts).size === texts.length, `no two nodes share a label: ${texts.filter((t, i) => texts.indexOf(t) !== i).join(", ") || "none"}`);
const barBottom = await page.evaluate(() => document.getElementById("bar").getBoundingClientRect().bottom);
const whole = (l) => l.x - l.text.length * 4 >= 0 && l.x + l.text.length * 4 <= 1280 && l.y >= barBottom && l.y + 12 <= 800;
const cut = drawn.filter((l) => !whole(l)).map((l) => l.text);
check(cut.length === 0, `every label is whole inside the canvas, below the bar: ${cut.join(", ") || "all"}`);
const arrow = await page.evaluate(() => window.strataView.arrowLength());
check(arrow >= 9, `arrowheads are ${arrow} units long`);
if (firstViewOnly) {
  check(errors.length === 0, `no script errors ${errors.join("; ")}`);
  await browser.close();
  process.exit(failures ? 1 : 0);
}

// 2. A click on a package opens it into its modules and subpackages. A repository small enough to open
// whole at first is shown from its top-level folders (an empty `open=` in the URL) for this.
let clickPage = page;
if (!packages.some(inside)) {
  check(shown.length === nodes.length, `the first view opens every folder of this small repository (${shown.length} modules)`);
  clickPage = (await open("#open=")).page;
}
// A package whose spot is the graph's canvas, not a box over it.
const onCanvas = await clickPage.evaluate(() => window.strataView.nodes().filter((n) =>
  n.kind === "package" && (document.elementFromPoint(n.x, n.y) || {}).tagName === "CANVAS").map((n) => n.key));
const target = (await view(clickPage)).filter((n) => onCanvas.includes(n.key)).sort((a, b) => a.path.length - b.path.length)[0];
check(target !== undefined, `a package is on screen to click${target ? ": " + target.path + "/" : ""}`);
if (target) {
  // force-graph finds the node under the pointer on its next frame, and the view may still be easing
  // into place on a slow machine: point at where the node is now, and click once the page reports it
  // under the pointer.
  let spot = target;
  for (let attempt = 0; attempt < 10; attempt++) {
    spot = (await view(clickPage)).find((n) => n.key === target.key) || spot;
    await clickPage.mouse.move(spot.x, spot.y);
    const hovered = await clickPage.waitForFunction((key) => window.strataView.hovered() === key, target.key, { timeout: 1000 })
      .then(() => true, () => false);
    if (hovered) break;
  }
  await clickPage.mouse.click(spot.x, spot.y);
  await clickPage.waitForFunction((key) => !window.strataView.nodes().some((n) => n.key === key), target.key, { timeout: 10000 }).catch(() => {});
  const after = await view(clickPage);
  const inner = after.filter((n) => n.path.startsWith(target.path + "/"));
  check(!after.some((n) => n.key === target.key) && inner.length > 0, `a click opens ${target.path}/ into ${inner.length} nodes`);
}

// 3. Search finds a module: its panel names it, with its imports and importers.
const wanted = nodes.slice().sort((a, b) => b.importers_count - a.importers_count || (a.id < b.id ? -1 : 1))[0];
await page.fill("#search", wanted.module);
await page.press("#search", "Enter");
await page.waitForSelector("#panel h3", { state: "visible" });
const title = await page.textContent("#panel h3");
const panelText = await page.textContent("#panel");
check(title === wanted.id, `search for ${wanted.module} shows ${title}`);
check(panelText.includes(`Imported by (${wanted.direct_importers_count})`), "the panel lists its importers");
shown = await view(page);
check(shown.some((n) => n.key.startsWith("m:") && n.path === wanted.id), "the module is on the graph");

// 4. The URL keeps the view: a reload shows the same module.
const url = page.url();
check(url.includes("module=" + encodeURIComponent(wanted.id)), "the URL names the module");
const again = await open(url.slice(url.indexOf("#")));
check((await again.page.textContent("#panel h3")) === wanted.id, "the same URL opens the same module");
await again.page.close();

// 5. The cycles tab lists every cycle and opens one on its own.
const cycles = bundle.cycles.filter((c) => c.edges === "all");
await page.click("#cycles-tab");
const items = await page.$$("#cycles li[data-cycle]");
check(items.length === cycles.length, `the cycles tab lists ${items.length} cycles (bundle.json: ${cycles.length})`);
if (cycles.length) {
  await items[0].click();
  await page.waitForTimeout(300);
  shown = await view(page);
  const crumbs = await page.textContent("#crumbs");
  check(crumbs.startsWith("Cycle 1 of") && shown.length === cycles[0].size, `the largest cycle shows its ${shown.length} modules alone`);
  check((await labels(page)).length === cycles[0].size || cycles[0].size > 80, "each module of the cycle is labelled");
}
check(errors.length === 0 && again.errors.length === 0, `no script errors ${errors.concat(again.errors).join("; ")}`);

await browser.close();
if (failures) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
