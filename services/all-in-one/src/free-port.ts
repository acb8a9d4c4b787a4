import { closeSync, mkdirSync, openSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The lowest port the system gives outgoing connections (Linux's ip_local_port_range); 32768 where unknown. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const LOWEST = 1_025;

/**
 * Ports above LOWEST that fetch refuses to connect to ("bad ports" of the Fetch standard: SIP, X11, IRC and others), so
 * a server a test reaches with fetch must not get one.
 */
const FETCH_BAD_PORTS = new Set([1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

/** Long enough for a process handed a port to start and listen on it; a reservation older than this is free again. */
export const RESERVATION_MS = 120_000;

const RESERVATIONS = join(tmpdir(), 'snapcracks-ports');

/**
 * Marks `port` as handed out, for every process on this machine, with a file created exclusively: false when another
 * caller (this process or another) handed it out less than RESERVATION_MS ago. Without it, two launchers starting at
 * once (parallel test files, the split launcher's dozen processes) could draw the same port in the moment between the
 * probe and the listen, and one of their servers would fail with EADDRINUSE.
 */
export function reservePort(port: number, directory = RESERVATIONS, now = Date.now()): boolean {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, String(port));
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return true; // no reservations here: the probe alone decides
    if (now - statSync(file).mtimeMs < RESERVATION_MS) return false;
    utimesSync(file, now / 1000, now / 1000);
    return true;
  }
}

/** Listens on `port` (0: any) on loopback and closes again: the port it got, or undefined when it is taken. */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
    });
  });
}

/**
 * A TCP port on loopback that nothing listens on right now, for a server that starts a moment later. Chosen below the
 * range the system hands to outgoing connections, so that none of the process's own connections (to PostgreSQL, NATS,
 * another component) can take it in between; reserved for a while, so that no other caller on this machine is handed
 * it before that server listens; never one that fetch refuses.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const candidate = LOWEST + Math.floor(Math.random() * (high - LOWEST));
    if (FETCH_BAD_PORTS.has(candidate) || !reservePort(candidate)) continue;
    const port = await probe(candidate);
    if (port !== undefined) return port;
  }
  const port = await probe(0);
  if (port === undefined) throw new Error('no free port on loopback');
  return port;
}
