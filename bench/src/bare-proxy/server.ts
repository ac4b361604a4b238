// The bare forwarding proxy: `node bench/src/bare-proxy/server.ts`, configured by its environment
// (launch.ts starts it). It does what any HTTP hop in Node must do and nothing of the gateway's own
// work: read the request, find the player id, sign the internal headers, forward with undici to the
// owning service and send its answer back. Beside a gateway row it shows what a hop costs on the
// machine of the run.
import { createServer, type IncomingMessage } from 'node:http';
import type { EnvironmentContext } from '@engage/contracts';
import { ROUTES } from '@engage/contracts/http/routes.ts';
import type { OwnerService } from '@engage/gateway/upstreams/upstreams.ts';
import { InternalSigner } from '@engage/kit';
import { Pool } from 'undici';
import { innerHeaders } from '../workloads/inner-request.ts';

/** Which owning service answers a path, by its first segment after /v1, from the route catalog. */
const OWNER_OF_SECTION = new Map<string, OwnerService>();
for (const route of ROUTES)
  if (route.owner !== 'gateway') OWNER_OF_SECTION.set(sectionOf(route.path), route.owner);

const environment = JSON.parse(process.env.BARE_PROXY_ENVIRONMENT!) as EnvironmentContext;
const signer = new InternalSigner(process.env.INTERNAL_AUTH_SECRET!);
const connections = Number(process.env.BARE_PROXY_CONNECTIONS ?? 16);
const owners = {
  rules: new Pool(process.env.RULES_URL!, { connections }),
  ledger: new Pool(process.env.LEDGER_URL!, { connections }),
  query: new Pool(process.env.QUERY_URL!, { connections }),
};

const server = createServer(async (request, response) => {
  try {
    const method = request.method === 'POST' ? 'POST' : 'GET';
    const path = request.url ?? '/';
    const body = method === 'POST' ? await readBody(request) : undefined;
    const owner = owners[OWNER_OF_SECTION.get(sectionOf(path)) ?? 'ledger'];
    const headers = innerHeaders(signer, environment, playerIdOf(path, body), { method, path, body });
    const answer = await owner.request({ method, path, headers, body });
    const text = await answer.body.arrayBuffer();
    response.writeHead(answer.statusCode, {
      'content-type': String(answer.headers['content-type'] ?? 'application/json'),
      'content-length': text.byteLength,
    });
    response.end(Buffer.from(text));
  } catch (err) {
    response.writeHead(502).end(String(err));
  }
});

function sectionOf(path: string): string {
  return path.split(/[/?]/)[2] ?? '';
}

function playerIdOf(path: string, body: string | undefined): string | undefined {
  if (body !== undefined) return (JSON.parse(body) as { playerId?: string }).playerId;
  return new URL(path, 'http://proxy').searchParams.get('PlayerId') ?? undefined;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address !== 'string') process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
