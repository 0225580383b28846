import { DEFAULT_MEMORY_BUDGET_BYTES } from '../asset/memory-budget.ts';

const MIB = 1024 * 1024;

/**
 * Reads `memory-budget` (Sinew-only): the memory budget of the element's loads in MiB
 * (docs/guide/memory-ceiling.md), a number > 0; absent or empty: the default, {@link DEFAULT_MEMORY_BUDGET_BYTES}. Returns bytes.
 * Malformed: the default and an error.
 */
export function parseMemoryBudgetSetting(raw: string | null): { value: number; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: DEFAULT_MEMORY_BUDGET_BYTES, error: null };
  const mib = Number(raw);
  if (!Number.isFinite(mib) || mib <= 0) return { value: DEFAULT_MEMORY_BUDGET_BYTES, error: `expected MiB > 0; using ${DEFAULT_MEMORY_BUDGET_BYTES / MIB}` };
  return { value: Math.max(1, Math.round(mib * MIB)), error: null };
}

/** The element's memory budget in bytes (`memory-budget`, read silently: a malformed value reads as the default). */
export function memoryBudgetOf(element: Element): number {
  return parseMemoryBudgetSetting(element.getAttribute('memory-budget')).value;
}
