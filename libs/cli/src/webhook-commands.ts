import {
  MAX_SECRET_OVERLAP_SECONDS,
  type UpdateWebhook,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@engage/contracts/http/webhooks.ts';
import { type Command, Option } from 'commander';
import type { AdminClient } from './admin-client.ts';

interface WebhookCommandsContext {
  client: () => AdminClient;
  out: (text: string) => void;
  /** The default of `--environment`. */
  environmentId: string | undefined;
}

/**
 * `engage webhooks list|create|show|update|delete|rotate-secret|deliveries|replay|ping`: an
 * environment's webhook endpoints and their deliveries. Lists print a table (`--json` for JSON);
 * everything else prints the answer as JSON, as the other commands do.
 */
export function addWebhookCommands(program: Command, context: WebhookCommandsContext): void {
  const { client, out } = context;
  const print = (value: unknown) => out(`${JSON.stringify(value, null, 2)}\n`);
  const webhooks = program.command('webhooks').description('webhook endpoints of an environment');
  const environmentOption = () =>
    new Option('-e, --environment <environmentId>', 'the environment (ENGAGE_ENVIRONMENT_ID)')
      .default(context.environmentId || undefined)
      .makeOptionMandatory();
  const eventsOption = () =>
    new Option('--events <types...>', 'the event types sent to it').choices(WEBHOOK_EVENT_TYPES);
  const rankOption = () =>
    new Option(
      '--rank-threshold <rank>',
      'leaderboard.rank_reached: ranks at or above it are sent',
    ).argParser((value) => wholeNumber(value, 1));

  webhooks
    .command('list')
    .description("the environment's endpoints with their health")
    .addOption(environmentOption())
    .option('--json', 'print JSON')
    .action(async (opts: { environment: string; json?: boolean }) => {
      const endpoints = await client().listWebhooks(opts.environment);
      if (opts.json) print(endpoints);
      else out(endpointTable(endpoints));
    });

  webhooks
    .command('create')
    .description('subscribes an endpoint; its signing secret is printed once and never shown again')
    .addOption(environmentOption())
    // `--url` is the gateway's address, an option of every command.
    .requiredOption('--endpoint-url <url>', 'where deliveries are posted (https)')
    .addOption(eventsOption().makeOptionMandatory())
    .option('--description <text>', 'what the endpoint is')
    .addOption(rankOption())
    .action(
      async (opts: {
        environment: string;
        endpointUrl: string;
        events: WebhookEventType[];
        description?: string;
        rankThreshold?: number;
      }) =>
        print(
          await client().createWebhook(opts.environment, {
            url: opts.endpointUrl,
            eventTypes: opts.events,
            ...(opts.description === undefined ? {} : { description: opts.description }),
            ...(opts.rankThreshold === undefined ? {} : { rankThreshold: opts.rankThreshold }),
          }),
        ),
    );

  webhooks
    .command('show <webhookId>')
    .description('an endpoint with its health')
    .action(async (webhookId: string) => print(await client().getWebhook(webhookId)));

  webhooks
    .command('update <webhookId>')
    .description('changes an endpoint; --resume sends the deliveries kept while it was paused, in order')
    .option('--endpoint-url <url>', 'where deliveries are posted')
    .addOption(eventsOption())
    .option('--description <text>', 'what the endpoint is')
    .addOption(rankOption())
    .addOption(new Option('--pause', 'stop sending (deliveries are kept)').conflicts('resume'))
    .option('--resume', 'send again')
    .action(
      async (
        webhookId: string,
        opts: {
          endpointUrl?: string;
          events?: WebhookEventType[];
          description?: string;
          rankThreshold?: number;
          pause?: boolean;
          resume?: boolean;
        },
      ) => {
        const status: UpdateWebhook['status'] = opts.pause ? 'paused' : opts.resume ? 'active' : undefined;
        const patch: UpdateWebhook = {
          ...(opts.endpointUrl === undefined ? {} : { url: opts.endpointUrl }),
          ...(opts.events === undefined ? {} : { eventTypes: opts.events }),
          ...(opts.description === undefined ? {} : { description: opts.description }),
          ...(opts.rankThreshold === undefined ? {} : { rankThreshold: opts.rankThreshold }),
          ...(status === undefined ? {} : { status }),
        };
        if (Object.keys(patch).length === 0) throw new Error('nothing to change: pass at least one option');
        print(await client().updateWebhook(webhookId, patch));
      },
    );

  webhooks
    .command('delete <webhookId>')
    .description('removes an endpoint and its deliveries')
    .action(async (webhookId: string) => {
      await client().deleteWebhook(webhookId);
      print({ deleted: webhookId });
    });

  webhooks
    .command('rotate-secret <webhookId>')
    .description('a new signing secret, printed once; the previous one also signs for the overlap')
    .addOption(
      new Option(
        '--overlap-seconds <seconds>',
        'how long the previous secret keeps signing (default 86400)',
      ).argParser((value) => wholeNumber(value, 0, MAX_SECRET_OVERLAP_SECONDS)),
    )
    .action(async (webhookId: string, opts: { overlapSeconds?: number }) =>
      print(
        await client().rotateWebhookSecret(
          webhookId,
          opts.overlapSeconds === undefined ? {} : { overlapSeconds: opts.overlapSeconds },
        ),
      ),
    );

  webhooks
    .command('deliveries <webhookId>')
    .description("the endpoint's deliveries, newest first, one page")
    .addOption(new Option('--status <status>', 'only these').choices(WEBHOOK_DELIVERY_STATUSES))
    .addOption(
      new Option('--limit <count>', 'deliveries in the page (1 to 100, default 50)').argParser((value) =>
        wholeNumber(value, 1, 100),
      ),
    )
    .option('--cursor <cursor>', 'the nextCursor of the previous page')
    .option('--json', 'print JSON (with nextCursor and the payloads)')
    .action(
      async (
        webhookId: string,
        opts: { status?: WebhookDeliveryStatus; limit?: number; cursor?: string; json?: boolean },
      ) => {
        const page = await client().listWebhookDeliveries(webhookId, {
          status: opts.status,
          limit: opts.limit,
          cursor: opts.cursor,
        });
        if (opts.json) print(page);
        else
          out(
            deliveryTable(page.items) + (page.nextCursor ? `next page: --cursor ${page.nextCursor}\n` : ''),
          );
      },
    );

  webhooks
    .command('replay <webhookId> <deliveryId>')
    .description('sends a delivery again (same webhook-id, for the receiver to deduplicate)')
    .action(async (webhookId: string, deliveryId: string) =>
      print(await client().replayWebhookDelivery(webhookId, deliveryId)),
    );

  webhooks
    .command('ping <webhookId>')
    .description('queues a webhook.ping delivery to the endpoint')
    .action(async (webhookId: string) => print(await client().pingWebhook(webhookId)));
}

function endpointTable(endpoints: WebhookEndpoint[]): string {
  if (endpoints.length === 0) return 'no webhook endpoints\n';
  return formatTable(
    ['ID', 'STATUS', 'URL', 'EVENTS', 'LAST', 'FAILURES', 'PENDING'],
    endpoints.map((e) => [
      e.id,
      e.status === 'paused' ? `paused: ${e.pausedReason ?? 'by an operator'}` : 'active',
      e.url,
      e.eventTypes.join(','),
      e.health.lastStatus ? `${e.health.lastStatus} ${e.health.lastDeliveryAt}` : '-',
      String(e.health.consecutiveFailures),
      String(e.health.pendingDeliveries),
    ]),
  );
}

function deliveryTable(deliveries: WebhookDelivery[]): string {
  if (deliveries.length === 0) return 'no deliveries\n';
  return formatTable(
    ['ID', 'CREATED', 'TYPE', 'STATUS', 'ATTEMPTS', 'RESPONSE', 'TIME', 'LAST ERROR'],
    deliveries.map((d) => [
      d.id,
      d.createdAt,
      d.eventType,
      d.status,
      String(d.attempts),
      d.responseStatus === null ? '-' : String(d.responseStatus),
      d.responseTimeMs === null ? '-' : `${d.responseTimeMs}ms`,
      d.lastError ?? '-',
    ]),
  );
}

/** Columns padded to their widest cell, the last left ragged. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}

function wholeNumber(value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${value} is not a whole number from ${min} to ${max}`);
  }
  return n;
}
