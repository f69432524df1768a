#!/usr/bin/env python3
"""Writes crates/kube/src/protobuf/schema.txt: the field tables of the Kubernetes protobuf
messages ktui decodes (the built-in kinds, their lists, and meta.k8s.io's envelope types),
taken from the `generated.proto` files that go-to-protobuf writes for k8s.io/api and
k8s.io/apimachinery (the same files k8s-pb is generated from: its k8s-pb-codegen/protos).

Usage: gen_schema.py PROTOS_DIR SWAGGER_JSON > crates/kube/src/protobuf/schema.txt

A proto field's name is its JSON name (go-to-protobuf names fields after their json tag),
so the table is all ktui's decoder needs to present a message as the JSON object serde
expects. Format, one message per block:

    M <package>.<Message>
    <number> <name> <o|r|m|i> <type>    o: optional, r: repeated, m: map (type = key,value),
                                        i: an embedded Go struct JSON inlines (`json:",inline"`)

A field is inline when the OpenAPI definition of its message (SWAGGER_JSON, the API server's
swagger.json of the same release) lacks its name but has all of its type's fields
(`Probe.handler` is a `ProbeHandler` whose `exec`, `httpGet`… are `Probe`'s own in JSON).
"""
import os
import re
import sys

ROOTS = [
    "api.core.v1." + k
    for k in ["Pod", "Service", "Endpoints", "ConfigMap", "Secret", "Node", "Namespace",
              "PersistentVolumeClaim", "PersistentVolume", "Event"]
] + ["api.apps.v1." + k for k in ["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"]] + [
    "api.batch.v1.Job", "api.batch.v1.CronJob",
    "api.autoscaling.v2.HorizontalPodAutoscaler",
    "api.networking.v1.Ingress",
    "api.discovery.v1.EndpointSlice",
    "apimachinery.pkg.apis.meta.v1.WatchEvent",
    "apimachinery.pkg.apis.meta.v1.Status",
    "apimachinery.pkg.apis.meta.v1.PartialObjectMetadata",
    "apimachinery.pkg.runtime.Unknown",
]
SCALARS = {"string", "bytes", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
           "bool", "double", "float", "fixed32", "fixed64", "sfixed32", "sfixed64"}
# Messages the decoder presents in their JSON form itself: their fields are not followed.
OPAQUE = {"apimachinery.pkg.apis.meta.v1.Time", "apimachinery.pkg.apis.meta.v1.MicroTime",
          "apimachinery.pkg.apis.meta.v1.Duration", "apimachinery.pkg.util.intstr.IntOrString",
          "apimachinery.pkg.api.resource.Quantity", "apimachinery.pkg.runtime.RawExtension",
          "apimachinery.pkg.apis.meta.v1.FieldsV1"}

FIELD = re.compile(r"^\s*(optional|repeated|required)\s+([\w.]+)\s+(\w+)\s*=\s*(\d+)")
MAP = re.compile(r"^\s*map<\s*([\w.]+)\s*,\s*([\w.]+)\s*>\s+(\w+)\s*=\s*(\d+)")


def parse(protos):
    messages = {}
    for root, _, files in os.walk(protos):
        for f in files:
            if not f.endswith(".proto"):
                continue
            text = open(os.path.join(root, f)).read()
            pkg = re.search(r"^package\s+([\w.]+);", text, re.M).group(1)
            current = None
            for line in text.splitlines():
                line = line.split("//")[0]
                m = re.match(r"^message\s+(\w+)\s*\{", line)
                if m:
                    current = pkg + "." + m.group(1)
                    messages[current] = (pkg, [])
                    continue
                if line.startswith("}"):
                    current = None
                    continue
                if current is None:
                    continue
                m = MAP.match(line)
                if m:
                    messages[current][1].append((int(m.group(4)), m.group(3), "m", (m.group(1), m.group(2))))
                    continue
                m = FIELD.match(line)
                if m:
                    label = "r" if m.group(1) == "repeated" else "o"
                    messages[current][1].append((int(m.group(4)), m.group(3), label, m.group(2)))
    return messages


def resolve(messages, pkg, t):
    if t in SCALARS:
        return t
    if t.startswith("."):
        return t[1:]
    if pkg + "." + t in messages:
        return pkg + "." + t
    if t in messages:
        return t
    raise SystemExit(f"unresolved type {t} in {pkg}")


def inline_fields(messages, swagger):
    import json
    defs = json.load(open(swagger))["definitions"]
    inline = set()
    for name, (pkg, fields) in messages.items():
        d = defs.get("io.k8s." + name)
        if not d or "properties" not in d:
            continue
        props = set(d["properties"])
        for num, fname, label, t in fields:
            if label != "o" or fname in props or t in SCALARS:
                continue
            sub = messages.get(resolve(messages, pkg, t))
            if sub and sub[1] and all(f[1] in props for f in sub[1]):
                inline.add((name, num))
    return inline


def main():
    messages = parse(sys.argv[1])
    inline = inline_fields(messages, sys.argv[2])
    roots = list(ROOTS)
    roots += [r + "List" for r in ROOTS if r + "List" in messages]
    roots.append("apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList")
    seen, order = set(), []
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        order.append(name)
        if name in OPAQUE:
            continue
        pkg, fields = messages[name]
        for _, _, label, t in fields:
            for part in (t if label == "m" else (t,)):
                r = resolve(messages, pkg, part)
                if r not in SCALARS:
                    todo.append(r)
    out = ["# Generated by crates/kube/protobuf/gen_schema.py from Kubernetes' generated.proto files; do not edit."]
    for name in sorted(order):
        pkg, fields = messages[name]
        out.append("M " + name)
        for num, fname, label, t in sorted(fields):
            if label == "m":
                t = ",".join(resolve(messages, pkg, p) for p in t)
            else:
                t = resolve(messages, pkg, t)
                if (name, num) in inline:
                    label = "i"
            out.append(f"{num} {fname} {label} {t}")
    print("\n".join(out))


main()
