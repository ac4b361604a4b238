import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/**
 * Renders a kustomization the way `kustomize build` (and `kubectl kustomize`) does, for the subset
 * of kustomize that k8s/ uses, in plain TypeScript: the tests need no kustomize binary. Whatever
 * else a kustomization asks for is an error here, so the manifests cannot drift into features this
 * renderer would silently get wrong. `node test/k8s/compare-with-kubectl.ts` checks that the output
 * equals kubectl's wherever kubectl is installed.
 *
 * Supported: `resources` (files and folders), `namespace`, `images`, `configMapGenerator` and
 * `secretGenerator` (literals; `behavior` create or merge; content-hash name suffixes and the
 * references to them), and `patches` holding JSON 6902 operations with a kind/name target.
 */

// biome-ignore lint/suspicious/noExplicitAny: manifests are arbitrary JSON documents.
export type Manifest = Record<string, any>;

interface Kustomization {
  resources?: string[];
  namespace?: string;
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  patches?: { target?: { kind?: string; name?: string }; patch?: string; path?: string }[];
}

interface Generator {
  name: string;
  behavior?: 'create' | 'merge';
  literals?: string[];
  type?: string;
}

const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'images',
  'configMapGenerator',
  'secretGenerator',
  'patches',
]);

/** Kinds without a namespace among those k8s/ uses (kustomize knows the full list). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
]);

/** The generator name of each generated object: its name until the top-level build adds the hash. */
const generatorNames = new WeakMap<Manifest, string>();

export function kustomize(dir: string): Manifest[] {
  const objects = build(resolve(dir));
  return finalizeGeneratedNames(objects);
}

function build(dir: string): Manifest[] {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${dir}: no kustomization.yaml`);
  const k = parse(readFileSync(file, 'utf8')) as Kustomization;
  for (const field of Object.keys(k)) {
    if (!SUPPORTED_FIELDS.has(field)) throw new Error(`${file}: field "${field}" is not supported here`);
  }
  let objects = (k.resources ?? []).flatMap((entry) => loadResource(join(dir, entry)));
  for (const gen of k.configMapGenerator ?? []) objects = generate(objects, 'ConfigMap', gen, file);
  for (const gen of k.secretGenerator ?? []) objects = generate(objects, 'Secret', gen, file);
  if (k.namespace) {
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  }
  for (const p of k.patches ?? []) applyPatch(objects, p, dir, file);
  for (const image of k.images ?? []) setImage(objects, image);
  return objects;
}

function loadResource(path: string): Manifest[] {
  if (statSync(path).isDirectory()) return build(path);
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]?.message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((o): o is Manifest => o !== null);
}

function generate(objects: Manifest[], kind: 'ConfigMap' | 'Secret', gen: Generator, file: string) {
  const values = Object.fromEntries((gen.literals ?? []).map(parseLiteral));
  const data =
    kind === 'Secret'
      ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v).toString('base64')]))
      : values;
  const behavior = gen.behavior ?? 'create';
  const existing = objects.find((o) => o.kind === kind && generatorNames.get(o) === gen.name);
  if (behavior === 'merge') {
    if (!existing) throw new Error(`${file}: ${kind} ${gen.name} to merge into does not exist`);
    existing.data = { ...existing.data, ...data };
    return objects;
  }
  if (behavior !== 'create') throw new Error(`${file}: behavior "${behavior}" is not supported here`);
  if (existing) throw new Error(`${file}: ${kind} ${gen.name} already exists`);
  const generated: Manifest = { apiVersion: 'v1', kind, metadata: { name: gen.name }, data };
  if (kind === 'Secret') generated.type = gen.type ?? 'Opaque';
  generatorNames.set(generated, gen.name);
  return [...objects, generated];
}

function parseLiteral(literal: string): [string, string] {
  const at = literal.indexOf('=');
  if (at <= 0) throw new Error(`literal "${literal}" is not KEY=VALUE`);
  return [literal.slice(0, at), literal.slice(at + 1)];
}

function applyPatch(
  objects: Manifest[],
  p: NonNullable<Kustomization['patches']>[number],
  dir: string,
  file: string,
) {
  const text = p.patch ?? (p.path ? readFileSync(join(dir, p.path), 'utf8') : undefined);
  if (text === undefined) throw new Error(`${file}: a patch needs "patch" or "path"`);
  const operations = parse(text) as unknown;
  if (!Array.isArray(operations)) {
    throw new Error(`${file}: only JSON 6902 patches (a list of operations) are supported here`);
  }
  const namePattern = p.target?.name ? new RegExp(`^(?:${p.target.name})$`) : undefined;
  const targets = objects.filter(
    (o) =>
      (!p.target?.kind || o.kind === p.target.kind) && (!namePattern || namePattern.test(o.metadata.name)),
  );
  if (targets.length === 0)
    throw new Error(`${file}: patch target ${JSON.stringify(p.target)} matches nothing`);
  for (const target of targets) {
    for (const op of operations as JsonPatchOperation[]) applyOperation(target, op);
  }
}

interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

/** RFC 6902 add, replace, remove and test. */
function applyOperation(document: Manifest, operation: JsonPatchOperation) {
  const tokens = operation.path
    .split('/')
    .slice(1)
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = tokens.pop();
  if (last === undefined) throw new Error(`patch path "${operation.path}" addresses the whole document`);
  let parent: Manifest = document;
  for (const token of tokens) {
    parent = parent?.[Array.isArray(parent) ? Number(token) : token];
    if (parent === undefined || parent === null)
      throw new Error(`patch path "${operation.path}" does not exist`);
  }
  const isArray = Array.isArray(parent);
  const index = isArray ? (last === '-' ? parent.length : Number(last)) : -1;
  const exists = isArray ? index < parent.length : Object.hasOwn(parent, last);
  switch (operation.op) {
    case 'add':
      if (isArray) parent.splice(index, 0, operation.value);
      else parent[last] = operation.value;
      return;
    case 'replace':
      if (!exists) throw new Error(`patch path "${operation.path}" does not exist`);
      if (isArray) parent[index] = operation.value;
      else parent[last] = operation.value;
      return;
    case 'remove':
      if (!exists) throw new Error(`patch path "${operation.path}" does not exist`);
      if (isArray) parent.splice(index, 1);
      else delete parent[last];
      return;
    case 'test':
      if (JSON.stringify(isArray ? parent[index] : parent[last]) !== JSON.stringify(operation.value)) {
        throw new Error(`patch test at "${operation.path}" failed`);
      }
      return;
    default:
      throw new Error(`patch operation "${operation.op}" is not supported here`);
  }
}

function setImage(objects: Manifest[], image: NonNullable<Kustomization['images']>[number]) {
  for (const container of objects.flatMap(containersOf)) {
    const { name, tag, digest } = splitImage(container.image);
    if (name !== image.name) continue;
    const newName = image.newName ?? name;
    if (image.digest) container.image = `${newName}@${image.digest}`;
    else if (image.newTag) container.image = `${newName}:${image.newTag}`;
    else container.image = `${newName}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
  }
}

