import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kustomize } from '../../k8s/kustomize.ts';

function kustomization(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: { name: app }
spec:
  template:
    spec:
      containers:
        - name: app
          image: engage
          envFrom: [{ configMapRef: { name: settings } }]
`;

describe('the kustomize renderer used by the manifest tests', () => {
  it('suffixes generated names with kustomize’s content hash and rewrites the references', () => {
    // `kubectl kustomize` (kustomize v5.5) names this ConfigMap a-fdt888thdm.
    const dir = kustomization({
      'kustomization.yaml': 'configMapGenerator:\n  - name: a\n    literals: ["X=y"]\n',
    });
    expect(kustomize(dir).map((o) => o.metadata.name)).toEqual(['a-fdt888thdm']);
  });

  it('applies namespace, images, merged generators and JSON patches', () => {
    const dir = kustomization({
      'app.yaml': deployment,
      'kustomization.yaml': `namespace: ns
resources: [app.yaml]
images: [{ name: engage, newName: registry/engage, newTag: "1.2" }]
configMapGenerator:
  - name: settings
    literals: ["A=1"]
patches:
  - target: { kind: Deployment, name: app }
    patch: |-
      - op: add
        path: /spec/replicas
        value: 3
`,
    });
    const [app, settings] = kustomize(dir);
    expect(app?.metadata.namespace).toBe('ns');
    expect(app?.spec.replicas).toBe(3);
    expect(app?.spec.template.spec.containers[0].image).toBe('registry/engage:1.2');
    expect(settings?.metadata.name).toMatch(/^settings-[a-z0-9]{10}$/);
    expect(app?.spec.template.spec.containers[0].envFrom[0].configMapRef.name).toBe(settings?.metadata.name);
  });

  it('refuses what it does not implement rather than render it wrong', () => {
    const dir = kustomization({ 'kustomization.yaml': 'namePrefix: x-\n' });
    expect(() => kustomize(dir)).toThrow(/namePrefix/);
  });
});
