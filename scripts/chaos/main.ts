/**
 * `pnpm chaos [scenario…]`: the product in split mode on loopback, on a PostgreSQL, a NATS server and blob stores the
 * harness owns, put through faults under a small mixed load; prints a table per scenario and exits 1 when a property
 * fails. Every loop is bounded in count and time, and everything it started is stopped before it exits.
 *
 * Scenarios (all by default, in this order): kill-each, nats-outage, postgres-restart, sigterm-each, blob-s3,
 * blob-drive. See docs/chaos.md.
 */
import { startDriveStore, startS3Store, type ChaosBlobStore } from './blob-stores.js';
import { ADMIN_EMAIL, startChaosDeployment, type ChaosDeployment } from './deployment.js';
import { startPrivateNats, startPrivatePostgres, type PrivateNats, type PrivatePostgres } from './infra.js';
import { buildCommunity, untilEveryFeatureWorks } from './load.js';
import { printResult, seconds, type ScenarioResult } from './report.js';
import { blobStoreFaults } from './scenarios/blob-store.js';
import type { ChaosContext } from './scenarios/context.js';
import { killEach } from './scenarios/kill-each.js';
import { natsOutage } from './scenarios/nats-outage.js';
import { postgresRestart } from './scenarios/postgres-restart.js';
import { sigtermEach } from './scenarios/sigterm-each.js';

type Scenario = (context: ChaosContext) => Promise<ScenarioResult>;

/** Scenarios on the deployment whose blobs go to S3, then the one whose blobs go to Drive. */
const ON_S3: Record<string, Scenario> = {
  'kill-each': killEach,
  'nats-outage': natsOutage,
  'postgres-restart': postgresRestart,
  'sigterm-each': sigtermEach,
  'blob-s3': blobStoreFaults,
};
const ON_DRIVE: Record<string, Scenario> = { 'blob-drive': blobStoreFaults };
/** The whole run stops (and cleans up) after this, whatever is under way. */
const RUN_LIMIT_MS = 20 * 60_000;

const cleanups: (() => Promise<void>)[] = [];
const results: ScenarioResult[] = [];

async function main(): Promise<number> {
  const asked = process.argv.slice(2).filter((arg) => arg !== '--');
  const known = [...Object.keys(ON_S3), ...Object.keys(ON_DRIVE)];
  const unknown = asked.filter((name) => !known.includes(name));
  if (unknown.length) {
    console.error(`Unknown scenario ${unknown.join(', ')}; choose from ${known.join(', ')}`);
    return 2;
  }
  const chosen = asked.length ? asked : known;
  const started = Date.now();

  console.log('Starting a private PostgreSQL and NATS…');
  const postgres = await startPrivatePostgres();
  cleanups.push(() => postgres.close());
  const nats = await startPrivateNats();
  cleanups.push(() => nats.close());
  // startSplit makes its database and stream on these (kit/testing), never on the machine's shared servers.
  process.env.TEST_DATABASE_URL = postgres.serverUrl;
  process.env.TEST_NATS_URL = nats.url;

  for (const [store, scenarios, startStore] of [
    ['s3', ON_S3, startS3Store],
    ['drive', ON_DRIVE, startDriveStore],
  ] as const) {
    const names = Object.keys(scenarios).filter((name) => chosen.includes(name));
    if (names.length === 0) continue;
    const blobStore = await startStore();
    cleanups.push(() => blobStore.close());
    console.log(`Starting split mode (blobs in ${blobStore.name})…`);
    const deployment = await startDeployment(postgres, nats, blobStore, `chaos_${store}`);
    console.log(`Running at ${deployment.url} (${seconds(Date.now() - started)} in); signing in a few members and the admin…`);
    const community = await buildCommunity(deployment.url, ADMIN_EMAIL);
    const context: ChaosContext = { deployment, community, nats, postgres, blobStore };
    for (const name of names) {
      if (!(await untilEveryFeatureWorks(community, 60_000))) console.log('(not every feature answered before it; starting anyway)');
      console.log(`\n${name}…`);
      const at = Date.now();
      const result = await scenarios[name]!(context).catch(async (error: unknown) => {
        // A scenario that stopped half-way may have left a process down: the next one starts with every process up.
        await deployment.restartExited().catch(() => undefined);
        return crashed(name, error);
      });
      result.notes.push(`took ${seconds(Date.now() - at)}`);
      results.push(result);
      printResult(result);
    }
    await cleanups.pop()!(); // the deployment
  }

  const failed = results.flatMap((r) => r.properties.filter((p) => !p.ok).map((p) => `${r.name.split(':')[0]}: ${p.name}`));
  console.log(`\n${results.length} scenarios in ${seconds(Date.now() - started)}; ${failed.length ? `${failed.length} properties FAILED:\n  ${failed.join('\n  ')}` : 'every property holds'}`);
  return failed.length ? 1 : 0;
}

async function startDeployment(postgres: PrivatePostgres, nats: PrivateNats, blobStore: ChaosBlobStore, database: string): Promise<ChaosDeployment> {
  const databaseUrl = new URL(postgres.serverUrl);
  databaseUrl.pathname = `/${database}`;
  const deployment = await startChaosDeployment({ databaseUrl: databaseUrl.toString(), natsUrl: nats.url, env: blobStore.env });
  cleanups.push(() => deployment.stop());
  return deployment;
}

function crashed(name: string, error: unknown): ScenarioResult {
  return {
    name,
    table: { columns: ['error'], rows: [[error instanceof Error ? error.message : String(error)]] },
    properties: [{ name: 'the scenario ran to its end', ok: false }],
    notes: [],
  };
}

async function cleanUp(): Promise<void> {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      console.error(`cleaning up: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

const limit = setTimeout(() => {
  console.error(`\nThe run passed ${RUN_LIMIT_MS / 60_000} minutes: stopping everything.`);
  void cleanUp().finally(() => process.exit(1));
}, RUN_LIMIT_MS);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void cleanUp().finally(() => process.exit(130));
  });
}

main()
  .catch((error: unknown) => {
    console.error(`The chaos run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  })
  .then(async (code) => {
    await cleanUp();
    clearTimeout(limit);
    process.exit(code);
  });
