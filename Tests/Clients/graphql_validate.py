#!/usr/bin/env python3
"""graphql-core (the reference implementation's Python port) as an oracle: validates documents
against a schema and prints, for each, the messages of its validation errors.

stdin: {"schema": SDL, "documents": [text, ...]}   stdout: [[message, ...], ...]
Exits 3 when graphql-core is not installed."""
import json
import sys

try:
    from graphql import build_schema, parse, validate
    from graphql.error import GraphQLError
except ImportError as error:
    print(f"graphql-core is not installed: {error}", file=sys.stderr)
    sys.exit(3)

request = json.load(sys.stdin)
schema = build_schema(request["schema"])
out = []
for text in request["documents"]:
    try:
        errors = validate(schema, parse(text))
    except GraphQLError as error:
        errors = [error]
    out.append([e.message for e in errors])
print(json.dumps(out))
