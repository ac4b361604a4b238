import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type HttpApp, notFound } from '@engage/kit';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { consoleContentSecurityPolicy, consolePageOf } from './console-page.ts';

export interface ConsoleDeps {
  /** The console's build (console/dist); absent or unbuilt, /console/ answers a problem saying so. */
  directory: string;
}

/**
 * The operators' console at /console/: the built single-page app, from the admin host, so its calls
 * to /admin/v1 carry the session cookie. A path that is not a file is one of the app's own routes.
 */
export async function consoleRoutes(app: HttpApp, deps: ConsoleDeps): Promise<void> {
  if (!existsSync(join(deps.directory, 'index.html'))) {
    app.get('/console/*', async () => {
      throw notFound('console.not_built', 'The console is not built: run `npm run build -w console`.');
    });
    return;
  }
  const pageWithNonce = consolePageOf(deps.directory);
  const sendPage = (reply: FastifyReply) => {
    const page = pageWithNonce();
    return reply
      .header('cache-control', 'no-store')
      .header('content-security-policy', page.contentSecurityPolicy)
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(page.html);
  };
  await app.register(
    async (scope) => {
      await scope.register(fastifyStatic, {
        root: deps.directory,
        prefix: '/',
        // The page is never served as a file: each answer carries a nonce of its own (sendPage).
        index: false,
        allowedPath: (path) => path !== '/index.html',
        setHeaders(res, path) {
          // Vite names each asset by its content: it never changes.
          const immutable = path.startsWith(join(deps.directory, 'assets'));
          res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
          res.header('content-security-policy', consoleContentSecurityPolicy());
          res.header('x-content-type-options', 'nosniff');
        },
      });
      // A path that is no file is one of the app's own routes (a deep link or a reload).
      scope.setNotFoundHandler((request, reply) => {
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          throw notFound('route.not_found', 'No such route.');
        }
        return sendPage(reply);
      });
    },
    { prefix: '/console' },
  );
}
