'use strict';
// The public entry address (Gateway API with Envoy Gateway), beyond its wiring: what it exposes
// and what it holds. Checked in an overlay with a Gateway:
// - the GRPCRoutes route exactly the players' methods (lib/public-methods.js), each by name;
// - Envoy's circuit breakers, which count each open stream as a request in flight, are raised
//   above their defaults (1,024) on every route with streams, and set deliberately;
// - the listener has a connection limit, and the proxy runs as two or more replicas with a
//   disruption budget and keeps clients' addresses (externalTrafficPolicy Local);
// - every kahve workload trusts the proxies' forwarded addresses (--trusted_proxies).

const kEnvoyDefaultLimit = 1024;

// The objects a Gateway API policy attaches to: its targetRefs, or the older single targetRef.
function policyTargets(policy) {
  return [...(policy.spec.targetRefs || []), ...(policy.spec.targetRef ? [policy.spec.targetRef] : [])];
}

function checkEntry(overlay, o, publicMethods, expect) {
  const { id, of, find } = o;
  const gateways = of('Gateway');
  if (gateways.length === 0) return;

  // Methods routed, by "service/method".
  const routed = new Map();
  for (const r of of('GRPCRoute')) {
    for (const rule of r.spec.rules || []) {
      for (const m of rule.matches || []) {
        const method = m.method || {};
        if (!expect(method.service && method.method && (method.type || 'Exact') === 'Exact', id(r),
          `every match names one method exactly (service ${method.service || '?'}: a whole service would expose its service- and admin-only methods)`)) continue;
        routed.set(`${method.service}/${method.method}`, id(r));
      }
    }
  }
  for (const [service, { routed: players, refused }] of publicMethods) {
    for (const name of players) {
      expect(routed.has(`${service}/${name}`), `[${overlay}]`, `a GRPCRoute routes ${service}/${name} (web/gateway/src/routes.ts routes it)`);
    }
    for (const name of refused) {
      expect(!routed.has(`${service}/${name}`), routed.get(`${service}/${name}`) || `[${overlay}]`,
        `${service}/${name} is not routed through the public Gateway (service or admin only)`);
    }
  }
  for (const [key, where] of routed) {
    const [service, name] = key.split('/');
    const known = publicMethods.get(service);
    expect(known && known.routed.has(name), where, `${key} is a players' method (web/gateway/src/routes.ts)`);
  }

  // Circuit breakers on every route: their streams are requests in flight for Envoy.
  const policies = of('BackendTrafficPolicy');
  for (const r of [...of('GRPCRoute'), ...of('HTTPRoute')]) {
    const policy = policies.find((p) => policyTargets(p).some((t) => t.kind === r.kind && t.name === r.metadata.name));
    const cb = (policy && policy.spec.circuitBreaker) || {};
    expect(cb.maxParallelRequests > kEnvoyDefaultLimit, id(r),
      `its BackendTrafficPolicy raises circuitBreaker.maxParallelRequests above Envoy's ${kEnvoyDefaultLimit} (each open stream counts)`);
    expect(cb.maxConnections > 0 && cb.maxPendingRequests > 0, id(r),
      'its BackendTrafficPolicy sets circuitBreaker.maxConnections and maxPendingRequests deliberately');
  }

  for (const gw of gateways) {
    const client = of('ClientTrafficPolicy').find((p) => policyTargets(p).some((t) => t.kind === 'Gateway' && t.name === gw.metadata.name));
    const limit = client && client.spec.connection && client.spec.connection.connectionLimit;
    expect(limit && limit.value > 0, id(gw), 'a ClientTrafficPolicy sets connection.connectionLimit.value');
    const ref = (gw.spec.infrastructure || {}).parametersRef;
    const proxy = ref && ref.kind === 'EnvoyProxy' && ref.group === 'gateway.envoyproxy.io' && find('EnvoyProxy', ref.name);
    if (!expect(proxy, id(gw), 'spec.infrastructure.parametersRef names an EnvoyProxy of this overlay (the proxy\'s replicas)')) continue;
    const k8s = (proxy.spec.provider || {}).kubernetes || {};
    const hpa = k8s.envoyHpa;
    const replicas = hpa ? hpa.minReplicas || 1 : ((k8s.envoyDeployment || {}).replicas || 1);
    expect(replicas >= 2, id(proxy), 'two or more Envoy replicas (one is a single point of failure for every stream)');
    expect(k8s.envoyPDB && (k8s.envoyPDB.minAvailable || k8s.envoyPDB.maxUnavailable), id(proxy), 'a disruption budget (envoyPDB)');
    expect((k8s.envoyService || {}).externalTrafficPolicy === 'Local', id(proxy),
      'envoyService.externalTrafficPolicy Local (Envoy sees, and forwards, the clients\' own addresses)');
  }

  for (const d of of('Deployment')) {
    const c = d.spec.template.spec.containers[0];
    const env = (c.env || []).find((e) => e.name === 'KAHVE_TRUSTED_PROXIES');
    expect(env && env.value, id(d), 'KAHVE_TRUSTED_PROXIES names the proxies\' range (behind the Gateway every player arrives through them)');
  }
}

module.exports = { checkEntry, policyTargets };
