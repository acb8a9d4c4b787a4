import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn } from './browser.js';
import { startProduct, type RunningProduct } from './product.js';

// axe-core is loaded through the DevTools protocol, which the page's Content Security Policy does not govern.
const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

let product: RunningProduct;
let browser: Browser;
beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe.each(['light', 'dark'] as const)('accessibility in the %s theme (axe-core: no serious or critical violations)', (theme) => {
  it('signed-out pages', async () => {
    const context = await browser.newContext({ colorScheme: theme });
    const page = await context.newPage();
    for (const path of ['/', '/legal', '/contact', '/dashboard', '/no-such-page']) {
      await page.goto(`${product.url}${path}`);
      await page.locator('main').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await context.close();
  });

  it('signed-in pages', async () => {
    const context = await browser.newContext({ colorScheme: theme });
    const page = await context.newPage();
    await signIn(page, product.url, `a11y-${theme}@example.com`, 'Al Ly');
    await page.getByRole('button', { name: 'Accept and Continue' }).waitFor();
    expect(await seriousViolations(page), '/terms-acceptance').toEqual([]);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Accept and Continue' }).click();
    await page.waitForURL(`${product.url}/`);
    for (const path of ['/', '/settings', '/profile']) {
      await page.goto(`${product.url}${path}`);
      await page.locator('main').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await context.close();
  });
});
