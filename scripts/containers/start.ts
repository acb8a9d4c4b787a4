/**
 * `pnpm start:containers [--no-build] [--detach | --stop]`: the product as the chart runs it, in podman.
 * Builds the images (build.ts; --no-build reuses them), renders the Helm chart with deploy/containers/values.yaml,
 * then on a private podman network runs the migration job, then each component replica as its own pod with the
 * rendered environment and security context (plan.ts): two replicas of photo and vote, the development identity
 * provider as the gateway pod's sidecar. The gateway answers on http://localhost:PORT (default 8080), the
 * identity provider on http://127.0.0.1:DEV_IDP_PORT (default 8081), both published on the host's loopback only.
 *
 * PostgreSQL and NATS: DATABASE_URL and NATS_URL when set (addresses the containers can reach); otherwise a
 * throwaway PostgreSQL and NATS JetStream in containers on the same network (Debian's packages, data on tmpfs).
 * The machine's own servers listen on its loopback, which containers on a network cannot reach.
 *
 * Ctrl-C or SIGTERM stops and removes every pod, container, volume and the network. With --detach it returns
 * once the product is ready and leaves it running; --stop removes it (CI: start, test, stop).
 */
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runHelm } from '../lib/helm.js';
import { waitUntilProductReady } from '../lib/product-ready.js';
import { buildImages, imageName, sizeTable } from './build.js';
import { IMAGE_COMPONENT_NAMES } from './components.js';
import { parseRendered, planFromChart, podArgs, runArgs, type ContainerPlan, type Plan } from './plan.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RELEASE = 'snapcracks';
const NETWORK = 'snapcracks-containers';
const LABEL = 'io.snapcracks.containers=1';
const TAG = 'local';
const DEPS_IMAGE = 'localhost/snapcracks-deps:bookworm';
const POSTGRES = 'snapcracks-containers-postgres';
/** metrics.json: each process's metrics address (`vote-1`, `gateway`, …), as `pnpm start:split` writes its topology. */
const STATE_DIR = join(root, '.data-containers');
const NATS = 'snapcracks-containers-nats';

function podman(args: string[], options: SpawnSyncOptions & { check?: boolean } = {}): string {
  const { check = true, ...spawnOptions } = options;
  const result = spawnSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...spawnOptions });
  if (check && result.status !== 0) throw new Error(`podman ${args.slice(0, 3).join(' ')} … failed: ${String(result.stderr).trim()}`);
  return String(result.stdout ?? '').trim();
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Removes everything start:containers made (found by its label), then the network. */
export function stopAll(): void {
  const pods = podman(['pod', 'ps', '--filter', `label=${LABEL}`, '--format', '{{.Name}}'], { check: false }).split('\n').filter(Boolean);
  if (pods.length) podman(['pod', 'rm', '--force', '--time', '10', ...pods], { check: false });
  const containers = podman(['ps', '--all', '--filter', `label=${LABEL}`, '--format', '{{.Names}}'], { check: false }).split('\n').filter(Boolean);
  if (containers.length) podman(['rm', '--force', '--time', '10', ...containers], { check: false });
  const volumes = podman(['volume', 'ls', '--filter', `label=${LABEL}`, '--format', '{{.Name}}'], { check: false }).split('\n').filter(Boolean);
  if (volumes.length) podman(['volume', 'rm', '--force', ...volumes], { check: false });
  podman(['network', 'rm', '--force', NETWORK], { check: false });
}

/**
 * A process of its own session that removes everything once this one is gone, however it went: pnpm stops a
 * script it is told to stop (SIGTERM) before the script's own cleanup has finished. Not for --detach.
 */
