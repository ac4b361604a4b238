import type { Command } from 'commander';

/**
 * Why `engage <words>` is not a command the program has (a subcommand or an option it lacks), or
 * undefined when it is. Placeholders (`<id>`, `[--json]`), alternatives (`create|revoke`) and an
 * ellipsis are read as a reader would.
 */
export function commandProblem(program: Command, words: readonly string[]): string | undefined {
  let command = program;
  let path = 'engage';
  let naming = true;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!.replace(/^\[+|\]+$/g, '');
    if (word === '' || word.startsWith('<') || word.startsWith('"') || word.startsWith("'")) continue;
    if (word === '…' || word === '...' || word.startsWith('$') || word === '|' || word === '&&') return;
    if (word.startsWith('-')) {
      const name = word.split('=')[0]!;
      const option = optionOf(command, name);
      if (!option) return `${path} has no option ${name}`;
      if ((option.required || option.optional) && !word.includes('=')) i++;
      continue;
    }
    if (!naming || command.commands.length === 0) {
      naming = false;
      continue;
    }
    const names = word.split('|');
    const unknown = names.filter((name) => !command.commands.some((c) => c.name() === name));
    if (unknown.length > 0) {
      const known = command.commands.map((c) => c.name()).join(', ');
      return `${path} has no command ${unknown.join(', ')} (it has ${known})`;
    }
    if (names.length > 1) return;
    command = command.commands.find((c) => c.name() === word)!;
    path = `${path} ${word}`;
  }
  return undefined;
}

/** The option of `command` or of a command above it (commander's global options). */
function optionOf(command: Command, flag: string) {
  if (flag === '--help' || flag === '-h') return { required: false, optional: false };
  for (let at: Command | null = command; at; at = at.parent) {
    const option = at.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}
