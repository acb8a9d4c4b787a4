import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, JSHandle, Page } from 'playwright-core';
import { expectText, fixtureImage, horizontalOverflow, isPhotoMade, launchBrowser, setTheme, signedInMember } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';
import { sharp } from './sharp.js';

const MEMBER = { email: 'phone-uploader@example.com', name: 'Pia Phone' };
/** File names as phones give them: one "word" each as far as line breaking goes. */
const PIXEL_NAME = 'PXL_20251103_142233517.jpg';
const IPHONE_NAME = 'IMG_20251103_142233_some_long_name_iphone_13_pro_max.HEIC';

const HEIC = readFileSync(new URL('../../storage/test/fixtures/photo.heic', import.meta.url));
const JPEG = fixtureImage('rotated-gps.jpg').buffer;

/**
 * `heif` with an irot (rotation) property added to its primary image, as a phone held upright writes it: the
 * pixels stay as coded and the viewer turns them. `quarterTurns` counts 90° turns anticlockwise. The boxes that
 * grow (ipco, ipma, iprp, meta) get their new sizes, and the item locations after meta move with it.
 */
function withRotation(heif: Buffer, quarterTurns: number): Buffer {
  type Box = { type: string; start: number; end: number };
  const children = (start: number, end: number): Box[] => {
    const boxes: Box[] = [];
    for (let at = start; at < end; at += heif.readUInt32BE(at)) {
      boxes.push({ type: heif.toString('latin1', at + 4, at + 8), start: at, end: at + heif.readUInt32BE(at) });
    }
    return boxes;
  };
  const find = (boxes: Box[], type: string) => {
    const box = boxes.find((candidate) => candidate.type === type);
    if (!box) throw new Error(`no ${type} box`);
    return box;
  };
  const bytes = (box: Box) => heif.subarray(box.start, box.end);
  const sized = (parts: Buffer[]) => {
    const box = Buffer.concat(parts);
    box.writeUInt32BE(box.length, 0);
    return box;
  };

  const top = children(0, heif.length);
  const meta = find(top, 'meta');
  const inMeta = children(meta.start + 12, meta.end);
  const pitm = find(inMeta, 'pitm');
  const primary = heif.readUInt8(pitm.start + 8) === 0 ? heif.readUInt16BE(pitm.start + 12) : heif.readUInt32BE(pitm.start + 12);
  const iprp = find(inMeta, 'iprp');
  const inIprp = children(iprp.start + 8, iprp.end);
  const ipco = find(inIprp, 'ipco');
  const ipma = find(inIprp, 'ipma');

  const irot = Buffer.from([0, 0, 0, 9, ...Buffer.from('irot'), quarterTurns & 3]);
  const newIpco = sized([bytes(ipco), irot]);
  const irotIndex = children(ipco.start + 8, ipco.end).length + 1;

  const version = heif.readUInt8(ipma.start + 8);
  const wide = (heif.readUInt32BE(ipma.start + 8) & 1) === 1;
  const idSize = version < 1 ? 2 : 4;
  const ipmaParts = [heif.subarray(ipma.start, ipma.start + 16)];
  for (let at = ipma.start + 16, i = 0; i < heif.readUInt32BE(ipma.start + 12); i++) {
    const id = idSize === 2 ? heif.readUInt16BE(at) : heif.readUInt32BE(at);
    const count = heif.readUInt8(at + idSize);
    const entry = Buffer.from(heif.subarray(at, at + idSize + 1 + count * (wide ? 2 : 1)));
    ipmaParts.push(entry);
    if (id === primary) {
      entry.writeUInt8(count + 1, idSize);
      // An essential association with the new property.
      ipmaParts.push(wide ? Buffer.from([0x80 | (irotIndex >> 8), irotIndex & 0xff]) : Buffer.from([0x80 | irotIndex]));
    }
    at += entry.length;
  }
  const newIpma = sized(ipmaParts);
  const newIprp = sized([heif.subarray(iprp.start, iprp.start + 8), ...inIprp.map((box) => (box === ipco ? newIpco : box === ipma ? newIpma : bytes(box)))]);
  const grown = newIprp.length - (iprp.end - iprp.start);

  // iloc: the items' data lies in mdat, after meta, which grew by `grown` bytes.
  const iloc = find(inMeta, 'iloc');
  const newIloc = Buffer.from(bytes(iloc));
  const ilocVersion = newIloc.readUInt8(8);
  const offsetSize = newIloc.readUInt8(12) >> 4;
  const lengthSize = newIloc.readUInt8(12) & 15;
  const baseSize = newIloc.readUInt8(13) >> 4;
  const indexSize = ilocVersion === 1 || ilocVersion === 2 ? newIloc.readUInt8(13) & 15 : 0;
  const read = (at: number, size: number) => (size === 4 ? newIloc.readUInt32BE(at) : size === 8 ? Number(newIloc.readBigUInt64BE(at)) : 0);
  const write = (at: number, size: number, value: number) =>
    size === 4 ? newIloc.writeUInt32BE(value, at) : size === 8 ? newIloc.writeBigUInt64BE(BigInt(value), at) : undefined;
  let at = 14;
  const items = ilocVersion < 2 ? newIloc.readUInt16BE(at) : newIloc.readUInt32BE(at);
  at += ilocVersion < 2 ? 2 : 4;
  for (let i = 0; i < items; i++) {
    at += ilocVersion < 2 ? 2 : 4;
    let method = 0;
    if (ilocVersion === 1 || ilocVersion === 2) {
      method = newIloc.readUInt16BE(at) & 15;
      at += 2;
    }
    at += 2;
    const base = read(at, baseSize);
    if (method === 0 && base !== 0) write(at, baseSize, base + grown);
    at += baseSize;
    const extents = newIloc.readUInt16BE(at);
    at += 2;
    for (let e = 0; e < extents; e++) {
      at += indexSize;
      if (method === 0 && base === 0) write(at, offsetSize, read(at, offsetSize) + grown);
      at += offsetSize + lengthSize;
    }
  }
  const newMeta = sized([heif.subarray(meta.start, meta.start + 12), ...inMeta.map((box) => (box === iprp ? newIprp : box === iloc ? newIloc : bytes(box)))]);
  return Buffer.concat(top.map((box) => (box === meta ? newMeta : bytes(box))));
}

