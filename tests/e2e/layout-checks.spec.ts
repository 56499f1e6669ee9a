import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, PHONE } from '#test/e2e';
import { coveredControls, layerOverflow } from '#test/layout-checks';

/*
 * The long-text sweep's layout checks (tests/support/layout-checks.ts) find what they are meant to find:
 * each is run on a small page built to show one fault and its harmless look-alike.
 */
let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, PHONE);
});
afterAll(async () => browser.close());

describe('coveredControls', () => {
  it('names every kind of control under another element, and none that can be pressed', async () => {
    await page.setContent(`
      <style>body { margin: 0; font: 16px sans-serif } .row { height: 60px; display: flex; gap: 8px; align-items: center }</style>
      <div class="row"><button>Free button</button><a href="#x">Free link</a><input aria-label="Free field"></div>
      <div class="row">
        <button>Hidden button</button>
        <input aria-label="Hidden field" style="width: 120px">
        <input type="checkbox" aria-label="Hidden tick">
        <span role="tab" tabindex="0">Hidden tab</span>
      </div>
      <div class="row" style="position: relative">
        <input id="f" style="width: 200px"><label for="f" style="position: absolute; left: 4px; width: 200px">Own label over it</label>
      </div>
      <div style="position: fixed; top: 60px; left: 0; right: 0; height: 60px; background: #eee">Floating bar</div>
    `);
    const found = await coveredControls(page);
    expect(found.map((f) => f.replace(/ is under .*/, ''))).toEqual([
      '<button> "Hidden button"',
      '<input> "Hidden field"',
      '<input> "Hidden tick"',
      '<span> "Hidden tab"',
    ]);
    expect(found.every((f) => f.endsWith('is under <div> "Floating bar"'))).toBe(true);
  });

  it('judges a control in a box that scrolls by itself where that box shows it', async () => {
    // a chat: its older messages are scrolled out of its box, and the box's own text is drawn over them there
    await page.setContent(`
      <style>body { margin: 0 } li { height: 40px }</style>
      <div style="position: relative; height: 120px">
        <ul style="height: 120px; overflow-y: auto; margin: 0">${'<li><button>Heart</button></li>'.repeat(8)}</ul>
      </div>
      <p style="position: relative; height: 400px; margin: 0; background: #fff">Show details</p>
    `);
    expect(await coveredControls(page)).toEqual([]);
  });

  it("with a dialog open, checks the dialog's own controls, each scrolled into its box", async () => {
    await page.setContent(`
      <style>body { margin: 0 } [role=dialog] { position: fixed; inset: 40px 10px; overflow-y: auto; background: #fff }</style>
      <button>Page button under the dialog</button>
      <div role="dialog" data-state="open">
        <div style="height: 2000px">Long terms</div>
        <button>Accept, far down the dialog</button>
        <div style="position: relative; height: 40px">
          <button>Covered inside</button>
          <span style="position: absolute; inset: 0; background: red">Badge</span>
        </div>
      </div>
    `);
    expect(await coveredControls(page, true)).toEqual(['<button> "Covered inside" is under <span> "Badge"']);
  });
});

describe('layerOverflow', () => {
  const dialog = (style: string, inner: string) =>
    page.setContent(
      `<style>body { margin: 0 }</style><div role="dialog" data-state="open" style="position: fixed; top: 0; ${style}">${inner}</div>`,
    );

  it('passes a dialog that fits the window and wraps its text', async () => {
    await dialog(
      'left: 10px; right: 10px; overflow-y: auto',
      `<p style="overflow-wrap: anywhere">${'x'.repeat(200)}</p>`,
    );
    expect(await layerOverflow(page)).toEqual([]);
  });

  it('finds a dialog wider than the window, which the document width never shows', async () => {
    await dialog('left: 0; width: 600px', 'Wide');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    expect(await layerOverflow(page)).toEqual(['the dialog <div> "Wide" spans 0 to 600 px of a 390 px window']);
  });

  it('finds a long word that makes the dialog scroll sideways, and one that runs past the window', async () => {
    await dialog('left: 10px; right: 10px; overflow-y: auto', `<p>${'y'.repeat(200)}</p>`);
    expect(await layerOverflow(page)).toEqual([
      expect.stringMatching(/^<div> "y+" in the dialog .* scrolls sideways by \d+ px$/),
    ]);
    await dialog('left: 10px; right: 10px', `<p>${'z'.repeat(200)}</p>`);
    expect(await layerOverflow(page)).toEqual([
      expect.stringMatching(/^<p> "z+" in the dialog .* runs past the window$/),
    ]);
  });
});
