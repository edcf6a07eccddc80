#!/usr/bin/env node
'use strict';
// Checks rendered kahve manifests offline, for k8s/check.sh:
//   1. every object against its schema: Kubernetes' (kubernetes-models' validate()), the
//      Prometheus Operator's, a subset of CloudNativePG's; plus unknown or missing fields;
//   2. against the binaries in the build folder: commands, flags, KAHVE_* variables (run through
//      the binaries themselves), ports, probes, drain versus grace period, service targets, the
//      table hosts' advertised endpoint;
//   3. the wiring: Services, ServiceMonitor, autoscalers, disruption budgets, Secrets and
//      ConfigMaps referenced, pod security settings and resources;
//   4. the NetworkPolicies, evaluated: the conversations kahve needs are allowed, others denied.
// Usage: check-manifests.js --tools DIR --build DIR --root REPO NAME=RENDERED.yaml...
// Prints each failure and exits 1 when there is any.

const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');
const { pathToFileURL } = require('url');
const { DtsSchemas } = require('./lib/dts-schema');
const bin = require('./lib/binaries');
const { labelsMatch, allowed } = require('./lib/netpol');
const { readPublicMethods } = require('./lib/public-methods');
const { checkEntry, policyTargets } = require('./lib/entry-checks');

const opts = { renders: [] };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--tools' || a === '--build' || a === '--root') opts[a.slice(2)] = process.argv[++i];
  else if (a.includes('=')) opts.renders.push(a.split(/=(.*)/s).slice(0, 2));
  else throw new Error(`unexpected argument ${a}`);
}
for (const k of ['tools', 'build', 'root']) opts[k] = path.resolve(opts[k]);
const req = createRequire(path.join(opts.tools, 'package.json'));
const YAML = req('yaml');
const nodeModules = path.join(opts.tools, 'node_modules');
const dts = new DtsSchemas(nodeModules);

let checks = 0;
const failures = [];
function expect(cond, where, message) {
  checks++;
  if (!cond) failures.push(`${where}: ${message}`);
  return Boolean(cond);
}

// ---- What the binaries accept -------------------------------------------------------------

