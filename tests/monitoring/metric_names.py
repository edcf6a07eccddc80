#!/usr/bin/env python3
"""Metric names of the dashboard and the alert rules against what the services expose.

  metric_names.py scrape OUT URL...   GETs every URL (/metrics) again and again until SIGTERM,
                                      then writes to OUT every family and sample name seen
  metric_names.py dashboard-rules ROOT OUT
                                      writes the dashboard's queries to OUT as recording rules,
                                      for promtool to parse
  metric_names.py check ROOT SCRAPED  lists the names that k8s/monitoring/kahve-dashboard.json,
                                      k8s/monitoring/alerts.yaml and the database's rules
                                      (k8s/overlays/prod/database-monitoring.yaml) query, and fails
                                      naming each one the scrape never showed (unless a rule
                                      records it, or NOT_OURS lists it)

prometheus-cpp leaves a family out of /metrics until it has a series, and some series are removed
again (matchmaking's ticket gauges when a queue empties): hence the scraping all along the run,
and RARE below for families only a rare event brings.
"""

import json
import pathlib
import re
import signal
import sys
import time
import urllib.request

import yaml

# Families no test game produces, each with why; accepted when the services' code registers the
# name (`.Name("...")`, or a table_metrics.cc helper, under services/), so a typo here still fails.
RARE = {
    "kahve_turn_timeouts_total": "only when a turn clock runs out; the demo's clients play at once "
                                 "and ask for no clock",
    "kahve_matchmaking_bot_seats_total": "only when bots fill a match after the longest wait; the "
                                         "demo's players queue together and fill their tables",
    "kahve_matchmaking_tickets_ended_total": "only when a ticket expires or is cancelled; the "
                                             "demo's tickets are all matched",
    "kahve_table_takeovers_total": "only when a table changes host; the test runs one table "
                                   "host, which never hands a table over",
    "kahve_game_bot_seats_total": "only when a game ends with a seat a bot held (a bot seat, a "
                                  "resigned or away player); the demo's players play every seat "
                                  "of their matches, and its practice table, resigned, closes "
                                  "without a result",
    "kahve_matchmaking_tickets": "only while a queue holds tickets after a pass; the demo's "
                                 "players usually fill their tables in the pass that first sees "
                                 "them (seen or not by a run, by timing)",
}

# Names that are not kahve's own, allowed in the queries, each with whose it is. A name here that
# kahve's services also registered would be a clash: the check fails on it.
NOT_OURS = {
    "up": "Prometheus' own, per target: the missing-service rules (kahve-rpc) and the database's",
    "cnpg_collector_up": "CloudNativePG's exporter (9187): 1 while it reaches its PostgreSQL",
    "cnpg_pg_replication_in_recovery": "CloudNativePG's default query pg_replication",
    "cnpg_pg_replication_streaming_replicas": "CloudNativePG's default query pg_replication",
    "cnpg_pg_replication_lag": "CloudNativePG's default query pg_replication",
    "cnpg_backends_total": "CloudNativePG's default query backends",
    "cnpg_pg_settings_setting": "CloudNativePG's default query pg_settings",
    "cnpg_pg_stat_archiver_last_archived_time": "CloudNativePG's default query pg_stat_archiver",
    "cnpg_pg_stat_archiver_last_failed_time": "CloudNativePG's default query pg_stat_archiver",
    "kubelet_volume_stats_available_bytes": "the kubelet's, per PersistentVolumeClaim",
    "kubelet_volume_stats_capacity_bytes": "the kubelet's, per PersistentVolumeClaim",
}

KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring",
            "group_left", "group_right", "inf", "nan", "atan2"}


def promql_names(expr):
    """Metric names a PromQL expression selects (Grafana's $variables allowed)."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', '""', expr)  # strings
    expr = re.sub(r"\{[^}]*\}", " ", expr)  # label matchers
    expr = re.sub(r"\[[^\]]*\]", " ", expr)  # ranges and subqueries
    expr = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", expr)
    names = set()
    for m in re.finditer(r"(?<![\w.$:])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?", expr):
        word, call = m.group(1), m.group(2)
        if call or word.lower() in KEYWORDS:
            continue
        names.add(word)
    return names


def dashboard_queries(path):
    with open(path) as f:
        dash = json.load(f)
    queries = []
    for panel in dash.get("panels", []):
        for p in [panel] + panel.get("panels", []):
            for t in p.get("targets", []):
                queries.append((f"{path}: panel \"{p.get('title')}\"", t["expr"]))
    for v in dash.get("templating", {}).get("list", []):
        if v.get("type") != "query":
            continue
        query = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
        # label_values(METRIC_OR_SELECTOR, label), query_result(EXPR), metrics(...) are Grafana's.
        m = re.fullmatch(r"\s*label_values\((.*),\s*\w+\)\s*", query)
        queries.append((f"{path}: variable {v['name']}", m.group(1) if m else query))
    return queries


def rule_queries(path):
    """(where, expr) of every rule of the PrometheusRules among path's documents."""
    with open(path) as f:
        docs = [d for d in yaml.safe_load_all(f) if d and d.get("kind") == "PrometheusRule"]
    return [(f"{path}: {r.get('alert') or r.get('record')}", r["expr"])
            for rule in docs for g in rule["spec"]["groups"] for r in g["rules"]]


