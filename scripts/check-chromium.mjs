// Fails early, with instructions, when no Chromium is there for the browser tests.
import { chromiumPath } from './chromium-path.mjs';

if (!chromiumPath()) {
  const wanted = process.env.SINEW_CHROMIUM || '/usr/bin/chromium';
  console.error(
    `sinew: no Chromium at ${wanted}. The browser tests need one:\n` +
      `  Debian/Ubuntu: sudo apt-get install -y chromium\n` +
      `  or point SINEW_CHROMIUM at a Chromium/Chrome executable.\n` +
      `(Sinew drives the system browser and never downloads one of its own.)`,
  );
  process.exit(1);
}
