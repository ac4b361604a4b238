import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The console is served by the control plane under /console/, beside the admin API it calls. */
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  // The gateway puts a fresh nonce here in each answer of the page (services/gateway/src/http/console-page.ts).
  html: { cspNonce: 'ENGAGE_CSP_NONCE' },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    // `npm run dev -w console`: the admin API of a local control plane, same origin for the session cookie.
    proxy: { '/admin': 'http://127.0.0.1:8084' },
  },
});
