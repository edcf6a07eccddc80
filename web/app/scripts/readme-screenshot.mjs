// The README's screenshot, from a real table: a throwaway stack of the build (as the browser
// tests start it), a guest's Okey 101 practice table, a few moves played by clicking, then the
// table at 1000x880 written to docs/images/ as a 256-colour PNG (a truecolour one of the felt's
// gradient is twice the size the README should carry). Run after the build:
//   KAHVE_BUILD=build node web/app/scripts/readme-screenshot.mjs
import { chromium } from "playwright-core";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { deflateSync, inflateSync } from "node:zlib";
import { repoDir, startStack } from "../test/support/stack.mjs";
import { LobbyPage, TablePage, playOneMove } from "../test/browser/pages.mjs";

const file = join(repoDir, "docs/images/okey101-table.png");

/** A palette PNG of an 8-bit RGB(A) PNG: the 256 commonest 15-bit colours, each pixel the nearest. */
function toPalette(png) {
  let pos = 8;
  let width = 0, height = 0, type = 0;
  const idat = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const kind = png.toString("ascii", pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (kind === "IHDR") { width = data.readUInt32BE(0); height = data.readUInt32BE(4); type = data[9]; }
    if (kind === "IDAT") idat.push(data);
    pos += 12 + len;
  }
  const bpp = type === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[y * stride + x - bpp] : 0;
      const b = y > 0 ? px[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      px[y * stride + x] = (src[x] + pred) & 255;
    }
  }
  const key = (i) => ((px[i] >> 3) << 10) | ((px[i + 1] >> 3) << 5) | (px[i + 2] >> 3);
  const count = new Map();
  for (let i = 0; i < px.length; i += bpp) count.set(key(i), (count.get(key(i)) ?? 0) + 1);
  const palette = [...count.entries()].sort((a, b) => b[1] - a[1]).slice(0, 256)
    .map(([k]) => [((k >> 10) & 31) * 8 + 4, ((k >> 5) & 31) * 8 + 4, (k & 31) * 8 + 4]);
  const nearest = new Map();
  const out = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * stride + x * bpp;
      const k = key(i);
      let best = nearest.get(k);
      if (best === undefined) {
        let d = Infinity;
        palette.forEach(([r, g, b], j) => {
          const e = (r - px[i]) ** 2 + (g - px[i + 1]) ** 2 + (b - px[i + 2]) ** 2;
          if (e < d) { d = e; best = j; }
        });
        nearest.set(k, best);
      }
      out[y * (width + 1) + 1 + x] = best;
    }
  }
  const chunk = (kind, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(kind, 4, "ascii");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 3;
  return Buffer.concat([png.subarray(0, 8), chunk("IHDR", ihdr), chunk("PLTE", Buffer.from(palette.flat())),
    chunk("IDAT", deflateSync(out, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

function crc32(buf) {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

const stack = await startStack();
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  const page = await (await browser.newContext({ viewport: { width: 1000, height: 880 } })).newPage();
  page.on("dialog", (d) => void d.accept());
  const lobby = new LobbyPage(page);
  await lobby.open(stack.url);
  await lobby.signInAsGuest();
  await lobby.choose("okey101");
  await lobby.practice({ speed: "Bots: instant" });
  const table = new TablePage(page);
  // A few rounds of the table, so the discard piles hold tiles; then the player's turn.
  for (let i = 0; i < 3 && (await table.waitForTurn()); i++) {
    const seq = await page.locator(".table-head").getAttribute("data-seq");
    await playOneMove(table, "okey101");
    await page.waitForFunction((b) => document.querySelector(".table-head")?.dataset.seq !== b, seq);
  }
  await table.waitForTurn();
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  const png = toPalette(await page.screenshot());
  writeFileSync(file, png);
  console.log(`${file}: ${Math.round(png.length / 1024)} KB`);
} finally {
  await browser.close();
  await stack.stop();
}
