/**
 * What a Markdown page says an operator can type: the `engage …` commands in its code (spans and
 * fenced blocks), and the settings (environment variables, UPPER_SNAKE_CASE) anywhere in it.
 */

export interface Mention {
  /** The words after `engage`, as written. */
  words: string[];
  /** 1-based line of the page where the mention starts. */
  line: number;
}

const FENCE = /^```[^\n]*\n([\s\S]*?)^```/gm;
const SPAN = /`([^`\n]+(?:\n[^`\n]+)?)`/g;
/** `engage …` at the start of a command, or `npm run engage -- …`. */
const COMMAND = /(?:^|&&|\||;|\$)\s*(?:npx\s+)?engage(?=\s|$)(.*)|npm run engage --(?=\s|$)(.*)/;
export const SETTING = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

export function commandMentions(markdown: string): Mention[] {
  const mentions: Mention[] = [];
  const lineAt = (index: number) => markdown.slice(0, index).split('\n').length;
  for (const fence of markdown.matchAll(FENCE)) {
    const body = fence[1] ?? '';
    const start = lineAt(fence.index) + 1;
    body.split('\n').forEach((text, i) => {
      const words = commandWords(text.replace(/\s#.*$/, ''));
      if (words) mentions.push({ words, line: start + i });
    });
  }
  const outsideFences = markdown.replace(FENCE, (block) => block.replace(/[^\n]/g, ' '));
  for (const span of outsideFences.matchAll(SPAN)) {
    const words = commandWords((span[1] ?? '').replace(/\s+/g, ' ').trim());
    if (words) mentions.push({ words, line: lineAt(span.index) });
  }
  return mentions.sort((a, b) => a.line - b.line);
}

function commandWords(text: string): string[] | undefined {
  const match = COMMAND.exec(text);
  if (!match) return undefined;
  const rest = (match[1] ?? match[2] ?? '').trim();
  return rest === '' ? [] : rest.split(/\s+/);
}

/** Each setting a page names, with the line of its first mention. */
export function settingMentions(markdown: string): Map<string, number> {
  const found = new Map<string, number>();
  markdown.split('\n').forEach((text, i) => {
    for (const [name] of text.matchAll(SETTING)) if (!found.has(name)) found.set(name, i + 1);
  });
  return found;
}
