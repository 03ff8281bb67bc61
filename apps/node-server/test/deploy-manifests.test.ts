import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig, type LoadedConfig } from '../src/load-config.js';

/*
 * Issue 18: every Kubernetes manifest under deploy/kubernetes is valid against the Kubernetes API
 * schemas (kubernetes-models), its config file passes the gateway's own start-up validation (the
 * loadConfig that main.ts runs), and the pieces agree with one another (names, ports, probes, the
 * grace period against drain + shutdown grace). The same for docker-compose.yml and its nginx.
 */

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const kubernetesFolder = join(repository, 'deploy/kubernetes');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

// Each kind the manifests use, with the model that validates it against the API schema.
const models: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 Service': Service,
};

function documentsOf(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((error) => error.message).join('; ')}`);
    return document.toJS() as unknown;
  });
}

const manifestFiles = readdirSync(kubernetesFolder)
  .filter((name) => name.endsWith('.yaml') && name !== 'kustomization.yaml')
  .sort();
const manifests = manifestFiles.flatMap((name) =>
  documentsOf(join(kubernetesFolder, name)).map((manifest) => ({ file: name, manifest: manifest as Manifest })),
);

function one(kind: string, name: string): Manifest {
  const found = manifests.filter(({ manifest }) => manifest.kind === kind && manifest.metadata.name === name);
  expect(found, `${kind} ${name}`).toHaveLength(1);
  return (found[0] as { manifest: Manifest }).manifest;
}

/** The gateway's start-up validation, exactly as main.ts runs it: the file at INFERGATE_CONFIG plus the environment. */
async function loadAsMain(configText: string, env: Record<string, string>): Promise<LoadedConfig> {
  const folder = mkdtempSync(join(tmpdir(), 'infergate-manifest-config-'));
  try {
    const path = join(folder, 'config.yaml');
    writeFileSync(path, configText);
    return await loadConfig({ ...env, INFERGATE_CONFIG: path });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// The shapes this test reads from the validated manifests.
interface Probe {
  httpGet: { path: string; port: string };
  periodSeconds: number;
  failureThreshold: number;
}
interface Container {
  name: string;
  image: string;
  ports: { name: string; containerPort: number }[];
  env: { name: string; value: string }[];
  envFrom: { secretRef: { name: string } }[];
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
  readinessProbe: Probe;
  livenessProbe: Probe;
  startupProbe: Probe;
  resources: { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
  securityContext: { allowPrivilegeEscalation: boolean; readOnlyRootFilesystem: boolean; runAsNonRoot: boolean; capabilities: { drop: string[] } };
}
interface PodSpec {
  terminationGracePeriodSeconds: number;
  securityContext: { runAsNonRoot: boolean; runAsUser: number };
  containers: Container[];
  volumes: { name: string; configMap?: { name: string } }[];
}
interface DeploymentSpec {
  replicas?: number;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
}

function deploymentSpec(name: string): DeploymentSpec {
  return one('Deployment', name).spec as DeploymentSpec;
}

function mebibytes(quantity: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`unexpected memory quantity ${quantity}`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

describe('deploy/kubernetes', () => {
  it('every manifest is valid against the Kubernetes API schema of its kind', () => {
    expect(manifestFiles).toEqual(['configmap.yaml', 'deployment.yaml', 'hpa.yaml', 'pdb.yaml', 'redis.yaml', 'secret.example.yaml', 'service.yaml']);
    for (const { file, manifest } of manifests) {
      const Model = models[`${manifest.apiVersion} ${manifest.kind}`];
      expect(Model, `${file}: ${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
      expect(() => new (Model as NonNullable<typeof Model>)(manifest as never).validate(), `${file} ${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
    }
  });

  it('the schema check catches a wrong type (the validator is live)', () => {
    const spec = structuredClone(deploymentSpec('infergate')) as unknown as Record<string, unknown>;
    spec.replicas = 'three';
    expect(() => new Deployment({ ...one('Deployment', 'infergate'), spec } as never).validate()).toThrow(/replicas/);
  });

  it('kustomization.yaml applies every manifest but the example Secret', () => {
    const kustomization = parse(readFileSync(join(kubernetesFolder, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
    expect([...kustomization.resources].sort()).toEqual(manifestFiles.filter((name) => name !== 'secret.example.yaml'));
  });

  it("kustomization.yaml's `images` entry names the gateway's placeholder image, so `kustomize edit set image` replaces it", () => {
    const kustomization = parse(readFileSync(join(kubernetesFolder, 'kustomization.yaml'), 'utf8')) as {
      images: { name: string; newName?: string; newTag?: string; digest?: string }[];
    };
    const gatewayImage = (deploymentSpec('infergate').template.spec.containers[0] as Container).image;
    // kustomize matches an entry's name against the image without its tag or digest; a name that matches
    // nothing is silently ignored.
    const imageName = gatewayImage.replace(/@.*$/, '').replace(/:[^/:]+$/, '');
    expect(kustomization.images).toEqual([{ name: imageName, newName: imageName, newTag: gatewayImage.slice(imageName.length + 1) }]);
  });

  it("the ConfigMap's config file passes the gateway's own start-up validation with the Secret's keys and the Deployment's environment", async () => {
    const configMap = one('ConfigMap', 'infergate-config') as unknown as { data: Record<string, string> };
    const secret = one('Secret', 'infergate-keys') as unknown as { stringData: Record<string, string> };
    const spec = deploymentSpec('infergate');
    const gateway = spec.template.spec.containers[0] as Container;
    const env = Object.fromEntries(gateway.env.map((entry) => [entry.name, entry.value]));
    // The file is mounted where INFERGATE_CONFIG points, from this ConfigMap, and the keys from this Secret.
    const mount = gateway.volumeMounts.find((volumeMount) => env.INFERGATE_CONFIG?.startsWith(`${volumeMount.mountPath}/`));
    expect(mount?.readOnly).toBe(true);
    const volume = spec.template.spec.volumes.find((candidate) => candidate.name === mount?.name);
    expect(volume?.configMap?.name).toBe('infergate-config');
    const configText = configMap.data[(env.INFERGATE_CONFIG ?? '').slice((mount?.mountPath.length ?? 0) + 1)];
    expect(configText).toBeDefined();
    expect(gateway.envFrom.map((source) => source.secretRef.name)).toEqual(['infergate-keys']);

    const { config } = await loadAsMain(configText as string, { ...env, ...secret.stringData });
    expect(config.server).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(config.keyEntries.map((entry) => entry.key)).toEqual([secret.stringData.TEAM_A_KEY, secret.stringData.TEAM_B_KEY]);
    // Redis is the example's Service, and each replica's share while Redis is away assumes the HPA's minimum.
    const redisService = one('Service', 'infergate-redis') as unknown as { spec: { ports: { port: number }[] } };
    expect(config.redis?.url).toBe(`redis://infergate-redis:${redisService.spec.ports[0]?.port}`);
    const hpa = one('HorizontalPodAutoscaler', 'infergate') as unknown as { spec: { minReplicas: number } };
    expect(config.redis?.replicas).toBe(hpa.spec.minReplicas);
    // The kubelet's SIGKILL comes after the drain and the whole shutdown grace.
    expect(spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.timeouts.drainDelayMs + config.timeouts.shutdownGraceMs);
    expect(config.timeouts.drainDelayMs).toBeGreaterThan(0);
    // Memory: the 1,000 concurrent requests the config allows fit the limit (385 MB measured for 1,000 streams).
    expect(config.limits.maxConcurrentRequests).toBe(1000);
    expect(mebibytes(gateway.resources.limits.memory)).toBeGreaterThanOrEqual(385 + (config.limits.maxInflightBodyBytes / 2 ** 20) * 4);
  });

  it('a config with a typo in it is refused naming the field (the check is live)', async () => {
    const configMap = one('ConfigMap', 'infergate-config') as unknown as { data: Record<string, string> };
    const broken = (configMap.data['config.yaml'] as string).replace('drain_delay_ms: 5000', 'drain_delay_ms: -5');
    await expect(loadAsMain(broken, { TEAM_A_KEY: 'a-key-0123456789', TEAM_B_KEY: 'b-key-0123456789' })).rejects.toThrow(/timeouts\.drain_delay_ms/);
  });

  it('the Deployment: no replicas (the HPA owns the scale), /readyz and /healthz probes on the served port, non-root, read-only, no capabilities', () => {
    const spec = deploymentSpec('infergate');
    // A count here would reset the HPA's scale on every apply (docs/deployment.md).
    expect(spec).not.toHaveProperty('replicas');
    expect(spec.template.metadata.labels).toMatchObject(spec.selector.matchLabels);
    const gateway = spec.template.spec.containers[0] as Container;
    const env = Object.fromEntries(gateway.env.map((entry) => [entry.name, entry.value]));
    expect(gateway.ports).toEqual([expect.objectContaining({ name: 'http', containerPort: Number(env.PORT) })]);
    expect(gateway.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(gateway.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(gateway.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    // docs/deployment.md: one /readyz failure (a moment at the cap) does not take a pod out, and a
    // restart comes only well after readiness has taken it out.
    const outAfter = (probe: Probe) => probe.periodSeconds * probe.failureThreshold;
    expect(gateway.readinessProbe.failureThreshold).toBeGreaterThanOrEqual(2);
    expect(outAfter(gateway.livenessProbe)).toBeGreaterThan(outAfter(gateway.readinessProbe) * 3);
    expect(spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(gateway.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(gateway.resources.requests.cpu).toBe('1');
  });

  it('the Service, the autoscaler and the disruption budget point at the gateway pods', () => {
    const labels = deploymentSpec('infergate').template.metadata.labels;
    const service = one('Service', 'infergate') as unknown as { spec: { selector: Record<string, string>; ports: { targetPort: string }[] } };
    expect(labels).toMatchObject(service.spec.selector);
    expect(service.spec.ports[0]?.targetPort).toBe('http');
    const hpa = one('HorizontalPodAutoscaler', 'infergate') as unknown as {
      spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number; metrics: { resource: { name: string } }[] };
    };
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'infergate' });
    expect(hpa.spec.minReplicas).toBe(3);
    expect(hpa.spec.metrics.map((metric) => metric.resource.name)).toEqual(['cpu']);
    const pdb = one('PodDisruptionBudget', 'infergate') as unknown as { spec: { selector: { matchLabels: Record<string, string> } } };
    expect(labels).toMatchObject(pdb.spec.selector.matchLabels);
    const redisPods = deploymentSpec('infergate-redis').template.metadata.labels;
    const redisService = one('Service', 'infergate-redis') as unknown as { spec: { selector: Record<string, string> } };
    expect(redisPods).toMatchObject(redisService.spec.selector);
    // The gateway Service must not select Redis pods, nor the other way round.
    expect(redisPods).not.toMatchObject(service.spec.selector);
  });
});

