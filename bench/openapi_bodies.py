"""The body pass of `make conformance` (issue 57): every body the imported stubs serve, checked by
openapi-schema-validator against the document's own response schema for the served media type.

For each route of an imported stub tree, each variant is requested from a running `stubd serve`
(by `X-Stub-Variant`), and its answer compared with the document: the served `Content-Type` must
be one the response documents (Swagger 2.0: the operation's `produces`, else the document's, else
application/json; `*/*` and `image/*` cover their kind; parameters such as charset are ignored),
and a JSON body (`application/json`, `*+json`) must be valid for the media type's schema, with
OAS30Validator for 3.0 documents, OAS31Validator for 3.1 and, for Swagger 2.0, OAS30Validator with
`x-nullable` read as `nullable` (a 2.0 schema is the draft 4 subset that 3.0's extends), each with
its format checker. A body that is not JSON is checked when its schema is a string schema.

Refs are resolved the way stubd resolves them: files relative to the file they are in, and a
remote ref (`https://host/path`) from the copy saved under the spec root as `host/path`.

Needs openapi-schema-validator (and PyYAML); `available()` says whether they import.
"""
import http.client
import json
import os
import re
import urllib.parse

from common import stub_routes

try:
    import yaml
    from openapi_schema_validator import OAS30Validator, OAS31Validator, oas30_format_checker, oas31_format_checker
    from referencing import Registry, Specification
    from referencing.jsonschema import DRAFT4, DRAFT202012
    MISSING = None
except ImportError as error:  # reported by the caller, which runs without this pass
    MISSING = str(error)

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def available():
    return MISSING is None


def _load_file(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".json"):
        return json.loads(text)
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _x_nullable(value):
    """Swagger 2.0's `x-nullable: true` as 3.0's `nullable: true`, so OAS30Validator reads it."""
    if isinstance(value, dict):
        out = {k: _x_nullable(v) for k, v in value.items()}
        if out.get("x-nullable") is True:
            out["nullable"] = True
        return out
    if isinstance(value, list):
        return [_x_nullable(v) for v in value]
    return value


class Document:
    """An OpenAPI document and the files its refs reach, addressed by URI."""

    def __init__(self, path, spec_root=None):
        self.path = os.path.abspath(path)
        self.root = os.path.abspath(spec_root or os.path.dirname(self.path))
        self.uri = "file://" + self.path
        top = _load_file(self.path)
        self.swagger = str(top.get("swagger", "")).startswith("2")
        self.files = {self.uri: _x_nullable(top) if self.swagger else top}
        top = self.files[self.uri]
        self.oas31 = str(top.get("openapi", "")).startswith("3.1")
        self.top = top
        # Opaque: a whole OpenAPI file is not a schema, and crawling it as one trips on its
        # non-schema parts (DigitalOcean's); refs into it are followed by JSON pointer all the same.
        # (OPAQUE is referencing 0.30's; an older one reads the files as the validator's draft.)
        spec = getattr(Specification, "OPAQUE", None) or (DRAFT202012 if self.oas31 else DRAFT4)
        self.registry = Registry(retrieve=lambda uri: spec.create_resource(self.load(uri)))
        self.validator_class = OAS31Validator if self.oas31 else OAS30Validator
        self.format_checker = oas31_format_checker if self.oas31 else oas30_format_checker
        self.validators = {}

    def local(self, uri):
        parts = urllib.parse.urlsplit(uri)
        if parts.scheme == "file":
            return urllib.parse.unquote(parts.path)
        return os.path.join(self.root, parts.netloc, urllib.parse.unquote(parts.path).lstrip("/"))

    def load(self, uri):
        uri = uri.split("#", 1)[0]
        if uri not in self.files:
            contents = _load_file(self.local(uri))
            self.files[uri] = _x_nullable(contents) if self.swagger else contents
        return self.files[uri]

    def at(self, uri, pointer):
        node = self.load(uri)
        for token in pointer:
            node = node[token] if isinstance(node, dict) else node[int(token)]
        return node

    def follow(self, uri, pointer):
        """(uri, pointer, node) after every $ref the node is."""
        for _ in range(64):
            node = self.at(uri, pointer)
            if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
                return uri, pointer, node
            target = urllib.parse.urljoin(uri, node["$ref"])
            uri, _, fragment = target.partition("#")
            pointer = [urllib.parse.unquote(t).replace("~1", "/").replace("~0", "~") for t in fragment.split("/")[1:]]
        raise ValueError(f"$ref chain too long at {uri}")

    def child(self, place, *keys):
        uri, pointer, node = place
        for key in keys:
            if not isinstance(node, dict) or key not in node:
                return None
            uri, pointer, node = self.follow(uri, pointer + [key])
        return uri, pointer, node

    def validator(self, uri, pointer):
        ref = uri + "#" + "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in pointer)
        if ref not in self.validators:
            self.validators[ref] = self.validator_class({"$ref": ref}, registry=self.registry, format_checker=self.format_checker)
        return self.validators[ref]

    def operation(self, method, path):
        paths = self.child((self.uri, [], self.top), "paths")
        # stubd reads a key without its leading / (pagoPA's notification API) as the path with one.
        item = paths and (self.child(paths, path) or self.child(paths, path.lstrip("/")))
        return item and self.child(item, method.lower())

    def response(self, operation, status):
        responses = self.child(operation, "responses")
        if responses is None:
            return None
        for key in (str(status), f"{str(status)[0]}XX", f"{str(status)[0]}xx", "default"):
            if key in responses[2]:
                return self.child(responses, key)
        return None

    def media_types(self, operation, response):
        """{media type: (uri, pointer) of its schema or None}."""
        if self.swagger:
            produces = operation[2].get("produces") or self.top.get("produces") or ["application/json"]
            schema = self.child(response, "schema")
            return {m: schema and schema[:2] for m in produces} if schema or response[2].get("description") is not None else {}
        content = self.child(response, "content")
        if content is None:
            return {}
        found = {}
        for media in content[2]:
            schema = self.child(content, media, "schema")
            found[media] = schema and schema[:2]
        return found


