import fc from 'fast-check';
import { openTestPool } from '@snapcracks/kit/testing';
import { startTestSystem } from '../test-system.js';
import { recordRoutes, type CatalogRoute } from './route-catalog.js';
import { StateSnapshots } from './state-snapshot.js';
import { ADMIN_EMAILS, World } from './world.js';

/** Runs per property: PROPERTY_RUNS, 40 by default (a modest number, so a file stays well under two minutes). */
export const RUNS = Number(process.env.PROPERTY_RUNS ?? 40);

export interface PropertySystem {
  system: Awaited<ReturnType<typeof startTestSystem>>;
  /** Every route the running gateway serves (route-catalog.ts). */
  routes: CatalogRoute[];
  pool: ReturnType<typeof openTestPool>;
  snapshots: StateSnapshots;
  world: World;
  stop(): Promise<void>;
}

/**
 * The product on a fresh database, its routes recorded as the gateway registers them, and the cast of world.ts.
 * Rate limits far above what the runs send: a 429 would only hide the route behind it.
 */
export async function startPropertySystem(): Promise<PropertySystem> {
  const catalog = recordRoutes();
  let system: PropertySystem['system'];
  try {
    system = await startTestSystem({
      ADMIN_EMAILS,
      RATE_LIMIT_API: '1000000/1m',
      RATE_LIMIT_SIGN_IN: '1000000/1m',
      RATE_LIMIT_CONTACT: '1000000/1m',
      RATE_LIMIT_UPLOADS: '1000000/1m',
      RATE_LIMIT_UPLOADS_IN_FLIGHT: '1000',
      RATE_LIMIT_VOTES: '1000000/1m',
      RATE_LIMIT_AVATARS: '1000000/1m',
      RATE_LIMIT_FACE_SUGGESTIONS: '1000000/1m',
      RATE_LIMIT_REPORTS: '1000000/1m',
    });
  } finally {
    catalog.stop();
  }
  const pool = openTestPool(system.database.url);
  const stop = async () => {
    await pool.end();
    await system.stop();
  };
  try {
    const world = await World.create(system.url, pool);
    const snapshots = await StateSnapshots.open(pool);
    return { system, routes: catalog.routes(), pool, snapshots, world, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** fast-check's settings: the run count, a seed and path to replay (PROPERTY_SEED, PROPERTY_PATH), and a short report. */
export function propertyParameters<T>(): fc.Parameters<[T]> {
  return {
    numRuns: RUNS,
    ...(process.env.PROPERTY_SEED ? { seed: Number(process.env.PROPERTY_SEED) } : {}),
    ...(process.env.PROPERTY_PATH ? { path: process.env.PROPERTY_PATH } : {}),
    reporter(details) {
      if (!details.failed) return;
      // The default report (seed, path, counterexample), each line cut short: a counterexample can hold 100,000 characters.
      const report = (fc.defaultReportMessage(details) ?? 'Property failed').split('\n').map((line) => (line.length > 1_000 ? `${line.slice(0, 1_000)}…` : line));
      throw new Error(report.join('\n'), { cause: details.errorInstance });
    },
  };
}
