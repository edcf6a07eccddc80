#!/usr/bin/env node
'use strict';
// `k8s/check.sh --deploy`: the values a production deploy must set, checked on the rendered prod
// overlay before anything is applied. In git they are placeholders, on purpose: host names under
// the names reserved for documentation (RFC 2606: example.com/.net/.org, .example, .test,
// .invalid, .localhost), addresses in the documentation ranges (RFC 5737), a zero digest, empty
// secrets. Each one left fails here with what to set and where (k8s/README.md).
// Usage: check-deploy-values.js --tools DIR --overlay DIR RENDERED.yaml

const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

const opts = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--tools' || a === '--overlay') opts[a.slice(2)] = process.argv[++i];
  else opts.render = a;
}
const YAML = createRequire(path.join(path.resolve(opts.tools), 'package.json'))('yaml');
const objects = YAML.parseAllDocuments(fs.readFileSync(opts.render, 'utf8')).map((d) => d.toJS()).filter(Boolean);
const of = (kind) => objects.filter((o) => o.kind === kind);

const failures = [];
let checks = 0;
function expect(cond, where, message) {
  checks++;
  if (!cond) failures.push(`${where}: ${message}`);
}

function readEnv(file) {
  const values = new Map();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s*([A-Za-z0-9_.-]+)=(.*)$/.exec(line);
    if (m) values.set(m[1], m[2].trim());
  }
  return values;
}

const kReservedName = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;
const kHostName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
// RFC 5737's documentation ranges, as [first octets].
const kDocumentationNets = [[192, 0, 2], [198, 51, 100], [203, 0, 113]];

function placeholderHost(host) {
  return !host || !kHostName.test(host) || kReservedName.test(host);
}

function checkSite(site) {
  const where = 'overlays/prod/site.env';
  for (const key of ['public_host', 'web_host']) {
    const host = site.get(key);
    expect(!placeholderHost(host), where, `${key} is "${host || ''}": set the host name ${key === 'public_host'
      ? 'players\' clients dial (the grpc listener; every table assignment names it)' : 'browsers open (the web listener)'}, not a reserved example name`);
  }
  expect(site.get('public_host') !== site.get('web_host'), where, 'public_host and web_host differ (one listener each)');
  const cidrs = (site.get('pod_cidr') || '').split(',').map((s) => s.trim()).filter(Boolean);
  expect(cidrs.length > 0, where, 'pod_cidr names the cluster\'s pod range(s)');
  for (const cidr of cidrs) {
    const octets = cidr.split('/')[0].split('.').map(Number);
    const documentation = kDocumentationNets.some((net) => net.every((x, i) => octets[i] === x));
    expect(!documentation, where, `pod_cidr ${cidr} is a documentation range (RFC 5737): set the cluster's pod range`);
  }
}

function checkSecrets(secrets) {
  const key = secrets.get('jwt-hs256-secret') || '';
  expect(key.length >= 32, 'overlays/prod/secrets.env',
    'jwt-hs256-secret holds 32 or more characters (`openssl rand -base64 48`): set it here, where you deploy from, never in git');
}

function checkRendered(site) {
  for (const o of objects) {
    const pod = o.kind === 'Deployment' || o.kind === 'StatefulSet' || o.kind === 'Job' ? o.spec.template.spec : null;
    for (const c of pod ? [...(pod.initContainers || []), ...pod.containers] : []) {
      const where = `${o.kind}/${o.metadata.name} container ${c.name}`;
      const digest = /@sha256:([0-9a-f]{64})$/.exec(c.image || '');
      expect(digest && !/^0+$/.test(digest[1]), where, `image ${c.image} is pinned by its digest (container/release.sh prints it)`);
      const registry = (c.image || '').split('/')[0];
      expect(!kReservedName.test(registry.split(':')[0]), where, `image ${c.image} names your registry, not ${registry}`);
      for (const e of c.env || []) {
        if (e.name === 'KAHVE_TABLE_CLIENT_ENDPOINT') {
          expect(e.value === `${site.get('public_host')}:443`, where, `KAHVE_TABLE_CLIENT_ENDPOINT is public_host:443 (is ${e.value})`);
        }
      }
    }
  }
  for (const gw of of('Gateway')) {
    for (const l of gw.spec.listeners) {
      expect(!placeholderHost(l.hostname), `Gateway/${gw.metadata.name} listener ${l.name}`, `hostname ${l.hostname} is a real host name`);
    }
  }
  for (const store of of('ObjectStore')) {
    const conf = store.spec.configuration || {};
    const where = `ObjectStore/${store.metadata.name} (overlays/prod/backup.yaml)`;
    expect(conf.destinationPath && !/REPLACE/i.test(conf.destinationPath), where,
      `destinationPath is "${conf.destinationPath}": name your bucket`);
    if (conf.endpointURL) {
      const host = conf.endpointURL.replace(/^[a-z]+:\/\//, '').split(/[/:]/)[0];
      expect(!kReservedName.test(host), where, `endpointURL ${conf.endpointURL} is your object store's (or delete it for AWS S3)`);
    }
  }
}

const site = readEnv(path.join(opts.overlay, 'site.env'));
checkSite(site);
checkSecrets(readEnv(path.join(opts.overlay, 'secrets.env')));
checkRendered(site);
for (const f of failures) console.log(`FAIL ${f}`);
console.log(`check-deploy-values: ${checks - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
