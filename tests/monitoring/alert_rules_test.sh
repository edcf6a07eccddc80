#!/usr/bin/env bash
# The alert rules of k8s/monitoring/alerts.yaml: takes .spec out of the PrometheusRule (promtool
# reads plain rule files; the rules live in that one file), runs `promtool check rules` on it and
# `promtool test rules` with alert_rules_test.yaml, and checks that every alert has a for:
# duration, a severity label, summary, description and a runbook_url naming a section of
# docs/operations.md. Also parses every query of the Grafana dashboard (k8s/monitoring/
# kahve-dashboard.json) with promtool, as recording rules.
# Usage: alert_rules_test.sh [REPO_ROOT]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="${1:-$(cd "$here/../.." && pwd)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; exit 1; }
command -v promtool >/dev/null || fail "no promtool: run scripts/install-deps.sh (Debian package prometheus)"

python3 - "$root/k8s/monitoring/alerts.yaml" "$root/docs/operations.md" "$work/rules.yaml" <<'PY' ||
import re, sys, yaml

rule_file, operations, out = sys.argv[1:]
with open(rule_file) as f:
    rule = yaml.safe_load(f)
if rule.get("apiVersion") != "monitoring.coreos.com/v1" or rule.get("kind") != "PrometheusRule":
    sys.exit(f"{rule_file}: not a monitoring.coreos.com/v1 PrometheusRule")

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
print(f"ok: {alerts} alerts, each with for:, severity, summary, description and a runbook section")
PY
  fail "the PrometheusRule's alerts"

cp "$here/alert_rules_test.yaml" "$work/"
promtool check rules "$work/rules.yaml" || fail "promtool check rules"
(cd "$work" && promtool test rules alert_rules_test.yaml) || fail "promtool test rules"
python3 "$here/metric_names.py" dashboard-rules "$root" "$work/dashboard.yaml"
promtool check rules "$work/dashboard.yaml" || fail "the dashboard's queries do not all parse"
echo "ok: k8s/monitoring/alerts.yaml passes promtool check rules and its unit tests;" \
  "the dashboard's queries parse"