function startWatchdog(): void {
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done`,
    `pods=$(podman pod ps -q --filter label=${LABEL}); [ -z "$pods" ] || podman pod rm -f -t 10 $pods`,
    `ids=$(podman ps -aq --filter label=${LABEL}); [ -z "$ids" ] || podman rm -f -t 10 $ids`,
    `vols=$(podman volume ls -q --filter label=${LABEL}); [ -z "$vols" ] || podman volume rm -f $vols`,
    `podman network rm -f ${NETWORK}`,
  ].join('\n');
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

export interface ContainersConfig {
  port: number;
  devIdpPort: number;
  /** DEV_IDP_PORT unset: 8081, or another free port when 8081 is taken. */
  devIdpPortDefault?: boolean;
  databaseUrl?: string;
  natsUrl?: string;
  natsStream?: string;
  adminEmails: string[];
  trustProxy?: string;
  logLevel?: string;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function configFromEnv(env: Record<string, string | undefined>): ContainersConfig {
  const port = (name: string, fallback: number) => {
    const value = Number(env[name] || fallback);
    if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name}: expected a port number`);
    return value;
  };
  return {
    port: port('PORT', 8080),
    devIdpPort: port('DEV_IDP_PORT', 8081),
    devIdpPortDefault: !env.DEV_IDP_PORT,
    databaseUrl: env.DATABASE_URL || undefined,
    natsUrl: env.NATS_URL || undefined,
    natsStream: env.NATS_STREAM || undefined,
    adminEmails: (env.ADMIN_EMAILS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    trustProxy: env.TRUST_PROXY || undefined,
    logLevel: env.LOG_LEVEL || undefined,
  };
}

/** `helm template` arguments for the container run's values and this run's configuration. */
export function helmArgs(config: ContainersConfig, urls: { databaseUrl: string; natsUrl: string }): string[] {
  const args = ['template', RELEASE, join(root, 'deploy/helm/snapcracks'), '-f', join(root, 'deploy/containers/values.yaml')];
  const set = (key: string, value: string) => args.push('--set-string', `${key}=${value}`);
  set('image.repository', 'localhost/snapcracks');
  set('image.tag', TAG);
  set('secrets.values.DATABASE_URL', urls.databaseUrl);
  set('secrets.values.NATS_URL', urls.natsUrl);
  set('gateway.publicUrl', `http://localhost:${config.port}`);
  args.push('--set', `devIdp.port=${config.devIdpPort}`);
  if (config.adminEmails.length) args.push('--set-json', `config.adminEmails=${JSON.stringify(config.adminEmails)}`);
  if (config.trustProxy !== undefined) args.push('--set-json', `gateway.trustProxy=${/^\d+$/.test(config.trustProxy) ? config.trustProxy : JSON.stringify(config.trustProxy === 'false' ? false : config.trustProxy)}`);
  if (config.logLevel) set('config.logLevel', config.logLevel);
  return args;
}

