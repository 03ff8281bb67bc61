import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig, type LoadedConfig } from '../src/load-config.js';
import { startRedisServer } from './start-redis-server.js';

/*
 * Every Kubernetes manifest under deploy/kubernetes is valid against the Kubernetes API
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
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 Service': Service,
};

function documentsOf(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((document) => {
    if (document.errors.length > 0)
      throw new Error(`${file}: ${document.errors.map((error) => error.message).join('; ')}`);
    return document.toJS() as unknown;
  });
}

const manifestFiles = readdirSync(kubernetesFolder)
  .filter((name) => name.endsWith('.yaml') && name !== 'kustomization.yaml')
  .sort();
const manifests = manifestFiles.flatMap((name) =>
  documentsOf(join(kubernetesFolder, name)).map((manifest) => ({
    file: name,
    manifest: manifest as Manifest,
  })),
);

function one(kind: string, name: string): Manifest {
  const found = manifests.filter(
    ({ manifest }) => manifest.kind === kind && manifest.metadata.name === name,
  );
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
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  ports: { name: string; containerPort: number }[];
  env: EnvVar[];
  envFrom: { secretRef: { name: string } }[];
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
  readinessProbe: Probe;
  livenessProbe: Probe;
  startupProbe: Probe;
  resources: { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
  securityContext: {
    allowPrivilegeEscalation: boolean;
    readOnlyRootFilesystem: boolean;
    runAsNonRoot: boolean;
    capabilities: { drop: string[] };
  };
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

/** The container's `env` entries with a plain value. */
function plainEnv(container: Container): Record<string, string> {
  return Object.fromEntries(
    container.env.flatMap((entry) =>
      entry.value === undefined ? [] : [[entry.name, entry.value]],
    ),
  );
}

/** The container's environment as the kubelet builds it: Secret references read, `$(NAME)` expanded from the entries before. */
function resolvedEnv(
  container: Container,
  secrets: Record<string, Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of container.env) {
    const reference = entry.valueFrom?.secretKeyRef;
    const value = reference === undefined ? entry.value : secrets[reference.name]?.[reference.key];
    if (value === undefined) throw new Error(`env ${entry.name}: no value`);
    env[entry.name] = expandReferences(value, env);
  }
  return env;
}

/** `$(NAME)` in a container's args or env, as the kubelet expands it. */
function expandReferences(text: string, env: Record<string, string>): string {
  return text.replace(/\$\((\w+)\)/g, (whole, name: string) => env[name] ?? whole);
}

/** Whether a `matchLabels` selector selects pods with these labels. */
function selects(matchLabels: Record<string, string>, labels: Record<string, string>): boolean {
  return (
    Object.keys(matchLabels).length > 0 &&
    Object.entries(matchLabels).every(([name, value]) => labels[name] === value)
  );
}

