#!/usr/bin/env python3
"""Nulls in bodies import-openapi makes that a strict reader of OpenAPI 3.0.3 refuses (issue 57,
item 3): `nullable: true` counts only beside a `type` in the same schema, so a null where
`nullable` stands beside `anyOf`/`allOf`/`$ref` alone had a value the schema wanted instead.

Imports a document (Stripe's by default, from ../shared/corpus or --corpus) with each stubd binary
given, then validates every JSON body written (each variant's file, and the service's error
envelope with its placeholders filled) with openapi-schema-validator's OAS30Validator against its
response schema, and prints per binary, with required keys only and with --all-keys: bodies checked, nulls in them, nulls refused (each a
top-level error whose instance is null), bodies refused for a null, and the envelope's refused
nulls.

    bench/nullable-bodies.py OLD_STUBD NEW_STUBD [--corpus DIR] [--document PATH]

Needs PyYAML and openapi-schema-validator (pip install openapi-schema-validator).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml
from openapi_schema_validator import OAS30Validator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    with open(path) as f:
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def nulls(value):
    if value is None:
        return 1
    if isinstance(value, dict):
        return sum(nulls(v) for v in value.values())
    if isinstance(value, list):
        return sum(nulls(v) for v in value)
    return 0


def refused_nulls(validator, value):
    """Top-level errors at a null: a null the strict reading refuses where it stands."""
    return sum(1 for e in validator.iter_errors(value) if e.instance is None)


def json_schema(response):
    content = (response or {}).get("content", {})
    for media, entry in content.items():
        if "json" in media and "schema" in entry:
            return entry["schema"]
    return None


def fill(value):
    """The envelope's `{{title}}`/`{{message}}` placeholders as plain strings."""
    if isinstance(value, str):
        return re.sub(r"\{\{[^}]*\}\}", "text", value)
    if isinstance(value, dict):
        return {k: fill(v) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v) for v in value]
    return value


def measure(binary, spec, document, extra):
    components = {"components": document.get("components", {})}
    validators = {}

    def validator(schema):
        key = json.dumps(schema, sort_keys=True)
        if key not in validators:
            validators[key] = OAS30Validator({**schema, **components})
        return validators[key]

    with tempfile.TemporaryDirectory() as scratch:
        stubs = os.path.join(scratch, "Stubs")
        subprocess.run([binary, "import-openapi", spec, "--stubs", stubs, *extra], check=True, capture_output=True)
        row = {"bodies": 0, "nulls": 0, "refused nulls": 0, "bodies refused": 0, "envelope refused nulls": "-"}
        error_schema = None
        for service in sorted(os.listdir(stubs)):
            folder = os.path.join(stubs, service)
            if not os.path.isdir(folder):
                continue
            for route in sorted(os.listdir(folder)):
                route_file = os.path.join(folder, route, "route.json")
                if not os.path.exists(route_file):
                    continue
                spec_route = json.load(open(route_file))
                operation = document["paths"].get(spec_route["path"], {}).get(spec_route["method"].lower())
                if operation is None:
                    continue
                responses = operation.get("responses", {})
                error_schema = error_schema or json_schema(responses.get("default"))
                for name in sorted(os.listdir(os.path.join(folder, route))):
                    m = re.match(r"(\d{3})(-[^.]*)?\.json$", name)
                    if not m:
                        continue
                    schema = json_schema(responses.get(m.group(1)))
                    if schema is None:
                        continue
                    body = json.load(open(os.path.join(folder, route, name)))
                    refused = refused_nulls(validator(schema), body)
                    row["bodies"] += 1
                    row["nulls"] += nulls(body)
                    row["refused nulls"] += refused
                    row["bodies refused"] += refused > 0
            envelope_file = os.path.join(folder, "_service.json")
            if error_schema and os.path.exists(envelope_file):
                envelope = json.load(open(envelope_file)).get("errorEnvelope")
                if envelope is not None:
                    row["envelope refused nulls"] = refused_nulls(validator(error_schema), fill(envelope))
        return row


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", help="stubd binaries, e.g. the one before a change and the one after")
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(ROOT), "shared/corpus"))
    parser.add_argument("--document", help="an OpenAPI 3.0 document (default: Stripe's in the corpus)")
    args = parser.parse_args()
    spec = args.document or os.path.join(args.corpus, "openapi/stripe/spec3.yaml")
    if not os.path.exists(spec):
        print(f"no document at {spec}: give --corpus or --document")
        return 0
    document = load(spec)
    print(f"document: {spec}")
    for extra in ([], ["--all-keys"]):
        for binary in args.binaries:
            row = measure(binary, spec, document, extra)
            print(f"{binary} {' '.join(extra) or '(required keys)'}: " + ", ".join(f"{k} {v}" for k, v in row.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