def _bare(media):
    return media.split(";", 1)[0].strip().lower()


def documented(served, media_types):
    """The documented media type that covers the served one, or None."""
    served = _bare(served)
    for media in media_types:
        bare = _bare(media)
        if bare == served or bare == "*/*" or bare.endswith("/*") and served.startswith(bare[:-1]):
            return media
    return None


def _is_json(media):
    """JSON, or a JSON stream (`application/x-json-stream`, `application/x-ndjson`): parsed."""
    return "json" in _bare(media).split("/")[-1]


def _parse(body, media):
    """The body as one JSON value; a stream's body, one event a line, as its first event."""
    try:
        return json.loads(body)
    except ValueError:
        if "json" in _bare(media) and _bare(media).split("/")[-1] != "json" and not _bare(media).endswith("+json"):
            return json.loads(next(line for line in body.splitlines() if line.strip()))
        raise


def variants_of(folder, spec):
    names = set(spec.get("variants", {}))
    for name in os.listdir(folder):
        m = re.match(r"(\d{3}(?:-[A-Za-z0-9_.-]*)?)\.[A-Za-z0-9]+$", name)
        if m and name != "route.json":
            names.add(m.group(1))
    return sorted(names)


def own_example_files(import_stderr):
    """Body files the import named as the document's own example breaking its schema."""
    return set(re.findall(r"^(?:stubd: )?(?:warning: )?(\S+\.\w+): the document's own example", import_stderr, re.M))


def check(stubs, spec, host, port, import_stderr="", spec_root=None, problems=None):
    """Per document: bodies checked, invalid, of which the document's own example; Content-Types
    served and undocumented. `problems`, a list, gets one line per invalid body or type."""
    document = Document(spec, spec_root)
    own = own_example_files(import_stderr)
    row = {"bodies": 0, "invalid": 0, "own example": 0, "types": 0, "undocumented type": 0, "unchecked": 0, "notes": ""}
    conn = http.client.HTTPConnection(host, port, timeout=30)
    for service, route, base, spec_route in stub_routes(stubs):
        folder = os.path.join(stubs, service)
        method = spec_route.get("method", "GET")
        operation = document.operation(method, spec_route["path"]) if method.lower() in METHODS else None
        if operation is None or method == "HEAD":
            continue
        url = re.sub(r"\{[^}]+\}", "1", base + spec_route["path"])
        url = urllib.parse.quote(url, safe="/:@!$&'()*+,;=-._~%")
        for variant in variants_of(os.path.join(folder, route), spec_route):
            conn.request(method, url, headers={"X-Stub-Variant": variant})
            answer = conn.getresponse()
            body = answer.read()
            where = f"{service}/{route}/{variant}"
            if not body:
                continue
            response = document.response(operation, answer.status)
            media_types = document.media_types(operation, response) if response else {}
            served = answer.getheader("Content-Type", "")
            row["types"] += 1
            media = documented(served, media_types)
            if media is None:
                row["undocumented type"] += 1
                if problems is not None:
                    problems.append(f"{where}: Content-Type {served} is not documented for {method} {spec_route['path']} → {answer.status}; documented: {', '.join(media_types) or 'none'}")
                media = next((m for m in media_types if _is_json(m)), None)
                if media is None or not _is_json(served):
                    continue
            schema = media_types.get(media)
            if schema is None:
                continue
            try:
                if _is_json(served):
                    value = _parse(body, served)
                elif document.at(*schema).get("type") == "string":
                    value = body.decode("utf-8", "replace")
                else:
                    row["unchecked"] += 1
                    continue
                error = next(iter(sorted(document.validator(*schema).iter_errors(value), key=lambda e: e.path)), None)
            except Exception as failure:  # a schema the validator cannot read: counted, not fatal
                row["unchecked"] += 1
                if problems is not None:
                    problems.append(f"{where}: not checked: {type(failure).__name__}: {str(failure)[:160]}")
                continue
            row["bodies"] += 1
            if error is None:
                continue
            row["invalid"] += 1
            files = [n for n in os.listdir(os.path.join(folder, route)) if n.rsplit(".", 1)[0] == variant]
            is_own = any(f"{service}/{route}/{n}" in own for n in files)
            row["own example"] += is_own
            if problems is not None:
                at = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
                own_note = " (the document's own example)" if is_own else ""
                problems.append(f"{where}{own_note}: {at}: {error.message[:200]}")
    conn.close()
    return row
