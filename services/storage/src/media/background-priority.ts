import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Image work runs at the lowest CPU priority (the highest niceness) there is: on a small machine a burst of uploads
 * would otherwise take the cores from the threads that answer everyone else's calls. It still gets all the CPU
 * nobody else wants, which on any machine with a core more than the busiest event loop is most of it. Measured on
 * 2 cores, niceness 10 still let an upload burst cost an API call's p99 about 2.3× its idle figure; 19 brings it
 * under 2× and finishes as many uploads.
 */
export const IMAGE_WORK_NICENESS = 19;

/**
 * Lowers the priority of every thread of this process. On Linux a priority belongs to a thread, and a new thread
 * takes its creator's: called first thing in the media process, before it starts threads of its own, it covers
 * every thread the image work will ever run on. Elsewhere it lowers what the platform lets it (the process).
 * Answers how many threads it lowered.
 */
export function lowerProcessPriority(niceness = IMAGE_WORK_NICENESS): number {
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    return lowerPriority(0, niceness) ? 1 : 0;
  }
  return threads.filter((tid) => lowerPriority(tid, niceness)).length;
}

function lowerPriority(tid: number, niceness: number): boolean {
  try {
    if (getPriority(tid) >= niceness) return false;
    setPriority(tid, niceness);
    return true;
  } catch {
    // The thread ended between the listing and the call, or the platform does not allow it.
    return false;
  }
}
