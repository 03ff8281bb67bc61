import { appendFileSync } from 'node:fs';

/**
 * Keeps one measured figure of a fault-matrix row next to its bound: printed, and appended as a JSON
 * line to $FAULT_MATRIX_FIGURES when set, so a run's figures can be collected into the note.
 */
export function recordFigure(row: number, target: string, figure: string, bound: string): void {
  const line = { row, target, figure, bound };
  process.stdout.write(`[fault-matrix] row ${row} ${target}: ${figure} (bound ${bound})\n`);
  const file = process.env.FAULT_MATRIX_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** The q-quantile (0..1) of some numbers, by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  ] as number;
}
