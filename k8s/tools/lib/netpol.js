'use strict';
// Evaluates NetworkPolicies the way the API defines them, for the checks' questions "may A open
// a connection to B's port P?". A pod is { namespace, namespaceLabels, labels, ports:
// [{ name, containerPort, protocol }] }; an outside client is { external: true }.

function labelsMatch(selector, labels) {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels || {})) {
    if (labels[k] !== v) return false;
  }
  for (const e of selector.matchExpressions || []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const value = labels[e.key];
    switch (e.operator) {
      case 'In': if (!has || !e.values.includes(value)) return false; break;
      case 'NotIn': if (has && e.values.includes(value)) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: throw new Error(`unknown selector operator ${e.operator}`);
    }
  }
  return true;
}

function policyTypes(policy) {
  if (policy.spec.policyTypes) return policy.spec.policyTypes;
  return policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress'];
}

// Whether a peer (an entry of from/to) of a policy in `policyNs` matches `pod`.
function peerMatches(peer, policyNs, pod) {
  if (peer.ipBlock) {
    // Only outside clients are judged by address here; an ipBlock covering everything
    // admits them.
    return Boolean(pod.external) && peer.ipBlock.cidr === '0.0.0.0/0' && !(peer.ipBlock.except || []).length;
  }
  if (pod.external) return false;
  const nsOk = peer.namespaceSelector
    ? labelsMatch(peer.namespaceSelector, pod.namespaceLabels)
    : pod.namespace === policyNs;
  return nsOk && labelsMatch(peer.podSelector, pod.labels);
}

function portMatches(rulePorts, target, port, protocol) {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some((p) => {
    if ((p.protocol || 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') {
      return (target.ports || []).some((cp) => cp.name === p.port && cp.containerPort === port);
    }
    return p.endPort ? port >= p.port && port <= p.endPort : p.port === port;
  });
}

// Whether `from` may connect to `to` on `port`/`protocol` under `policies`.
function allowed(policies, from, to, port, protocol = 'TCP') {
  const selecting = (pod, type) => (pod.external ? [] : policies.filter((p) => (p.metadata.namespace || '') === pod.namespace
    && policyTypes(p).includes(type) && labelsMatch(p.spec.podSelector, pod.labels)));
  const egress = selecting(from, 'Egress');
  const egressOk = egress.length === 0 || egress.some((p) => (p.spec.egress || []).some((rule) => portMatches(rule.ports, to, port, protocol)
    && (!rule.to || rule.to.some((peer) => peerMatches(peer, p.metadata.namespace || '', to)))));
  const ingress = selecting(to, 'Ingress');
  const ingressOk = ingress.length === 0 || ingress.some((p) => (p.spec.ingress || []).some((rule) => portMatches(rule.ports, to, port, protocol)
    && (!rule.from || rule.from.some((peer) => peerMatches(peer, p.metadata.namespace || '', from)))));
  return egressOk && ingressOk;
}

module.exports = { labelsMatch, allowed, peerMatches };
