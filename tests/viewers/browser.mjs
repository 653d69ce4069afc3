// browser.mjs SPEEDSCOPE_JSON SVG OUTDIR [DIFF_SVG] - opens traceglot's speedscope output in
// the speedscope app (the npm package, served from this machine) and its SVG flame graph, both
// in Debian's Chromium driven by playwright-core, and checks that each is drawn; DIFF_SVG, a
// differential flame graph (convert --to svg --diff), must be drawn too, each frame with a
// title carrying both runs' times and the change, coloured by the change.  Screenshots
// go to OUTDIR (kept with the test log).  Prints "N passed, N failed" and exits non-zero on a
// failure.
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [speedscopeJson, svgFile, outDir, diffSvgFile] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const app = path.join(here, '..', 'node_modules', 'speedscope', 'dist', 'release');
const results = [];
function check(name, ok, detail = '') {
  results.push(ok);
  console.log(`${ok ? 'PASS' : 'FAIL'}: ${name}${detail ? ' (' + detail + ')' : ''}`);
}

// The app and the profile from one local server (speedscope loads #profileURL= by fetch).
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png' };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split('?')[0].split('#')[0]);
  const file = url === '/profile.json' ? speedscopeJson : path.join(app, path.normalize(url));
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(data);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-chromium-'));
const context = await chromium.launchPersistentContext(profileDir, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run',
    '--enable-unsafe-swiftshader'],
  viewport: { width: 1280, height: 800 },
});
try {
  const profile = JSON.parse(fs.readFileSync(speedscopeJson, 'utf8'));
  const names = profile.shared.frames.map((f) => f.name);

  // speedscope: the toolbar, the flame chart canvas, frame names (sandwich view's table)
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(base + '/profile.json')}`);
  await page.getByText('Time Order').first().waitFor({ timeout: 30000 });
  await page.waitForTimeout(1000);
  const toolbar = await page.locator('text=Left Heavy').count() > 0 &&
    await page.locator('text=Sandwich').count() > 0;
  check('speedscope toolbar shown', toolbar);
  const title = await page.title();
  check('speedscope loaded the profile', title.includes('speedscope') && !/error/i.test(await page.locator('body').innerText()),
    title);
  const canvases = await page.locator('canvas').count();
  check('speedscope flame chart canvas drawn', canvases > 0, `${canvases} canvases`);
  await page.screenshot({ path: path.join(outDir, 'speedscope-time-order.png') });
  await page.getByText('Sandwich').first().click();
  await page.waitForTimeout(1000);
  const body = await page.locator('body').innerText();
  const shown = names.filter((n) => body.includes(n));
  check('speedscope shows the frame names', shown.length > 0 && shown.length >= Math.min(3, names.length),
    `${shown.length}/${names.length}: ${shown.slice(0, 5).join(', ')}`);
  await page.screenshot({ path: path.join(outDir, 'speedscope-sandwich.png') });
  check('speedscope raised no page errors', errors.length === 0, errors.join('; '));

  // the SVG flame graph: drawn, click zooms, search highlights
  const svg = await context.newPage();
  await svg.goto('file://' + path.resolve(svgFile));
  const frames = await svg.locator('g.f').count();
  check('svg frames drawn', frames > 1, `${frames} frames`);
  const labels = await svg.locator('g.f text').allTextContents();
  check('svg frame names drawn', labels.some((t) => names.includes(t)));
  await svg.locator('svg').screenshot({ path: path.join(outDir, 'flamegraph.png') });
  // click the widest frame below the thread level, then expect it to span the width
  const target = await svg.evaluate(() => {
    const fs = Array.from(document.querySelectorAll('g.f')).filter((g) => Number(g.dataset.d) >= 2);
    fs.sort((a, b) => Number(b.dataset.w) - Number(a.dataset.w));
    const small = fs.find((g) => Number(g.querySelector('rect').getAttribute('width')) < 1100 &&
      Number(g.querySelector('rect').getAttribute('width')) > 20);
    return small ? small.dataset.n + '|' + small.dataset.x + '|' + small.dataset.d : null;
  });
  if (target) {
    const [n, x, d] = target.split('|');
    const g = svg.locator(`g.f[data-x="${x}"][data-d="${d}"]`).first();
    await g.locator('rect').click({ force: true });
    const width = Number(await g.locator('rect').getAttribute('width'));
    const reset = await svg.locator('#unzoom').isVisible();
    check('svg click zooms', width > 1100 && reset, `${n}: width ${width}`);
    await svg.screenshot({ path: path.join(outDir, 'flamegraph-zoomed.png') });
    await svg.locator('#unzoom').click();
  } else {
    check('svg click zooms', false, 'no frame to click');
  }
  const term = names.find((nm) => labels.includes(nm)) || names[0];
  svg.once('dialog', (dlg) => dlg.accept(term));
  await svg.locator('#search').click();
  await svg.waitForTimeout(300);
  const matched = await svg.locator('#matched').textContent();
  const hits = await svg.locator('g.f.match').count();
  check('svg search highlights', hits > 0 && /Matched: [0-9.]+%/.test(matched), `${term}: ${hits} frames, ${matched}`);
  await svg.screenshot({ path: path.join(outDir, 'flamegraph-search.png') });

  // the differential flame graph: drawn, a title per frame with both times and the change,
  // red and blue fills, the frames only in PATH outlined, the paths only in OTHER listed
  if (diffSvgFile) {
    const diff = await context.newPage();
    const diffErrors = [];
    diff.on('pageerror', (e) => diffErrors.push(String(e)));
    await diff.goto('file://' + path.resolve(diffSvgFile));
    const info = await diff.evaluate(() => Array.from(document.querySelectorAll('g.f')).map((g) => {
      const r = g.querySelector('rect').getBoundingClientRect();
      return { title: g.querySelector('title')?.textContent || '', a: g.dataset.a, b: g.dataset.b,
        fill: g.querySelector('rect').getAttribute('fill'), dashed: g.querySelector('rect').hasAttribute('stroke-dasharray'),
        w: r.width, h: r.height };
    }));
    check('diff svg frames drawn', info.length > 1 && info.every((f) => f.w > 0 && f.h > 0), `${info.length} frames`);
    const titled = info.filter((f) => /\nself: PATH [0-9.]+ [num]?s, OTHER [0-9.]+ [num]?s, change [+-][0-9.]+ [num]?s/.test(f.title) &&
      /\ntotal: PATH [0-9.]+ [num]?s, OTHER /.test(f.title));
    check('diff svg: a title per frame with both times and the change', titled.length === info.length,
      `${titled.length}/${info.length}: ${info[1] ? JSON.stringify(info[1].title) : ''}`);
    const red = info.filter((f) => /^rgb\(255,/.test(f.fill)).length;
    const blue = info.filter((f) => /^rgb\(\d+,\d+,255\)$/.test(f.fill) && !/^rgb\(255,/.test(f.fill)).length;
    check('diff svg: slower frames red, faster blue', red > 0 && blue > 0, `${red} red, ${blue} blue`);
    const fresh = info.filter((f) => f.a === undefined);
    check('diff svg: frames only in PATH outlined', fresh.length > 0 && fresh.every((f) => f.dashed && /only in PATH/.test(f.title)),
      `${fresh.length} frames`);
    const gone = await diff.locator('g.gone').count();
    check('diff svg: paths only in OTHER listed', gone > 0, `${gone} paths`);
    await diff.locator('svg').screenshot({ path: path.join(outDir, 'flamegraph-diff.png') });
    check('diff svg raised no page errors', diffErrors.length === 0, diffErrors.join('; '));
  }
} finally {
  await context.close();
  server.close();
  fs.rmSync(profileDir, { recursive: true, force: true });
}
const failed = results.filter((r) => !r).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