const docs = bin.readConfigurationDoc(path.join(opts.root, 'docs/configuration.md'));
const grpcServices = bin.readServiceNames(path.join(opts.root, 'proto/kahve/v1'));
const publicMethods = readPublicMethods(path.join(opts.root, 'web/gateway/src/routes.ts'));
const binaries = {};
for (const name of bin.kAllBinaries) {
  const file = bin.findBinary(opts.build, name);
  if (!file) {
    console.error(`check-manifests: ${name} not found under ${opts.build}: build it first`);
    process.exit(1);
  }
  const help = bin.helpfull(file);
  const own = [...help.flags].filter(([, f]) => f.own).map(([n]) => n);
  if (own.length === 0) {
    console.error(`check-manifests: ${file} --helpfull listed no kahve flags:\n${help.output}`);
    process.exit(1);
  }
  binaries[name] = { file, flags: help.flags, own: new Set(own) };
}
const kahveCommands = bin.kahveCommands(binaries.kahve.file);
// The gRPC-Web gateway's flags, from its source (web/gateway/src/config.ts: the kFlags table), so
// the check needs no built web tier.
const gatewayFlags = new Map([...fs.readFileSync(path.join(opts.root, 'web/gateway/src/config.ts'), 'utf8')
  .matchAll(/^ {2}([a-z0-9_]+): \{\s*kind: "(?:string|int|bool)",\s*default: ("[^"]*"|-?\d[\d* ]*|true|false)/gm)]
  .map((m) => [m[1], m[2].startsWith('"') ? JSON.parse(m[2]) : String(m[2].split('*').reduce((x, y) => x * Number(y), 1))]));
if (!gatewayFlags.has('guest_tokens') || !gatewayFlags.has('port')) {
  console.error('check-manifests: no gateway flags read from web/gateway/src/config.ts');
  process.exit(1);
}
const shortName = (binary) => binary.replace(/^kahve-/, '');

// ---- Schemas ------------------------------------------------------------------------------

// CRDs' models by API group: the npm package that holds them under <group>/<version>/.
const kCrdPackages = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'gateway.networking.k8s.io': '@kubernetes-models/gateway-api',
  'gateway.envoyproxy.io': '@kubernetes-models/envoy-gateway',
};

// Kinds no npm package describes: subsets written from their API references, in tools/schemas/.
const kHandWrittenSchemas = {
  'postgresql.cnpg.io/Cluster': 'cnpg-cluster.d.ts',
  'postgresql.cnpg.io/ScheduledBackup': 'cnpg-scheduledbackup.d.ts',
  'barmancloud.cnpg.io/ObjectStore': 'barman-cloud-objectstore.d.ts',
};

function schemaFor(obj) {
  const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
  if (kCrdPackages[group]) {
    const dir = `${kCrdPackages[group]}/${group}/${version}`;
    return { module: dir, dts: path.join(nodeModules, dir, `${obj.kind}.d.ts`) };
  }
  if (kHandWrittenSchemas[`${group}/${obj.kind}`]) {
    return { module: null, dts: path.join(__dirname, 'schemas', kHandWrittenSchemas[`${group}/${obj.kind}`]) };
  }
  const dir = group ? `${group}/${version}` : version;
  return { module: `kubernetes-models/${dir}`, dts: path.join(nodeModules, 'kubernetes-models', dir, `${obj.kind}.d.ts`) };
}

// The models are ES modules (their package.json exports only "import"): load each group/version's
// index by file URL, which import() resolves from here, before the synchronous checks run.
const models = new Map();
async function loadModels(objects) {
  for (const obj of objects) {
    const { module } = schemaFor(obj);
    const file = module && path.join(nodeModules, module, 'index.js');
    if (file && !models.has(module) && fs.existsSync(file)) models.set(module, await import(pathToFileURL(file).href));
  }
}

function checkSchema(obj, where) {
  const schema = schemaFor(obj);
  if (!expect(fs.existsSync(schema.dts), where, `no schema known for ${obj.apiVersion} ${obj.kind}`)) return;
  if (schema.module) {
    const Model = (models.get(schema.module) || {})[obj.kind];
    if (!expect(Model, where, `${schema.module} has a model ${obj.kind}`)) return;
    let error = null;
    try {
      const copy = JSON.parse(JSON.stringify(obj));
      // kustomize wraps long base64 values over lines; the API server's decoder skips the line
      // breaks, the schema's "byte" format does not.
      if (obj.kind === 'Secret') {
        for (const k of Object.keys(copy.data || {})) copy.data[k] = copy.data[k].replace(/\s+/g, '');
      }
      new Model(copy).validate();
    } catch (e) {
      error = e.message;
    }
    expect(error === null, where, `schema: ${error}`);
  }
  for (const e of dts.check(obj, schema.dts, `I${obj.kind}`)) expect(false, where, `field ${e}`);
}

// ---- One rendered overlay -------------------------------------------------------------------

function readRender(file) {
  return YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((d) => {
      if (d.errors.length) throw new Error(`${file}: ${d.errors[0].message}`);
      return d.toJS();
    })
    .filter(Boolean);
}

function checkOverlay(overlay, objects) {
  const id = (o) => `[${overlay}] ${o.kind}/${o.metadata && o.metadata.name}`;
  const of = (kind) => objects.filter((o) => o.kind === kind);
  const find = (kind, name) => objects.find((o) => o.kind === kind && o.metadata.name === name);

  for (const o of objects) checkSchema(o, id(o));

  const namespaces = of('Namespace');
  if (!expect(namespaces.length === 1, `[${overlay}]`, 'one Namespace object')) return;
  const ns = namespaces[0].metadata.name;
  const nsLabels = { 'kubernetes.io/metadata.name': ns, ...(namespaces[0].metadata.labels || {}) };
  for (const o of objects) {
    if (o.kind !== 'Namespace') expect(o.metadata.namespace === ns, id(o), `in namespace ${ns}`);
  }

  // Secrets: rendered ones, and those CloudNativePG writes for each Cluster (<name>-app).
  const secretKeys = new Map();
  for (const s of of('Secret')) {
    const data = {};
    for (const [k, v] of Object.entries(s.data || {})) data[k] = Buffer.from(v, 'base64').toString('utf8');
    Object.assign(data, s.stringData || {});
    secretKeys.set(s.metadata.name, data);
  }
  for (const c of of('Cluster')) {
    const init = (c.spec.bootstrap && c.spec.bootstrap.initdb) || {};
    const db = init.database || 'app';
    const owner = init.owner || db;
    const host = `${c.metadata.name}-rw.${ns}`;
    secretKeys.set(`${c.metadata.name}-app`, {
      username: owner, password: 'check-only', dbname: db, host, port: '5432',
      uri: `postgresql://${owner}:check-only@${host}:5432/${db}`,
      'jdbc-uri': `jdbc:postgresql://${host}:5432/${db}`, pgpass: `${host}:5432:${db}:${owner}:check-only`,
    });
  }

  const workloads = objects.filter((o) => ['Deployment', 'StatefulSet', 'Job', 'DaemonSet'].includes(o.kind));
  const pods = workloads.map((w) => ({
    workload: w,
    where: id(w),
    template: w.spec.template,
    spec: w.spec.template.spec,
    name: w.kind === 'StatefulSet' ? `${w.metadata.name}-0` : `${w.metadata.name}-5d4c8b7f9-x2x4z`,
    namespace: ns,
    namespaceLabels: nsLabels,
    labels: w.spec.template.metadata.labels || {},
    ports: w.spec.template.spec.containers.flatMap((c) => (c.ports || []).map((p) => ({ protocol: 'TCP', ...p }))),
  }));

  // The environment a container gets, as the kubelet builds it: envFrom first, then env in
  // order, expanding $(VAR) against what is defined so far.
  function resolveEnv(container, pod) {
    const vars = new Map();
    const where = `${pod.where} container ${container.name}`;
    const expand = (s, unresolved) => s.replace(/\$\$|\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)/g, (m, name) => {
      if (m === '$$') return '$';
      if (vars.has(name)) return vars.get(name).value;
      unresolved.push(name);
      return m;
    });
    for (const ef of container.envFrom || []) {
      const prefix = ef.prefix || '';
      if (ef.configMapRef) {
        const cm = find('ConfigMap', ef.configMapRef.name);
        if (!expect(cm || ef.configMapRef.optional, where, `ConfigMap ${ef.configMapRef.name} exists`) || !cm) continue;
        for (const [k, v] of Object.entries(cm.data || {})) vars.set(prefix + k, { value: v, source: `configmap:${cm.metadata.name}` });
      }
      if (ef.secretRef) {
        const data = secretKeys.get(ef.secretRef.name);
        if (!expect(data || ef.secretRef.optional, where, `Secret ${ef.secretRef.name} exists`) || !data) continue;
        for (const [k, v] of Object.entries(data)) vars.set(prefix + k, { value: v, source: `secret:${ef.secretRef.name}` });
      }
    }
    for (const e of container.env || []) {
      const unresolved = [];
      let value = null;
      let source = 'literal';
      const from = e.valueFrom;
      if (!from) {
        value = expand(e.value || '', unresolved);
      } else if (from.fieldRef) {
        const fieldValues = { 'metadata.name': pod.name, 'metadata.namespace': ns, 'status.podIP': '10.0.0.7' };
        value = fieldValues[from.fieldRef.fieldPath];
        source = `field:${from.fieldRef.fieldPath}`;
        expect(value !== undefined, where, `${e.name}: field ${from.fieldRef.fieldPath} is one the check knows`);
      } else if (from.secretKeyRef) {
        const data = secretKeys.get(from.secretKeyRef.name);
        source = `secret:${from.secretKeyRef.name}/${from.secretKeyRef.key}`;
        if (expect(data && from.secretKeyRef.key in data, where,
          `${e.name}: Secret ${from.secretKeyRef.name} has key ${from.secretKeyRef.key}`)) value = data[from.secretKeyRef.key];
      } else if (from.configMapKeyRef) {
        const cm = find('ConfigMap', from.configMapKeyRef.name);
        source = `configmap:${from.configMapKeyRef.name}/${from.configMapKeyRef.key}`;
        if (expect(cm && cm.data && from.configMapKeyRef.key in cm.data, where,
          `${e.name}: ConfigMap ${from.configMapKeyRef.name} has key ${from.configMapKeyRef.key}`)) value = cm.data[from.configMapKeyRef.key];
      } else {
        value = '1';
        source = 'resource';
      }
      expect(unresolved.length === 0, where, `${e.name}: $(${unresolved.join('), $(')}) defined before it`);
      if (value !== null && value !== undefined) vars.set(e.name, { value, source, literal: e.value });
    }
    return { vars, expand: (s) => {
      const unresolved = [];
      const out = expand(s, unresolved);
      expect(unresolved.length === 0, where, `$(${unresolved.join('), $(')}) in "${s}" defined`);
      return out;
    } };
  }

  const isKahveImage = (image) => /(^|\/)kahve(:[^/]*|@.*)?$/.test(image || '');
  const kahve = [];  // { pod, container, binary, eff(flag), grpcPort, metricsPort, vars }

  // ---- Pods: security, resources, and for kahve's containers everything the binaries say ----
  for (const pod of pods) {
    const { spec, where } = pod;
    const psc = spec.securityContext || {};
    expect(psc.runAsNonRoot === true, where, 'pod securityContext.runAsNonRoot: true');
    expect(spec.enableServiceLinks === false, where,
      'enableServiceLinks: false (service link variables KAHVE_*_PORT would be read as flags)');
    expect(spec.automountServiceAccountToken === false, where, 'automountServiceAccountToken: false');
    for (const c of [...(spec.initContainers || []), ...spec.containers]) {
      const cw = `${where} container ${c.name}`;
      const sc = c.securityContext || {};
      const seccomp = (sc.seccompProfile || psc.seccompProfile || {}).type;
      expect(seccomp === 'RuntimeDefault', cw, 'seccompProfile RuntimeDefault');
      expect(sc.allowPrivilegeEscalation === false, cw, 'allowPrivilegeEscalation: false');
      expect(sc.readOnlyRootFilesystem === true, cw, 'readOnlyRootFilesystem: true');
      expect(sc.privileged !== true, cw, 'not privileged');
      expect(((sc.capabilities || {}).drop || []).includes('ALL'), cw, 'capabilities.drop [ALL]');
      expect(((sc.capabilities || {}).add || []).length === 0, cw, 'no capabilities added');
      for (const kind of ['requests', 'limits']) {
        for (const r of ['cpu', 'memory']) {
          expect(((c.resources || {})[kind] || {})[r] !== undefined, cw, `resources.${kind}.${r}`);
        }
      }
      if (!isKahveImage(c.image)) continue;

      // kahve's image: the user the Dockerfile creates, one of its binaries, its flags.
      expect((sc.runAsUser || psc.runAsUser) === 10001, cw, 'runs as uid 10001, the image\'s user');
      const command = c.command || [];
      const binary = path.basename(command[0] || '');
      if (!expect(command.length === 1 && command[0] === `/usr/local/bin/${binary}` && binaries[binary], cw,
        `command is one of /usr/local/bin/{${bin.kAllBinaries.join(',')}} (got ${JSON.stringify(command)})`)) continue;
      const info = binaries[binary];
      const { vars, expand } = resolveEnv(c, pod);
      const args = (c.args || []).map(expand);
      const argFlags = new Map();
      args.forEach((a, i) => {
        const m = a.match(/^--?([A-Za-z0-9_]+)(?:=(.*))?$/s);
        if (!m) {
          expect(binary === 'kahve' && i === 0 && kahveCommands.has(a), cw,
            `argument "${a}" is a flag or (kahve) its subcommand (${[...kahveCommands].join(', ')})`);
          return;
        }
        let name = m[1];
        let value = m[2];
        if (value === undefined && !info.own.has(name) && name.startsWith('no') && info.own.has(name.slice(2))) {
          name = name.slice(2);
          value = 'false';
        }
        if (expect(info.own.has(name), cw, `--${name} is a flag of ${binary} (--helpfull)`)) {
          expect(value !== undefined || info.flags.get(name).defaultValue.match(/^(true|false)$/), cw,
            `--${name} has a value (=...)`);
          argFlags.set(name, value === undefined ? 'true' : value);
        }
      });
      const referenced = new Set();
      for (const s of [...(c.args || []), ...(c.env || []).map((e) => e.value || '')]) {
        for (const m of s.matchAll(/\$\(([^)]+)\)/g)) referenced.add(m[1]);
      }
      const envFlags = new Map();
      for (const [name, v] of vars) {
        if (name.startsWith('KAHVE_')) {
          const flag = name.slice('KAHVE_'.length).toLowerCase();
          if (expect(info.own.has(flag), cw, `${name}: ${binary} has no flag --${flag} (--helpfull)`)) {
            expect(docs.env.get(name) === flag, cw, `${name} documented for --${flag} in docs/configuration.md`);
            envFlags.set(flag, v.value);
          }
        } else {
          expect(referenced.has(name), cw, `${name} is not a KAHVE_ flag variable, nor used as $(${name})`);
        }
      }
      // The binary itself parses exactly this environment and these arguments.
      const env = Object.fromEntries([...vars].map(([k, v]) => [k, String(v.value)]));
      const run = bin.helpfull(info.file, args, env);
      const refusal = run.output.split('\n').filter((l) => /Illegal value|ERROR|Unknown command line flag/.test(l));
      if (expect(run.status === 1 && refusal.length === 0 && run.flags.size > 0, cw,
        `${binary} accepts this environment and these arguments (exit ${run.status}): ${refusal.join('; ')}`)) {
        for (const [flag, value] of [...envFlags, ...argFlags]) {
          const f = run.flags.get(flag);
          const took = f.current !== null ? f.current : f.defaultValue;
          expect(took === value || (value !== '' && Number(took) === Number(value)), cw,
            `${binary} took --${flag} from the manifest (shows ${f.current !== null ? 'currently' : 'default'} "${took}")`);
        }
      }
      const eff = (flag) => {
        if (argFlags.has(flag)) return argFlags.get(flag);
        if (envFlags.has(flag)) return envFlags.get(flag);
        return info.flags.get(flag).defaultValue;
      };
      kahve.push({ pod, container: c, binary, eff, vars, where: cw, args });
    }
  }

  const services = of('Service');
  const podsOf = (selector) => pods.filter((p) => selector && Object.keys(selector).length
    && labelsMatch({ matchLabels: selector }, p.labels));
  const containerPort = (pod, target) => pod.ports.find((p) => (typeof target === 'string' ? p.name === target : p.containerPort === target));

  // ---- kahve's services: ports, probes, drain, targets ----
  const serviceContainers = kahve.filter((x) => bin.kServiceBinaries.includes(x.binary));
  for (const k of serviceContainers) {
    // -1 takes the service's default, as docs/configuration.md lists them.
    const portOf = (flag) => {
      const v = Number(k.eff(flag));
      return v < 0 ? docs.defaults[shortName(k.binary)][flag] : v;
    };
    k.grpcPort = portOf('port');
    k.metricsPort = portOf('metrics_port');
  }
  for (const k of serviceContainers) {
    const { container: c, where, eff, binary, pod } = k;
    expect(k.grpcPort > 0 && k.metricsPort > 0, where, 'fixed gRPC and metrics ports (not 0: any free port)');
    expect(['0.0.0.0', '::', '[::]'].includes(eff('host')), where,
      `--host ${eff('host')} listens on every interface, so probes and Services reach it`);
    const ports = (c.ports || []).map((p) => `${p.name}=${p.containerPort}`).sort().join(',');
    expect(ports === `grpc=${k.grpcPort},metrics=${k.metricsPort}`.split(',').sort().join(','), where,
      `container ports are grpc=${k.grpcPort}, metrics=${k.metricsPort} as the binary listens (got ${ports})`);
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      const p = c[probe];
      if (!p && probe === 'startupProbe') continue;
      if (!expect(p && p.grpc, where, `${probe} is a native gRPC probe`)) continue;
      expect(p.grpc.port === k.grpcPort, where, `${probe} probes the gRPC port ${k.grpcPort} (got ${p.grpc.port})`);
      expect(!p.grpc.service || p.grpc.service === grpcServices[binary], where,
        `${probe} asks grpc.health.v1 about "" or ${grpcServices[binary]} (got ${p.grpc.service})`);
    }
    const drain = Number(eff('drain_seconds'));
    const deadline = Number(eff('shutdown_deadline_seconds'));
    const grace = pod.spec.terminationGracePeriodSeconds === undefined ? 30 : pod.spec.terminationGracePeriodSeconds;
    expect(grace > drain + deadline, where,
      `terminationGracePeriodSeconds ${grace} > drain ${drain} s + shutdown deadline ${deadline} s`);
    const live = c.livenessProbe || {};
    const tolerated = (live.periodSeconds || 10) * (live.failureThreshold || 3);
    expect(tolerated > drain + deadline, where,
      `liveness tolerates ${tolerated} s of NOT_SERVING, more than a drain (${drain + deadline} s)`);

    // host:port flags naming another kahve service go through a Service to its gRPC port.
    for (const flag of binaries[binary].own) {
      const m = flag.match(/^(\w+)_target$/);
      if (!m) continue;
      const value = eff(flag);
      // dns:///name:port makes the client balance over every address: a headless Service's pods.
      const balanced = value.startsWith('dns:///');
      const [host, port] = value.replace(/^dns:\/\/\//, '').split(/:(?=\d+$)/);
      const svc = services.find((s) => s.metadata.name === host.split('.')[0]);
      if (!expect(svc, where, `--${flag}=${value} names a Service of this overlay`)) continue;
      if (balanced) {
        expect(svc.spec.clusterIP === 'None', where,
          `--${flag}=${value} balances over DNS addresses, so Service ${host} is headless`);
      }
      const sp = (svc.spec.ports || []).find((p) => p.port === Number(port));
      if (!expect(sp, where, `Service ${host} has port ${port}`)) continue;
      const backends = kahve.filter((x) => podsOf(svc.spec.selector).includes(x.pod));
      expect(backends.length > 0 && backends.every((x) => x.binary === `kahve-${m[1]}`), where,
        `--${flag}: Service ${host} selects kahve-${m[1]} pods`);
      for (const b of backends) {
        const cp = containerPort(b.pod, sp.targetPort === undefined ? sp.port : sp.targetPort);
        expect(cp && cp.containerPort === b.grpcPort, where,
          `--${flag}: Service ${host}:${port} reaches ${b.binary}'s gRPC port`);
      }
    }
  }

  // The table hosts: an id unique to the pod, an advertised endpoint that reaches this very pod
  // (other hosts forward calls there, matchmaking creates tables there), a Service over all of them,
  // and a grace period that covers the whole drain.
  const kPodIP = '10.0.0.7';  // what resolveEnv gives status.podIP
  for (const k of kahve.filter((x) => x.binary === 'kahve-table')) {
    const { where, pod, vars, eff } = k;
    const hostId = vars.get('KAHVE_HOST_ID');
    expect(hostId && hostId.source === 'field:metadata.name' && eff('host_id') === pod.name, where,
      'KAHVE_HOST_ID is the pod name (downward API): unique to each pod');
    const advertise = eff('advertise');
    expect(advertise === `${kPodIP}:${k.grpcPort}`, where,
      `--advertise "${advertise}" is the pod IP (status.podIP) with the gRPC port ${k.grpcPort}`);
    const svc = services.find((s) => podsOf(s.spec.selector).includes(pod)
      && (s.spec.ports || []).some((p) => (containerPort(pod, p.targetPort === undefined ? p.port : p.targetPort) || {}).containerPort === k.grpcPort));
    expect(svc, where, 'a Service reaches the table hosts\' gRPC port');
    // docs/operations.md section 3: besides drain and deadline, up to 30 s for the event log to
    // commit what was accepted and up to 10 s for the final flush.
    const drain = Number(eff('drain_seconds'));
    const deadline = Number(eff('shutdown_deadline_seconds'));
    const grace = pod.spec.terminationGracePeriodSeconds === undefined ? 30 : pod.spec.terminationGracePeriodSeconds;
    expect(grace > drain + 30 + deadline + 10, where,
      `terminationGracePeriodSeconds ${grace} > drain ${drain} s + log commit 30 s + deadline ${deadline} s + flush 10 s`);
  }

  // Every service binary runs exactly once; the migration Job exists; all share one database and key.
  for (const b of bin.kServiceBinaries) {
    expect(kahve.filter((k) => k.binary === b).length === 1, `[${overlay}]`, `one workload runs ${b}`);
  }
  const migrations = kahve.filter((k) => k.binary === 'kahve' && k.args[0] === 'migrate');
  expect(migrations.length === 1 && migrations[0].pod.workload.kind === 'Job', `[${overlay}]`, 'a Job runs `kahve migrate`');
  const sourceOf = (k, v) => (k.vars.get(v) || {}).source;
  // Every service and the migration; the smoke check's clients hold no database.
  const usesDatabase = (k) => bin.kServiceBinaries.includes(k.binary) || (k.binary === 'kahve' && k.args[0] === 'migrate');
  const dbSources = new Set(kahve.filter(usesDatabase).map((k) => sourceOf(k, 'KAHVE_DATABASE')));
  for (const k of kahve.filter((x) => !usesDatabase(x))) {
    expect(!k.vars.has('KAHVE_DATABASE'), k.where || `[${overlay}]`, `a ${k.args[0] || k.binary} client holds no database URL`);
  }
  expect(dbSources.size === 1 && !dbSources.has(undefined), `[${overlay}]`,
    `services and migration read KAHVE_DATABASE from one place (${[...dbSources].join(', ')})`);
  const keySources = new Set(kahve.filter((k) => k.binary !== 'kahve').map((k) => sourceOf(k, 'KAHVE_JWT_HS256_SECRET')));
  expect(keySources.size === 1 && !keySources.has(undefined), `[${overlay}]`,
    'the services share one KAHVE_JWT_HS256_SECRET (they verify each other\'s tokens)');

  // ---- Services, ServiceMonitors, autoscalers, disruption budgets ----
  for (const s of services) {
    const selected = podsOf(s.spec.selector);
    if (!expect(selected.length > 0, id(s), 'selects at least one pod')) continue;
    for (const p of s.spec.ports) {
      for (const pod of selected) {
        const target = p.targetPort === undefined ? p.port : p.targetPort;
        expect(containerPort(pod, target), id(s), `port ${p.name}: target ${target} is a port of ${pod.where}`);
      }
    }
  }
  const scraped = new Set();
  for (const sm of of('ServiceMonitor')) {
    const matched = services.filter((s) => labelsMatch(sm.spec.selector, s.metadata.labels || {}));
    expect(matched.length > 0, id(sm), 'selects at least one Service');
    for (const ep of sm.spec.endpoints) {
      for (const s of matched) {
        const sp = s.spec.ports.find((p) => p.name === ep.port);
        if (!expect(sp, id(sm), `Service ${s.metadata.name} has a port named ${ep.port}`)) continue;
        for (const k of kahve.filter((x) => podsOf(s.spec.selector).includes(x.pod))) {
          const cp = containerPort(k.pod, sp.targetPort === undefined ? sp.port : sp.targetPort);
          if (expect(cp && cp.containerPort === k.metricsPort, id(sm),
            `${s.metadata.name}:${ep.port} reaches ${k.binary}'s metrics port ${k.metricsPort}`)) scraped.add(k);
        }
      }
    }
  }
  for (const k of kahve.filter((x) => bin.kServiceBinaries.includes(x.binary))) {
    expect(scraped.has(k), k.where, 'a ServiceMonitor scrapes its metrics port');
  }
  // Grafana dashboards for the sidecar: JSON with a uid, every query on the data source variable.
  for (const cm of of('ConfigMap').filter((c) => (c.metadata.labels || {}).grafana_dashboard === '1')) {
    for (const [key, text] of Object.entries(cm.data || {})) {
      let dash = null;
      try {
        dash = JSON.parse(text);
      } catch (e) {
        expect(false, id(cm), `${key} is JSON: ${e.message}`);
        continue;
      }
      expect(key.endsWith('.json') && dash.uid && dash.title, id(cm), `${key}: a .json dashboard with a uid and a title`);
      const vars = (dash.templating && dash.templating.list) || [];
      expect(vars.some((v) => v.name === 'datasource' && v.type === 'datasource' && v.query === 'prometheus'),
        id(cm), `${key}: has a Prometheus data source variable "datasource"`);
      for (const v of vars.filter((x) => x.type === 'query')) {
        expect(v.datasource && v.datasource.uid === '${datasource}', id(cm), `${key}: variable ${v.name} queries \${datasource}`);
      }
      const panels = (dash.panels || []).flatMap((p) => [p, ...(p.panels || [])]).filter((p) => p.type !== 'row');
      for (const p of panels) {
        const sources = [p.datasource, ...(p.targets || []).map((t) => t.datasource)];
        expect((p.targets || []).length > 0 && sources.every((d) => d && d.uid === '${datasource}'), id(cm),
          `${key}: panel "${p.title}" has queries, all on \${datasource}`);
      }
    }
  }
  for (const h of of('HorizontalPodAutoscaler')) {
    const t = h.spec.scaleTargetRef;
    const target = find(t.kind, t.name);
    if (!expect(target, id(h), `target ${t.kind}/${t.name} exists`)) continue;
    expect(target.spec.replicas === undefined, id(h), `${t.kind}/${t.name} leaves replicas to the autoscaler`);
    expect(target.spec.template.spec.containers.every((c) => c.resources && c.resources.requests && c.resources.requests.cpu),
      id(h), 'the target\'s containers request CPU (utilization is relative to it)');
  }
  for (const p of of('PodDisruptionBudget')) {
    const covered = workloads.filter((w) => w.kind !== 'Job' && labelsMatch(p.spec.selector, w.spec.template.metadata.labels || {}));
    expect(covered.length === 1, id(p), 'selects the pods of exactly one workload');
  }
  for (const w of workloads.filter((x) => x.kind !== 'Job')) {
    expect(labelsMatch(w.spec.selector, w.spec.template.metadata.labels || {}), id(w), 'selector matches its pod template');
  }

  // ---- Gateway API (Envoy Gateway): routes to kahve's Services, the table route hashed ----
  const kGatewayGroup = 'gateway.networking.k8s.io';
  const routes = of('GRPCRoute');
  const trafficPolicies = of('BackendTrafficPolicy');
  for (const r of routes) {
    for (const parent of r.spec.parentRefs || []) {
      const gw = (parent.kind || 'Gateway') === 'Gateway' && !parent.namespace && find('Gateway', parent.name);
      if (!expect(gw, id(r), `parent Gateway ${parent.name} is in this overlay`)) continue;
      const listeners = gw.spec.listeners.filter((l) => !parent.sectionName || l.name === parent.sectionName);
      expect(listeners.length > 0 && listeners.every((l) => ['HTTP', 'HTTPS'].includes(l.protocol)
        && (!l.allowedRoutes || !l.allowedRoutes.kinds || l.allowedRoutes.kinds.some((k) => k.kind === 'GRPCRoute'))), id(r),
      `Gateway ${parent.name}${parent.sectionName ? ` listener ${parent.sectionName}` : ''} takes GRPCRoutes (HTTP or HTTPS)`);
    }
    for (const rule of r.spec.rules || []) {
      const matched = (rule.matches || []).map((m) => m.method && m.method.service).filter(Boolean);
      expect(matched.length > 0, id(r), 'each rule matches gRPC services by name');
      for (const ref of rule.backendRefs || []) {
        const svc = (ref.kind || 'Service') === 'Service' && !ref.namespace && services.find((x) => x.metadata.name === ref.name);
        if (!expect(svc, id(r), `backendRef ${ref.name} is a Service of this overlay`)) continue;
        const sp = (svc.spec.ports || []).find((p) => p.port === ref.port);
        if (!expect(sp, id(r), `Service ${ref.name} has port ${ref.port}`)) continue;
        const backends = kahve.filter((x) => podsOf(svc.spec.selector).includes(x.pod));
        expect(backends.length > 0, id(r), `Service ${ref.name} selects kahve pods`);
        for (const b of backends) {
          const cp = containerPort(b.pod, sp.targetPort === undefined ? sp.port : sp.targetPort);
          expect(cp && cp.containerPort === b.grpcPort, id(r), `${ref.name}:${ref.port} reaches ${b.binary}'s gRPC port`);
          for (const service of matched) {
            expect(service === grpcServices[b.binary], id(r), `${service} is served by ${b.binary} (${grpcServices[b.binary]})`);
          }
        }
      }
    }
  }
  for (const p of [...trafficPolicies, ...of('ClientTrafficPolicy')]) {
    for (const t of policyTargets(p)) {
      expect(t.group === kGatewayGroup && find(t.kind, t.name), id(p), `targets ${t.kind}/${t.name} of this overlay`);
    }
  }
  if (of('Gateway').length > 0) {
    // The table service through the gateway: to the table hosts, hashed on the header clients send.
    const tableRoutes = routes.filter((r) => (r.spec.rules || []).some((rule) => (rule.matches || [])
      .some((m) => m.method && m.method.service === grpcServices['kahve-table'])));
    if (expect(tableRoutes.length === 1, `[${overlay}]`, `one GRPCRoute routes ${grpcServices['kahve-table']}`)) {
      const [route] = tableRoutes;
      const hashing = trafficPolicies.filter((p) => policyTargets(p).some((t) => t.kind === 'GRPCRoute' && t.name === route.metadata.name));
      expect(hashing.length === 1, id(route), 'one BackendTrafficPolicy targets it');
      for (const p of hashing) {
        const lb = p.spec.loadBalancer || {};
        const ch = lb.consistentHash || {};
        expect(lb.type === 'ConsistentHash' && ch.type === 'Header' && ch.header && ch.header.name === 'kahve-table-id', id(p),
          'consistent hashing on the header kahve-table-id (docs/api.md: what clients send)');
      }
    }
    // Server streams (Connect, WatchTicket) through Envoy: the 15 s default route timeout would end them.
    for (const r of routes) {
      const policy = trafficPolicies.find((p) => policyTargets(p).some((t) => t.kind === 'GRPCRoute' && t.name === r.metadata.name));
      const timeout = policy && policy.spec.timeout && policy.spec.timeout.http && policy.spec.timeout.http.requestTimeout;
      expect(timeout === '0s', id(r), 'a BackendTrafficPolicy sets timeout.http.requestTimeout 0s (its streams last)');
    }
  }

  // ---- NetworkPolicies ----
  const policies = of('NetworkPolicy');
  const dbPods = pods.filter((p) => p.labels['app.kubernetes.io/component'] === 'database');
  for (const c of of('Cluster')) {
    dbPods.push({
      where: id(c), namespace: ns, namespaceLabels: nsLabels,
      labels: { ...((c.spec.inheritedMetadata || {}).labels || {}), 'cnpg.io/cluster': c.metadata.name, 'cnpg.io/podRole': 'instance' },
      ports: [{ name: 'postgresql', containerPort: 5432, protocol: 'TCP' }, { name: 'status', containerPort: 8000, protocol: 'TCP' },
        { name: 'metrics', containerPort: 9187, protocol: 'TCP' }],
      cnpg: true,
    });
  }
  const allPods = [...pods.filter((p) => !dbPods.includes(p)), ...dbPods];
  expect(dbPods.length > 0, `[${overlay}]`, 'a database (pods labelled app.kubernetes.io/component: database)');
  // PodMonitors (prod: the database's): each selects pods of this overlay (CloudNativePG's
  // instances included), names a port they have, and the policies let Prometheus reach it.
  const scraper = { namespace: 'monitoring', namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' },
    labels: { 'app.kubernetes.io/name': 'prometheus' }, ports: [], where: 'Prometheus' };
  for (const pm of of('PodMonitor')) {
    const selected = allPods.filter((pod) => labelsMatch(pm.spec.selector, pod.labels));
    expect(selected.length > 0, id(pm), 'selects at least one pod');
    for (const ep of pm.spec.podMetricsEndpoints || []) {
      for (const pod of selected) {
        const cp = pod.ports.find((x) => x.name === ep.port);
        if (!expect(cp, id(pm), `${pod.where} has a port named ${ep.port}`)) continue;
        expect(allowed(policies, scraper, pod, cp.containerPort, 'TCP'), id(pm),
          `Prometheus may reach ${pod.where} port ${cp.containerPort}`);
      }
    }
  }
  expect(policies.some((p) => Object.keys(p.spec.podSelector || {}).length === 0 && ['Ingress', 'Egress'].every((t) => (p.spec.policyTypes || []).includes(t))
    && !p.spec.ingress && !p.spec.egress), `[${overlay}]`, 'a default-deny NetworkPolicy (all pods, ingress and egress)');
  for (const p of policies) {
    const selected = allPods.filter((pod) => labelsMatch(p.spec.podSelector, pod.labels));
    expect(selected.length > 0, id(p), 'selects at least one pod');
    const listening = (podsList, port) => podsList.length === 0 || podsList.some((pod) => pod.ports.some((cp) => cp.containerPort === port));
    for (const rule of p.spec.ingress || []) {
      for (const port of (rule.ports || []).filter((x) => typeof x.port === 'number')) {
        expect(listening(selected, port.port), id(p), `ingress port ${port.port} is one its pods listen on`);
      }
    }
    for (const rule of p.spec.egress || []) {
      const peers = (rule.to || []).filter((peer) => peer.podSelector && !peer.namespaceSelector);
      if (peers.length === 0) continue;
      const targets = allPods.filter((pod) => peers.some((peer) => labelsMatch(peer.podSelector, pod.labels)));
      expect(targets.length > 0, id(p), 'egress peers select pods of this overlay');
      for (const port of (rule.ports || []).filter((x) => typeof x.port === 'number')) {
        expect(listening(targets, port.port), id(p), `egress port ${port.port} is one its peers listen on`);
      }
    }
  }
  const byBinary = (b) => kahve.filter((k) => k.binary === b).map((k) => ({ ...k.pod, grpc: k.grpcPort, metrics: k.metricsPort }));
  const [mm] = byBinary('kahve-matchmaking');
  const [table] = byBinary('kahve-table');
  const [rating] = byBinary('kahve-rating');
  const migrate = migrations.length ? migrations[0].pod : null;
  if (mm && table && rating && migrate) {
    const peer = (namespace, labels) => ({ namespace, namespaceLabels: { 'kubernetes.io/metadata.name': namespace }, labels, ports: [] });
    const client = { external: true, where: 'a client outside the cluster' };
    const prometheus = { ...peer('monitoring', { 'app.kubernetes.io/name': 'prometheus' }), where: 'Prometheus' };
    const stranger = { ...peer(ns, { app: 'stranger' }), namespaceLabels: nsLabels, where: 'another pod of the namespace' };
    const outsider = { ...peer('other', { app: 'other' }), where: 'a pod of another namespace' };
    const dns = { ...peer('kube-system', { 'k8s-app': 'kube-dns' }), ports: [{ containerPort: 53 }], where: 'cluster DNS' };
    const operator = { ...peer('cnpg-system', { 'app.kubernetes.io/name': 'cloudnative-pg' }), where: 'the CloudNativePG operator' };
    const name = (x) => x.where || x.name;
    const may = (from, to, port, proto = 'TCP') => expect(allowed(policies, from, to, port, proto), `[${overlay}] NetworkPolicy`,
      `${name(from)} may reach ${name(to)} port ${port}/${proto}`);
    const mayNot = (from, to, port, proto = 'TCP') => expect(!allowed(policies, from, to, port, proto), `[${overlay}] NetworkPolicy`,
      `${name(from)} may NOT reach ${name(to)} port ${port}/${proto}`);
    may(client, mm, mm.grpc);
    may(client, table, table.grpc);
    may(mm, table, table.grpc);
    may(mm, rating, rating.grpc);
    may(table, rating, rating.grpc);
    may(table, table, table.grpc);
    for (const svc of [mm, table, rating]) {
      may(prometheus, svc, svc.metrics);
      mayNot(client, svc, svc.metrics);
      mayNot(stranger, svc, svc.metrics);
      mayNot(outsider, svc, svc.metrics);
      mayNot(migrate, svc, svc.grpc);
    }
    for (const src of [mm, table, rating, migrate]) {
      for (const db of dbPods) may(src, db, 5432);
      may(src, dns, 53, 'UDP');
      may(src, dns, 53, 'TCP');
      mayNot(src, client, 443);
    }
    // The smoke check (base/smoke-job.yaml): a client of the three services, nothing else.
    const smokes = kahve.filter((k) => k.binary === 'kahve' && k.args[0] === 'demo');
    expect(smokes.length === 1 && smokes[0].pod.workload.kind === 'Job', `[${overlay}]`, 'a Job runs the smoke check (`kahve demo`)');
    for (const smoke of smokes.map((k) => k.pod)) {
      for (const svc of [mm, table, rating]) may(smoke, svc, svc.grpc);
      may(smoke, dns, 53, 'UDP');
      for (const db of dbPods) mayNot(smoke, db, 5432);
      mayNot(smoke, client, 443);
    }
    mayNot(table, mm, mm.grpc);
    mayNot(rating, mm, mm.grpc);
    mayNot(rating, table, table.grpc);
    for (const db of dbPods) {
      mayNot(client, db, 5432);
      mayNot(stranger, db, 5432);
      mayNot(outsider, db, 5432);
      mayNot(db, mm, mm.grpc);
      if (db.cnpg) {
        may(operator, db, 8000);
        may(operator, db, 5432);
        may(db, db, 5432);
        may(prometheus, db, 9187);
      }
    }
  }
  checkGateway(overlay, objects, { id, of, find, pods, services, podsOf, containerPort, kahve, resolveEnv, policies, dbPods, nsLabels, ns });
  checkEntry(overlay, { id, of, find }, publicMethods, expect);
  checkBackups(of, id, secretKeys);
  return objects.length;
}

