/**
 * Node only: finds the Chromium that Sinew's browser tests, benchmarks and `sinew render` drive.
 *
 * Order: `$SINEW_CHROMIUM` (an executable path, used as given); then the Chromium that the npm package
 * `@sparticuz/chromium` ships inside its tarball (unpacked on first use, SwiftShader included, so pictures are
 * the same on every machine); then a system Chromium at a well-known path. Nothing is ever downloaded.
 */
import { accessSync, constants } from 'node:fs';
import { importOptional } from './import-optional.ts';

/** Where a found browser came from: reported by `sinew render --verbose` and the test setup. */
export type ChromiumSource = 'SINEW_CHROMIUM' | '@sparticuz/chromium' | 'system';

/** A Chromium executable and where it was found. */
export interface FoundChromium {
  /** Absolute path of the executable. */
  executablePath: string;
  source: ChromiumSource;
}

/** System paths tried last, in order (Debian's `chromium` package first, then Chrome on macOS and Windows). */
const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe', 'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

/**
 * The Linux Chromium that `@sparticuz/chromium` ships, unpacked; null when the package is not installed, this
 * is not Linux (its binary is Linux-only), or unpacking fails.
 */
async function packagedChromium(): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  try {
    const chromium = await importOptional<{ executablePath(): Promise<string> }>(['@sparticuz', 'chromium'].join('/'));
    return chromium ? await chromium.executablePath() : null;
  } catch {
    return null;
  }
}

/**
 * Flags for WebGL2 on SwiftShader (no GPU is assumed) without network chatter; `--no-sandbox` because test
 * machines run as root.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--no-sandbox',
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds a Chromium executable (see the module comment for the order).
 * @returns the executable, or `null` when `$SINEW_CHROMIUM` is unset, `@sparticuz/chromium` is not installed
 *   and no system Chromium exists
 * @throws Error when `$SINEW_CHROMIUM` is set but names no executable file (a set override is never skipped)
 */
export async function findChromium(): Promise<FoundChromium | null> {
  const override = process.env.SINEW_CHROMIUM;
  if (override) {
    if (!isExecutable(override)) throw new Error(`SINEW_CHROMIUM=${override}: no executable file there`);
    return { executablePath: override, source: 'SINEW_CHROMIUM' };
  }
  const packaged = await packagedChromium();
  if (packaged) return { executablePath: packaged, source: '@sparticuz/chromium' };
  const system = SYSTEM_CHROMIUMS.find(isExecutable);
  return system ? { executablePath: system, source: 'system' } : null;
}

/** The message for when {@link findChromium} finds nothing: which packages to install. */
export const NO_CHROMIUM_MESSAGE =
  'no Chromium found: install the packages that ship one, `npm install --save-dev playwright-core @sparticuz/chromium`, ' +
  'or set SINEW_CHROMIUM to a Chromium or Chrome executable';
