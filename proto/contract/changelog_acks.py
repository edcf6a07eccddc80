#!/usr/bin/env python3
"""The changelog rule for breaking changes (README, "Compatibility").

Every finding of `buf breaking` against the last released contract must be named in
CHANGELOG.md's entry for the version being built (the section under the heading `## VERSION`,
up to the next `## ` heading), as a line holding

    `RULE` PATH: MESSAGE

exactly as this script prints it for a finding it does not find there. A break is thus never
released without the changelog telling clients about it.

Usage: changelog_acks.py CHANGELOG VERSION FINDINGS
  FINDINGS: `buf breaking --error-format=json` output, one JSON object per line.
Exits 0 when every finding is named, 1 naming those that are not, 2 when the changelog has no
entry for VERSION or the findings do not parse.
"""

import json
import re
import sys


def entry_for(changelog: str, version: str) -> str | None:
    """The text of the changelog's section for `version`, or None."""
    heading = re.compile(r"^## " + re.escape(version) + r"(?=\s|$)")
    lines = changelog.splitlines()
    for start, line in enumerate(lines):
        if heading.match(line):
            end = start + 1
            while end < len(lines) and not lines[end].startswith("## "):
                end += 1
            return "\n".join(lines[start:end])
    return None


def acknowledgement(finding: dict) -> str:
    """How the changelog names a finding."""
    return f"`{finding['type']}` {finding['path']}: {finding['message']}"


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    changelog_path, version, findings_path = argv[1:]
    with open(changelog_path, encoding="utf-8") as f:
        entry = entry_for(f.read(), version)
    if entry is None:
        print(f"{changelog_path}: no entry for {version} (a heading `## {version}`): every "
              "version the build says it is needs one", file=sys.stderr)
        return 2
    findings = []
    with open(findings_path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                findings.append(json.loads(line))
            except json.JSONDecodeError as error:
                print(f"{findings_path}:{number}: not buf's JSON: {error}", file=sys.stderr)
                return 2
    missing = [acknowledgement(f) for f in findings if acknowledgement(f) not in entry]
    if missing:
        print(f"Breaking changes since the last release that {changelog_path}'s entry for "
              f"{version} does not name. Tell clients what changed and what to do, and list "
              "each as a line of that entry:", file=sys.stderr)
        for line in missing:
            print(f"- {line}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