// ---- kahve-web, the gRPC-Web gateway: its flags, no guest tokens, ports, probes, routes, policies ----
function checkGateway(overlay, objects, o) {
  const { id, of, pods, services, podsOf, containerPort, kahve, resolveEnv, policies, dbPods, nsLabels, ns } = o;
  const isWebImage = (image) => /(^|\/)kahve-web(:[^/]*|@.*)?$/.test(image || '');
  const web = [];
  for (const pod of pods) {
    for (const c of pod.spec.containers.filter((x) => isWebImage(x.image))) {
      const cw = `${pod.where} container ${c.name}`;
      const sc = c.securityContext || {};
      expect((sc.runAsUser || (pod.spec.securityContext || {}).runAsUser) === 10001, cw, 'runs as uid 10001, the image\'s user');
      expect(JSON.stringify(c.command) === JSON.stringify(['/usr/bin/node', '/opt/kahve/web/gateway/dist/src/main.js']), cw,
        'command is the image\'s gateway: /usr/bin/node /opt/kahve/web/gateway/dist/src/main.js');
      const { vars, expand } = resolveEnv(c, pod);
      const flags = new Map(gatewayFlags);
      for (const [name, v] of vars) {
        if (!name.startsWith('KAHVE_')) continue;
        const flag = name.slice('KAHVE_'.length).toLowerCase();
        // kahve-common's variables for the services' database are not the gateway's: ignored by it.
        if (v.source.startsWith('configmap:kahve-common') && !gatewayFlags.has(flag)) continue;
        if (expect(gatewayFlags.has(flag), cw, `${name}: the gateway has no flag --${flag} (web/gateway/src/config.ts)`)) flags.set(flag, String(v.value));
      }
      for (const a of (c.args || []).map(expand)) {
        const m = a.match(/^--([a-z0-9_]+)(?:=(.*))?$/s);
        if (expect(m && gatewayFlags.has(m[1]), cw, `argument "${a}" is a gateway flag (--name=value)`)) flags.set(m[1], m[2] === undefined ? 'true' : m[2]);
      }
      // Production auth: players bring the identity provider's JWT; the gateway mints none.
      expect(!/^(1|true|yes)$/i.test(flags.get('guest_tokens')), cw, 'guest tokens are off (--guest_tokens false)');
      expect(!vars.has('KAHVE_JWT_HS256_SECRET'), cw, 'holds no JWT signing key (it only forwards players\' tokens)');
      const port = Number(flags.get('port'));
      const metricsPort = Number(flags.get('metrics_port'));
      expect(port > 0 && metricsPort > 0, cw, 'fixed ports (not 0: any free port; not -1: no /metrics)');
      expect(['0.0.0.0', '::'].includes(flags.get('host')), cw, `--host ${flags.get('host')} listens on every interface`);
      const ports = (c.ports || []).map((p) => `${p.name}=${p.containerPort}`).sort().join(',');
      expect(ports === [`http=${port}`, `metrics=${metricsPort}`].sort().join(','), cw,
        `container ports are http=${port}, metrics=${metricsPort} as the gateway listens (got ${ports})`);
      for (const probe of ['livenessProbe', 'readinessProbe']) {
        const p = c[probe];
        if (!expect(p && p.httpGet && p.httpGet.path === '/healthz', cw, `${probe} gets /healthz`)) continue;
        const cp = containerPort(pod, p.httpGet.port);
        expect(cp && [port, metricsPort].includes(cp.containerPort), cw, `${probe} probes a port the gateway serves /healthz on`);
      }
      const grace = pod.spec.terminationGracePeriodSeconds === undefined ? 30 : pod.spec.terminationGracePeriodSeconds;
      const stop = Number(flags.get('drain_seconds')) + Number(flags.get('shutdown_deadline_seconds'));
      expect(stop < grace, cw, `drain plus shutdown deadline (${stop} s) within terminationGracePeriodSeconds ${grace}`);
      // Each target names a Service of this overlay whose port reaches that service's gRPC port.
      for (const [flag, binary] of [['matchmaking_target', 'kahve-matchmaking'], ['table_target', 'kahve-table'], ['rating_target', 'kahve-rating']]) {
        const m = String(flags.get(flag)).match(/^(?:dns:\/\/\/)?([a-z0-9-]+)(?:\.[a-z0-9.-]+)?:(\d+)$/);
        const svc = m && services.find((x) => x.metadata.name === m[1]);
        const sp = svc && svc.spec.ports.find((p) => p.port === Number(m[2]));
        const backends = sp ? kahve.filter((k) => k.binary === binary && podsOf(svc.spec.selector).includes(k.pod)) : [];
        expect(backends.length > 0 && backends.every((b) => {
          const cp = containerPort(b.pod, sp.targetPort === undefined ? sp.port : sp.targetPort);
          return cp && cp.containerPort === b.grpcPort;
        }), cw, `--${flag} ${flags.get(flag)} reaches ${binary}'s gRPC port through a Service`);
      }
      web.push({ ...pod, http: port, metrics: metricsPort, where: cw });
    }
  }
  if (!expect(web.length === 1, `[${overlay}]`, 'one workload runs the gateway (image kahve-web)')) return;
  const [gw] = web;
  const monitored = of('ServiceMonitor').some((sm) => services.some((s) => labelsMatch(sm.spec.selector, s.metadata.labels || {})
    && labelsMatch({ matchLabels: s.spec.selector }, gw.labels)
    && sm.spec.endpoints.some((ep) => {
      const sp = s.spec.ports.find((p) => p.name === ep.port);
      const cp = sp && containerPort(gw, sp.targetPort === undefined ? sp.port : sp.targetPort);
      return cp && cp.containerPort === gw.metrics;
    })));
  expect(monitored, gw.where, 'a ServiceMonitor scrapes its metrics port');

  // The Gateway (prod): an HTTPRoute to kahve-web's HTTP port on a listener that takes HTTPRoutes,
  // with no request timeout (gRPC-Web streams last).
  if (of('Gateway').length > 0) {
    const routes = of('HTTPRoute');
    const toWeb = routes.filter((r) => (r.spec.rules || []).some((rule) => (rule.backendRefs || []).some((ref) => {
      const svc = services.find((x) => x.metadata.name === ref.name);
      const sp = svc && svc.spec.ports.find((p) => p.port === ref.port);
      const cp = sp && labelsMatch({ matchLabels: svc.spec.selector }, gw.labels)
        && containerPort(gw, sp.targetPort === undefined ? sp.port : sp.targetPort);
      return cp && cp.containerPort === gw.http;
    })));
    expect(toWeb.length === 1, `[${overlay}]`, 'one HTTPRoute sends browsers to the gateway\'s HTTP port');
    for (const r of routes) {
      for (const parent of r.spec.parentRefs || []) {
        const g = of('Gateway').find((x) => x.metadata.name === parent.name);
        const listeners = g ? g.spec.listeners.filter((l) => !parent.sectionName || l.name === parent.sectionName) : [];
        expect(listeners.length > 0 && listeners.every((l) => ['HTTP', 'HTTPS'].includes(l.protocol)
          && (!l.allowedRoutes || !l.allowedRoutes.kinds || l.allowedRoutes.kinds.some((k) => k.kind === 'HTTPRoute'))
          && !(l.allowedRoutes && l.allowedRoutes.kinds && l.allowedRoutes.kinds.some((k) => k.kind === 'GRPCRoute'))), id(r),
        `Gateway ${parent.name} listener ${parent.sectionName || '(all)'} takes HTTPRoutes and no GRPCRoutes (its grpc_web filter would transcode the browsers' calls)`);
      }
      const policy = of('BackendTrafficPolicy').find((p) => (p.spec.targetRefs || []).some((t) => t.kind === 'HTTPRoute' && t.name === r.metadata.name));
      const timeout = policy && policy.spec.timeout && policy.spec.timeout.http && policy.spec.timeout.http.requestTimeout;
      expect(timeout === '0s', id(r), 'a BackendTrafficPolicy sets timeout.http.requestTimeout 0s (gRPC-Web streams last)');
    }
  }

  // Who may talk to the gateway, and whom it may reach.
  const byBinary = (b) => kahve.filter((k) => k.binary === b).map((k) => ({ ...k.pod, grpc: k.grpcPort }));
  const [mm] = byBinary('kahve-matchmaking');
  const [table] = byBinary('kahve-table');
  const [rating] = byBinary('kahve-rating');
  const where = `[${overlay}] NetworkPolicy`;
  const may = (from, to, port) => expect(allowed(policies, from, to, port, 'TCP'), where, `${from.where} may reach ${to.where} port ${port}`);
  const mayNot = (from, to, port) => expect(!allowed(policies, from, to, port, 'TCP'), where, `${from.where} may NOT reach ${to.where} port ${port}`);
  const client = { external: true, where: 'a client outside the cluster' };
  const prometheus = { namespace: 'monitoring', namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' },
    labels: { 'app.kubernetes.io/name': 'prometheus' }, ports: [], where: 'Prometheus' };
  const stranger = { namespace: ns, namespaceLabels: nsLabels, labels: { app: 'stranger' }, ports: [], where: 'another pod of the namespace' };
  may(client, gw, gw.http);
  may(prometheus, gw, gw.metrics);
  mayNot(client, gw, gw.metrics);
  mayNot(stranger, gw, gw.metrics);
  for (const svc of [mm, table, rating].filter(Boolean)) may(gw, svc, svc.grpc);
  for (const db of dbPods) mayNot(gw, db, 5432);
  mayNot(gw, client, 443);
}

