// Where Sinew's browser tests and benchmarks find Chromium: $SINEW_CHROMIUM, else Debian's /usr/bin/chromium.
import { existsSync } from 'node:fs';

/** Absolute path of the Chromium executable to drive, or null when none is installed. */
export function chromiumPath() {
  const candidate = process.env.SINEW_CHROMIUM || '/usr/bin/chromium';
  return existsSync(candidate) ? candidate : null;
}

/** Flags for WebGL2 on SwiftShader (no GPU on these machines) without network chatter. */
export const chromiumArgs = [
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--no-sandbox',
];
