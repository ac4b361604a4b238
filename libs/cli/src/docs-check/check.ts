import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildProgram } from '../program.ts';
import { commandProblem } from './commands.ts';
import { commandMentions, SETTING, settingMentions } from './mentions.ts';

export interface DocsProblem {
  /** The page, relative to the repository. */
  file: string;
  line: number;
  message: string;
}

export interface DocsCheckOptions {
  /** The pages to check: Markdown files, or folders of them. */
  pages: string[];
  /** Where settings are read: a setting exists when code (tests aside) names it. */
  code: string[];
  /** Paths relative to `root` are reported. */
  root: string;
}

const CODE_FILE = /\.(ts|tsx|js|mjs|json|ya?ml|sh|properties|xml|toml)$/;
/** Not read for settings: dependencies, caches, and the checker's own fixtures and test of made-up names. */
const SKIPPED = new Set([
  'node_modules',
  '.cache',
  '.git',
  'dist',
  'coverage',
  'fixtures',
  'docs-check.test.ts',
]);

/** UPPER_SNAKE_CASE names the pages use that are not engage's settings. */
export const NOT_SETTINGS: ReadonlySet<string> = new Set([
  // Other programs' settings: Node.js, Kafka Connect, ksqlDB.
  'NODE_OPTIONS',
  'USER_INFO',
  'KAFKA_TOPIC',
  'KEY_FORMAT',
  'VALUE_FORMAT',
  // A Kafka error's name.
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  // Variables of the examples' own programs (a game server, a webhook receiver).
  'ENGAGE_API_KEY',
  'ENVIRONMENT_ID',
  'ENGAGE_WEBHOOK_SECRET',
  // Retired: the pages tell operators to remove it.
  'PLAYER_CACHE_TTL_MS',
]);

/**
 * Every `engage …` command and every setting the pages name that does not exist: a command must be
 * one of the CLI's, with its options; a setting must be named somewhere in the code.
 */
export function checkDocs(options: DocsCheckOptions): DocsProblem[] {
  const known = knownSettings(options.code);
  const program = buildProgram({ out: () => {}, env: {} });
  const problems: DocsProblem[] = [];
  for (const page of options.pages.flatMap((p) => filesUnder(p, (f) => f.endsWith('.md')))) {
    const markdown = readFileSync(page, 'utf8');
    const file = relative(options.root, page);
    for (const mention of commandMentions(markdown)) {
      const problem = commandProblem(program, mention.words);
      if (problem)
        problems.push({
          file,
          line: mention.line,
          message: `\`engage ${mention.words.join(' ')}\`: ${problem}`,
        });
    }
    for (const [name, line] of settingMentions(markdown)) {
      if (!known.has(name) && !NOT_SETTINGS.has(name))
        problems.push({ file, line, message: `${name} is not a setting the code reads` });
    }
  }
  return problems;
}

/** The README and docs/ of the repository at `root`, against its code. */
export function checkRepositoryDocs(root: string): DocsProblem[] {
  const code = [
    'libs',
    'services',
    'console',
    'bench',
    'deploy',
    'k8s',
    'test',
    'package.json',
    'vitest.config.ts',
  ];
  return checkDocs({
    root,
    pages: [join(root, 'README.md'), join(root, 'docs')],
    code: code.map((path) => join(root, path)),
  });
}

function knownSettings(roots: string[]): Set<string> {
  const names = new Set<string>();
  const isCode = (file: string) => CODE_FILE.test(file);
  for (const file of roots.flatMap((root) => filesUnder(root, isCode))) {
    for (const [name] of readFileSync(file, 'utf8').matchAll(SETTING)) names.add(name);
  }
  return names;
}

function filesUnder(path: string, wanted: (file: string) => boolean): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return wanted(path) ? [path] : [];
  }
  return entries.flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const full = join(path, entry.name);
    return entry.isDirectory() ? filesUnder(full, wanted) : wanted(full) ? [full] : [];
  });
}
