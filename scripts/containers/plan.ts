/**
 * From the rendered Helm chart to podman (start.ts): each Deployment replica becomes a podman pod (its own
 * network namespace, as a Kubernetes pod) with the pod's containers, sidecars first; the migration Job becomes
 * one container run to completion. Environment, user, read-only root, dropped capabilities, no new privileges,
 * emptyDir volumes (tmpfs) and claims (podman volumes) come from the rendered objects; each replica answers to
 * the names of the Services that select it, so `dns:///<release>-<peer>-headless:50051` resolves to every replica.
 */
import { parseAllDocuments } from 'yaml';

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered Kubernetes objects, read field by field */
type K8sObject = any;

export interface ContainerPlan {
  name: string;
  image: string;
  env: [string, string][];
  user?: string;
  readOnly: boolean;
  capDrop: string[];
  noNewPrivileges: boolean;
  tmpfs: { path: string; sizeLimit?: string }[];
  volumes: { name: string; path: string }[];
  command?: string[];
}

export interface PodPlan {
  name: string;
  component: string;
  aliases: string[];
  publish: string[];
  containers: ContainerPlan[];
}

export interface Plan {
  migrate: ContainerPlan & { pod: string };
  pods: PodPlan[];
  volumes: string[];
}

export interface PlanOptions {
  /** Host port → container port, per component (the gateway's HTTP port, the identity provider's). */
  publish: Record<string, string[]>;
  /** Added to every container's environment after the rendered one (e.g. NATS_STREAM). */
  extraEnv?: Record<string, string>;
  /** Per container name, added after the rendered environment (podman-only needs, e.g. the identity provider's address). */
  containerEnv?: Record<string, Record<string, string>>;
  namespace?: string;
  nodeName?: string;
  /** Prefix of the podman volumes made for the chart's PersistentVolumeClaims. */
  volumePrefix: string;
}

export function parseRendered(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as K8sObject)
    .filter((o) => o && typeof o === 'object' && o.kind);
}

