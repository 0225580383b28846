/**
 * Sinew's memory budget: one number of bytes bounding what a model may make Sinew hold, checked before each
 * allocation it bounds rather than after (docs/guide/memory-ceiling.md). Default {@link DEFAULT_MEMORY_BUDGET_BYTES}.
 *
 * Set by: the loaders' `memoryBudgetBytes` option (`loadModel`, `loadClips`, `loadModelFromUrl`,
 * `loadModelFromFiles`, `loadClipsFromUrl`, `loadModelFromPath`, `loadEnvironmentImage`), `CrowdOptions.memoryBudgetBytes`, and
 * `sinew eval` / `inspect --max-memory MiB`. Checked against: the bytes a file's data decodes to (glTF accessors
 * summed, compressed data counted decoded; an environment image's texels), the size of a file a node reader
 * reads (`loadModelFromPath`'s `maxFileBytes` defaults to the budget), and a crowd's per-instance arrays. What
 * Sinew derives at load (computed normals, index lists) and `sinew eval`'s bounded chunks come on top of the
 * decoded data: `sinew eval`'s peak resident memory stays within twice the budget (bench `eval.peak_rss_mib.30M`).
 */
export const DEFAULT_MEMORY_BUDGET_BYTES = 512 * 1024 * 1024;

/** `bytes` in MiB for messages: `64 MiB`, `0.5 MiB`, `0.01 MiB`. */
export function formatMebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${mib >= 1 ? +mib.toFixed(1) : +mib.toPrecision(2)} MiB`;
}
