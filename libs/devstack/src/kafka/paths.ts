import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Where the local single-node broker listens (see deploy/kafka/server.properties). */
export const LOCAL_HOST = '127.0.0.1';
export const LOCAL_PORT = 9092;
export const CONTROLLER_PORT = 9093;
export const LOCAL_BROKERS = [`${LOCAL_HOST}:${LOCAL_PORT}`];

/** Walks up from `start` to the folder whose package.json declares npm "workspaces". */
export function findRepoRoot(start: string = import.meta.dirname): string {
  let dir = resolve(start);
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        const json = JSON.parse(readFileSync(pkg, 'utf8')) as { workspaces?: unknown };
        if (json.workspaces) return dir;
      } catch {
        // unreadable package.json: keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json with "workspaces" above ${start}`);
    dir = parent;
  }
}

export interface KafkaPaths {
  repoRoot: string;
  /** deploy/kafka */
  deployDir: string;
  pom: string;
  serverProperties: string;
  log4jConfig: string;
  /** Kafka version pinned in deploy/kafka/pom.xml */
  version: string;
  /** .cache/kafka */
  cacheDir: string;
  /** .cache/kafka/<version>/libs */
  libsDir: string;
  /** marker written once the jars of `version` are complete */
  libsMarker: string;
  /** .cache/kafka/data: broker logs, cluster id, generated properties */
  dataDir: string;
  /** .cache/kafka/data/logs: Kafka's log.dirs (partitions and KRaft metadata) */
  logDirs: string;
  clusterIdFile: string;
  /** properties for StorageTool (template + absolute log.dirs; it has no --override) */
  formatProperties: string;
  /** log4j2 output */
  serverLog: string;
  /** the JVM's own stdout/stderr */
  stdoutLog: string;
  pidFile: string;
}

/** Reads `<kafka.version>` from the pom, the single place the version is pinned. */
export function readPinnedVersion(pom: string): string {
  const match = /<kafka\.version>\s*([^<\s]+)\s*<\/kafka\.version>/.exec(readFileSync(pom, 'utf8'));
  if (!match?.[1]) throw new Error(`no <kafka.version> property in ${pom}`);
  return match[1];
}

export function kafkaPaths(repoRoot: string = findRepoRoot()): KafkaPaths {
  const deployDir = join(repoRoot, 'deploy', 'kafka');
  const pom = join(deployDir, 'pom.xml');
  const version = readPinnedVersion(pom);
  const cacheDir = join(repoRoot, '.cache', 'kafka');
  const libsDir = join(cacheDir, version, 'libs');
  const dataDir = join(cacheDir, 'data');
  return {
    repoRoot,
    deployDir,
    pom,
    serverProperties: join(deployDir, 'server.properties'),
    log4jConfig: join(deployDir, 'log4j2.yaml'),
    version,
    cacheDir,
    libsDir,
    libsMarker: join(cacheDir, version, 'complete'),
    dataDir,
    logDirs: join(dataDir, 'logs'),
    clusterIdFile: join(dataDir, 'cluster-id'),
    formatProperties: join(dataDir, 'server.format.properties'),
    serverLog: join(dataDir, 'server.log'),
    stdoutLog: join(dataDir, 'broker.out'),
    pidFile: join(cacheDir, 'broker.pid'),
  };
}
