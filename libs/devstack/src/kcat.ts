import { execFileSync, spawnSync } from 'node:child_process';

/**
 * kcat on this machine, installed with apt-get (as root, or through sudo without a password) when
 * it is missing: the tests of docs/topics.md's kcat recipe run it. Throws with the way to install it
 * by hand when neither works.
 */
export function ensureKcat(log: (line: string) => void = () => {}): void {
  if (hasKcat()) return;
  log('kcat is missing: apt-get install -y kcat');
  const asRoot = process.getuid?.() === 0;
  const command = asRoot ? 'apt-get' : 'sudo';
  const args = asRoot ? ['install', '-y', 'kcat'] : ['-n', 'apt-get', 'install', '-y', 'kcat'];
  const installed = spawnSync(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (installed.status !== 0 || !hasKcat()) {
    throw new Error(
      `kcat is not installed and apt-get could not install it (${String(installed.stderr).trim()}): ` +
        'run `sudo apt-get install -y kcat`',
    );
  }
}

function hasKcat(): boolean {
  try {
    execFileSync('kcat', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
