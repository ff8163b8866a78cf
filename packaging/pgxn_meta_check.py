#!/usr/bin/env python3
"""Checks a PGXN META.json against the PGXN Meta Spec, version 1.0.0.

    pgxn_meta_check.py META.json [--dist sketch-X.Y.Z.zip] [--control sketch.control]

Our own reading of the spec's rules: required keys and their types, Terms,
Tags, SemVer versions, the license names it lists, the prereq phases and
relationships, release_status, resources, no_index, and that every other key
is a custom one (x_ / X_). With --dist, also that the distribution is laid
out as PGXN expects (one top directory name-version/ holding META.json) and
that every file `provides` names is in it; with --control, that the
extension's default_version is the distribution's version, so the version
lives in one place (sketch.control) and META.json follows it.

Prints each problem and exits 1 if there is any; prints "META.json is OK"
otherwise.
"""
import json
import re
import sys
import zipfile

LICENSES = {
    "agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd",
    "gfdl_1_2", "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit",
    "mozilla_1_0", "mozilla_1_1", "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay",
    "sun", "zlib", "open_source", "restricted", "unrestricted", "unknown",
}
PHASES = {"configure", "build", "test", "runtime", "develop"}
RELATIONS = {"requires", "recommends", "suggests", "conflicts"}
STATUSES = {"stable", "testing", "unstable"}
KNOWN = {"name", "abstract", "description", "version", "maintainer", "license", "provides",
         "prereqs", "release_status", "resources", "no_index", "tags", "generated_by",
         "meta-spec"}
REQUIRED = ["name", "abstract", "version", "maintainer", "license", "provides", "meta-spec"]
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
                    r"(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$")
RANGE_PART = re.compile(r"^\s*(==|!=|>=|<=|>|<)?\s*(\S+)\s*$")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")

problems = []


def fail(where, what):
    problems.append(f"{where}: {what}")


def is_string(v):
    return isinstance(v, str) and v != ""


def check_term(where, v):
    if not isinstance(v, str) or len(v) < 2 or re.search(r"[/\\\s]", v) or CONTROL.search(v):
        fail(where, f"{v!r} is not a Term (2+ characters, no slash, backslash, space or control)")


def check_tag(where, v):
    if not isinstance(v, str) or not v or len(v) > 255 or re.search(r"[/\\]", v) \
            or CONTROL.search(v):
        fail(where, f"{v!r} is not a Tag (1-255 characters, no slash, backslash or control)")


def check_semver(where, v):
    if not isinstance(v, str) or not SEMVER.match(v):
        fail(where, f"{v!r} is not a semantic version")


def check_version_range(where, v):
    if v == 0 or v == "0":
        return
    if not isinstance(v, str):
        fail(where, f"{v!r} is not a version range")
        return
    for part in v.split(","):
        m = RANGE_PART.match(part)
        if not m:
            fail(where, f"{part!r} is not a version or comparison")
        else:
            check_semver(where, m.group(2))


def check_map(where, v):
    if not isinstance(v, dict):
        fail(where, "must be an object")
        return False
    return True


