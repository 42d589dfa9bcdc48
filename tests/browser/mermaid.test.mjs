// strata's Mermaid output through Mermaid itself (the npm package, in Debian's chromium): every diagram
// must parse and render to an SVG with as many nodes as it declares. Files are either Mermaid text
// (`strata graph`) or Markdown holding ```mermaid blocks (summary.md, `strata impact`).
// With --shot PNG, the first diagram of the first file is also rendered the way a job summary shows
// it (the Markdown's heading above it) and saved, for the README.
//
// usage: node mermaid.test.mjs [--shot PNG] FILE...
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
let shot = null;
if (args[0] === "--shot") { shot = args[1]; args.splice(0, 2); }
if (!args.length) {
  console.error("usage: node mermaid.test.mjs [--shot PNG] FILE...");
  process.exit(2);
}

function diagrams(file) {
  const text = readFileSync(file, "utf8");
  if (!file.endsWith(".md")) return [{ title: basename(file), text }];
  const found = [];
  const pattern = /(?:^#+ (.*)\n[\s\S]*?)?```mermaid\n([\s\S]*?)```/gm;
  let match;
  while ((match = pattern.exec(text))) found.push({ title: match[1] || basename(file), text: match[2] });
  return found;
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
await page.setContent("<!DOCTYPE html><html><body style=\"font: 14px system-ui, sans-serif; margin: 24px\"><div id=\"out\"></div></body></html>");
await page.addScriptTag({ path: require.resolve("mermaid/dist/mermaid.min.js") });
await page.evaluate(() => window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict", maxEdges: 2000 }));

let failures = 0, checked = 0;
for (const file of args) {
  for (const [i, diagram] of diagrams(file).entries()) {
    const declared = (diagram.text.match(/^\s*[nm]\d+\["/gm) || []).length;
    const result = await page.evaluate(async ({ text, id }) => {
      try {
        await window.mermaid.parse(text);
        const { svg } = await window.mermaid.render(id, text);
        const holder = document.createElement("div");
        holder.innerHTML = svg;
        return { ok: true, nodes: holder.querySelectorAll("g.node").length };
      } catch (error) {
        return { ok: false, error: String(error && error.message || error).slice(0, 300) };
      }
    }, { text: diagram.text, id: `d${checked}` });
    checked += 1;
    const ok = result.ok && result.nodes === declared;
    console.log(`${ok ? "ok  " : "FAIL"} ${file} #${i + 1}: ${result.ok ? `${result.nodes} nodes drawn, ${declared} declared` : result.error}`);
    if (!ok) failures += 1;
  }
}
if (checked === 0) { console.error("no Mermaid diagram found"); failures += 1; }

if (shot && failures === 0) {
  const [first] = diagrams(args[0]);
  await page.evaluate(async ({ title, text }) => {
    const { svg } = await window.mermaid.render("shot", text);
    const out = document.getElementById("out");
    out.innerHTML = "<div style=\"border: 1px solid #d0d7de; border-radius: 6px; padding: 16px 24px; max-width: 900px\">" +
      "<h3 style=\"margin-top: 0\"></h3>" + svg + "</div>";
    out.querySelector("h3").textContent = title;
  }, first);
  const box = await page.$("#out > div");
  await box.screenshot({ path: shot });
}
await browser.close();
if (failures) {
  console.error(`${failures} diagram(s) failed`);
  process.exit(1);
}
