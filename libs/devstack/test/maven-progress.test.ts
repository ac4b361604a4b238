import { describe, expect, it } from 'vitest';
import { mavenProgress } from '../src/kafka/maven-progress.ts';

/** What `mvn -B dependency:copy-dependencies` prints around one downloaded file. */
const mavenLinesFor = (file: string, size: string) => [
  `[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/example/${file}`,
  `[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/example/${file} (${size} at 2.1 MB/s)`,
];

describe('mavenProgress', () => {
  it('turns a long download into a progress line per interval and a summary', () => {
    let clock = 0;
    const printed: string[] = [];
    const progress = mavenProgress((line) => printed.push(line), { everyMs: 10_000, now: () => clock });
    const maven = [
      '[INFO] Scanning for projects...',
      '[INFO] --------------------< engage.devstack:kafka-broker-jars >--------------------',
      ...Array.from({ length: 120 }, (_, i) => mavenLinesFor(`a-${i}.jar`, '500 kB')).flat(),
      '[INFO] Copying kafka_2.13-4.3.1.jar to /somewhere/libs/kafka_2.13-4.3.1.jar',
      '[INFO] BUILD SUCCESS',
    ];
    for (const [i, line] of maven.entries()) {
      clock = i * 100;
      progress.line(line);
    }
    printed.push(progress.summary());
    expect(printed).toEqual([
      '50 files (25.0 MB) downloaded after 10 s',
      '100 files (50.0 MB) downloaded after 20 s',
      'jars ready: 120 files (60.0 MB) downloaded in 24 s',
    ]);
  });

  it('adds up sizes in bytes, kB and MB', () => {
    const progress = mavenProgress(() => {}, { now: () => 0 });
    for (const size of ['800 B', '200 kB', '1.5 MB']) progress.line(mavenLinesFor('x.jar', size)[1]!);
    expect(progress.summary()).toBe('jars ready: 3 files (1.7 MB) downloaded in 0 s');
  });

  it("passes Maven's errors on and says when nothing had to be downloaded", () => {
    const printed: string[] = [];
    const progress = mavenProgress((line) => printed.push(line), { now: () => 0 });
    progress.line('[INFO] Scanning for projects...');
    progress.line(
      '[ERROR] Failed to execute goal on project kafka-broker-jars: Could not resolve dependencies',
    );
    printed.push(progress.summary());
    expect(printed).toEqual([
      'mvn: [ERROR] Failed to execute goal on project kafka-broker-jars: Could not resolve dependencies',
      'jars ready in 0 s (all in the local Maven repository)',
    ]);
  });
});