// ---- Backups: each CloudNativePG cluster archives its WAL through the Barman Cloud plugin to an
// ObjectStore of the overlay, and a ScheduledBackup takes its base backups (docs/operations.md,
// section 6) ----
function checkBackups(of, id, secretKeys) {
  const plugin = 'barman-cloud.cloudnative-pg.io';
  for (const c of of('Cluster')) {
    const archiver = (c.spec.plugins || []).find((p) => p.name === plugin && p.isWALArchiver === true && p.enabled !== false);
    if (!expect(archiver, id(c), `archives its WAL: spec.plugins has ${plugin} with isWALArchiver: true`)) continue;
    const storeName = (archiver.parameters || {}).barmanObjectName;
    expect(of('ObjectStore').some((s) => s.metadata.name === storeName), id(c),
      `the WAL archiver's barmanObjectName (${storeName}) is an ObjectStore of the overlay`);
    const schedules = of('ScheduledBackup').filter((b) => b.spec.cluster.name === c.metadata.name && b.spec.suspend !== true);
    expect(schedules.length > 0, id(c), 'a ScheduledBackup (not suspended) takes its base backups');
    for (const b of schedules) {
      expect(b.spec.method === 'plugin' && (b.spec.pluginConfiguration || {}).name === plugin, id(b),
        `method: plugin through ${plugin}, the WAL archiver (base backups beside the WAL)`);
      expect(b.spec.schedule.trim().split(/\s+/).length === 6, id(b), 'schedule has six fields, seconds first');
    }
  }
  for (const s of of('ObjectStore')) {
    expect(/^[1-9][0-9]*[dwm]$/.test(s.spec.retentionPolicy || ''), id(s), 'a retentionPolicy (e.g. 30d)');
    // Its keys are never in git: a Secret of that name here would be applied over the real one.
    for (const ref of Object.values(s.spec.configuration.s3Credentials || {}).filter((r) => r && r.name)) {
      expect(!(secretKeys.get(ref.name) || {})[ref.key], id(s), `Secret ${ref.name} key ${ref.key} holds no value in git`);
    }
  }
}

(async () => {
  for (const [overlay, file] of opts.renders) {
    const objects = readRender(file);
    await loadModels(objects);
    const count = checkOverlay(overlay, objects);
    console.log(`check-manifests: ${overlay}: ${count} objects`);
  }
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(`check-manifests: ${checks - failures.length} passed, ${failures.length} failed`);
  process.exit(failures.length ? 1 : 0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
