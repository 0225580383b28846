#!/usr/bin/env node
// The `sinew` command: runs the built CLI (dist/cli.js, written by `npm run build`, which `npm ci` / `npm install`
// run through the `prepare` script in a checkout, and which a published package ships).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('sinew: dist/cli.js is missing: run `npm run build` in the sinew-gl checkout first\n');
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
