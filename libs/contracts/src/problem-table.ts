import {
  DEFINITION_WARNINGS,
  ITEM_REFUSALS,
  PROBLEMS,
  type ProblemDefinition,
  RETRY_RULES,
} from './problems.ts';

/**
 * The problem catalog as the Markdown table of docs/api.md (between its `problems:start` and
 * `problems:end` markers), columns padded as the formatter lays them out.
 */
export function problemTable(): string {
  const rows: string[][] = [
    ...Object.entries(PROBLEMS).map(([code, problem]: [string, ProblemDefinition]) => [
      `\`${code}\``,
      String(problem.status),
      problem.api + (problem.item ? ', event item' : ''),
      problem.detail,
      problem.retry ? RETRY_RULES[problem.retry] : '—',
    ]),
    ...Object.entries(ITEM_REFUSALS).map(([code, refusal]) => [
      `\`${code}\``,
      '—',
      'event item',
      refusal.detail,
      'nothing changes on its own; fix the item',
    ]),
    ...Object.entries(DEFINITION_WARNINGS).map(([code, warning]) => [
      `\`${code}\``,
      '—',
      'admin, warning',
      warning.detail,
      'the file applied; declare the name to silence it',
    ]),
  ];
  return markdownTable(['code', 'status', 'answered on', 'detail (a call may say more)', 'what to do'], rows);
}

function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

const START = '<!-- problems:start -->';
const END = '<!-- problems:end -->';

/** The text of docs/api.md with the table between its markers rewritten from the catalog. */
export function withProblemTable(markdown: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start === -1 || end < start) throw new Error(`the ${START} and ${END} markers are missing`);
  return `${markdown.slice(0, start + START.length)}\n${problemTable()}\n${markdown.slice(end)}`;
}
