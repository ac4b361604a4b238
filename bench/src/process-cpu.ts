import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); NaN when unknown. */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Each running process called `command` (as /proc shows it: `postgres`, `java`), with its CPU time so far in ms. */
export function commandCpu(command: string): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === command) {
        cpu.set(Number(entry), processCpuMs(Number(entry)));
      }
    } catch {
      // Gone between the listing and the read.
    }
  }
  return cpu;
}

/**
 * CPU time the processes called `command` used since `before` (commandCpu), in ms: a process that
 * started since counts whole; one that exited since is left out (its last share is lost, never
 * subtracted).
 */
export function commandCpuSince(command: string, before: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of commandCpu(command)) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** Node options that write a CPU profile of a process's whole life into `dir` when it exits. */
export const cpuProfileArgs = (dir: string | undefined, name: string): string[] | undefined =>
  dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`] : undefined;

/**
 * CPU time the whole machine has used so far (every process and the kernel, all cores), in ms, from
 * /proc/stat (Linux); NaN when unknown. What the processes measured one by one leave out (the
 * kernel's own work, interrupts, anything else running) is the difference.
 */
export function machineBusyMs(): number {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    // user nice system idle iowait irq softirq: all but idle and iowait are work done here (steal,
    // next, is time the hypervisor gave to others).
    const [user, nice, system, , , irq, softirq] = ticks.map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq!;
    return (busy * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
