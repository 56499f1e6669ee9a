/**
 * Writes src/client/fallback-font.css: the font the page shows until Inter has arrived, sized so that
 * Inter replaces it without moving anything (docs/decisions/0027-fallback-font-sized-to-inter.md).
 *
 * `npx tsx scripts/fallback-font.ts` measures, in Chromium, Inter (the latin file the build ships, at each
 * weight the app uses) against Arial's metrics. Arial itself or Liberation Sans (Debian's fonts-liberation,
 * drawn to Arial's widths) must be installed. Run it again after upgrading @fontsource-variable/inter.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { format, resolveConfig } from 'prettier';
import { findChromium } from './find-chromium';

const ROOT = path.resolve(import.meta.dirname, '..');
const INTER_FILE = path.join(ROOT, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');
const OUT = path.join(ROOT, 'src/client/fallback-font.css');

/** the weights of the app's text (Tailwind's font-normal … font-black) */
const WEIGHTS = [400, 500, 600, 700, 800, 900];
/** Arial has a regular and a bold; from semibold up the bold is the nearer shape */
const BOLD_FROM = 600;
/** the names under which a browser finds Arial or a font drawn to its widths (Android's Roboto within 0.2 %) */
const REGULAR = ['Arial', 'ArialMT', 'Liberation Sans', 'LiberationSans', 'Arimo', 'Roboto'];
const BOLD = ['Arial Bold', 'Arial-BoldMT', 'Liberation Sans Bold', 'LiberationSans-Bold', 'Arimo Bold', 'Roboto Bold'];
/** the digits and what sits beside them in a price or a count */
const FIGURES = 'U+0024, U+0025, U+002B-002E, U+0030-0039';

/** English as the app writes it: letters in their usual proportions, capitals, spaces and punctuation */
const PROSE =
  'Become the drummer you hear in your head. Structured lessons, a staged learning path, practice tools ' +
  'and a community that plays. Sign in to keep your streak, join the live show on Thursday, or book a ' +
  'mentor who listens to your grooves and writes you a plan for the week. Forgot your password? ' +
  'Quiet fills, jazz ride patterns, the paradiddle and its inversions: work each one up slowly.';
const DIGITS = '0123456789';

/** a `src` that finds the first of these fonts installed */
const local = (names: string[]) => names.map((n) => `local('${n}')`).join(', ');

interface Measured {
  weight: number;
  prose: number;
  digits: number;
}

async function measure() {
  const info = await findChromium(process.env);
  const browser = await chromium.launch({ executablePath: info.path, args: info.args, headless: true });
  const page = await browser.newPage();
  const inter = readFileSync(INTER_FILE).toString('base64');
  await page.setContent(`<style>
    @font-face { font-family: Inter; src: url(data:font/woff2;base64,${inter}) format('woff2'); font-weight: 100 900; }
    @font-face { font-family: Arial-like; src: ${local(REGULAR)}; font-weight: 400; }
    @font-face { font-family: Arial-like; src: ${local(BOLD)}; font-weight: 700; }
    body { white-space: nowrap; }
  </style>`);
  // every width at once: [family, weight, text] in, widths out (no helper functions inside the page:
  // tsx names them with a helper the page does not have)
  const tasks = WEIGHTS.flatMap((weight) => {
    const arialWeight = weight < BOLD_FROM ? 400 : 700;
    return [PROSE, DIGITS].flatMap((text) => [
      ['Inter', weight, text] as const,
      ['Arial-like', arialWeight, text] as const,
    ]);
  });
  const measured = await page.evaluate(
    async ({ tasks, digits }) => {
      await document.fonts.load('400 100px Inter');
      // the faces that loaded: none when no font of the list is installed
      const arial = await document.fonts.load('400 100px Arial-like').catch(() => []);
      if (arial.length === 0) return null;
      const widths = tasks.map(([family, weight, text]) => {
        const span = document.createElement('span');
        span.style.font = `${weight} 100px ${family}`;
        // prices and counts use tabular figures (the `tabular` utility, Tailwind's tabular-nums)
        if (text === digits) span.style.fontVariantNumeric = 'tabular-nums';
        span.textContent = text;
        document.body.append(span);
        return span.getBoundingClientRect().width;
      });
      // Inter's ascent and descent as fractions of the font size, as layout uses them; a line's normal
      // height is ascent + descent + line gap
      const canvas = document.createElement('canvas').getContext('2d')!;
      canvas.font = '400 1000px Inter';
      const m = canvas.measureText('x');
      const line = document.createElement('div');
      line.style.font = '400 1000px Inter';
      line.style.lineHeight = 'normal';
      line.textContent = 'x';
      document.body.append(line);
      const lineHeight = line.getBoundingClientRect().height;
      return { widths, ascent: m.fontBoundingBoxAscent, descent: m.fontBoundingBoxDescent, lineHeight };
    },
    { tasks, digits: DIGITS },
  );
  await browser.close();
  if (!measured)
    throw new Error('Neither Arial nor Liberation Sans is installed (Debian: apt-get install fonts-liberation).');
  const { widths } = measured;
  const ratios: Measured[] = WEIGHTS.map((weight, i) => ({
    weight,
    prose: widths[4 * i]! / widths[4 * i + 1]!,
    digits: widths[4 * i + 2]! / widths[4 * i + 3]!,
  }));
  const ascent = measured.ascent / 1000;
  const descent = measured.descent / 1000;
  return { ratios, ascent, descent, lineGap: Math.max(0, measured.lineHeight / 1000 - ascent - descent) };
}

const percent = (n: number) => `${(n * 100).toFixed(2)}%`;

function face(
  weight: number,
  sizeAdjust: number,
  inter: { ascent: number; descent: number; lineGap: number },
  figures: boolean,
) {
  return [
    '@font-face {',
    "  font-family: 'Inter Variable fallback';",
    `  src: ${local(weight < BOLD_FROM ? REGULAR : BOLD)};`,
    `  font-weight: ${weight};`,
    ...(figures ? [`  unicode-range: ${FIGURES};`] : []),
    `  size-adjust: ${percent(sizeAdjust)};`,
    // the overrides are scaled by size-adjust in turn
    `  ascent-override: ${percent(inter.ascent / sizeAdjust)};`,
    `  descent-override: ${percent(inter.descent / sizeAdjust)};`,
    `  line-gap-override: ${percent(inter.lineGap / sizeAdjust)};`,
    '}',
  ].join('\n');
}

const { ratios, ...inter } = await measure();
const css = `/*
 * Written by scripts/fallback-font.ts: run it again after upgrading @fontsource-variable/inter.
 *
 * Until Inter has arrived the page is drawn in Arial (or a font drawn to its widths), resized weight by
 * weight to Inter's average width and given Inter's ascent and descent, so that when Inter swaps in no
 * line breaks elsewhere and no box changes size (docs/decisions/0027-fallback-font-sized-to-inter.md).
 * Figures have faces of their own: Inter's tabular figures, which prices and counts use, are wider
 * against Arial's than its letters are.
 */
${ratios.map((r) => face(r.weight, r.prose, inter, false)).join('\n\n')}

${ratios.map((r) => face(r.weight, r.digits, inter, true)).join('\n\n')}
`;
writeFileSync(OUT, await format(css, { ...(await resolveConfig(OUT)), filepath: OUT }));
for (const r of ratios) console.log(`${r.weight}: letters ${percent(r.prose)}, figures ${percent(r.digits)}`);
console.log(
  `Inter: ascent ${inter.ascent}, descent ${inter.descent}, line gap ${inter.lineGap}; wrote ${path.relative(ROOT, OUT)}`,
);
