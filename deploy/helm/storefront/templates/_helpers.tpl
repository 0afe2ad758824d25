{{/* Names and labels. */}}
{{- define "storefront.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "storefront.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "storefront.selectorLabels" -}}
app.kubernetes.io/name: {{ include "storefront.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "storefront.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "storefront.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: storefront
{{- end -}}

{{/* The selector labels of one component: (dict "ctx" $ "component" "api"). */}}
{{- define "storefront.componentSelector" -}}
{{ include "storefront.selectorLabels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "storefront.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "storefront.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "storefront.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ default .Chart.AppVersion .Values.image.tag }}
{{- end -}}
{{- end -}}

{{- define "storefront.secretName" -}}
{{- default (printf "%s-secrets" (include "storefront.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{- define "storefront.configMapName" -}}
{{- printf "%s-config" (include "storefront.fullname" .) -}}
{{- end -}}

{{- define "storefront.mediaClaim" -}}
{{- default (printf "%s-media" (include "storefront.fullname" .)) .Values.persistence.existingClaim -}}
{{- end -}}

{{/* Whether Redis takes a password (see values.yaml, redis.auth). */}}
{{- define "storefront.redisAuth" -}}
{{- if .Values.secrets.existingSecret -}}
{{- .Values.redis.auth -}}
{{- else -}}
{{- or .Values.redis.auth (ne (.Values.secrets.values.REDIS_PASSWORD | default "") "") -}}
{{- end -}}
{{- end -}}

{{/* The programs of the image (scripts/lib/build-server.ts SERVER_PROGRAMS; docker/Dockerfile CMD). */}}
{{- define "storefront.apiCommand" -}}
["node", "--enable-source-maps", "api/dist/main.mjs"]
{{- end -}}
{{- define "storefront.workerCommand" -}}
["node", "--enable-source-maps", "workers/dist/main.mjs"]
{{- end -}}

{{/* The API stops within this many seconds of SIGTERM (SHUTDOWN_DEADLINE_MS in api/src/main.ts). */}}
{{- define "storefront.apiDrainSeconds" -}}5{{- end -}}

{{- define "storefront.apiGraceSeconds" -}}
{{- add .Values.api.preStopSleepSeconds (include "storefront.apiDrainSeconds" .) .Values.api.terminationExtraSeconds -}}
{{- end -}}

{{/* WORKER_SHUTDOWN_GRACE_MS, then the worker's own 5 s bound for closing its connections. */}}
{{- define "storefront.workerGraceSeconds" -}}
{{- $ms := .Values.config.WORKER_SHUTDOWN_GRACE_MS | default "25000" | int -}}
{{- add (div (add $ms 999) 1000) 5 .Values.workers.terminationExtraSeconds -}}
{{- end -}}

{{/*
The environment of every API and worker container: the ConfigMap, then the chart's own variables and
the secrets. REDIS_URL is built from REDIS_PASSWORD by Kubernetes' $(VAR) expansion, so the password
stays in the Secret.
*/}}
{{- define "storefront.env" -}}
{{- $secret := include "storefront.secretName" . -}}
{{- $existing := .Values.secrets.existingSecret -}}
- name: NODE_ENV
  value: production
- name: DATA_DIR
  value: /data
{{- range $name := list "SESSION_SECRET" "MONGODB_URI" }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ index $.Values.secrets.keys $name }}
{{- end }}
{{- range $name := list "METRICS_TOKEN" "OPENAI_API_KEY" "VIDEO_API_KEY" "ADMIN_USERNAME" "ADMIN_PASSWORD" "VAPID_PUBLIC_KEY" "VAPID_PRIVATE_KEY" }}
{{- if or $existing (index $.Values.secrets.values $name) }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ index $.Values.secrets.keys $name }}
      optional: true
{{- end }}
{{- end }}
{{- $scheme := ternary "rediss" "redis" .Values.redis.tls }}
{{- $address := printf "%s:%v/%v" .Values.redis.host .Values.redis.port .Values.redis.database }}
{{- if eq (include "storefront.redisAuth" .) "true" }}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ .Values.secrets.keys.REDIS_PASSWORD }}
- name: REDIS_URL
  value: {{ printf "%s://%s:$(REDIS_PASSWORD)@%s" $scheme .Values.redis.username $address | quote }}
{{- else if .Values.redis.username }}
- name: REDIS_URL
  value: {{ printf "%s://%s@%s" $scheme .Values.redis.username $address | quote }}
{{- else }}
- name: REDIS_URL
  value: {{ printf "%s://%s" $scheme $address | quote }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "storefront.envFrom" -}}
- configMapRef:
    name: {{ include "storefront.configMapName" . }}
{{- end -}}

{{- define "storefront.podSecurityContext" -}}
{{ toYaml .Values.podSecurityContext }}
{{- end -}}

{{- define "storefront.containerSecurityContext" -}}
{{ toYaml .Values.containerSecurityContext }}
{{- end -}}

{{/* /data (media) and /tmp (tsx's cache, sharp and ffmpeg scratch files): the only writable paths. */}}
{{- define "storefront.volumeMounts" -}}
- name: media
  mountPath: /data
- name: tmp
  mountPath: /tmp
{{- end -}}

{{- define "storefront.volumes" -}}
- name: media
{{- if .Values.persistence.enabled }}
  persistentVolumeClaim:
    claimName: {{ include "storefront.mediaClaim" . }}
{{- else }}
  emptyDir: {}
{{- end }}
- name: tmp
  emptyDir:
    sizeLimit: 1Gi
{{- end -}}

{{/* Pod-level settings shared by every Deployment and Job: (dict "ctx" $ "component" "api"). */}}
{{- define "storefront.podCommon" -}}
{{- $ := .ctx -}}
serviceAccountName: {{ include "storefront.serviceAccountName" $ }}
automountServiceAccountToken: false
securityContext:
  {{- include "storefront.podSecurityContext" $ | nindent 2 }}
{{- with $.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if and $.Values.topologySpread.enabled (ne .component "job") }}
topologySpreadConstraints:
  - maxSkew: {{ $.Values.topologySpread.maxSkew }}
    topologyKey: {{ $.Values.topologySpread.topologyKey }}
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "storefront.componentSelector" (dict "ctx" $ "component" .component) | nindent 8 }}
{{- end }}
{{- end -}}

{{/* Annotations that roll the pods when the configuration changes. */}}
{{- define "storefront.podAnnotations" -}}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- if not .Values.secrets.existingSecret }}
checksum/secret-values: {{ omit .Values.secrets.values "SESSION_SECRET" | toJson | sha256sum }}
{{- end }}
{{- with .Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end -}}
