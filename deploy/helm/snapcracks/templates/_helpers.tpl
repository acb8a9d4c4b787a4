{{/* The port every gRPC service listens on (GRPC_PORT). */}}
{{- define "snapcracks.grpcPort" -}}50051{{- end }}

{{/* The gateway's HTTP port (PORT). */}}
{{- define "snapcracks.httpPort" -}}8080{{- end }}

{{/* Every component's internal HTTP port: /metrics, and /readyz/detail on the gateway (METRICS_PORT). */}}
{{- define "snapcracks.metricsPort" -}}9464{{- end }}

{{- define "snapcracks.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-wide prefix of every object's name: the release name, unless it lacks the chart's name. */}}
{{- define "snapcracks.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Name of one component's objects, e.g. snapcracks-auth. Args: ctx (root), component. */}}
{{- define "snapcracks.componentName" -}}
{{- printf "%s-%s" (include "snapcracks.fullname" .ctx) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The headless Service of a gRPC service, whose A records are its ready pods. Args: ctx, component. */}}
{{- define "snapcracks.headlessName" -}}
{{- printf "%s-headless" (include "snapcracks.componentName" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that select a component's pods; without component, every pod of the release. Args: ctx, component. */}}
{{- define "snapcracks.selectorLabels" -}}
app.kubernetes.io/name: {{ include "snapcracks.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
{{- with .component }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end }}

{{/* Args: ctx, component (optional). */}}
{{- define "snapcracks.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .ctx.Chart.Name .ctx.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "snapcracks.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Values.image.tag | default .ctx.Chart.AppVersion | splitList "@" | first | trunc 63 | quote }}
app.kubernetes.io/part-of: snapcracks
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
{{- end }}

{{/*
A component's image: image.overrides.<component>, else <repository>-<image name>:<tag>. The image names are
snapcracks-<component> (snapcracks-dev-idp for devIdp). Args: ctx, component (a key of image.overrides).
*/}}
{{- define "snapcracks.image" -}}
{{- $image := .ctx.Values.image }}
{{- $override := get $image.overrides .component }}
{{- if $override }}
{{- $override }}
{{- else }}
{{- $name := ternary "dev-idp" .component (eq .component "devIdp") }}
{{- printf "%s-%s:%s" $image.repository $name ($image.tag | default .ctx.Chart.AppVersion) }}
{{- end }}
{{- end }}

{{/* PUBLIC_URL: gateway.publicUrl, else derived from the ingress host; empty when neither is known. */}}
{{- define "snapcracks.publicUrl" -}}
{{- $gw := .Values.gateway }}
{{- if $gw.publicUrl }}
{{- $gw.publicUrl }}
{{- else if and $gw.ingress.enabled $gw.ingress.host }}
{{- printf "%s://%s" (ternary "https" "http" $gw.ingress.tls.enabled) $gw.ingress.host }}
{{- end }}
{{- end }}

{{/* OIDC_ISSUER: the development identity provider beside the gateway, or config.oidcIssuer. */}}
{{- define "snapcracks.oidcIssuer" -}}
{{- if .Values.devIdp.enabled }}
{{- printf "http://127.0.0.1:%d" (int .Values.devIdp.port) }}
{{- else }}
{{- .Values.config.oidcIssuer }}
{{- end }}
{{- end }}

{{- define "snapcracks.secretName" -}}
{{- .Values.secrets.name | default (include "snapcracks.fullname" .) }}
{{- end }}

{{/* Args: ctx, component, spec (the component's values; empty for migrate). */}}
{{- define "snapcracks.serviceAccountName" -}}
{{- $own := "" }}
{{- with .spec }}{{ with .serviceAccount }}{{ $own = .name }}{{ end }}{{ end }}
{{- if .ctx.Values.serviceAccount.create }}
{{- $own | default (include "snapcracks.componentName" .) }}
{{- else }}
{{- .ctx.Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/* Every enabled component's values by name, as JSON: the gateway and each enabled service. */}}
{{- define "snapcracks.components" -}}
{{- $components := dict "gateway" .Values.gateway }}
{{- range $name, $svc := .Values.services }}
{{- if $svc.enabled }}
{{- $_ := set $components $name $svc }}
{{- end }}
{{- end }}
{{- toJson $components }}
{{- end }}

{{/* True ("true") when a component's volume allows one node at a time, so its rollout must stop the old pod first. Args: spec. */}}
{{- define "snapcracks.recreate" -}}
{{- with .persistence }}
{{- if and .enabled (not (has "ReadWriteMany" .accessModes)) }}true{{ end }}
{{- end }}
{{- end }}

{{/* The most pods a component runs outside a rollout. Args: spec. */}}
{{- define "snapcracks.maxReplicas" -}}
{{- if .autoscaling.enabled }}{{ .autoscaling.maxReplicas | int }}{{ else }}{{ .replicas | int }}{{ end }}
{{- end }}

{{/* The fewest. Args: spec. */}}
{{- define "snapcracks.minReplicas" -}}
{{- if .autoscaling.enabled }}{{ .autoscaling.minReplicas | int }}{{ else }}{{ .replicas | int }}{{ end }}
{{- end }}

{{/* Extra pods during a rollout: none for a Recreate rollout. Args: spec. */}}
{{- define "snapcracks.surge" -}}
{{- if include "snapcracks.recreate" . }}0{{ else }}{{ .maxSurge | int }}{{ end }}
{{- end }}

{{/*
Connections the release may hold at once: each component's pool times its most replicas plus its rollout
surge (every Deployment rolls at the same time during an upgrade), plus the migration job. JSON: total, parts.
*/}}
{{- define "snapcracks.connections" -}}
{{- $total := int .Values.migrate.databasePoolMax }}
{{- $parts := list }}
{{- range $name, $spec := include "snapcracks.components" . | fromJson }}
{{- $replicas := include "snapcracks.maxReplicas" $spec | int }}
{{- $surge := include "snapcracks.surge" $spec | int }}
{{- $pool := int $spec.databasePoolMax }}
{{- $n := mul (add $replicas $surge) $pool }}
{{- $total = add $total $n }}
{{- $parts = append $parts (printf "%s (%d+%d)×%d=%d" $name $replicas $surge $pool $n) }}
{{- end }}
{{- $parts = append $parts (printf "migrate %d" (int .Values.migrate.databasePoolMax)) }}
{{- toJson (dict "total" $total "parts" (join ", " $parts)) }}
{{- end }}

{{/* SHUTDOWN_TIMEOUT_MS: the grace period minus the preStop pause minus a margin (values.yaml explains). */}}
{{- define "snapcracks.shutdownTimeoutMs" -}}
{{- mul (sub (sub (int .Values.terminationGracePeriodSeconds) (int .Values.shutdown.preStopSeconds)) (int .Values.shutdown.marginSeconds)) 1000 }}
{{- end }}

{{/*
The Secret key of a component's own connection string, e.g. AUTH_DATABASE_URL: its own database role, which the
migration job creates and confines to the component's schema (services/migrate). Args: the component's name.
*/}}
{{- define "snapcracks.databaseUrlKey" -}}
{{- printf "%s_DATABASE_URL" (upper .) }}
{{- end }}

{{- define "snapcracks.secretRef" -}}
valueFrom:
  secretKeyRef:
    name: {{ .name }}
    key: {{ .key }}
    {{- if .optional }}
    optional: true
    {{- end }}
{{- end }}

{{/*
Environment every component gets, in dependency order (the downward-API variables come before
OTEL_RESOURCE_ATTRIBUTES, which refers to them). Secrets come by reference to the Secret, one key at a time,
so each pod sees only what it needs. Args: ctx, component, spec, secretKeys.
*/}}
{{- define "snapcracks.commonEnv" -}}
{{- $v := .ctx.Values }}
{{- $secret := include "snapcracks.secretName" .ctx }}
{{- $job := eq .component "migrate" }}
- name: K8S_POD_NAME
  valueFrom: { fieldRef: { fieldPath: metadata.name } }
- name: K8S_NAMESPACE_NAME
  valueFrom: { fieldRef: { fieldPath: metadata.namespace } }
- name: K8S_NODE_NAME
  valueFrom: { fieldRef: { fieldPath: spec.nodeName } }
{{- if $v.secrets.create }}
{{- /* Development clusters: every component's identity key derived from one generated secret, and a plain-http
       development issuer accepted; both only work outside production. */}}
- name: NODE_ENV
  value: development
{{- end }}
- name: LOG_LEVEL
  value: {{ $v.config.logLevel | quote }}
{{- /* The job connects as the admin, who owns every schema; each component as its own role (snapcracks.databaseUrlKey). */}}
- name: DATABASE_URL
  {{- include "snapcracks.secretRef" (dict "name" $secret "key" (ternary "DATABASE_URL" (include "snapcracks.databaseUrlKey" .component) $job)) | nindent 2 }}
{{- if or $job (has .component (list "stats" "photo")) }}
{{- /* Migrations, the stats rebuild and photo's medium backfill take session advisory locks: PostgreSQL itself, never a
       transaction-mode pooler. The job's is the admin's; a component's names its own role. */}}
- name: DATABASE_DIRECT_URL
  {{- include "snapcracks.secretRef" (dict "name" $secret "key" (ternary "DATABASE_DIRECT_URL" (printf "%s_DATABASE_DIRECT_URL" (upper .component)) $job) "optional" true) | nindent 2 }}
{{- end }}
- name: DATABASE_POOL_MAX
  value: {{ .spec.databasePoolMax | int | quote }}
- name: DATABASE_CONNECT_TIMEOUT_MS
  value: {{ $v.postgresql.connectTimeoutMs | int | quote }}
- name: DATABASE_STATEMENT_TIMEOUT_MS
  value: {{ (ternary $v.migrate.statementTimeoutMs $v.postgresql.statementTimeoutMs $job) | int | quote }}
{{- if not $job }}
- name: NATS_URL
  {{- include "snapcracks.secretRef" (dict "name" $secret "key" "NATS_URL") | nindent 2 }}
- name: NATS_STREAM_REPLICAS
  value: {{ $v.nats.stream.replicas | int | quote }}
- name: NATS_STREAM_STORAGE
  value: {{ $v.nats.stream.storage | quote }}
{{- with $v.nats.stream.maxAge }}
- name: NATS_STREAM_MAX_AGE
  value: {{ . | quote }}
{{- end }}
- name: NATS_DEAD_LETTER_REPLICAS
  value: {{ $v.nats.deadLetters.replicas | int | quote }}
- name: NATS_DEAD_LETTER_MAX_AGE
  value: {{ $v.nats.deadLetters.maxAge | quote }}
- name: SHUTDOWN_TIMEOUT_MS
  value: {{ include "snapcracks.shutdownTimeoutMs" .ctx | quote }}
{{- end }}
- name: METRICS_PORT
  value: {{ ternary (include "snapcracks.metricsPort" .ctx) "0" (and $v.metrics.enabled (not $job)) | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ printf "snapcracks-%s" .component | quote }}
- name: OTEL_TRACES_SAMPLER
  value: {{ $v.config.tracesSampler | quote }}
{{- with $v.config.tracesSamplerArg }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ . | quote }}
{{- end }}
{{- $attributes := list "k8s.pod.name=$(K8S_POD_NAME)" "k8s.namespace.name=$(K8S_NAMESPACE_NAME)" "k8s.node.name=$(K8S_NODE_NAME)" }}
{{- range $key, $value := $v.config.resourceAttributes }}
{{- $attributes = append $attributes (printf "%s=%s" $key $value) }}
{{- end }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ join "," $attributes | quote }}
{{- with $v.config.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- range .secretKeys }}
- name: {{ . }}
  {{- include "snapcracks.secretRef" (dict "name" $secret "key" .) | nindent 2 }}
{{- end }}
{{- if not $job }}
{{- if $v.secrets.create }}
- name: IDENTITY_SECRET
  {{- include "snapcracks.secretRef" (dict "name" $secret "key" "IDENTITY_SECRET") | nindent 2 }}
{{- else }}
{{- /* Its own Ed25519 private key and everyone's public keys: it can sign as itself and nothing else. */}}
- name: IDENTITY_PRIVATE_KEY
  {{- include "snapcracks.secretRef" (dict "name" $secret "key" (printf "%s_IDENTITY_PRIVATE_KEY" (upper .component))) | nindent 2 }}
- name: IDENTITY_PUBLIC_KEYS
  {{- include "snapcracks.secretRef" (dict "name" $secret "key" "IDENTITY_PUBLIC_KEYS") | nindent 2 }}
{{- end }}
{{- end }}
{{- end }}

{{/* <PEER>_SERVICE_ADDR for each enabled peer: its headless Service, balanced round-robin by the client. Args: ctx, peers. */}}
{{- define "snapcracks.peerEnv" -}}
{{- range .peers }}
{{- if (get $.ctx.Values.services .).enabled }}
- name: {{ upper . }}_SERVICE_ADDR
  value: {{ printf "dns:///%s:%s" (include "snapcracks.headlessName" (dict "ctx" $.ctx "component" .)) (include "snapcracks.grpcPort" $.ctx) | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* A component's extra plain variables from values (a map, rendered in key order). */}}
{{- define "snapcracks.extraEnv" -}}
{{- range $name, $value := . }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end }}

{{/*
Pod spec fields every pod shares: no API token (nothing here calls the Kubernetes API), no service-link
variables, a non-root user whose group owns mounted volumes, the runtime's default seccomp profile.
*/}}
{{- define "snapcracks.podCommon" -}}
automountServiceAccountToken: false
enableServiceLinks: false
terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  runAsGroup: 10001
  fsGroup: 10001
  fsGroupChangePolicy: OnRootMismatch
  seccompProfile:
    type: RuntimeDefault
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Container fields every container shares: the image (its ENTRYPOINT starts the component), a read-only root and no privileges. Args: ctx, component. */}}
{{- define "snapcracks.containerCommon" -}}
image: {{ include "snapcracks.image" . }}
imagePullPolicy: {{ .ctx.Values.image.pullPolicy }}
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  runAsGroup: 10001
  privileged: false
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: [ALL]
  seccompProfile:
    type: RuntimeDefault
{{- end }}

{{/* The only writable place besides data volumes: upload buffers live in /tmp. */}}
{{- define "snapcracks.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- end }}

{{- define "snapcracks.tmpMount" -}}
- name: tmp
  mountPath: /tmp
{{- end }}

{{/* Replicas spread over nodes and zones where they can be (never blocking scheduling). Args: ctx, component. */}}
{{- define "snapcracks.topologySpread" -}}
{{- range list "kubernetes.io/hostname" "topology.kubernetes.io/zone" }}
- maxSkew: 1
  topologyKey: {{ . }}
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels:
      {{- include "snapcracks.selectorLabels" $ | nindent 6 }}
  matchLabelKeys: [pod-template-hash]
{{- end }}
{{- end }}

{{/*
Pod annotations: a chart-created Secret's checksum, so pods restart when its values change (an existing
Secret is read only at start: restart the deployments after changing it). Args: ctx, spec (optional).
*/}}
{{- define "snapcracks.podAnnotations" -}}
{{- $annotations := dict }}
{{- if .ctx.Values.secrets.create }}
{{- $_ := set $annotations "checksum/secret" (toJson .ctx.Values.secrets.values | sha256sum) }}
{{- end }}
{{- $own := dict }}
{{- with .spec }}{{ with .podAnnotations }}{{ $own = . }}{{ end }}{{ end }}
{{- $annotations = merge $annotations $own (.ctx.Values.podAnnotations | default dict) }}
{{- with $annotations }}
{{- toYaml . }}
{{- end }}
{{- end }}

{{/* One NetworkPolicy egress rule from {ports, to}; an empty `to` means any destination on those ports. */}}
{{- define "snapcracks.egressRule" -}}
- ports:
    {{- range .ports }}
    - { port: {{ . }}, protocol: TCP }
    {{- end }}
  {{- with .to }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