RULE_FILES = ("k8s/monitoring/alerts.yaml", "k8s/overlays/prod/database-monitoring.yaml")


def recorded_names(root):
    """The names the rules' recording rules record (the SLOs' ratios): queried, never scraped."""
    names = set()
    for path in RULE_FILES:
        with open(f"{root}/{path}") as f:
            for d in yaml.safe_load_all(f):
                if d and d.get("kind") == "PrometheusRule":
                    names.update(r["record"] for g in d["spec"]["groups"] for r in g["rules"]
                                 if "record" in r)
    return names


def dashboard_as_rules(root, out):
    """Writes the dashboard's queries as recording rules, Grafana's variables replaced by values,
    so that `promtool check rules` parses them."""
    values = {"$__rate_interval": "2m", "$__interval": "1m", "$__range": "1h", "$namespace": ".*"}
    rules = []
    for i, (where, expr) in enumerate(dashboard_queries(f"{root}/k8s/monitoring/kahve-dashboard.json")):
        for var, value in values.items():
            expr = expr.replace(var, value)
        if "$" in expr:
            sys.exit(f"FAIL: {where}: a variable this check does not know in {expr!r}")
        rules.append({"record": f"dashboard:query_{i}", "expr": expr,
                      "labels": {"where": where.replace(f"{root}/", "")}})
    with open(out, "w") as f:
        yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}, f, sort_keys=False)
    print(f"{len(rules)} dashboard queries written as recording rules to parse")


def scrape(out, urls):
    families, samples = {}, set()
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    while True:
        for url in urls:
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    text = r.read().decode()
            except OSError:
                continue
            for line in text.splitlines():
                if line.startswith("# TYPE "):
                    _, _, name, kind = line.split(" ", 3)
                    families[name] = kind
                elif line and not line.startswith("#"):
                    samples.add(re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line).group(0))
        if stop:
            break
        time.sleep(0.2)
    with open(out, "w") as f:
        json.dump({"families": families, "samples": sorted(samples)}, f, indent=1)


def check(root, scraped_file):
    with open(scraped_file) as f:
        scraped = json.load(f)
    families, samples = scraped["families"], set(scraped["samples"])
    if not samples:
        sys.exit("FAIL: the scrape saw no metrics at all")

    def exposed(name):
        if name in samples or name in families:
            return True
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        return base != name and families.get(base) in ("histogram", "summary")

    registered_in_code = set()
    for source in pathlib.Path(root, "services").rglob("*.cc"):
        # `.Name("...")` on a prometheus-cpp builder, or the table service's builder helpers
        # (table_metrics.cc: Counters, Gauges, Histograms).
        registered_in_code.update(re.findall(
            r'(?:\.Name\(|\b(?:Counters|Gauges|Histograms)\(\s*registry,\s*)"([a-zA-Z0-9_:]+)"',
            source.read_text()))

    queries = dashboard_queries(f"{root}/k8s/monitoring/kahve-dashboard.json")
    for path in RULE_FILES:
        queries += rule_queries(f"{root}/{path}")
    recorded = recorded_names(root)
    queries = [(where.replace(f"{root}/", ""), expr) for where, expr in queries]
    used = {}
    for where, expr in queries:
        names = promql_names(expr)
        if not names:
            print(f"FAIL: {where}: no metric name found in {expr!r}")
            sys.exit(1)
        for name in names:
            used.setdefault(name, []).append(where)

    clashes = sorted(n for n in NOT_OURS if n in registered_in_code or n in families)
    if clashes:
        sys.exit(f"FAIL: listed as not kahve's but kahve exposes them: {', '.join(clashes)}")
    missing, rare_used = [], []
    for name in sorted(used):
        if name in NOT_OURS or name in recorded or exposed(name):
            continue
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        family = name if name in RARE else base
        if family in RARE and family in registered_in_code:
            rare_used.append(f"{name} ({RARE[family]})")
            continue
        missing.append(name)
    print(f"{len(used)} metric names in {len(queries)} queries of the dashboard and the rules; "
          f"{len(families)} families seen on /metrics")
    for name in sorted(n for n in used if n in NOT_OURS):
        print(f"  not kahve's, accepted: {name} ({NOT_OURS[name]})")
    for name in sorted(n for n in used if n in recorded):
        print(f"  recorded by a rule, accepted: {name}")
    for r in rare_used:
        print(f"  not seen, accepted as rare: {r}")
    if missing:
        print(f"FAIL: {len(missing)} metric names used but not exposed by the services:")
        for name in missing:
            print(f"  {name}  (used by {used[name][0]}"
                  f"{f' and {len(used[name]) - 1} more' if len(used[name]) > 1 else ''})")
        print(f"families seen: {' '.join(sorted(families))}")
        sys.exit(1)
    print("ok: every metric name the dashboard and the alert rules use is one the services expose")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "scrape":
        scrape(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 4 and sys.argv[1] == "dashboard-rules":
        dashboard_as_rules(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
