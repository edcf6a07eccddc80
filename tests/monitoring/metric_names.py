#!/usr/bin/env python3
"""Metric names of the dashboard and the alert rules against what the services expose.

  metric_names.py scrape OUT URL...   GETs every URL (/metrics) again and again until SIGTERM,
                                      then writes to OUT every family and sample name seen
  metric_names.py dashboard-rules ROOT OUT
                                      writes the dashboard's queries to OUT as recording rules,
                                      for promtool to parse
  metric_names.py check ROOT SCRAPED  lists the names that k8s/monitoring/kahve-dashboard.json
                                      and k8s/monitoring/alerts.yaml query, and fails naming each
                                      one the scrape never showed

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

# Names that are not kahve's own, allowed in the queries; none so far (e.g. Prometheus' `up`).
NOT_OURS = {}

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
    with open(path) as f:
        rule = yaml.safe_load(f)
    return [(f"{path}: {r.get('alert') or r.get('record')}", r["expr"])
            for g in rule["spec"]["groups"] for r in g["rules"]]


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
    queries += rule_queries(f"{root}/k8s/monitoring/alerts.yaml")
    queries = [(where.replace(f"{root}/", ""), expr) for where, expr in queries]
    used = {}
    for where, expr in queries:
        names = promql_names(expr)
        if not names:
            print(f"FAIL: {where}: no metric name found in {expr!r}")
            sys.exit(1)
        for name in names:
            used.setdefault(name, []).append(where)

    missing, rare_used = [], []
    for name in sorted(used):
        if name in NOT_OURS or exposed(name):
            continue
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        family = name if name in RARE else base
        if family in RARE and family in registered_in_code:
            rare_used.append(f"{name} ({RARE[family]})")
            continue
        missing.append(name)
    print(f"{len(used)} metric names in {len(queries)} queries of the dashboard and the rules; "
          f"{len(families)} families seen on /metrics")
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
