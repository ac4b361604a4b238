// Renders every overlay with test/k8s/kustomize.ts and with `kubectl kustomize`, and fails when they
// differ: run it where kubectl is installed after changing k8s/ or the renderer.
//   node test/k8s/compare-with-kubectl.ts
import { execFileSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { kustomize, type Manifest } from './kustomize.ts';
import { K8S_DIR, OVERLAYS } from './overlays.ts';

const key = (o: Manifest) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const byKey = (objects: Manifest[]) => new Map(objects.map((o) => [key(o), o]));

let differences = 0;
for (const overlay of OVERLAYS) {
  const dir = `${K8S_DIR}/${overlay}`;
  const output = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  const expected = byKey(parseAllDocuments(output).map((d) => d.toJS() as Manifest));
  const actual = byKey(kustomize(dir));
  for (const name of new Set([...expected.keys(), ...actual.keys()])) {
    if (
      !isDeepStrictEqual(JSON.parse(JSON.stringify(actual.get(name) ?? null)), expected.get(name) ?? null)
    ) {
      differences++;
      process.stdout.write(`${overlay}: ${name} differs\n`);
    }
  }
  process.stdout.write(`${overlay}: ${expected.size} objects compared\n`);
}
if (differences > 0) process.exit(1);
process.stdout.write('the renderer matches kubectl kustomize\n');
