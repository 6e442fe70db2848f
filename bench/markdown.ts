/** Markdown tables for the report (Biome lays them out afterwards, so no padding here). */

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

/** A table with a header row, an alignment row (`---`, `---:`) and the rows. */
export const table = (head: string[], rows: (string | number)[][], align?: string[]) =>
  [row(head), row(align ?? head.map(() => '---')), ...rows.map(row)].join('\n');
