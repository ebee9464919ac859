#!/usr/bin/env python3
"""graphql-core (the reference implementation's Python port) as an oracle.

stdin: {"schema": SDL, "documents": [text, ...]}   stdout: [[message, ...], ...]
  each document's validation errors against the schema;
stdin: {"schema": SDL, "documents": [...], "locations": true}
  the same, each error as [line, column, message] at its first location;
stdin: {"schemas": [SDL, ...]}                      stdout: [[message, ...], ...]
  each schema's own errors: the SDL rules build_schema enforces, then validate_schema's.
Exits 3 when graphql-core is not installed."""
import json
import sys

try:
    from graphql import build_ast_schema, build_schema, parse, validate, validate_schema
    from graphql.error import GraphQLError
    from graphql.validation import validate as validate_document  # noqa: F401
    from graphql.validation.validate import validate_sdl
except ImportError as error:
    print(f"graphql-core is not installed: {error}", file=sys.stderr)
    sys.exit(3)


def schema_errors(sdl):
    try:
        document = parse(sdl)
    except GraphQLError as error:
        return [error.message]
    errors = validate_sdl(document)
    if errors:
        return [e.message for e in errors]
    try:
        schema = build_ast_schema(document, assume_valid_sdl=True)
    except (GraphQLError, TypeError) as error:
        return [str(error)]
    return [e.message for e in validate_schema(schema)]


request = json.load(sys.stdin)
out = []
if "schemas" in request:
    out = [schema_errors(sdl) for sdl in request["schemas"]]
else:
    schema = build_schema(request["schema"])
    for text in request["documents"]:
        try:
            errors = validate(schema, parse(text))
        except GraphQLError as error:
            errors = [error]
        if request.get("locations"):
            out.append([[*((e.locations[0].line, e.locations[0].column) if e.locations else (0, 0)), e.message] for e in errors])
        else:
            out.append([e.message for e in errors])
print(json.dumps(out))
