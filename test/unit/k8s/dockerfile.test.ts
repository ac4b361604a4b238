import { describe, expect, it } from 'vitest';
import { readRepoFile } from '../../k8s/manifests.ts';

const dockerfile = readRepoFile('deploy/Dockerfile');
const rootPackage = JSON.parse(readRepoFile('package.json')) as { devDependencies: Record<string, string> };

describe('deploy/Dockerfile', () => {
  it('runs on the Node version the tests run on', () => {
    expect(dockerfile).toContain(`ARG NODE_VERSION=${rootPackage.devDependencies.node}`);
  });

  it('runs as a numeric non-root user, with production dependencies only', () => {
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toContain('--omit=dev');
  });
});
