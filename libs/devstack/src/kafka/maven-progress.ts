import { run } from './jvm.ts';

/**
 * Runs Maven in batch mode on `pom` with `goals`, logging only its progress and errors (see
 * mavenProgress); answers the closing summary line.
 */
export async function runMaven(
  pom: string,
  goals: string[],
  options: { cwd: string; log: (line: string) => void },
): Promise<string> {
  const progress = mavenProgress(options.log);
  await run('mvn', ['-B', '-Dstyle.color=never', '-f', pom, ...goals], {
    cwd: options.cwd,
    log: progress.line,
  });
  return progress.summary();
}

/**
 * Turns Maven's batch-mode output while it fetches the broker jars into a few lines of progress:
 * one every `everyMs` while files arrive (how many, how large), Maven's errors as they come, and a
 * summary at the end. Everything else Maven prints (a line per file and per plugin step) is dropped.
 */
export function mavenProgress(
  log: (line: string) => void,
  options: { everyMs?: number; now?: () => number } = {},
) {
  const everyMs = options.everyMs ?? 10_000;
  const now = options.now ?? Date.now;
  const started = now();
  let lastReport = started;
  let files = 0;
  let bytes = 0;
  const progress = () => `${files} files (${megabytes(bytes)} MB) downloaded`;
  return {
    line(raw: string) {
      const downloaded = DOWNLOADED.exec(raw);
      if (downloaded) {
        files++;
        bytes += sizeInBytes(downloaded[1]!, downloaded[2]!);
        if (now() - lastReport >= everyMs) {
          lastReport = now();
          log(`${progress()} after ${seconds(lastReport - started)} s`);
        }
      } else if (raw.startsWith('[ERROR]')) {
        log(`mvn: ${raw}`);
      }
    },
    /** The closing line: what arrived (nothing when Maven's local repository had it all). */
    summary: () =>
      files > 0
        ? `jars ready: ${progress()} in ${seconds(now() - started)} s`
        : `jars ready in ${seconds(now() - started)} s (all in the local Maven repository)`,
  };
}

// `[INFO] Downloaded from central: https://…/kafka_2.13-4.3.1.jar (6.9 MB at 2.1 MB/s)`
const DOWNLOADED = /Downloaded from [^:]+: \S+ \(([\d.]+) (B|kB|MB|GB)/;
const UNITS: Record<string, number> = { B: 1, kB: 1_000, MB: 1_000_000, GB: 1_000_000_000 };

const sizeInBytes = (amount: string, unit: string) => Number.parseFloat(amount) * (UNITS[unit] ?? 1);
const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(1);
const seconds = (ms: number) => (ms / 1000).toFixed(0);
