import { existsSync } from 'node:fs';

export interface ChromiumInfo {
  path: string;
  args: string[];
  source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // the metronome's audio starts from a key press; headless runs have no real output device
  '--autoplay-policy=no-user-gesture-required',
];
/**
 * Debian's chromium-headless-shell: the same Chromium release and Blink engine as the browser, without
 * the browser's own window and user interface layers, so a page costs less CPU to drive (Playwright's
 * own headless Chromium is this shell too). The browser suite prefers it; Lighthouse and the field
 * metrics (bench/) keep the full browser, the one members use (docs/decisions/0023-browser-suite-headless-shell.md).
 */
const SYSTEM_HEADLESS_SHELL = ['/usr/bin/chromium-headless-shell'];
const SYSTEM = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];
export const NO_CHROMIUM_MESSAGE =
  "No Chromium found: install Debian's chromium (apt-get install -y chromium), set CHROMIUM_PATH, or run npm install on Linux x64 for the @sparticuz/chromium fallback.";

/**
 * CHROMIUM_PATH, then a system Chromium or Chrome, then the one inside @sparticuz/chromium. With
 * `headlessShell` (the browser suite), a system headless shell comes before the system browser.
 */
export async function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  opts: { headlessShell?: boolean; headlessShellPaths?: string[]; systemPaths?: string[]; sparticuz?: boolean } = {},
): Promise<ChromiumInfo> {
  if (env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH))
      throw new Error(`CHROMIUM_PATH is set to ${env.CHROMIUM_PATH}, which does not exist.`);
    return { path: env.CHROMIUM_PATH, args: BASE_ARGS, source: 'CHROMIUM_PATH' };
  }
  const candidates = [
    ...(opts.headlessShell ? (opts.headlessShellPaths ?? SYSTEM_HEADLESS_SHELL) : []),
    ...(opts.systemPaths ?? SYSTEM),
  ];
  const system = candidates.find((p) => existsSync(p));
  if (system) return { path: system, args: BASE_ARGS, source: 'system' };
  if (opts.sparticuz !== false) {
    try {
      const { default: Chromium } = await import('@sparticuz/chromium');
      const path = await Chromium.executablePath();
      // --single-process (meant for serverless) makes every browser context share one cookie jar for fetch()
      const args = Chromium.args.filter((a) => a !== '--single-process');
      if (path && existsSync(path))
        return { path, args: [...new Set([...args, ...BASE_ARGS])], source: '@sparticuz/chromium' };
    } catch {
      // not installed, or not Linux x64
    }
  }
  throw new Error(NO_CHROMIUM_MESSAGE);
}
