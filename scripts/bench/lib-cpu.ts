/**
 * CPU time of processes from /proc (user + system, every thread): what work costs whatever share of the machine the
 * process gets, which on a shared machine moves throughput far more than the cost does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { processTree } from './lib.js';

const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

export function cpuMsOf(pid: number): number {
  try {
    // Fields after the command (which may hold spaces) start at state; utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0; // gone
  }
}

/** The CPU time of `pid` and every process below it, each counted while it lives. */
export const treeCpuMs = (pid: number) => processTree(pid).reduce((sum, p) => sum + cpuMsOf(p), 0);

/** The PostgreSQL backends serving `database` (their process titles name it). */
export function backendsOf(database: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/** CPU ms of the backends of `database` now, by pid; a backend gone since counts what it had. */
export function backendsCpu(database: string): Map<number, number> {
  return new Map(backendsOf(database).map((pid) => [pid, cpuMsOf(pid)]));
}

/** CPU ms the backends used between two readings (new backends count from zero). */
export function backendsCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, used] of after) ms += used - (before.get(pid) ?? 0);
  return ms;
}