/** A throwaway PostgreSQL and NATS from Debian's packages (bookworm minbase), made once. */
function ensureDepsImage(): void {
  if (spawnSync('podman', ['image', 'exists', DEPS_IMAGE]).status === 0) return;
  log(`making ${DEPS_IMAGE} (Debian bookworm minbase with postgresql-15 and nats-server)`);
  const work = mkdtempSync(join(tmpdir(), 'snapcracks-deps-'));
  try {
    const result = spawnSync(
      'mmdebstrap',
      [
        '--variant=minbase',
        '--quiet',
        '--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr',
        '--include=postgresql-15,nats-server',
        ...['/usr/share/doc/*', '/usr/share/man/*', '/usr/share/locale/*'].map((p) => `--dpkgopt=path-exclude=${p}`),
        '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*',
        'bookworm',
        join(work, 'deps.tar'),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (result.status !== 0) throw new Error('mmdebstrap failed');
    podman(['import', join(work, 'deps.tar'), DEPS_IMAGE]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const RELAY = 'snapcracks-containers-relay';

/**
 * A URL for the containers to reach `url` by. A server on this machine's loopback (the machine's PostgreSQL and NATS,
 * the tests' databases) is out of a container's reach: a relay on the host's network, listening on the podman
 * network's gateway address only, forwards to it.
 */
export function relayedUrl(url: string, gateway: string): { url: string; relay?: { listen: number; target: string } } {
  const parsed = new URL(url);
  if (!LOOPBACK.has(parsed.hostname)) return { url };
  const port = Number(parsed.port || (parsed.protocol === 'nats:' ? 4222 : 5432));
  const target = `${parsed.hostname.replace(/^\[|\]$/g, '')}:${port}`;
  parsed.hostname = gateway;
  parsed.port = String(port);
  return { url: parsed.toString(), relay: { listen: port, target } };
}

const RELAY_SCRIPT = `const net = require('node:net');
const [host, ...routes] = process.argv.slice(1);
for (const route of routes) {
  const [listen, targetHost, targetPort] = route.split(':');
  net.createServer((client) => {
    const upstream = net.connect(Number(targetPort), targetHost);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  }).listen(Number(listen), host);
}`;

async function startRelay(gateway: string, relays: { listen: number; target: string }[]): Promise<void> {
  if (!relays.length) return;
  // podman brings the network's bridge (and so its gateway address) up with its first container.
  podman([
    'run', '--detach', '--name', `${RELAY}-network`, '--label', LABEL, '--network', NETWORK, '--user', '10001:10001', '--read-only',
    '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges', '--entrypoint', '["sleep","infinity"]', imageName('migrate', TAG),
  ]);
  podman([
    'run', '--detach', '--name', RELAY, '--label', LABEL, '--network', 'host', '--user', '10001:10001', '--read-only',
    '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges', '--entrypoint', JSON.stringify(['node', '-e', RELAY_SCRIPT]),
    imageName('migrate', TAG), gateway, ...relays.map((r) => `${r.listen}:${r.target}`),
  ]);
  for (const relay of relays) await waitFor(`the relay to ${relay.target}`, () => connects(gateway, relay.listen), 10_000);
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function startDeps(config: ContainersConfig): Promise<{ databaseUrl: string; natsUrl: string }> {
  const gateway = podman(['network', 'inspect', NETWORK, '--format', '{{range .Subnets}}{{.Gateway}}{{end}}']);
  const database = config.databaseUrl ? relayedUrl(config.databaseUrl, gateway) : undefined;
  const nats = config.natsUrl ? relayedUrl(config.natsUrl, gateway) : undefined;
  await startRelay(gateway, [database?.relay, nats?.relay].filter((r) => r !== undefined));
  if (!database || !nats) ensureDepsImage();
  const common = ['run', '--detach', '--label', LABEL, '--network', NETWORK, '--read-only', '--read-only-tmpfs=false', '--tmpfs', '/tmp:rw,mode=1777', '--tmpfs', '/var/run/postgresql:rw,mode=1777'];
  if (!database) {
    podman([
      ...common,
      '--name',
      POSTGRES,
      '--user',
      'postgres',
      '--entrypoint',
      '["/bin/sh","-c"]',
      DEPS_IMAGE,
      'export PATH=/usr/lib/postgresql/15/bin:$PATH; initdb -D /tmp/pg -U postgres --auth=trust >/dev/null && ' +
        // Trusted from the private network only: a throwaway server that nothing outside it can reach.
        "echo 'host all all samenet trust' >> /tmp/pg/pg_hba.conf && " +
        "exec postgres -D /tmp/pg -c listen_addresses='*' -c unix_socket_directories=/tmp -c max_connections=200 -c fsync=off",
    ]);
    await waitFor('PostgreSQL', () => spawnSync('podman', ['exec', POSTGRES, '/usr/lib/postgresql/15/bin/pg_isready', '-h', '/tmp', '-q']).status === 0, 60_000);
    podman(['exec', POSTGRES, '/usr/lib/postgresql/15/bin/createdb', '-h', '/tmp', '-U', 'postgres', 'snapcracks']);
  }
  if (!nats) podman([...common, '--name', NATS, '--user', '65534:65534', DEPS_IMAGE, 'nats-server', '-js', '-sd', '/tmp/nats', '-p', '4222']);
  return {
    databaseUrl: database?.url ?? `postgresql://postgres@${POSTGRES}:5432/snapcracks`,
    natsUrl: nats?.url ?? `nats://${NATS}:4222`,
  };
}

async function runMigrations(plan: Plan): Promise<void> {
  const { pod: _pod, ...migrate } = plan.migrate;
  const args = runArgs(migrate as ContainerPlan, { network: NETWORK, label: LABEL });
  podman(['run', ...args]);
  const exit = Number(podman(['wait', migrate.name]));
  if (exit !== 0) {
    spawnSync('podman', ['logs', migrate.name], { stdio: ['ignore', 'inherit', 'inherit'] });
    throw new Error(`the migration job exited with ${exit}`);
  }
  podman(['rm', migrate.name]);
}

export async function startContainers(config: ContainersConfig, options: { build: boolean }): Promise<{ url: string; plan: Plan }> {
  const started = Date.now();
  stopAll();
  if (options.build) {
    const rows = buildImages({ log });
    log(sizeTable(rows).text);
  } else {
    for (const name of IMAGE_COMPONENT_NAMES) {
      if (spawnSync('podman', ['image', 'exists', imageName(name, TAG)]).status !== 0) throw new Error(`${imageName(name, TAG)} is missing: run without --no-build`);
    }
  }
  const afterBuild = Date.now();
  podman(['network', 'create', '--label', LABEL, NETWORK]);
  const urls = await startDeps(config);
  // 8081 unless taken (another run, the all-in-one's provider): the issuer is whatever port it gets.
  if (config.devIdpPortDefault && !(await portFree(config.devIdpPort))) config.devIdpPort = await freePort();
  const plan = planFromChart(parseRendered(await runHelm(helmArgs(config, urls))), {
    volumePrefix: 'snapcracks-containers-',
    nodeName: hostname(),
    publish: { gateway: [`127.0.0.1:${config.port}:8080`, `127.0.0.1:${config.devIdpPort}:${config.devIdpPort}`] },
    extraEnv: config.natsStream ? { NATS_STREAM: config.natsStream } : {},
    // The chart's sidecar listens on the pod's loopback (kubectl port-forward reaches that); podman's published
    // port arrives on the pod's network address, so here it listens on the pod's every address.
    containerEnv: { 'dev-idp': { DEV_IDP_HOST: '0.0.0.0' } },
  });
  for (const volume of plan.volumes) podman(['volume', 'create', '--label', LABEL, volume]);
  // Each pod's metrics port (9464, never published by the chart) on a loopback port of its own, for scrapes and tests.
  const metrics: Record<string, string> = {};
  for (const pod of plan.pods) {
    const port = await freePort();
    pod.publish.push(`127.0.0.1:${port}:9464`);
    const replicas = plan.pods.filter((p) => p.component === pod.component);
    metrics[replicas.length > 1 ? `${pod.component}-${replicas.indexOf(pod) + 1}` : pod.component] = `http://127.0.0.1:${port}`;
  }
  mkdirSync(STATE_DIR, { recursive: true });
  writeFileSync(join(STATE_DIR, 'metrics.json'), `${JSON.stringify(metrics, null, 2)}\n`);

  log('running the migration job');
  await runMigrations(plan);
  for (const pod of plan.pods) {
    podman(['pod', 'create', ...podArgs(pod, NETWORK, LABEL)]);
    for (const container of pod.containers) podman(['run', ...runArgs(container, { pod: pod.name, label: LABEL })]);
  }
  log(`started ${plan.pods.length} pods (${plan.pods.map((p) => p.name).join(', ')})`);
  await waitUntilProductReady(
    { readyz: `http://127.0.0.1:${config.port}/readyz`, gatewayInternal: metrics.gateway!, internals: metrics },
    { timeoutMs: 180_000 },
  );
  const url = `http://localhost:${config.port}`;
  log(`ready ${((Date.now() - afterBuild) / 1000).toFixed(1)} s after the images (${((Date.now() - started) / 1000).toFixed(1)} s in all)`);
  return { url, plan };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'no-build': { type: 'boolean' }, detach: { type: 'boolean' }, stop: { type: 'boolean' } } });
  if (values.stop) {
    stopAll();
    log('stopped');
    process.exit(0);
  }
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping the containers');
    stopAll();
    process.exit(code);
  };
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  const config = configFromEnv(process.env);
  if (!values.detach) startWatchdog();
  try {
    const { url } = await startContainers(config, { build: !values['no-build'] });
    const admins = config.adminEmails.length ? ` (admins: ${config.adminEmails.join(', ')})` : '; set ADMIN_EMAILS=you@example.com to become an admin';
    process.stdout.write(
      `\n  Snap Cracks is running at ${url}, each component in its own container.\n  Sign in with any email and name on the development sign-in page${admins}.\n` +
        (values.detach ? `  Stop it with: pnpm start:containers --stop\n\n` : '  Press Ctrl-C to stop.\n\n'),
    );
    if (values.detach) process.exit(0);
    // Follow the gateway's log until stopped.
    const gateway = spawn('podman', ['logs', '--follow', `${RELEASE}-gateway-0-gateway`], { stdio: ['ignore', 'inherit', 'inherit'] });
    gateway.on('exit', () => undefined);
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    stop(1);
  }
}

