/**
 * Lets the page run (input, rendering, progress events) between the steps of a long load: resolves in a new
 * task, by `scheduler.yield()` where the platform has it (it keeps the load's place ahead of other queued work),
 * else by a `MessageChannel` message, which background tabs do not throttle as they do `setTimeout`. Works in
 * node too (both exist there). Allocates a channel per call on the fallback: once per load step, never per frame.
 */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
