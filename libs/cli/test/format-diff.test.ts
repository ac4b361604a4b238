import { describe, expect, it } from 'vitest';
import { buildProgram, formatDiff } from '../src/program.ts';

describe('engage CLI', () => {
  it('prints a difference line per item and a summary', () => {
    const text = formatDiff({
      environmentId: crypto.randomUUID(),
      dryRun: true,
      changed: true,
      changes: [
        { section: 'events', key: 'a', change: 'created', fields: [] },
        { section: 'events', key: 'b', change: 'updated', fields: ['active', 'properties.x'] },
        { section: 'events', key: 'c', change: 'removed', fields: [] },
        { section: 'discovery', key: 'discovery', change: 'unchanged', fields: [] },
      ],
    });
    expect(text).toBe(
      [
        '+ events a: created',
        '~ events b: updated (active, properties.x)',
        '- events c: removed',
        '= discovery discovery: unchanged',
        'dry run: nothing written',
        '',
      ].join('\n'),
    );
  });

  it('prints where the environment schema is', async () => {
    let out = '';
    await buildProgram({ out: (t) => (out += t), env: {} }).parseAsync([
      'node',
      'engage',
      '--url',
      'http://gw:8080/',
      'schema',
    ]);
    expect(out).toBe(
      'docs/schemas/environment.schema.json\nhttp://gw:8080/admin/v1/schemas/environment.json\n',
    );
  });

  it('refuses to call the admin API without a token', async () => {
    const program = buildProgram({ out: () => {}, env: {} });
    await expect(program.parseAsync(['node', 'engage', 'org', 'list'])).rejects.toThrow(/no admin token/);
  });
});
