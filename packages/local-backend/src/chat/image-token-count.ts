// Qwen-VL vision encoders see 14 px patches merged 2x2, so one placeholder token stands for a 28x28 px cell,
// with the image resized to between 4 and 16,384 cells (the processor's min_pixels / max_pixels).
const cell = 28;
const minCells = 4;
const maxCells = 16_384;

/** How many `<|image_pad|>` tokens an image of this size expands to in the prompt. */
export function imageTokenCount(width: number, height: number): number {
  let columns = Math.max(1, Math.round(width / cell));
  let rows = Math.max(1, Math.round(height / cell));
  const cells = columns * rows;
  if (cells > maxCells) {
    const scale = Math.sqrt(maxCells / cells);
    columns = Math.max(1, Math.floor(columns * scale));
    rows = Math.max(1, Math.floor(rows * scale));
  }
  return Math.max(minCells, columns * rows);
}