function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const [nameAndTag = '', digest] = image.split('@');
  const colon = nameAndTag.lastIndexOf(':');
  if (colon > nameAndTag.lastIndexOf('/')) {
    return { name: nameAndTag.slice(0, colon), tag: nameAndTag.slice(colon + 1), digest };
  }
  return { name: nameAndTag, digest };
}

/** Every container and init container anywhere in an object (pod templates of any workload). */
export function containersOf(object: Manifest): Manifest[] {
  const found: Manifest[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'containers' || key === 'initContainers') && Array.isArray(value)) found.push(...value);
      else visit(value);
    }
  };
  visit(object);
  return found;
}

/** Appends the content hash to each generated name and rewrites every reference to it. */
function finalizeGeneratedNames(objects: Manifest[]): Manifest[] {
  const renamed = new Map<string, string>();
  for (const o of objects) {
    const original = generatorNames.get(o);
    if (!original) continue;
    o.metadata.name = `${original}-${contentHash(o)}`;
    renamed.set(`${o.kind}/${o.metadata.namespace ?? ''}/${original}`, o.metadata.name);
  }
  for (const o of objects) {
    const namespace = o.metadata.namespace ?? '';
    forEachReference(o, (kind, holder, field) => {
      const name = renamed.get(`${kind}/${namespace}/${holder[field]}`);
      if (name) holder[field] = name;
    });
  }
  return objects;
}

/** The places a pod spec names a ConfigMap or a Secret. */
function forEachReference(
  object: Manifest,
  visit: (kind: 'ConfigMap' | 'Secret', holder: Manifest, field: string) => void,
) {
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const n = node as Manifest;
    for (const key of ['configMapRef', 'configMapKeyRef'])
      if (n[key]?.name) visit('ConfigMap', n[key], 'name');
    for (const key of ['secretRef', 'secretKeyRef']) if (n[key]?.name) visit('Secret', n[key], 'name');
    if (n.configMap?.name) visit('ConfigMap', n.configMap, 'name');
    if (n.secret?.secretName) visit('Secret', n.secret, 'secretName');
    if (n.secret?.name) visit('Secret', n.secret, 'name');
    for (const value of Object.values(n)) walk(value);
  };
  walk(object.spec);
}

/**
 * kustomize's name suffix: the SHA-256 of Go's JSON encoding (sorted keys, HTML characters
 * escaped) of the kind, type and data, its first ten hex digits with 0, 1, 3, a and e replaced so
 * the suffix never spells a word. The name is always empty in that encoding: kustomize looks it up
 * as one field called "metadata/name", which no object has.
 */
function contentHash(o: Manifest): string {
  const fields: Manifest = { data: o.data ?? {}, kind: o.kind, name: '' };
  if (o.kind === 'Secret') fields.type = o.type;
  const hex = createHash('sha256').update(goJson(fields)).digest('hex');
  const substitutions: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return [...hex.slice(0, 10)].map((c) => substitutions[c] ?? c).join('');
}

function goJson(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${goJson(key)}:${goJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}