let product: RunningProduct;
let browser: Browser;
let member: { context: BrowserContext; page: Page };

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  member = await signedInMember(browser, product.url, MEMBER);
});
afterAll(async () => {
  await member?.context.close();
  await browser?.close();
  await product?.stop();
});

const fileInput = (page: Page) => page.locator('input[type="file"][aria-label="Photo file"]');
const preview = (page: Page, name: string) => page.getByRole('img', { name: `Preview of ${name}` });

async function openUploadPage(page: Page): Promise<void> {
  await page.goto(`${product.url}/upload`);
  await page.getByRole('heading', { name: 'Snap a Crack', exact: true, level: 1 }).waitFor();
}

/** Waits until the preview of `name` is drawn: for a HEIC photo, once the worker has decoded it. */
async function waitForPreview(page: Page, name: string): Promise<{ width: number; height: number }> {
  const image = preview(page, name);
  await image.waitFor({ timeout: 30_000 });
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 30_000 })
    .toBe(true);
  return image.evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, height: img.naturalHeight }));
}

async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const { overflow, culprits } = await horizontalOverflow(page);
  expect(overflow, `${label}: the page is ${overflow} px wider than the screen\n${culprits.join('\n')}`).toBeLessThanOrEqual(0);
  const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(sizes.scroll, label).toBeLessThanOrEqual(sizes.client);
}

