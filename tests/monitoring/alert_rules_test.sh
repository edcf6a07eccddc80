#!/usr/bin/env bash
# The alert and recording rules of the two PrometheusRules: k8s/monitoring/alerts.yaml (both
# overlays) and the database's in k8s/overlays/prod/database-monitoring.yaml (prod only, beside its
# PodMonitor). Takes each one's .spec out (promtool reads plain rule files), runs `promtool check
# rules` on it and `promtool test rules` with its tests (alert_rules_test.yaml,
# database_rules_test.yaml), and checks that every alert has a for: duration, a severity label,
# summary, description and a runbook_url naming a section of docs/operations.md. Also parses every
# query of the Grafana dashboard (k8s/monitoring/kahve-dashboard.json) with promtool, as recording
# rules.
# Usage: alert_rules_test.sh [REPO_ROOT]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="${1:-$(cd "$here/../.." && pwd)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; exit 1; }
command -v promtool >/dev/null || fail "no promtool: run scripts/install-deps.sh (Debian package prometheus)"

# check_rule FILE OUT: the one PrometheusRule among FILE's documents, checked, its .spec to OUT.
check_rule() {
python3 - "$1" "$root/docs/operations.md" "$2" <<'PY'
import re, sys, yaml

rule_file, operations, out = sys.argv[1:]
with open(rule_file) as f:
    rules = [d for d in yaml.safe_load_all(f) if d and d.get("kind") == "PrometheusRule"]
if len(rules) != 1 or rules[0].get("apiVersion") != "monitoring.coreos.com/v1":
    sys.exit(f"{rule_file}: not one monitoring.coreos.com/v1 PrometheusRule")
rule = rules[0]

# GitHub's anchors for the headings of docs/operations.md: lower case, punctuation dropped,
# spaces as hyphens.
with open(operations) as f:
    anchors = {re.sub(r"[^a-z0-9 _-]", "", m.group(1).strip().lower()).replace(" ", "-")
               for m in re.finditer(r"^#+ (.*)$", f.read(), re.MULTILINE)}

problems = []
alerts = 0
for group in rule["spec"]["groups"]:
    for r in group["rules"]:
        if "alert" not in r:
            continue
        alerts += 1
        name = r["alert"]
        if not r.get("for"):
            problems.append(f"{name}: no for:")
        if r.get("labels", {}).get("severity") not in ("warning", "critical"):
            problems.append(f"{name}: severity label is not warning or critical")
        notes = r.get("annotations", {})
        for key in ("summary", "description", "runbook_url"):
            if not notes.get(key):
                problems.append(f"{name}: no {key} annotation")
        runbook = notes.get("runbook_url", "")
        page, _, anchor = runbook.partition("#")
        if page != "docs/operations.md" or anchor not in anchors:
            problems.append(f"{name}: runbook_url {runbook!r} is not a section of docs/operations.md")
        if anchor != name.lower():
            problems.append(f"{name}: runbook_url anchor should be #{name.lower()}")
if alerts == 0:
    problems.append("no alerts")
for p in problems:
    print(f"FAIL: {rule_file}: {p}")
if problems:
    sys.exit(1)
with open(out, "w") as f:
    yaml.safe_dump(rule["spec"], f, sort_keys=False)
print(f"ok: {rule_file}: {alerts} alerts, each with for:, severity, summary, description and a "
      "runbook section")
PY
}

check_rule "$root/k8s/monitoring/alerts.yaml" "$work/rules.yaml" ||
  fail "the alerts of k8s/monitoring/alerts.yaml"
check_rule "$root/k8s/overlays/prod/database-monitoring.yaml" "$work/database-rules.yaml" ||
  fail "the alerts of k8s/overlays/prod/database-monitoring.yaml"

cp "$here/alert_rules_test.yaml" "$here/database_rules_test.yaml" "$work/"
for rules in rules.yaml database-rules.yaml; do
  promtool check rules "$work/$rules" || fail "promtool check rules $rules"
done
for tests in alert_rules_test.yaml database_rules_test.yaml; do
  (cd "$work" && promtool test rules "$tests") || fail "promtool test rules $tests"
done
python3 "$here/metric_names.py" dashboard-rules "$root" "$work/dashboard.yaml"
promtool check rules "$work/dashboard.yaml" || fail "the dashboard's queries do not all parse"
echo "ok: k8s/monitoring/alerts.yaml and the database's rules pass promtool check rules and" \
  "their unit tests; the dashboard's queries parse"
