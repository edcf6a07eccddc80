#!/usr/bin/env python3
"""An SPDX 2.3 document (JSON) of one kahve image, for container/release.sh.

Its packages are what the image's Debian package database lists (dpkg-query's output, one
package a line: name, version, architecture, source package) and, for kahve-web, the npm packages
a production install of the committed lock file puts in the image (dev-only ones left out). Each
package carries its purl, the identifier scanners match against advisories.
"""
import argparse
import datetime
import hashlib
import json
import re
import sys
import urllib.parse


def spdx_id(kind, name, version):
    # SPDX ids allow letters, digits, '.' and '-' only.
    return "SPDXRef-" + re.sub(r"[^A-Za-z0-9.-]", "-", f"{kind}-{name}-{version}")


def debian_packages(path):
    packages = []
    for line in open(path, encoding="utf-8"):
        fields = line.rstrip("\n").split("\t")
        if len(fields) < 3 or not fields[0]:
            continue
        name, version, arch = fields[:3]
        purl = "pkg:deb/debian/{}@{}?arch={}&distro=debian-12".format(
            name, urllib.parse.quote(version, safe=""), arch)
        packages.append(("deb", name, version, purl, "Debian Project"))
    return packages


def npm_packages(lock_path):
    lock = json.load(open(lock_path, encoding="utf-8"))
    packages = []
    for location, entry in sorted(lock.get("packages", {}).items()):
        if "node_modules/" not in location or entry.get("dev") or entry.get("link"):
            continue
        name = entry.get("name") or location.rsplit("node_modules/", 1)[1]
        version = entry.get("version", "")
        purl = "pkg:npm/{}@{}".format(urllib.parse.quote(name, safe="/@").replace("@", "%40", 1)
                                      if name.startswith("@") else name, version)
        packages.append(("npm", name, version, purl, "npm registry"))
    return packages


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--name", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--dpkg", required=True)
    parser.add_argument("--npm-lock")
    args = parser.parse_args()

    found = debian_packages(args.dpkg)
    if not found:
        sys.exit(f"{args.dpkg}: no Debian packages listed")
    if args.npm_lock:
        found += npm_packages(args.npm_lock)
    image_id = spdx_id("image", args.name, args.version)
    packages = [{
        "SPDXID": image_id,
        "name": args.name,
        "versionInfo": args.version,
        "downloadLocation": "NOASSERTION",
        "primaryPackagePurpose": "CONTAINER",
        "sourceInfo": f"built from kahve commit {args.commit}",
    }]
    relationships = [{"spdxElementId": "SPDXRef-DOCUMENT", "relationshipType": "DESCRIBES",
                      "relatedSpdxElement": image_id}]
    seen = set()
    for kind, name, version, purl, supplier in found:
        ref = spdx_id(kind, name, version)
        if ref in seen:
            continue
        seen.add(ref)
        packages.append({
            "SPDXID": ref,
            "name": name,
            "versionInfo": version,
            "supplier": f"Organization: {supplier}",
            "downloadLocation": "NOASSERTION",
            "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl",
                              "referenceLocator": purl}],
        })
        relationships.append({"spdxElementId": image_id, "relationshipType": "CONTAINS",
                              "relatedSpdxElement": ref})
    namespace_key = hashlib.sha256(f"{args.name}:{args.version}:{args.commit}".encode()).hexdigest()
    document = {
        "spdxVersion": "SPDX-2.3",
        "dataLicense": "CC0-1.0",
        "SPDXID": "SPDXRef-DOCUMENT",
        "name": f"{args.name}-{args.version}",
        "documentNamespace": f"https://kahve.invalid/spdx/{args.name}/{args.version}/{namespace_key}",
        "creationInfo": {
            "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "creators": ["Tool: kahve container/spdx_sbom.py", "Tool: dpkg-query"],
        },
        "packages": packages,
        "relationships": relationships,
    }
    json.dump(document, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
