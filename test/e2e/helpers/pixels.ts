// Reads colours out of a real screenshot, for tests that claim something about what is painted.
// Chromium decodes the PNG (createImageBitmap on a blank page, no dependency on a PNG library);
// the result is the most frequent exact colour in a rectangle and its share of the pixels.
import type { Browser } from 'playwright-core';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Dominant extends Rgb {
  /** Pixels of exactly this colour / pixels in the rectangle (0..1). */
  share: number;
}

/** "#rrggbb" (as in the theme tables) → {r, g, b}. */
export function hexRgb(hex: string): Rgb {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return { r: parseInt(m[1] as string, 16), g: parseInt(m[2] as string, 16), b: parseInt(m[3] as string, 16) };
}

/** "rgb(1, 2, 3)" / "rgba(1, 2, 3, 1)" (getComputedStyle) → {r, g, b}. */
export function cssRgb(css: string): Rgb {
  const m = /^rgba?\((\d+), (\d+), (\d+)(?:, [\d.]+)?\)$/.exec(css);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]) };
}

/** Largest per-channel difference between two colours. */
export function colourDistance(a: Rgb, b: Rgb): number {
  return Math.max(Math.abs(a.r - b.r), Math.abs(a.g - b.g), Math.abs(a.b - b.b));
}

/** The most frequent colour of `png` (a screenshot at device scale 1), inside `rect` or overall. */
export async function dominantColour(browser: Browser, png: Buffer, rect?: Rect): Promise<Dominant> {
  const context = await browser.newContext();
  try {
    // tsx wraps named functions in __name(); the blank page needs the same no-op as the timeline.
    await context.addInitScript('window.__name = (f) => f;');
    const page = await context.newPage();
    return await page.evaluate(
      async ({ b64, rect }) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const r = rect ?? { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
        const x = Math.max(0, Math.round(r.x));
        const y = Math.max(0, Math.round(r.y));
        const w = Math.min(bitmap.width - x, Math.round(r.width));
        const h = Math.min(bitmap.height - y, Math.round(r.height));
        const canvas = new OffscreenCanvas(w, h);
        const ctx = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
        ctx.drawImage(bitmap, x, y, w, h, 0, 0, w, h);
        const data = ctx.getImageData(0, 0, w, h).data;
        const counts = new Map<number, number>();
        for (let i = 0; i < data.length; i += 4) {
          const key = ((data[i] as number) << 16) | ((data[i + 1] as number) << 8) | (data[i + 2] as number);
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        let best = 0;
        let n = -1;
        for (const [k, c] of counts) if (c > n) [best, n] = [k, c];
        return { r: (best >> 16) & 255, g: (best >> 8) & 255, b: best & 255, share: n / (w * h) };
      },
      { b64: png.toString('base64'), rect: rect ?? null },
    );
  } finally {
    await context.close();
  }
}
