import { MAX_PLAYER_SEARCH_PAGE } from '@engage/contracts/http/player-search.ts';
import { type Command, Option } from 'commander';
import { stringify as stringifyLossless } from 'lossless-json';
import type { AdminClient } from './admin-client.ts';

interface PlayerCommandDeps {
  client: () => AdminClient;
  out: (text: string) => void;
  environmentId: string | undefined;
}

/**
 * `engage players`: support's look at a player, its search, and its points adjustment. Attribute
 * numbers print exactly as stored.
 */
export function addPlayerCommands(program: Command, deps: PlayerCommandDeps): void {
  const { client, out } = deps;
  const print = (value: unknown) => out(`${stringifyLossless(value, null, 2)}\n`);
  const environmentOption = () =>
    new Option('-e, --environment <environmentId>', 'the environment (ENGAGE_ENVIRONMENT_ID)')
      .default(deps.environmentId)
      .makeOptionMandatory();

  const players = program.command('players').description("an environment's players");
  players
    .command('get <playerId>')
    .description('the player with its time zone, attributes and points balance')
    .addOption(environmentOption())
    .action(async (playerId: string, opts: { environment: string }) => {
      const admin = client();
      const [player, points] = await Promise.all([
        admin.getPlayer(opts.environment, playerId),
        admin.getPlayerPoints(opts.environment, playerId),
      ]);
      print({ ...(player as object), points: points.balance });
    });

  players
    .command('search')
    .description('players by id prefix and attribute value, in order of id')
    .addOption(environmentOption())
    .option('--id-prefix <text>', 'players whose id starts with this')
    .option('--attribute <key>', 'players holding this attribute with --value')
    .option('--value <value>', 'the value --attribute must hold (a number matches any equal number)')
    .addOption(
      new Option('--limit <players>', 'at most this many players').default(100).argParser(positiveInt),
    )
    .action(
      async (opts: {
        environment: string;
        idPrefix?: string;
        attribute?: string;
        value?: string;
        limit: number;
      }) => {
        const found: unknown[] = [];
        let after: string | undefined;
        do {
          const page = await client().searchPlayers(opts.environment, {
            idPrefix: opts.idPrefix,
            attribute: opts.attribute,
            value: opts.value,
            after,
            limit: Math.min(MAX_PLAYER_SEARCH_PAGE, opts.limit - found.length),
          });
          found.push(...page.players);
          after = page.nextCursor ?? undefined;
        } while (after && found.length < opts.limit);
        print(found);
      },
    );

  players
    .command('adjust <playerId>')
    .description('credits (or, negative, debits) the points balance with a reason; prints the new balance')
    .addOption(environmentOption())
    .addOption(
      new Option('--amount <points>', 'points to add, negative to take')
        .argParser(nonZeroInt)
        .makeOptionMandatory(),
    )
    .requiredOption('--reason <text>', 'why the balance changes (in the audit log)')
    .option(
      '--idempotency-key <key>',
      'the same key on a retry never moves the points twice (default: a new key, printed)',
    )
    .action(
      async (
        playerId: string,
        opts: { environment: string; amount: number; reason: string; idempotencyKey?: string },
      ) => {
        const idempotencyKey = opts.idempotencyKey ?? crypto.randomUUID();
        const result = await client().adjustPlayerPoints(
          opts.environment,
          playerId,
          { amount: opts.amount, reason: opts.reason },
          idempotencyKey,
        );
        print({ ...result, idempotencyKey });
      },
    );
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${value} is not a positive whole number`);
  return n;
}

function nonZeroInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n === 0) throw new Error(`${value} is not a whole number other than 0`);
  return n;
}
