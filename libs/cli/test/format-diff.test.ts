import { describe, expect, it } from 'vitest';
import { AdminApiError } from '../src/admin-client.ts';
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
      warnings: [],
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
    expect(out).toBe('docs/schemas/environment.schema.json\nhttp://gw:8080/schemas/environment.json\n');
  });

  it('prints each warning with the path it is about', () => {
    const text = formatDiff({
      environmentId: crypto.randomUUID(),
      dryRun: false,
      changed: true,
      changes: [{ section: 'missions', key: 'm', change: 'created', fields: [] }],
      warnings: [
        {
          code: 'definition.undeclared_event',
          message: 'event boss_killed is not declared; discovery defined it from its use',
          meta: { path: 'missions.0.objectives.0.event', name: 'boss_killed' },
        },
      ],
    });
    expect(text).toBe(
      [
        '+ missions m: created',
        '! warning definition.undeclared_event: event boss_killed is not declared; discovery defined it from its use (at missions.0.objectives.0.event)',
        'applied',
        '',
      ].join('\n'),
    );
  });

  it("prints each refusal's code, message, path and closest names", () => {
    const error = new AdminApiError(400, {
      code: 'definition.unknown_event',
      errors: [
        {
          code: 'definition.unknown_event',
          message: 'no event level_complete is defined',
          meta: {
            path: 'missions.0.objectives.0.event',
            name: 'level_complete',
            closest: ['level_completed'],
          },
        },
        { code: 'validation.events', message: 'Invalid input', meta: { path: '', reason: 'custom' } },
      ],
    });
    expect(error.message).toBe(
      [
        'admin API answered 400',
        '  definition.unknown_event: no event level_complete is defined (at missions.0.objectives.0.event; closest: level_completed)',
        '  validation.events: Invalid input',
      ].join('\n'),
    );
  });

  it('refuses to call the admin API without a token', async () => {
    const program = buildProgram({ out: () => {}, env: {} });
    await expect(program.parseAsync(['node', 'engage', 'org', 'list'])).rejects.toThrow(/no admin token/);
  });
});