function mebibytes(quantity: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`unexpected memory quantity ${quantity}`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

describe('deploy/kubernetes', () => {
  it('every manifest is valid against the Kubernetes API schema of its kind', () => {
    expect(manifestFiles).toEqual([
      'configmap.yaml',
      'deployment.yaml',
      'hpa.yaml',
      'pdb.yaml',
      'redis.yaml',
      'secret.example.yaml',
      'service.yaml',
    ]);
    for (const { file, manifest } of manifests) {
      const Model = models[`${manifest.apiVersion} ${manifest.kind}`];
      expect(Model, `${file}: ${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
      expect(
        () => new (Model as NonNullable<typeof Model>)(manifest as never).validate(),
        `${file} ${manifest.kind} ${manifest.metadata.name}`,
      ).not.toThrow();
    }
  });

  it('the schema check catches a wrong type (the validator is live)', () => {
    const spec = structuredClone(deploymentSpec('infergate')) as unknown as Record<string, unknown>;
    spec.replicas = 'three';
    expect(() =>
      new Deployment({ ...one('Deployment', 'infergate'), spec } as never).validate(),
    ).toThrow(/replicas/);
  });

  it('kustomization.yaml applies every manifest but the example Secret', () => {
    const kustomization = parse(
      readFileSync(join(kubernetesFolder, 'kustomization.yaml'), 'utf8'),
    ) as { resources: string[] };
    expect([...kustomization.resources].sort()).toEqual(
      manifestFiles.filter((name) => name !== 'secret.example.yaml'),
    );
  });

  it("kustomization.yaml's `images` entry names the gateway's placeholder image, so `kustomize edit set image` replaces it", () => {
    const kustomization = parse(
      readFileSync(join(kubernetesFolder, 'kustomization.yaml'), 'utf8'),
    ) as {
      images: { name: string; newName?: string; newTag?: string; digest?: string }[];
    };
    const gatewayImage = (deploymentSpec('infergate').template.spec.containers[0] as Container)
      .image;
    // kustomize matches an entry's name against the image without its tag or digest; a name that matches
    // nothing is silently ignored.
    const imageName = gatewayImage.replace(/@.*$/, '').replace(/:[^/:]+$/, '');
    expect(kustomization.images).toEqual([
      { name: imageName, newName: imageName, newTag: gatewayImage.slice(imageName.length + 1) },
    ]);
  });

  it("the ConfigMap's config file passes the gateway's own start-up validation with the Secret's keys and the Deployment's environment", async () => {
    const configMap = one('ConfigMap', 'infergate-config') as unknown as {
      data: Record<string, string>;
    };
    const secret = one('Secret', 'infergate-keys') as unknown as {
      stringData: Record<string, string>;
    };
    const spec = deploymentSpec('infergate');
    const gateway = spec.template.spec.containers[0] as Container;
    const env = plainEnv(gateway);
    // The file is mounted where INFERGATE_CONFIG points, from this ConfigMap, and the keys from this Secret.
    const mount = gateway.volumeMounts.find((volumeMount) =>
      env.INFERGATE_CONFIG?.startsWith(`${volumeMount.mountPath}/`),
    );
    expect(mount?.readOnly).toBe(true);
    const volume = spec.template.spec.volumes.find((candidate) => candidate.name === mount?.name);
    expect(volume?.configMap?.name).toBe('infergate-config');
    const configText =
      configMap.data[(env.INFERGATE_CONFIG ?? '').slice((mount?.mountPath.length ?? 0) + 1)];
    expect(configText).toBeDefined();
    expect(gateway.envFrom.map((source) => source.secretRef.name)).toEqual(['infergate-keys']);

    const { config } = await loadAsMain(configText as string, { ...env, ...secret.stringData });
    expect(config.server).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(config.keyEntries.map((entry) => entry.key)).toEqual([
      secret.stringData.TEAM_A_KEY,
      secret.stringData.TEAM_B_KEY,
    ]);
    // Redis is the example's Service, with the Secret's password, and each replica's share while Redis
    // is away assumes the HPA's minimum.
    const redisService = one('Service', 'infergate-redis') as unknown as {
      spec: { ports: { port: number }[] };
    };
    expect(config.redis?.url).toBe(
      `redis://:${secret.stringData.REDIS_PASSWORD}@infergate-redis:${redisService.spec.ports[0]?.port}`,
    );
    const hpa = one('HorizontalPodAutoscaler', 'infergate') as unknown as {
      spec: { minReplicas: number };
    };
    expect(config.redis?.replicas).toBe(hpa.spec.minReplicas);
    // The kubelet's SIGKILL comes after the drain and the whole shutdown grace.
    expect(spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
      config.timeouts.drainDelayMs + config.timeouts.shutdownGraceMs,
    );
    expect(config.timeouts.drainDelayMs).toBeGreaterThan(0);
    // Memory: the limit holds the 1,000 concurrent requests the config allows (docs/deployment.md, "Capacity").
    expect(config.limits.maxConcurrentRequests).toBe(1000);
    expect(mebibytes(gateway.resources.limits.memory)).toBeGreaterThanOrEqual(
      385 + (config.limits.maxInflightBodyBytes / 2 ** 20) * 4,
    );
  });

  it('a config with a typo in it is refused naming the field (the check is live)', async () => {
    const configMap = one('ConfigMap', 'infergate-config') as unknown as {
      data: Record<string, string>;
    };
    const broken = (configMap.data['config.yaml'] as string).replace(
      'drain_delay_ms: 5000',
      'drain_delay_ms: -5',
    );
    const secret = one('Secret', 'infergate-keys') as unknown as {
      stringData: Record<string, string>;
    };
    await expect(loadAsMain(broken, secret.stringData)).rejects.toThrow(/timeouts\.drain_delay_ms/);
  });

  it('the Deployment: no replicas (the HPA owns the scale), /readyz and /healthz probes on the served port, non-root, read-only, no capabilities', () => {
    const spec = deploymentSpec('infergate');
    // A count here would reset the HPA's scale on every apply (docs/deployment.md).
    expect(spec).not.toHaveProperty('replicas');
    expect(spec.template.metadata.labels).toMatchObject(spec.selector.matchLabels);
    const gateway = spec.template.spec.containers[0] as Container;
    const env = plainEnv(gateway);
    expect(gateway.ports).toEqual([
      expect.objectContaining({ name: 'http', containerPort: Number(env.PORT) }),
    ]);
    expect(gateway.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(gateway.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(gateway.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    // docs/deployment.md: one /readyz failure (a moment at the cap) does not take a pod out, and a
    // restart comes only well after readiness has taken it out.
    const outAfter = (probe: Probe) => probe.periodSeconds * probe.failureThreshold;
    expect(gateway.readinessProbe.failureThreshold).toBeGreaterThanOrEqual(2);
    expect(outAfter(gateway.livenessProbe)).toBeGreaterThan(outAfter(gateway.readinessProbe) * 3);
    expect(spec.template.spec.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 1000,
    });
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
    const service = one('Service', 'infergate') as unknown as {
      spec: { selector: Record<string, string>; ports: { targetPort: string }[] };
    };
    expect(labels).toMatchObject(service.spec.selector);
    expect(service.spec.ports[0]?.targetPort).toBe('http');
    const hpa = one('HorizontalPodAutoscaler', 'infergate') as unknown as {
      spec: {
        scaleTargetRef: { kind: string; name: string };
        minReplicas: number;
        metrics: { resource: { name: string } }[];
      };
    };
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'infergate' });
    expect(hpa.spec.minReplicas).toBe(3);
    expect(hpa.spec.metrics.map((metric) => metric.resource.name)).toEqual(['cpu']);
    const pdb = one('PodDisruptionBudget', 'infergate') as unknown as {
      spec: { selector: { matchLabels: Record<string, string> } };
    };
    expect(labels).toMatchObject(pdb.spec.selector.matchLabels);
    const redisPods = deploymentSpec('infergate-redis').template.metadata.labels;
    const redisService = one('Service', 'infergate-redis') as unknown as {
      spec: { selector: Record<string, string> };
    };
    expect(redisPods).toMatchObject(redisService.spec.selector);
    // The gateway Service must not select Redis pods, nor the other way round.
    expect(redisPods).not.toMatchObject(service.spec.selector);
  });
  it("Redis asks for the Secret's REDIS_PASSWORD, the gateway's redis.url carries the same key, and a real redis-server with the manifest's args takes it", async () => {
    const secret = one('Secret', 'infergate-keys') as unknown as {
      metadata: { name: string };
      stringData: Record<string, string>;
    };
    const configMap = one('ConfigMap', 'infergate-config') as unknown as {
      data: Record<string, string>;
    };
    const gateway = deploymentSpec('infergate').template.spec.containers[0] as Container;
    const redis = deploymentSpec('infergate-redis').template.spec.containers[0] as Container;
    // The gateway: redis.url names a variable that its envFrom Secret provides.
    const redisConfig = (
      parse(configMap.data['config.yaml'] as string) as { redis: { url: string } }
    ).redis;
    const gatewayVariable = /^redis:\/\/:\$\{(\w+)\}@infergate-redis:\d+$/.exec(
      redisConfig.url,
    )?.[1];
    expect(gatewayVariable).toBe('REDIS_PASSWORD');
    expect(gateway.envFrom.map((source) => source.secretRef.name)).toEqual([secret.metadata.name]);
    expect(Object.keys(secret.stringData)).toContain(gatewayVariable);
    // Redis: --requirepass is an env variable read from the same Secret key.
    const requirepass = redis.args?.[(redis.args?.indexOf('--requirepass') ?? -2) + 1];
    const redisVariable = /^\$\((\w+)\)$/.exec(requirepass ?? '')?.[1];
    expect(
      redis.env.find((entry) => entry.name === redisVariable)?.valueFrom?.secretKeyRef,
    ).toEqual({ name: secret.metadata.name, key: gatewayVariable });
    expect(redis.envFrom).toBeUndefined();

    // Live: redis-server with the args the kubelet would pass, and the URL the gateway would use.
    const redisEnv = resolvedEnv(redis, { [secret.metadata.name]: secret.stringData });
    const server = await startRedisServer(
      undefined,
      (redis.args ?? []).map((argument) => expandReferences(argument, redisEnv)),
    );
    const withPassword = new Redis(
      redisConfig.url
        .replace('${REDIS_PASSWORD}', secret.stringData.REDIS_PASSWORD ?? '')
        .replace(/@infergate-redis:\d+$/, `@127.0.0.1:${server.port}`),
      {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
      },
    );
    const withoutPassword = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    // The refusal is also emitted as an error event, which ioredis would log.
    withoutPassword.on('error', () => undefined);
    try {
      expect(await withPassword.ping()).toBe('PONG');
      await expect(withoutPassword.ping()).rejects.toThrow(/NOAUTH/);
      // The readiness probe, in the container's environment (REDISCLI_AUTH).
      const [probe, ...probeArgs] = (
        redis as unknown as { readinessProbe: { exec: { command: string[] } } }
      ).readinessProbe.exec.command;
      const probed = spawnSync(probe as string, ['-p', String(server.port), ...probeArgs], {
        env: { ...process.env, ...redisEnv },
        encoding: 'utf8',
      });
      expect(probed.stdout.trim()).toBe('PONG');
    } finally {
      withPassword.disconnect();
      withoutPassword.disconnect();
      await server.stop();
    }
  });

  it("the NetworkPolicy admits only the gateway's pods, and only to Redis's port", () => {
    const gatewayPods = deploymentSpec('infergate').template.metadata.labels;
    const redisDeployment = deploymentSpec('infergate-redis');
    const redisPods = redisDeployment.template.metadata.labels;
    const policy = one('NetworkPolicy', 'infergate-redis') as unknown as {
      spec: {
        podSelector: { matchLabels: Record<string, string> };
        policyTypes: string[];
        ingress: {
          from: Record<string, { matchLabels: Record<string, string> }>[];
          ports: { port: string | number; protocol: string }[];
        }[];
      };
    };
    // It isolates the Redis pods, and no gateway pod.
    expect(selects(policy.spec.podSelector.matchLabels, redisPods)).toBe(true);
    expect(selects(policy.spec.podSelector.matchLabels, gatewayPods)).toBe(false);
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    // One rule: pods of this namespace (no namespaceSelector, no ipBlock) that are gateway pods.
    expect(policy.spec.ingress).toHaveLength(1);
    const [rule] = policy.spec.ingress;
    expect(rule?.from).toEqual([{ podSelector: expect.anything() }]);
    const peer = rule?.from[0]?.podSelector?.matchLabels ?? {};
    expect(selects(peer, gatewayPods)).toBe(true);
    expect(selects(peer, redisPods)).toBe(false);
    // The port is Redis's container port, the one its Service targets.
    const redisPorts = (redisDeployment.template.spec.containers[0] as Container).ports;
    const redisService = one('Service', 'infergate-redis') as unknown as {
      spec: { ports: { targetPort: string }[] };
    };
    expect(rule?.ports).toEqual([
      { port: redisService.spec.ports[0]?.targetPort, protocol: 'TCP' },
    ]);
    expect(redisPorts.map((port) => port.name)).toContain(rule?.ports[0]?.port);
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
    command?: string[];
    networks?: string[];
  }
  const compose = parse(readFileSync(join(repository, 'docker-compose.yml'), 'utf8'), {
    merge: true,
  }) as {
    services: Record<string, ComposeService>;
    networks?: Record<string, { internal?: boolean }>;
  };
  const gatewayNames = Object.keys(compose.services).filter((name) => name.startsWith('gateway-'));

  /** Compose fills ${NAME:-default} from the host; the test takes the defaults. */
  function withDefaults(environment: Record<string, string>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(environment).map(([name, value]) => [
        name,
        value.replace(/^\$\{\w+:-(.*)\}$/, '$1'),
      ]),
    );
  }

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
    expect(Object.keys(compose.services).sort()).toEqual([
      'gateway-1',
      'gateway-2',
      'gateway-3',
      'nginx',
      'redis',
    ]);
    for (const name of gatewayNames)
      expect(compose.services[name]).toMatchObject({ build: '.', read_only: true });
  });

  it("each replica's config file passes the gateway's start-up validation, Redis is the compose service, the stop grace covers drain + shutdown", async () => {
    const gateway = compose.services['gateway-1'] as ComposeService;
    const environment = gateway.environment ?? {};
    const configFile = mounted(gateway, environment.INFERGATE_CONFIG ?? '');
    const env = withDefaults(environment);
    const { config } = await loadAsMain(readFileSync(configFile, 'utf8'), env);
    expect(config.keyEntries.map((entry) => entry.name)).toEqual(['team-a', 'team-b']);
    // Redis's password, from the same variable Redis is started with.
    const redis = compose.services.redis as ComposeService;
    const requirepass = redis.command?.[(redis.command?.indexOf('--requirepass') ?? -2) + 1];
    expect(requirepass).toBe(environment.REDIS_PASSWORD);
    expect(requirepass).toMatch(/^\$\{REDIS_PASSWORD:-.+\}$/);
    expect(redis.environment?.REDISCLI_AUTH).toBe(requirepass);
    expect(config.redis?.url).toBe(`redis://:${env.REDIS_PASSWORD}@redis:6379`);
    expect(config.redis?.replicas).toBe(gatewayNames.length);
    const stopGraceSeconds = Number(/^(\d+)s$/.exec(gateway.stop_grace_period ?? '')?.[1]);
    expect(stopGraceSeconds * 1000).toBeGreaterThan(
      config.timeouts.drainDelayMs + config.timeouts.shutdownGraceMs,
    );
  });

  it('Redis is on an internal network that only the gateways share with it', () => {
    const networksOf = (name: string): string[] => compose.services[name]?.networks ?? ['default'];
    const redisNetworks = networksOf('redis');
    expect(redisNetworks.map((name) => compose.networks?.[name]?.internal)).toEqual(
      redisNetworks.map(() => true),
    );
    for (const name of Object.keys(compose.services)) {
      if (name === 'redis') continue;
      const shared = networksOf(name).filter((network) => redisNetworks.includes(network));
      expect(shared.length > 0, name).toBe(gatewayNames.includes(name));
    }
  });

  it("nginx's upstream lists the three replicas on the image's port and includes the tested location rules", () => {
    const nginx = compose.services.nginx as ComposeService;
    const conf = readFileSync(mounted(nginx, '/etc/nginx/nginx.conf'), 'utf8');
    const servers = [...conf.matchAll(/^\s*server (\S+) max_fails=\d+ fail_timeout=\d+s;$/gm)].map(
      (match) => match[1],
    );
    expect(servers).toEqual(gatewayNames.map((name) => `${name}:8080`));
    const include = /include (\S+);/.exec(conf)?.[1];
    expect(include).toBeDefined();
    // The location rules are the file the rolling-restart test runs nginx with.
    expect(readFileSync(mounted(nginx, include as string), 'utf8')).toBe(
      readFileSync(join(repository, 'deploy/nginx/infergate-locations.conf'), 'utf8'),
    );
  });
});

