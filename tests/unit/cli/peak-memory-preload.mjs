// Loaded with `node --import` into a `sinew` child by run-measured.ts: at exit it writes the process's peak
// resident memory (VmHWM of /proc/self/status, in KiB) to file descriptor 3, which the test reads. Test-only:
// the shipped command knows nothing of it.
import { readFileSync, writeSync } from 'node:fs';

process.on('exit', () => {
  const peak = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  writeSync(3, peak ? peak[1] : 'unknown');
});
