import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The parts of a V8 CPU profile (`--cpu-prof`) this module reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Where sampled code lives: a package under node_modules, one of the project's, or the runtime. */
export function ownerOf(url: string, functionName: string): string {
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (dependency) return dependency[1]!;
  const project = /\/(libs|services)\/([^/]+)\//.exec(url);
  if (project) return `${project[1]}/${project[2]}`;
  if (url.startsWith('node:')) return 'node';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  return 'native and other';
}

/** Each owner's share of the profile's busy time (idle left out), largest first. */
export function busyShares(profile: CpuProfile): [owner: string, share: number][] {
  const owners = new Map(
    profile.nodes.map((n) => [n.id, ownerOf(n.callFrame.url, n.callFrame.functionName)]),
  );
  const spent = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const owner = owners.get(profile.samples[i]!) ?? 'native and other';
    spent.set(owner, (spent.get(owner) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  spent.delete('idle');
  const busy = [...spent.values()].reduce((a, b) => a + b, 0);
  return [...spent].map(([owner, us]): [string, number] => [owner, us / busy]).sort((a, b) => b[1] - a[1]);
}

/** One note per profile in `dir`: the owners of at least 2 % of the process's busy time, and the Kafka client's share. */
export function profileShareNotes(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .sort()
    .map((file) => {
      const shares = busyShares(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
      const kafka = shares
        .filter(([owner]) => ['kafkajs', '@platformatic/kafka', 'avsc'].includes(owner))
        .reduce((sum, [, share]) => sum + share, 0);
      const listed = shares
        .filter(([, share]) => share >= 0.02)
        .map(([owner, share]) => `${owner} ${percent(share)}`)
        .join(', ');
      return `CPU profile of ${basename(file, '.cpuprofile')}, shares of its busy time: ${listed}; the Kafka client and Avro decoding together ${percent(kafka)}`;
    });
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
