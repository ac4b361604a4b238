import { readFile } from 'node:fs/promises';
import type { EnvironmentDiff } from '@engage/contracts/environment-file.ts';
import { ROLES, type Role } from '@engage/contracts/http/operators.ts';
import { Command, Option } from 'commander';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { AdminClient, describeProblemItem } from './admin-client.ts';
import { readPassword } from './password-input.ts';
import { addPlayerCommands } from './player-commands.ts';
import { addTopicCommands } from './topic-commands.ts';
import { addWebhookCommands } from './webhook-commands.ts';

export interface CliIo {
  out: (text: string) => void;
  /** Warnings that must not mix with the output (default: stderr). */
  err?: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Reads a password: from a prompt on a terminal, else the first line of stdin. */
  password?: (prompt: string) => Promise<string>;
}

const BILLING = ['active', 'none', 'overdue'] as const;

/**
 * The `engage` command line: the admin API for operators (organizations, projects, keys, apply,
 * players, webhooks), and the topics for analysts.
 */
export function buildProgram(io: CliIo = { out: (t) => process.stdout.write(t), env: process.env }): Command {
  const program = new Command('engage')
    .description("Operate an engage deployment through the control plane's admin API.")
    .option('--url <url>', 'control plane address (ENGAGE_URL)', io.env.ENGAGE_URL ?? 'http://127.0.0.1:8084')
    .option('--token <token>', 'admin token (ENGAGE_ADMIN_TOKEN)')
    .showHelpAfterError()
    .exitOverride();

  const client = () => {
    const { url, token } = program.opts<{ url: string; token?: string }>();
    const adminToken = token ?? io.env.ENGAGE_ADMIN_TOKEN;
    if (!adminToken) throw new Error('no admin token: pass --token or set ENGAGE_ADMIN_TOKEN');
    return new AdminClient({ url, token: adminToken });
  };
  const print = (value: unknown) => io.out(`${JSON.stringify(value, null, 2)}\n`);
  const capOption = () =>
    new Option('--mau-cap <players>', 'Live monthly active players cap').argParser((v) => positiveInt(v));

  const org = program.command('org').description('organizations');
  org
    .command('create <name>')
    .addOption(new Option('--billing <status>', 'billing status').choices(BILLING).default('none'))
    .addOption(capOption())
    .action(async (name: string, opts: { billing: (typeof BILLING)[number]; mauCap?: number }) =>
      print(
        await client().createOrganization({
          name,
          billingStatus: opts.billing,
          liveMonthlyActivePlayersCap: opts.mauCap ?? null,
        }),
      ),
    );
  org
    .command('list')
    .description('every organization, oldest first')
    .option('--name <name>', 'only organizations of this exact name')
    .action(async (opts: { name?: string }) => print(await client().listOrganizations({ name: opts.name })));
  org.command('get <organizationId>').action(async (id: string) => print(await client().getOrganization(id)));
  org
    .command('set-billing <organizationId> <status>')
    .description(`set billing (${BILLING.join(' | ')}) and optionally the Live MAU cap`)
    .addOption(capOption())
    .option('--no-mau-cap', 'remove the Live MAU cap')
    .action(async (id: string, status: string, opts: { mauCap?: number | false }) => {
      if (!(BILLING as readonly string[]).includes(status))
        throw new Error(`status must be one of ${BILLING.join(', ')}`);
      const cap =
        opts.mauCap === false
          ? { liveMonthlyActivePlayersCap: null }
          : opts.mauCap
            ? { liveMonthlyActivePlayersCap: opts.mauCap }
            : {};
      print(
        await client().updateOrganization(id, { billingStatus: status as (typeof BILLING)[number], ...cap }),
      );
    });

  program
    .command('project')
    .description('projects')
    .command('create <organizationId> <name>')
    .description('creates a project with its Sandbox and Live environments')
    .action(async (organizationId: string, name: string) =>
      print(await client().createProject(organizationId, { name })),
    );

  const key = program.command('key').description('project API keys');
  key
    .command('create <environmentId>')
    .option('--name <name>', 'a label for the key')
    .description('creates a key; it is printed once and never shown again')
    .action(async (environmentId: string, opts: { name?: string }) =>
      print(await client().createApiKey(environmentId, opts.name ? { name: opts.name } : {})),
    );
  key
    .command('list <environmentId>')
    .description("the environment's keys, revoked ones included (never the key itself)")
    .action(async (environmentId: string) => print(await client().listApiKeys(environmentId)));
  key.command('revoke <apiKeyId>').action(async (id: string) => print(await client().revokeApiKey(id)));

  const operator = program.command('operator').description('operators of the console and their roles');
  operator
    .command('invite')
    .description(
      'invites an email to an organization with a role; hand the printed token to the invitee (shown once)',
    )
    .requiredOption('--organization <organizationId>', 'the organization')
    .requiredOption('--email <email>', "the invitee's email")
    .addOption(
      new Option('--role <role>', 'the role in the organization').choices(ROLES).makeOptionMandatory(),
    )
    .action(async (opts: { organization: string; email: string; role: Role }) =>
      print(await client().inviteOperator(opts.organization, { email: opts.email, role: opts.role })),
    );
  operator
    .command('accept')
    .description(
      "accepts an invitation with its token (no admin token needed): the account's password, or a new " +
        "account's, is read from a prompt or stdin",
    )
    .requiredOption('--invitation-token <token>', 'the token the invitation printed')
    .option('--display-name <name>', 'for a new account: the name shown in the console (default: the email)')
    .action(async (opts: { invitationToken: string; displayName?: string }) => {
      const password = await (io.password ?? readPassword)('Password: ');
      const { url } = program.opts<{ url: string }>();
      print(
        await new AdminClient({ url }).acceptInvitation({
          token: opts.invitationToken,
          password,
          ...(opts.displayName ? { displayName: opts.displayName } : {}),
        }),
      );
    });
  operator
    .command('invitations')
    .description("the organization's pending invitations")
    .requiredOption('--organization <organizationId>', 'the organization')
    .action(async (opts: { organization: string }) =>
      print(await client().listInvitations(opts.organization)),
    );
  operator
    .command('revoke-invitation <invitationId>')
    .requiredOption('--organization <organizationId>', 'the organization')
    .action(async (invitationId: string, opts: { organization: string }) => {
      await client().revokeInvitation(opts.organization, invitationId);
      print({ revoked: invitationId });
    });
  operator
    .command('list')
    .requiredOption('--organization <organizationId>', 'the organization')
    .action(async (opts: { organization: string }) => print(await client().listOperators(opts.organization)));

  program
    .command('apply')
    .description('applies an environment file (YAML or JSON) and prints what changed')
    .requiredOption('-f, --file <file>', 'the environment file')
    .requiredOption(
      '-e, --environment <environmentId>',
      'the environment to apply it to (ENGAGE_ENVIRONMENT_ID)',
      io.env.ENGAGE_ENVIRONMENT_ID,
    )
    .option('--dry-run', 'show the difference without writing it')
    .option('--json', 'print the difference as JSON')
    .action(async (opts: { file: string; environment: string; dryRun?: boolean; json?: boolean }) => {
      const file = parseYaml(await readFile(opts.file, 'utf8')) as Record<string, unknown>;
      const diff = await client().applyDefinition(opts.environment, file, { dryRun: opts.dryRun ?? false });
      io.out(opts.json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiff(diff));
    });

  program
    .command('definition')
    .description("an environment's file")
    .command('export')
    .description("prints the environment's file as YAML (or JSON), ready for `engage apply` elsewhere")
    .requiredOption(
      '-e, --environment <environmentId>',
      'the environment to export (ENGAGE_ENVIRONMENT_ID)',
      io.env.ENGAGE_ENVIRONMENT_ID,
    )
    .option('--json', 'print JSON instead of YAML')
    .action(async (opts: { environment: string; json?: boolean }) => {
      const file = await client().getDefinition(opts.environment);
      io.out(opts.json ? `${JSON.stringify(file, null, 2)}\n` : stringifyYaml(file));
    });

  addPlayerCommands(program, { client, out: io.out, environmentId: io.env.ENGAGE_ENVIRONMENT_ID });
  addTopicCommands(program, {
    out: io.out,
    err: io.err ?? ((t) => process.stderr.write(t)),
    env: io.env,
  });

  program
    .command('leaderboard')
    .description('leaderboards')
    .command('settle <leaderboardKey>')
    .description("Sandbox only: settles the board's period in progress now and starts the next one")
    .requiredOption(
      '-e, --environment <environmentId>',
      'the Sandbox environment (ENGAGE_ENVIRONMENT_ID)',
      io.env.ENGAGE_ENVIRONMENT_ID,
    )
    .action(async (leaderboardKey: string, opts: { environment: string }) =>
      print(await client().settleLeaderboard(opts.environment, leaderboardKey)),
    );

  addWebhookCommands(program, { client, out: io.out, environmentId: io.env.ENGAGE_ENVIRONMENT_ID });

  program
    .command('schema')
    .description('where the JSON Schema of the environment file is')
    .action(() => {
      const { url } = program.opts<{ url: string }>();
      io.out(`docs/schemas/environment.schema.json\n${url.replace(/\/+$/, '')}/schemas/environment.json\n`);
    });

  return program;
}

const SIGNS = { created: '+', updated: '~', removed: '-', unchanged: '=' } as const;

export function formatDiff(diff: EnvironmentDiff): string {
  const lines = diff.changes.map((c) => {
    const fields = c.fields.length ? ` (${c.fields.join(', ')})` : '';
    return `${SIGNS[c.change]} ${c.section} ${c.key}: ${c.change}${fields}`;
  });
  const warnings = diff.warnings.map((w) => `! warning ${describeProblemItem(w)}`);
  const summary = diff.changed ? (diff.dryRun ? 'dry run: nothing written' : 'applied') : 'no changes';
  return `${[...lines, ...warnings, summary].join('\n')}\n`;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${value} is not a positive whole number`);
  return n;
}