def check(meta):
    if not check_map("META.json", meta):
        return
    for key in REQUIRED:
        if key not in meta:
            fail("META.json", f"missing mandatory field {key!r}")
    for key in meta:
        if key not in KNOWN and not key.startswith(("x_", "X_")):
            fail(key, "unknown field (custom fields start with x_ or X_)")
    if "name" in meta:
        check_term("name", meta["name"])
    if "abstract" in meta and not is_string(meta["abstract"]):
        fail("abstract", "must be a non-empty string")
    if "description" in meta and not is_string(meta["description"]):
        fail("description", "must be a non-empty string")
    if "version" in meta:
        check_semver("version", meta["version"])
    m = meta.get("maintainer")
    if m is not None and not (is_string(m) or (isinstance(m, list) and m and
                                               all(is_string(x) for x in m))):
        fail("maintainer", "must be a string or a non-empty list of strings")
    lic = meta.get("license")
    if isinstance(lic, str):
        if lic not in LICENSES:
            fail("license", f"{lic!r} is not a license name of the spec")
    elif isinstance(lic, list):
        for x in lic:
            if x not in LICENSES:
                fail("license", f"{x!r} is not a license name of the spec")
    elif isinstance(lic, dict):
        for name, url in lic.items():
            if not is_string(url):
                fail(f"license.{name}", "must be a URL")
    elif lic is not None:
        fail("license", "must be a string, a list or an object")
    provides = meta.get("provides")
    if provides is not None and check_map("provides", provides):
        if not provides:
            fail("provides", "must name at least one extension")
        for ext, info in provides.items():
            where = f"provides.{ext}"
            check_term(where, ext)
            if not check_map(where, info):
                continue
            for key in ("file", "version"):
                if key not in info:
                    fail(where, f"missing mandatory field {key!r}")
            if "version" in info:
                check_semver(f"{where}.version", info["version"])
            for key in info:
                if key not in {"file", "version", "abstract", "docfile"} \
                        and not key.startswith(("x_", "X_")):
                    fail(f"{where}.{key}", "unknown field")
            for key in ("file", "docfile", "abstract"):
                if key in info and not is_string(info[key]):
                    fail(f"{where}.{key}", "must be a non-empty string")
    prereqs = meta.get("prereqs")
    if prereqs is not None and check_map("prereqs", prereqs):
        for phase, rels in prereqs.items():
            if phase not in PHASES:
                fail(f"prereqs.{phase}", "is not a phase of the spec")
            if not check_map(f"prereqs.{phase}", rels):
                continue
            for rel, reqs in rels.items():
                if rel not in RELATIONS:
                    fail(f"prereqs.{phase}.{rel}", "is not a relationship of the spec")
                if check_map(f"prereqs.{phase}.{rel}", reqs):
                    for name, ver in reqs.items():
                        check_term(f"prereqs.{phase}.{rel}", name)
                        check_version_range(f"prereqs.{phase}.{rel}.{name}", ver)
    if "release_status" in meta and meta["release_status"] not in STATUSES:
        fail("release_status", f"must be one of {sorted(STATUSES)}")
    resources = meta.get("resources")
    if resources is not None and check_map("resources", resources):
        for key, val in resources.items():
            if key == "homepage":
                if not is_string(val):
                    fail("resources.homepage", "must be a URI")
            elif key in ("bugtracker", "repository"):
                allowed = {"web", "mailto"} if key == "bugtracker" else {"url", "web", "type"}
                if check_map(f"resources.{key}", val):
                    for k in val:
                        if k not in allowed and not k.startswith(("x_", "X_")):
                            fail(f"resources.{key}.{k}", "unknown field")
            elif not key.startswith(("x_", "X_")):
                fail(f"resources.{key}", "unknown field")
    no_index = meta.get("no_index")
    if no_index is not None and check_map("no_index", no_index):
        for key, val in no_index.items():
            if key not in {"file", "directory"}:
                fail(f"no_index.{key}", "unknown field")
            elif not (is_string(val) or (isinstance(val, list) and all(is_string(x) for x in val))):
                fail(f"no_index.{key}", "must be a path or a list of paths")
    tags = meta.get("tags")
    if tags is not None:
        if not isinstance(tags, list) or not tags:
            fail("tags", "must be a non-empty list")
        else:
            for t in tags:
                check_tag("tags", t)
    if "generated_by" in meta and not is_string(meta["generated_by"]):
        fail("generated_by", "must be a non-empty string")
    spec = meta.get("meta-spec")
    if spec is not None and check_map("meta-spec", spec):
        if spec.get("version") != "1.0.0":
            fail("meta-spec.version", "must be \"1.0.0\" (the spec this checker reads)")
        for key in spec:
            if key not in {"version", "url"}:
                fail(f"meta-spec.{key}", "unknown field")


def check_dist(meta, path):
    top = f"{meta.get('name')}-{meta.get('version')}/"
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        outside = [n for n in names if not n.startswith(top)]
        if outside:
            fail(path, f"{len(outside)} entries outside {top}, e.g. {outside[0]}")
        if top + "META.json" not in names:
            fail(path, f"no {top}META.json")
        elif json.loads(z.read(top + "META.json")) != meta:
            fail(path, "its META.json is not the one checked")
        for ext, info in (meta.get("provides") or {}).items():
            for key in ("file", "docfile"):
                if isinstance(info, dict) and key in info and top + info[key] not in names:
                    fail(f"provides.{ext}.{key}", f"{info[key]} is not in {path}")


def control_version(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"^\s*default_version\s*=\s*'([^']*)'", line)
            if m:
                return m.group(1)
    return None


def main(argv):
    args = argv[1:]
    dist = control = None
    if "--dist" in args:
        i = args.index("--dist")
        dist = args[i + 1]
        del args[i:i + 2]
    if "--control" in args:
        i = args.index("--control")
        control = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with open(args[0]) as f:
        try:
            meta = json.load(f)
        except json.JSONDecodeError as e:
            print(f"META.json is invalid: not JSON ({e})")
            return 1
    check(meta)
    if dist:
        check_dist(meta, dist)
    if control:
        v = control_version(control)
        if v != meta.get("version"):
            fail("version", f"{meta.get('version')!r} differs from {control}'s default_version {v!r}")
    if problems:
        print("META.json is invalid. Errors:")
        for p in problems:
            print("  " + p)
        return 1
    print("META.json is OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