/** Kubernetes' `$(VAR)` references to earlier variables of the same container; `$$(` stays literal. */
export function expandReferences(value: string, defined: Map<string, string>): string {
  return value.replace(/\$\$\(|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (match, name: string | undefined) => {
    if (name === undefined) return '$(';
    return defined.has(name) ? defined.get(name)! : match;
  });
}

const decodeData = (object: K8sObject): Record<string, string> => ({
  ...Object.fromEntries(Object.entries(object.data ?? {}).map(([k, v]) => [k, object.kind === 'Secret' ? Buffer.from(String(v), 'base64').toString('utf8') : String(v)])),
  ...(object.stringData ?? {}),
});

function resolveEnv(container: K8sObject, objects: K8sObject[], pod: { name: string; namespace: string; nodeName: string }): [string, string][] {
  const lookup = (kind: string, name: string, key?: string) => {
    const object = objects.find((o) => o.kind === kind && o.metadata?.name === name);
    if (!object) throw new Error(`${container.name}: ${kind} ${name} is not in the rendered chart`);
    const data = decodeData(object);
    return key === undefined ? data : data[key];
  };
  const defined = new Map<string, string>();
  for (const source of container.envFrom ?? []) {
    const ref = source.secretRef ?? source.configMapRef;
    const data = lookup(source.secretRef ? 'Secret' : 'ConfigMap', ref.name) as Record<string, string>;
    for (const [k, v] of Object.entries(data)) defined.set(`${source.prefix ?? ''}${k}`, v);
  }
  for (const variable of container.env ?? []) {
    let value: string | undefined;
    if (variable.value !== undefined) value = expandReferences(String(variable.value), defined);
    else if (variable.valueFrom?.secretKeyRef) value = lookup('Secret', variable.valueFrom.secretKeyRef.name, variable.valueFrom.secretKeyRef.key) as string | undefined;
    else if (variable.valueFrom?.configMapKeyRef) value = lookup('ConfigMap', variable.valueFrom.configMapKeyRef.name, variable.valueFrom.configMapKeyRef.key) as string | undefined;
    else if (variable.valueFrom?.fieldRef) {
      const field = variable.valueFrom.fieldRef.fieldPath as string;
      const fields: Record<string, string> = { 'metadata.name': pod.name, 'metadata.namespace': pod.namespace, 'spec.nodeName': pod.nodeName };
      value = fields[field];
      if (value === undefined) throw new Error(`${container.name}: the downward API field ${field} has no podman equivalent`);
    } else throw new Error(`${container.name}: ${variable.name}: unsupported valueFrom`);
    if (value !== undefined) defined.set(variable.name, value);
  }
  return [...defined];
}

function containerPlan(container: K8sObject, podSpec: K8sObject, objects: K8sObject[], pod: { name: string; namespace: string; nodeName: string }, options: PlanOptions): ContainerPlan {
  const security = { ...(podSpec.securityContext ?? {}), ...(container.securityContext ?? {}) };
  const volumes = new Map<string, K8sObject>((podSpec.volumes ?? []).map((v: K8sObject) => [v.name, v]));
  const plan: ContainerPlan = {
    name: `${pod.name}-${container.name}`,
    image: container.image,
    env: resolveEnv(container, objects, pod),
    readOnly: security.readOnlyRootFilesystem === true,
    capDrop: security.capabilities?.drop ?? [],
    noNewPrivileges: security.allowPrivilegeEscalation === false,
    tmpfs: [],
    volumes: [],
  };
  if (security.runAsUser !== undefined) plan.user = `${security.runAsUser}:${security.runAsGroup ?? security.runAsUser}`;
  if (container.command) plan.command = [...container.command, ...(container.args ?? [])];
  for (const mount of container.volumeMounts ?? []) {
    const volume = volumes.get(mount.name);
    if (!volume) throw new Error(`${container.name}: volume ${mount.name} is not defined`);
    if (volume.emptyDir) plan.tmpfs.push({ path: mount.mountPath, ...(volume.emptyDir.sizeLimit ? { sizeLimit: String(volume.emptyDir.sizeLimit) } : {}) });
    else if (volume.persistentVolumeClaim) plan.volumes.push({ name: `${options.volumePrefix}${volume.persistentVolumeClaim.claimName}`, path: mount.mountPath });
    else throw new Error(`${container.name}: volume ${mount.name}: only emptyDir and persistentVolumeClaim run in podman`);
  }
  const extra = { ...(options.extraEnv ?? {}), ...(options.containerEnv?.[container.name] ?? {}) };
  for (const [k, v] of Object.entries(extra)) {
    plan.env = plan.env.filter(([name]) => name !== k);
    plan.env.push([k, v]);
  }
  return plan;
}

const componentOf = (object: K8sObject): string => object.metadata?.labels?.['app.kubernetes.io/component'] ?? object.metadata?.name;

/** The podman pods, containers and volumes for a rendered chart. */
export function planFromChart(objects: K8sObject[], options: PlanOptions): Plan {
  const namespace = options.namespace ?? 'default';
  const nodeName = options.nodeName ?? 'podman';
  const services = objects.filter((o) => o.kind === 'Service');
  const pods: PodPlan[] = [];
  for (const deployment of objects.filter((o) => o.kind === 'Deployment')) {
    const template = deployment.spec.template;
    const labels = template.metadata?.labels ?? {};
    const aliases = services
      .filter((s) => s.spec?.selector && Object.entries(s.spec.selector).every(([k, v]) => labels[k] === v))
      .map((s) => s.metadata.name as string);
    const component = componentOf(deployment);
    for (let replica = 0; replica < (deployment.spec.replicas ?? 1); replica++) {
      const pod = { name: `${deployment.metadata.name}-${replica}`, namespace, nodeName };
      // Sidecars (init containers that keep running) start first, as the kubelet starts them.
      const sidecars = (template.spec.initContainers ?? []).filter((c: K8sObject) => c.restartPolicy === 'Always');
      if ((template.spec.initContainers ?? []).length !== sidecars.length) throw new Error(`${deployment.metadata.name}: init containers that exit are not run in podman`);
      pods.push({
        name: pod.name,
        component,
        aliases,
        publish: replica === 0 ? (options.publish[component] ?? []) : [],
        containers: [...sidecars, ...template.spec.containers].map((c: K8sObject) => containerPlan(c, template.spec, objects, pod, options)),
      });
    }
  }
  const job = objects.find((o) => o.kind === 'Job' && componentOf(o) === 'migrate') ?? objects.find((o) => o.kind === 'Job');
  if (!job) throw new Error('the rendered chart has no migration Job');
  const jobPod = { name: `${job.metadata.name}-0`, namespace, nodeName };
  const jobContainers = job.spec.template.spec.containers as K8sObject[];
  const migrate = { ...containerPlan(jobContainers[0], job.spec.template.spec, objects, jobPod, options), pod: jobPod.name };
  const volumes = objects.filter((o) => o.kind === 'PersistentVolumeClaim').map((o) => `${options.volumePrefix}${o.metadata.name}`);
  return { migrate, pods, volumes };
}

/** `podman run` arguments (after `run`) for one planned container. */
export function runArgs(container: ContainerPlan, placement: { pod?: string; network?: string; label: string }): string[] {
  const args = ['--detach', '--name', container.name, '--label', placement.label];
  if (placement.pod) args.push('--pod', placement.pod);
  if (placement.network) args.push('--network', placement.network);
  if (container.user) args.push('--user', container.user);
  // podman's --read-only adds tmpfs on /tmp, /var/tmp and /run by itself; only the chart's own volumes are wanted.
  if (container.readOnly) args.push('--read-only', '--read-only-tmpfs=false');
  for (const cap of container.capDrop) args.push('--cap-drop', cap);
  if (container.noNewPrivileges) args.push('--security-opt', 'no-new-privileges');
  for (const tmpfs of container.tmpfs) args.push('--tmpfs', `${tmpfs.path}:rw,nosuid,nodev,mode=1777${tmpfs.sizeLimit ? `,size=${tmpfsSize(tmpfs.sizeLimit)}` : ''}`);
  for (const volume of container.volumes) args.push('--volume', `${volume.name}:${volume.path}:U`);
  for (const [name, value] of container.env) args.push('--env', `${name}=${value}`);
  if (container.command) args.push('--entrypoint', JSON.stringify(container.command));
  args.push(container.image);
  return args;
}

/** Kubernetes quantities (64Mi, 1Gi, 500M) as tmpfs sizes. */
export function tmpfsSize(quantity: string): string {
  const match = /^(\d+)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity);
  if (!match) throw new Error(`unsupported size ${quantity}`);
  const units: Record<string, number> = { '': 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, K: 1e3, M: 1e6, G: 1e9 };
  return String(Number(match[1]) * units[match[2] ?? '']!);
}

/** `podman pod create` arguments (after `pod create`). */
export function podArgs(pod: PodPlan, network: string, label: string): string[] {
  const args = ['--name', pod.name, '--label', label, '--network', network, '--hostname', pod.name];
  for (const alias of pod.aliases) args.push('--network-alias', alias);
  for (const publish of pod.publish) args.push('--publish', publish);
  return args;
}
