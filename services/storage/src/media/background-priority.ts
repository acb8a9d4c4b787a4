import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Image work runs at a lower CPU priority (a higher niceness) than request handling: on a small machine a burst of
 * uploads would otherwise take every core from the threads that answer everyone else's calls. The work still gets
 * all the CPU nobody else wants. Linux only; elsewhere these do nothing.
 */
export const IMAGE_WORK_NICENESS = 10;

/** Where libvips does the pixel work: threads of its own, which keep the priority of the thread that started them. */
const IMAGE_LIBRARY_THREAD = /^libvips worker/;

/** Lowers the priority of the calling thread (a media worker: HEIC decoding and face detection run on it). */
export function lowerThisThreadPriority(niceness = IMAGE_WORK_NICENESS): void {
  const tid = currentThreadId();
  if (tid !== undefined) lowerPriority(tid, niceness);
}

/** Lowers the priority of every libvips thread of this process; new ones appear as libvips needs them. Answers how many it lowered. */
export function lowerImageLibraryPriority(niceness = IMAGE_WORK_NICENESS): number {
  let lowered = 0;
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  for (const thread of threads) {
    try {
      if (!IMAGE_LIBRARY_THREAD.test(readFileSync(`/proc/self/task/${thread}/comm`, 'utf8'))) continue;
      if (lowerPriority(Number(thread), niceness)) lowered++;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return lowered;
}

function currentThreadId(): number | undefined {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return undefined;
  }
}

function lowerPriority(tid: number, niceness: number): boolean {
  try {
    if (getPriority(tid) >= niceness) return false;
    setPriority(tid, niceness);
    return true;
  } catch {
    return false;
  }
}