/** The control's box is at least 44 × 44 px: a fingertip's target. */
async function expectTapTarget(page: Page, name: string, label: string): Promise<void> {
  const box = await page.getByRole('button', { name, exact: true }).boundingBox();
  expect(box, `${label}: ${name} is on screen`).not.toBeNull();
  expect(Math.min(box!.width, box!.height), `${label}: ${name} is ${box!.width}×${box!.height}`).toBeGreaterThanOrEqual(44);
}

/** Drops `files` on the drop zone as a browser does when they are dragged there from the desktop. */
async function dropFiles(page: Page, files: Array<{ name: string; type: string; size: number }>): Promise<void> {
  const dataTransfer: JSHandle = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([new Uint8Array(file.size)], file.name, { type: file.type }));
    return transfer;
  }, files);
  const zone = page.getByRole('group', { name: 'Photo drop zone' });
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}

describe('the upload page on phones', () => {
  it('is never wider than the screen at 320, 390 and 768 px, light and dark, with phone file names, and its controls are 44 px targets', async () => {
    const { page } = member;
    for (const width of [320, 390, 768]) {
      await page.setViewportSize({ width, height: 800 });
      for (const theme of ['light', 'dark'] as const) {
        const label = `${width} px, ${theme}`;
        await openUploadPage(page);
        await setTheme(page, theme);
        await page.getByRole('heading', { name: 'Snap a Crack', exact: true, level: 1 }).waitFor();
        await expectNoSidewaysScroll(page, `${label}, no photo`);
        if (width < 640) await expectTapTarget(page, 'Choose Photo', label);

        await fileInput(page).setInputFiles({ name: PIXEL_NAME, mimeType: 'image/jpeg', buffer: JPEG });
        await waitForPreview(page, PIXEL_NAME);
        await expectNoSidewaysScroll(page, `${label}, ${PIXEL_NAME}`);

        await fileInput(page).setInputFiles({ name: IPHONE_NAME, mimeType: 'image/heic', buffer: HEIC });
        await waitForPreview(page, IPHONE_NAME);
        await expectNoSidewaysScroll(page, `${label}, ${IPHONE_NAME}`);

        // The whole name is on the page, and the Upload Photo button is not cut off.
        await expect.poll(() => page.getByTestId('chosen-file-name').textContent()).toBe(IPHONE_NAME);
        const submit = await page.getByRole('button', { name: 'Upload Photo' }).boundingBox();
        const clientWidth = await page.evaluate(() => document.documentElement.clientWidth);
        expect(submit!.x, label).toBeGreaterThanOrEqual(0);
        expect(submit!.x + submit!.width, `${label}: Upload Photo ends inside the screen`).toBeLessThanOrEqual(clientWidth);

        if (width < 640) {
          for (const name of ['Change photo', 'Remove photo', 'Upload Photo']) await expectTapTarget(page, name, label);
          // The 20 px terms box answers a tap anywhere in the 44 px square around it.
          const checkbox = page.getByRole('checkbox', { name: /I own this photo/ });
          await checkbox.scrollIntoViewIfNeeded();
          const box = (await checkbox.boundingBox())!;
          const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
          for (const [x, y] of [
            [cx - 20, cy],
            [cx + 20, cy],
            [cx, cy - 20],
            [cx, cy + 20],
          ] as const) {
            const hit = await page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.closest('[role="checkbox"]')?.id ?? null, [x, y] as const);
            expect(hit, `${label}: a tap at (${Math.round(x - cx)}, ${Math.round(y - cy)}) from the box's centre`).toBe('upload-terms');
          }
        }
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('says in plain words why a dropped file is refused: too large, or not a photo type it takes', async () => {
    const { page } = member;
    await page.setViewportSize({ width: 320, height: 800 });
    try {
      await openUploadPage(page);
      await setTheme(page, 'light');
      await dropFiles(page, [{ name: PIXEL_NAME, type: 'image/jpeg', size: 10 * 1024 * 1024 + 1 }]);
      const alert = page.getByRole('alert');
      await expectText(page, 'File is larger than 10 MB');
      expect(await alert.textContent()).toContain(`${PIXEL_NAME}: File is larger than 10 MB`);
      expect(await alert.textContent()).toContain('Only image files (PNG, JPG, JPEG) up to 10MB are accepted');
      expect(await alert.textContent()).not.toContain('bytes');
      await expectNoSidewaysScroll(page, 'too-large message at 320 px');

      await dropFiles(page, [{ name: 'funny-cat.gif', type: 'image/gif', size: 2048 }]);
      await expectText(page, 'funny-cat.gif: File type must be JPG, PNG, HEIC or WebP');
      expect(await alert.textContent()).not.toContain('image/');
      expect(await page.getByRole('button', { name: 'Upload Photo' }).isDisabled()).toBe(true);

      await dropFiles(page, [
        { name: 'one.jpg', type: 'image/jpeg', size: 2048 },
        { name: 'two.jpg', type: 'image/jpeg', size: 2048 },
      ]);
      await expectText(page, 'Too many files: choose one photo at a time');
      expect(await alert.getByRole('listitem').count()).toBe(1);
      await expectNoSidewaysScroll(page, 'messages at 320 px');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});

describe('a HEIC photo from a phone', () => {
  it('is decoded in the browser, upright as the server stores it, takes a privacy bar drawn on its preview, and uploads with it', async () => {
    const { page, context } = member;
    // photo.heic is 320×240; with a quarter turn anticlockwise it shows 240×320, as a phone's portrait photo.
    const rotated = withRotation(HEIC, 1);
    const wasmRequests: string[] = [];
    page.on('request', (request) => {
      if (/\.wasm$|heic-preview\.worker/.test(new URL(request.url()).pathname)) wasmRequests.push(new URL(request.url()).pathname);
    });

    await openUploadPage(page);
    // A JPEG needs no decoder: nothing of it is fetched.
    await fileInput(page).setInputFiles({ name: PIXEL_NAME, mimeType: 'image/jpeg', buffer: JPEG });
    await waitForPreview(page, PIXEL_NAME);
    expect(wasmRequests).toEqual([]);

    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __statusSeen: string[] }).__statusSeen = seen;
      new MutationObserver(() => {
        for (const status of Array.from(document.querySelectorAll('[role="status"]'))) {
          const text = status.textContent ?? '';
          if (text && seen.at(-1) !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await fileInput(page).setInputFiles({ name: IPHONE_NAME, mimeType: 'image/heic', buffer: rotated });
    const size = await waitForPreview(page, IPHONE_NAME);
    expect(size, 'the preview is upright (the irot applied)').toEqual({ width: 240, height: 320 });
    const statusSeen = await page.evaluate(() => (window as unknown as { __statusSeen: string[] }).__statusSeen);
    expect(statusSeen.some((text) => text.startsWith('Preparing preview...')), `statuses seen: ${statusSeen.join(' | ')}`).toBe(true);
    // The worker and its decoder are files of our own build, fetched now.
    expect(wasmRequests.some((path) => /^\/assets\/heic-preview\.worker-[\w-]+\.js$/.test(path)), wasmRequests.join(', ')).toBe(true);
    expect(wasmRequests.some((path) => /^\/assets\/libheif-[\w-]+\.wasm$/.test(path)), wasmRequests.join(', ')).toBe(true);

    // What the member sees, read back from the preview, for comparing with what the server stores.
    const points: Array<[number, number]> = [
      [10, 10],
      [90, 10],
      [10, 90],
      [90, 90],
      [50, 60],
      [30, 80],
    ];
    const previewColours = await preview(page, IPHONE_NAME).evaluate((img: HTMLImageElement, at: Array<[number, number]>) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context2d = canvas.getContext('2d', { willReadFrequently: true })!;
      context2d.drawImage(img, 0, 0);
      return at.map(([x, y]) => {
        const data = context2d.getImageData(Math.floor((x / 100) * canvas.width) - 4, Math.floor((y / 100) * canvas.height) - 4, 9, 9).data;
        let sum = 0;
        for (let i = 0; i < data.length; i += 4) sum += (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
        return sum / (data.length / 4);
      });
    }, points);

    // A bar drawn with the mouse from (20 %, 10 %) to (70 %, 40 %) of the preview.
    const box = (await preview(page, IPHONE_NAME).boundingBox())!;
    const at = (x: number, y: number) => [box.x + (box.width * x) / 100, box.y + (box.height * y) / 100] as const;
    await page.mouse.move(...at(20, 10));
    await page.mouse.down();
    await page.mouse.move(...at(45, 25), { steps: 5 });
    await page.mouse.move(...at(70, 40), { steps: 5 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Privacy bar 1 of 1' }).waitFor();

    await page.getByRole('checkbox', { name: /I own this photo/ }).check();
    const uploadResponse = page.waitForResponse(
      isPhotoMade,
    );
    await page.getByRole('button', { name: 'Upload Photo' }).click();
    const upload = await uploadResponse;
    expect(upload.status(), await upload.text()).toBe(201);
    const { id, filename } = (await upload.json()) as { id: number; filename: string };
    await page.waitForURL(`${product.url}/dashboard`, { timeout: 15_000 });

    // The original HEIC went up, not the preview: the server read a HEIC photo and turned it upright itself.
    const photos = (await (await context.request.get(`${product.url}/api/user/photos`)).json()) as
      | Array<{ id: number; originalName: string; mimeType: string; width: number; height: number }>
      | { photos: Array<{ id: number; originalName: string; mimeType: string; width: number; height: number }> };
    const stored = (Array.isArray(photos) ? photos : photos.photos).find((photo) => photo.id === id);
    expect(stored).toMatchObject({ originalName: IPHONE_NAME, mimeType: 'image/heic', width: 240, height: 320 });

    const barsResponse = await context.request.get(`${product.url}/api/photos/${id}/privacy-bars`);
    expect(barsResponse.status()).toBe(200);
    const { bars } = (await barsResponse.json()) as { bars: Array<{ x: number; y: number; width: number; height: number }> };
    expect(bars).toHaveLength(1);
    const [bar] = bars;
    for (const [value, expected] of [
      [bar!.x, 20],
      [bar!.y, 10],
      [bar!.width, 50],
      [bar!.height, 30],
    ] as const) {
      expect(Math.abs(value - expected), `bar ${JSON.stringify(bar)}`).toBeLessThan(2);
    }

    // The server turned the photo the same way: the stored original (unredacted, for its owner) is 240×320 and
    // shows the same picture at the same places as the preview the bar was drawn on.
    const original = await context.request.get(`${product.url}/api/uploads/${encodeURIComponent(filename)}?size=original`);
    expect(original.status()).toBe(200);
    const { data, info } = await sharp(await original.body()).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([240, 320]);
    const storedColours = points.map(([x, y]) => {
      let sum = 0;
      let count = 0;
      const [cx, cy] = [Math.floor((x / 100) * info.width), Math.floor((y / 100) * info.height)];
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const offset = ((cy + dy) * info.width + cx + dx) * info.channels;
          sum += (data[offset]! + data[offset + 1]! + data[offset + 2]!) / 3;
          count += 1;
        }
      }
      return sum / count;
    });
    // The scene darkens from one corner to the opposite one: a photo turned the other way would not match.
    expect(Math.max(...previewColours) - Math.min(...previewColours), `preview ${previewColours.map(Math.round)}`).toBeGreaterThan(25);
    storedColours.forEach((stored, i) => {
      expect(
        Math.abs(stored - previewColours[i]!),
        `brightness at ${points[i]}: stored ${Math.round(stored)}, preview ${Math.round(previewColours[i]!)}`,
      ).toBeLessThan(15);
    });
  });
});
