/**
 * What `pnpm start:split` runs: every component as its own process, wired as the Helm chart wires the pods (each
 * service told where its peers are, several replicas of photo and vote behind one gRPC target), on this machine.
 */
import { SERVICE_PEERS } from '../../services/kit/src/call-graph.js';
import { SERVICE_NAMES, type ServiceName } from '../../services/kit/src/component.js';

export interface SplitProcess {
  /** e.g. `vote-2`: the component and, when it has several replicas, which one. */
  name: string;
  component: ServiceName | 'gateway' | 'dev-idp';
  /** The TypeScript entry point, relative to the repository root. */
  entry: string;
  env: Record<string, string>;
}

export interface SplitOptions {
  /** Replicas per service (default 1). */
  replicas: Partial<Record<ServiceName, number>>;
  /** Each component's own connection string (its own database role), given to its processes as DATABASE_URL. */
  databaseUrls: Record<ServiceName | 'gateway', string>;
  /** Settings every process gets (NATS, identity, log level…). */
  common: Record<string, string>;
  /** Settings of the gateway alone (port, sessions, identity provider…). */
  gateway: Record<string, string>;
  /** Settings of one service alone (ADMIN_EMAILS for auth, DATA_DIR for storage…). */
  service: Partial<Record<ServiceName, Record<string, string>>>;
  /** A free port each time it is called: gRPC and metrics ports. */
  ports: () => Promise<number>;
}

export async function splitTopology(options: SplitOptions): Promise<SplitProcess[]> {
  const replicas = (name: ServiceName) => Math.max(1, options.replicas[name] ?? 1);
  const grpcPorts = new Map<ServiceName, number[]>();
  for (const name of SERVICE_NAMES) {
    const ports: number[] = [];
    for (let i = 0; i < replicas(name); i++) ports.push(await options.ports());
    grpcPorts.set(name, ports);
  }
  // One gRPC target per service listing every replica: the clients' round-robin spreads calls over them, as it does
  // over a headless Service's addresses in Kubernetes.
  const target = (name: ServiceName) => `ipv4:${grpcPorts.get(name)!.map((port) => `127.0.0.1:${port}`).join(',')}`;
  const peers = (names: readonly ServiceName[]) => Object.fromEntries(names.map((name) => [`${name.toUpperCase()}_SERVICE_ADDR`, target(name)]));

  const processes: SplitProcess[] = [];
  for (const name of SERVICE_NAMES) {
    const ports = grpcPorts.get(name)!;
    for (const [index, port] of ports.entries()) {
      processes.push({
        name: ports.length > 1 ? `${name}-${index + 1}` : name,
        component: name,
        entry: `services/${name}/src/main.ts`,
        env: {
          ...options.common,
          DATABASE_URL: options.databaseUrls[name],
          ...options.service[name],
          // The peers it calls (SERVICE_PEERS); the gateway calls every service.
          ...peers(SERVICE_PEERS[name]),
          GRPC_HOST: '127.0.0.1',
          GRPC_PORT: String(port),
          METRICS_PORT: String(await options.ports()),
        },
      });
    }
  }
  processes.push({
    name: 'gateway',
    component: 'gateway',
    entry: 'gateway/src/main.ts',
    env: { ...options.common, DATABASE_URL: options.databaseUrls.gateway, ...options.gateway, ...peers(SERVICE_NAMES), METRICS_PORT: String(await options.ports()) },
  });
  return processes;
}