describe('one capacity figure', () => {
  // A throughput figure: "~2,400 chat req/s", "1,200 streamed chats/s", "6,000 streams/s".
  const throughput = /\d[\d,.]*\s*(?:[a-z]+\s+){0,2}(?:req|requests|streams|chats)\/s\b/i;
  const deploymentDoc = readFileSync(join(repository, 'docs/deployment.md'), 'utf8');

  it('no manifest, compose file or Dockerfile quotes a throughput figure or an approximate measurement; the manifests point at the Capacity section', () => {
    const files = [
      ...readdirSync(kubernetesFolder).map((name) => join(kubernetesFolder, name)),
      join(repository, 'deploy/compose/infergate.yaml'),
      join(repository, 'docker-compose.yml'),
      join(repository, 'Dockerfile'),
    ];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(throughput);
      // An approximate figure ("~" before a digit) is a measurement: those belong in docs/deployment.md.
      expect(text, file).not.toMatch(/~\s*\d/);
    }
    for (const name of ['deployment.yaml', 'hpa.yaml'])
      expect(readFileSync(join(kubernetesFolder, name), 'utf8')).toContain(
        'docs/deployment.md, "Capacity"',
      );
    expect(deploymentDoc).toMatch(/^## Capacity$/m);
  });

  it("docs/deployment.md quotes the gateway's throughput in its Capacity section only", () => {
    const capacity = /^## Capacity$[\s\S]*?(?=^## )/m.exec(deploymentDoc)?.[0] ?? '';
    expect(capacity).toMatch(throughput);
    expect(deploymentDoc.replace(capacity, '')).not.toMatch(throughput);
  });
});
