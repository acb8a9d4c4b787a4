{{/* The port every gRPC service listens on (GRPC_PORT's default). */}}
{{- define "snapcracks.grpcPort" -}}50051{{- end }}

{{/* The gateway's HTTP port (PORT's default). */}}
{{- define "snapcracks.httpPort" -}}8080{{- end }}

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
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: snapcracks
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
{{- end }}

{{- define "snapcracks.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
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

{{- define "snapcracks.secretName" -}}
{{- .Values.secrets.name | default (include "snapcracks.fullname" .) }}
{{- end }}

{{- define "snapcracks.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "snapcracks.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/* gRPC address of a service inside the cluster. Args: ctx, component. */}}
{{- define "snapcracks.serviceAddr" -}}
{{- printf "%s:%s" (include "snapcracks.componentName" .) (include "snapcracks.grpcPort" .ctx) }}
{{- end }}

{{/*
Environment every component gets. Secrets come by reference to the Secret, one key at a time, so each
pod sees only what it needs. Args: ctx, component, secretKeys.
*/}}
{{- define "snapcracks.commonEnv" -}}
- name: SERVICE
  value: {{ .component | quote }}
- name: LOG_LEVEL
  value: {{ .ctx.Values.config.logLevel | quote }}
{{- with .ctx.Values.config.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- $secret := include "snapcracks.secretName" .ctx }}
{{- range .secretKeys }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ . }}
{{- end }}
{{- if ne .component "migrate" }}
{{- if .ctx.Values.secrets.create }}
{{- /* Development clusters: every component's identity key derived from one generated secret, which only
       works outside production (a pod holding it could sign as any component). */}}
- name: NODE_ENV
  value: development
- name: IDENTITY_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: IDENTITY_SECRET
{{- else }}
{{- /* Its own Ed25519 private key and everyone's public keys: it can sign as itself and nothing else. */}}
- name: IDENTITY_PRIVATE_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ upper .component }}_IDENTITY_PRIVATE_KEY
- name: IDENTITY_PUBLIC_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: IDENTITY_PUBLIC_KEYS
{{- end }}
{{- end }}
{{- end }}

{{/* <PEER>_SERVICE_ADDR for each enabled peer. Args: ctx, peers. */}}
{{- define "snapcracks.peerEnv" -}}
{{- range .peers }}
{{- if (get $.ctx.Values.services .).enabled }}
- name: {{ upper . }}_SERVICE_ADDR
  value: {{ include "snapcracks.serviceAddr" (dict "ctx" $.ctx "component" .) | quote }}
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

{{/* Container fields every container shares: the image, a read-only root and no privileges. */}}
{{- define "snapcracks.containerCommon" -}}
image: {{ include "snapcracks.image" . }}
imagePullPolicy: {{ .Values.image.pullPolicy }}
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

{{/* The only writable place besides data volumes: tsx's compile cache and upload buffers live in /tmp. */}}
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
Secret is read only at start: restart the deployments after changing it).
*/}}
{{- define "snapcracks.podAnnotations" -}}
{{- if .Values.secrets.create }}
checksum/secret: {{ toJson .Values.secrets.values | sha256sum }}
{{- end }}
{{- with .Values.podAnnotations }}
{{ toYaml . }}
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

{{/* Combinations values.schema.json cannot express. */}}
{{- define "snapcracks.validate" -}}
{{- range $name, $svc := .Values.services }}
{{- with $svc.persistence }}
{{- if and .enabled (gt (int $svc.replicas) 1) (not (has "ReadWriteMany" .accessModes)) }}
{{- fail (printf "services.%s.replicas: more than one replica needs a ReadWriteMany volume (persistence.accessModes)" $name) }}
{{- end }}
{{- end }}
{{- if has $name $svc.calls }}
{{- fail (printf "services.%s.calls: a service does not call itself" $name) }}
{{- end }}
{{- end }}
{{- end }}