describe('docker-compose.yml', () => {
  interface ComposeService {
    image?: string;
    build?: string;
    environment?: Record<string, string>;
    volumes?: string[];
    read_only?: boolean;
    stop_grace_period?: string;
  }
  const compose = parse(readFileSync(join(repository, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const gatewayNames = Object.keys(compose.services).filter((name) => name.startsWith('gateway-'));

  /** The host file mounted at `target` in a service. */
  function mounted(service: ComposeService, target: string): string {
    const volume = service.volumes?.find((entry) => entry.split(':')[1] === target);
    expect(volume, target).toBeDefined();
    const file = join(repository, (volume as string).split(':')[0] as string);
    expect(existsSync(file), file).toBe(true);
    return file;
  }

  it('three gateway replicas built from the Dockerfile, Redis and nginx', () => {
    expect(gatewayNames).toEqual(['gateway-1', 'gateway-2', 'gateway-3']);
    expect(Object.keys(compose.services).sort()).toEqual(['gateway-1', 'gateway-2', 'gateway-3', 'nginx', 'redis']);
    for (const name of gatewayNames) expect(compose.services[name]).toMatchObject({ build: '.', read_only: true });
  });

  it("each replica's config file passes the gateway's start-up validation, Redis is the compose service, the stop grace covers drain + shutdown", async () => {
    const gateway = compose.services['gateway-1'] as ComposeService;
    const environment = gateway.environment ?? {};
    const configFile = mounted(gateway, environment.INFERGATE_CONFIG ?? '');
    // Compose fills ${NAME:-default} from the host; the test takes the defaults.
    const env = Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, value.replace(/^\$\{\w+:-(.*)\}$/, '$1')]));
    const { config } = await loadAsMain(readFileSync(configFile, 'utf8'), env);
    expect(config.keyEntries.map((entry) => entry.name)).toEqual(['team-a', 'team-b']);
    expect(config.redis?.url).toBe('redis://redis:6379');
    expect(config.redis?.replicas).toBe(gatewayNames.length);
    const stopGraceSeconds = Number(/^(\d+)s$/.exec(gateway.stop_grace_period ?? '')?.[1]);
    expect(stopGraceSeconds * 1000).toBeGreaterThan(config.timeouts.drainDelayMs + config.timeouts.shutdownGraceMs);
  });

  it("nginx's upstream lists the three replicas on the image's port and includes the tested location rules", () => {
    const nginx = compose.services.nginx as ComposeService;
    const conf = readFileSync(mounted(nginx, '/etc/nginx/nginx.conf'), 'utf8');
    const servers = [...conf.matchAll(/^\s*server (\S+) max_fails=\d+ fail_timeout=\d+s;$/gm)].map((match) => match[1]);
    expect(servers).toEqual(gatewayNames.map((name) => `${name}:8080`));
    const include = /include (\S+);/.exec(conf)?.[1];
    expect(include).toBeDefined();
    // The location rules are the file the rolling-restart test runs nginx with.
    expect(readFileSync(mounted(nginx, include as string), 'utf8')).toBe(readFileSync(join(repository, 'deploy/nginx/infergate-locations.conf'), 'utf8'));
  });
});
