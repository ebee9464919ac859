#!/usr/bin/env python3
"""`stubd import-har` on real HAR captures: do the stubs answer what was captured, and do secrets stay out?

For each HAR file given:

1. `stubd import-har FILE --stubs TMPDIR`: its exit status, and the `Skipped:` and `Redacted` lines it
   prints (stderr when it fails).
2. If it imported, `stubd serve` on the result, and every entry the importer keeps is replayed in
   capture order: same method, the URL's path and query (the host is dropped: each host's service is
   served by its basePath), the captured request headers except Host, Content-Length, Connection,
   hop-by-hop, HTTP/2 pseudo-headers, cookies and credential headers, and the captured request body.
   The daemon's status is compared with the captured one, then the body: JSON (when the captured
   body parses as JSON) as parsed JSON, other bodies byte for byte. What the importer redacted is
   not a difference: a served `"REDACTED"` stands for any captured value, a `REDACTED` inside a
   served string for any run of captured text, and a secret-named member the stubs lack for the
   captured one. Bodies of HEAD requests and of 1xx, 204 and 304 answers are not compared (HTTP
   sends none).
3. Per file: entries, entries the importer keeps (by the rules of its HAR reader: http(s) URLs with
   a response, no CONNECT, no images, fonts, styles, scripts, media, manifests or websockets),
   replayed, answered as captured, wrong status, wrong body, and up to 5 mismatches with the reason.
   A request captured again with another answer is marked as such: the importer leaves such answers
   to a sequence armed through the admin API, and this replay arms none.
4. Secrets: the values (8+ characters) of credential headers (Authorization, Cookie, X-Api-Key, …),
   cookies, and of query parameters and JSON fields (request and response bodies) whose names look
   like secrets (token, secret, password, api key, session, auth, …) are collected from the HAR, and
   every one found verbatim in a written stub file counts as leaked. The names are chosen here, not
   taken from the importer's policy, so a name the policy misses shows up as a leak.

Prints a markdown table, the mismatches, the import output, and exits 0.

usage: bench/har-replay.py [--binary PATH] [--examples 5] FILE.har ...
"""
import argparse
import base64
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Daemon, build_release, print_table  # noqa: E402

# The HAR reader's rules (Sources/StubCapture/HARReader.swift), to know which entries it keeps.
METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE"}
NON_API_RESOURCE_TYPES = {"image", "font", "stylesheet", "script", "media", "manifest", "websocket"}
NON_API_MEDIA_PREFIXES = ("image/", "font/", "application/font", "application/x-font", "audio/", "video/", "text/css",
                          "text/javascript", "application/javascript", "application/x-javascript")

# Request headers not replayed: the connection's own, HTTP/2 pseudo-headers, credentials, and stubd's controls.
DROPPED_HEADERS = {"host", "content-length", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te",
                   "upgrade", "expect", "trailer", "proxy-authorization"}
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

# Names whose values are secrets, for the leak scan (lower case, `-` and `_` removed): a fragment
# anywhere in the name, or a whole word of it (so `author` is not `auth`).
SECRET_FRAGMENTS = ("authorization", "cookie", "token", "secret", "password", "passwd", "apikey", "accesskey", "privatekey",
                    "sessionid", "signature", "credential", "csrf", "xsrf")
SECRET_WORDS = {"auth", "session", "sid", "jwt", "bearer"}
NO_BODY_STATUSES = {204, 304}


def normalized(name):
    return re.sub(r"[-_]", "", name.lower())


def looks_secret(name):
    key = normalized(name)
    if key in ("tokentype", "tokenexpiresin", "tokenexpiresat"):
        return False
    if any(f in key for f in SECRET_FRAGMENTS):
        return True
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name)
    return any(w.lower() in SECRET_WORDS for w in words)


# The importer's own secret name fragments: headers it leaves out of stubs, so a replay need not send them.
IMPORTER_SECRET_FRAGMENTS = ("authorization", "cookie", "token", "password", "passwd", "secret", "apikey", "sessionid", "signature")


def credential_header(name):
    """Headers never replayed: cookies and those the importer treats as secrets (so no variant can
    depend on them). Other headers are sent, since a variant may be chosen by one."""
    key = normalized(name)
    return any(f in key for f in IMPORTER_SECRET_FRAGMENTS) and key not in ("tokentype", "tokenexpiresin", "tokenexpiresat")


# ---------------------------------------------------------------------------------------------- HAR

def load_har(path):
    with open(path, "rb") as f:
        raw = f.read()
    return json.loads(raw.decode("utf-8-sig"))


def kept_reason(entry):
    """None when the importer keeps the entry, else why it skips it (the reader's reasons)."""
    request, response = entry.get("request") or {}, entry.get("response") or {}
    method = str(request.get("method", "")).upper()
    url = str(request.get("url", ""))
    if method == "CONNECT":
        return "CONNECT"
    if method not in METHODS:
        return "method " + method
    if not re.match(r"(?i)https?://[^/?#]", url):
        return "not an http(s) URL"
    status = response.get("status")
    if not isinstance(status, (int, float)) or not 100 <= status <= 599:
        return "no response"
    resource_type = str(entry.get("_resourceType") or "").lower()
    if resource_type in NON_API_RESOURCE_TYPES:
        return resource_type
    media = str((response.get("content") or {}).get("mimeType") or "").lower()
    if media.startswith(NON_API_MEDIA_PREFIXES):
        return "non-API media"
    if status == 304 and not captured_body(response):
        return "304 revalidation"
    return None


def expected_status(response):
    """The status the stubs should give: a 304 that carries the browser's cached body is written as 200."""
    status = int(response["status"])
    return 200 if status == 304 and captured_body(response) else status


def captured_body(response):
    content = response.get("content") or {}
    text = content.get("text")
    if not isinstance(text, str):
        return b""
    if content.get("encoding") == "base64":
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=False)
    return text.encode("utf-8")


def request_target(request):
    """The URL's path and query (fragment dropped), made safe to send; the queryString when the URL has none."""
    url = request["url"]
    rest = re.sub(r"(?i)^https?://", "", url).split("#", 1)[0]
    cut = min([i for i in (rest.find("/"), rest.find("?")) if i >= 0], default=len(rest))
    target = rest[cut:] or "/"
    if target.startswith("?"):
        target = "/" + target
    if "?" not in target and request.get("queryString"):
        target += "?" + urllib.parse.urlencode([(q.get("name", ""), q.get("value", "")) for q in request["queryString"]])
    return urllib.parse.quote(target, safe="/?&=%:@!$'()*+,;[]~-._|^{}")


def replay_headers(request):
    headers = []
    for h in request.get("headers") or []:
        name, value = str(h.get("name", "")), str(h.get("value", ""))
        lower = name.lower()
        if (not HEADER_NAME.match(name) or lower in DROPPED_HEADERS or lower.startswith("x-stub-")
                or credential_header(name) or "\r" in value or "\n" in value):
            continue
        headers.append((name, value))
    return headers


def request_body(request):
    text = (request.get("postData") or {}).get("text")
    return text.encode("utf-8") if isinstance(text, str) else b""


# ------------------------------------------------------------------------------------------ compare

def parse_json(body):
    try:
        return True, json.loads(body.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError):
        return False, None


def redacted_match(captured, served, taken=None):
    """A served string with REDACTED in it matches captured text where each REDACTED stands for 1+
    characters; what each stood for is added to TAKEN."""
    pattern = "(.+?)".join(re.escape(part) for part in served.split("REDACTED"))
    m = re.fullmatch(pattern, captured, re.S)
    if m and taken is not None:
        taken.extend(m.groups())
    return m is not None


def short(value):
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def json_difference(captured, served, path="$", taken=None):
    """None when equal (redaction allowed for), else the first differing path and the two values.
    Captured values the stubs have as REDACTED are added to TAKEN."""
    if served == "REDACTED":
        if taken is not None and captured != "REDACTED":
            taken.append(captured if not isinstance(captured, (dict, list)) else json.dumps(captured)[:40])
        return None
    if isinstance(captured, bool) or isinstance(served, bool) or captured is None or served is None:
        return None if captured is served else f"{path}: captured {short(captured)}, served {short(served)}"
    if isinstance(captured, (int, float)) and isinstance(served, (int, float)):
        return None if captured == served else f"{path}: captured {short(captured)}, served {short(served)}"
    if isinstance(captured, str) and isinstance(served, str):
        if captured == served or ("REDACTED" in served and redacted_match(captured, served, taken)):
            return None
        return f"{path}: captured {short(captured)}, served {short(served)}"
    if isinstance(captured, dict) and isinstance(served, dict):
        for key, value in captured.items():
            child = f"{path}.{key}" if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", key) else f"{path}[{json.dumps(key)}]"
            if key not in served:
                if looks_secret(key):
                    continue
                return f"{child}: captured {short(value)}, served nothing"
            difference = json_difference(value, served[key], child, taken)
            if difference:
                return difference
        extra = [k for k in served if k not in captured]
        return f"{path}: served extra member {json.dumps(extra[0])}" if extra else None
    if isinstance(captured, list) and isinstance(served, list):
        for i, (c, s) in enumerate(zip(captured, served)):
            difference = json_difference(c, s, f"{path}[{i}]", taken)
            if difference:
                return difference
        if len(captured) != len(served):
            return f"{path}: captured {len(captured)} items, served {len(served)}"
        return None
    return f"{path}: captured {type(captured).__name__} {short(captured)}, served {type(served).__name__} {short(served)}"


def body_difference(captured, served, taken=None):
    """None when the served body is the captured one, else why not. What redaction took out is added to TAKEN."""
    is_json, captured_doc = parse_json(captured) if captured.strip() else (False, None)
    if is_json:
        served_json, served_doc = parse_json(served)
        if not served_json:
            return f"captured JSON, served {len(served)} bytes that are not JSON ({served[:40]!r})"
        return json_difference(captured_doc, served_doc, "$", taken)
    if captured == served:
        return None
    if b"REDACTED" in served:
        try:
            if redacted_match(captured.decode("utf-8"), served.decode("utf-8"), taken):
                return None
        except UnicodeDecodeError:
            pass
    at = next((i for i, (a, b) in enumerate(zip(captured, served)) if a != b), min(len(captured), len(served)))
    return f"bytes differ at offset {at} (captured {len(captured)} bytes {captured[at:at + 24]!r}, served {len(served)} bytes {served[at:at + 24]!r})"


def served_error(body):
    ok, doc = parse_json(body)
    if ok and isinstance(doc, dict) and isinstance(doc.get("error"), str):
        return doc["error"]
    return None


# ------------------------------------------------------------------------------------------ secrets

def cookie_values(header_value):
    """(name, value) of each cookie in a Cookie or Set-Cookie header."""
    values = []
    for part in re.split(r"[;,]", header_value):
        if "=" in part:
            name, value = part.split("=", 1)
            if name.strip().lower() not in ("path", "domain", "expires", "max-age", "samesite"):
                values.append((name.strip(), value.strip()))
    return values


def credential_cookie(name, value):
    """A cookie that logs someone in: a secret-looking name (session, sid, token, auth, csrf, key …)
    or a long random-looking value. Others (a theme, a user name shown on the page) are not secrets."""
    key = normalized(name)
    by_name = looks_secret(name) or any(f in key for f in ("sess", "sid", "auth", "csrf", "xsrf", "jwt", "login", "remember", "key"))
    by_value = len(value) >= 16 and re.search(r"[A-Za-z]", value) and re.search(r"\d", value)
    return bool(by_name or by_value)


def json_secrets(doc, found):
    if isinstance(doc, dict):
        for key, value in doc.items():
            if looks_secret(key) and not isinstance(value, (dict, list)) and value is not None:
                found.append((f"JSON field {key}", str(value)))
            json_secrets(value, found)
    elif isinstance(doc, list):
        for item in doc:
            json_secrets(item, found)


def form_secrets(text, found, place):
    for name, value in urllib.parse.parse_qsl(text, keep_blank_values=True):
        if looks_secret(name):
            found.append((f"{place} {name}", value))


def secret_values(entries):
    """(where, value) of every secret-looking value in the capture, 8+ characters, deduplicated by value."""
    found = []
    for entry in entries:
        request, response = entry.get("request") or {}, entry.get("response") or {}
        for h in (request.get("headers") or []) + (response.get("headers") or []):
            name, value = str(h.get("name", "")), str(h.get("value", ""))
            if normalized(name) in ("cookie", "setcookie"):
                found += [(f"cookie in {name}", v) for n, v in cookie_values(value) if credential_cookie(n, v)]
            if credential_header(name):
                found.append((f"header {name}", value))
                if " " in value.strip() and "cookie" not in normalized(name):
                    found.append((f"header {name} credential", value.strip().split(" ", 1)[1]))
        for c in (request.get("cookies") or []) + (response.get("cookies") or []):
            if credential_cookie(str(c.get("name", "")), str(c.get("value", ""))):
                found.append((f"cookie {c.get('name', '')}", str(c.get("value", ""))))
        url = str(request.get("url", ""))
        if "?" in url:
            form_secrets(url.split("?", 1)[1].split("#", 1)[0], found, "query")
        for q in request.get("queryString") or []:
            if looks_secret(str(q.get("name", ""))):
                found.append((f"query {q.get('name')}", str(q.get("value", ""))))
        post = request.get("postData") or {}
        for p in post.get("params") or []:
            if looks_secret(str(p.get("name", ""))):
                found.append((f"form field {p.get('name')}", str(p.get("value", ""))))
        for body, place in ((request_body(request), "request"), (captured_body(response), "response")):
            ok, doc = parse_json(body) if body.strip()[:1] in (b"{", b"[") else (False, None)
            if ok:
                json_secrets(doc, found)
            elif place == "request" and b"=" in body and "form" in str(post.get("mimeType", "")):
                form_secrets(body.decode("utf-8", "replace"), found, "form field")
    seen, result = set(), []
    for where, value in found:
        value = value.strip().strip('"')
        if len(value) >= 8 and value != "REDACTED" and value not in seen:
            seen.add(value)
            result.append((where, value))
    return result


def leaked(stubs, secrets):
    """(where, file) for each secret value found verbatim in a file under STUBS (the value shown cut short)."""
    contents = []
    for dirpath, _, names in os.walk(stubs):
        for name in names:
            with open(os.path.join(dirpath, name), "rb") as f:
                contents.append((os.path.relpath(os.path.join(dirpath, name), stubs), f.read()))
    hits = []
    for where, value in secrets:
        needle = value.encode("utf-8")
        for relative, data in contents:
            if needle in data:
                hits.append((f"{where} ({value[:4]}... {len(value)} chars)", relative))
                break
    return hits


# ------------------------------------------------------------------------------------------- replay

def send(daemon, method, target, headers, body):
    conn = http.client.HTTPConnection(daemon.host, daemon.port, timeout=10)
    try:
        conn.putrequest(method, target, skip_accept_encoding=True)
        for name, value in headers:
            conn.putheader(name, value.encode("utf-8"))
        if body or method in ("POST", "PUT", "PATCH"):
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body or None)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def replay(binary, stubs, kept, stats, mismatches):
    daemon = Daemon(binary, stubs=stubs)
    try:
        answers = {}
        for index, entry in kept:
            request, response = entry["request"], entry["response"]
            method = request["method"].upper()
            target = request_target(request)
            body = request_body(request)
            want_status, want_body = expected_status(response), captured_body(response)
            # A request captured before with another answer: the stubs give the first answer unless a
            # sequence is armed through the admin API, which this replay does not do.
            key = (method, target, body)
            repeat = key in answers and answers[key] != (want_status, want_body)
            answers.setdefault(key, (want_status, want_body))
            try:
                status, got = send(daemon, method, target, replay_headers(request), body)
            except (OSError, http.client.HTTPException, ValueError) as error:
                stats["wrong status"] += 1
                mismatches.append((index, method, target, want_status, "-", f"no answer: {error!r}", repeat))
                continue
            stats["replayed"] += 1
            if status != want_status:
                stats["wrong status"] += 1
                why = served_error(got) if status >= 400 else None
                mismatches.append((index, method, target, want_status, status, f"stubd said {why!r}" if why else "", repeat))
                continue
            if method == "HEAD" or status < 200 or status in NO_BODY_STATUSES:
                stats["answered"] += 1
                continue
            taken = []
            difference = body_difference(want_body, got, taken)
            if difference:
                stats["wrong body"] += 1
                mismatches.append((index, method, target, want_status, status, difference, repeat))
            else:
                stats["answered"] += 1
                if taken:
                    stats["redacted answers"] += 1
                    for value in taken:
                        stats["redacted values"][value] = stats["redacted values"].get(value, 0) + 1
    finally:
        daemon.stop()


def run_file(binary, path):
    har = load_har(path)
    log = har.get("log") or {}
    entries = log.get("entries") or []
    creator = log.get("creator") or {}
    kept = [(i, e) for i, e in enumerate(entries) if kept_reason(e) is None]
    row = {"file": os.path.basename(path), "producer": f"{creator.get('name', '?')} {creator.get('version', '')}".strip(),
           "entries": len(entries), "kept": len(kept), "replayed": 0, "answered as captured": 0, "wrong status": 0,
           "wrong body": 0, "secrets leaked": "-", "import exit": "-"}
    detail = {"import": [], "mismatches": [], "leaks": []}
    stubs = tempfile.mkdtemp(prefix="stubd-har-replay-")
    try:
        done = subprocess.run([binary, "import-har", path, "--stubs", stubs], capture_output=True, text=True, timeout=600)
        row["import exit"] = done.returncode
        imported = re.search(r"Imported (\d+) request", done.stdout)
        if imported and int(imported.group(1)) != len(kept):
            detail["import"].append(f"importer kept {imported.group(1)} entries, this script expected {len(kept)}")
        lines = done.stdout.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("Skipped:"):
                detail["import"].append(line)
            elif line.startswith("Redacted"):
                detail["import"].append(line)
                detail["import"] += [f"  {x.strip()}" for x in lines[i + 1:] if x.startswith("  ")][:12]
        if done.returncode != 0:
            detail["import"] += ["stderr: " + x for x in done.stderr.strip().splitlines()[:8]]
            return row, detail
        secrets = secret_values(entries)
        detail["leaks"] = leaked(stubs, secrets)
        row["secrets leaked"] = f"{len(detail['leaks'])} of {len(secrets)}"
        stats = {"replayed": 0, "answered": 0, "wrong status": 0, "wrong body": 0, "redacted answers": 0, "redacted values": {}}
        try:
            replay(binary, stubs, kept, stats, detail["mismatches"])
        except RuntimeError as error:
            detail["import"].append(f"serve failed: {error}")
        if stats["redacted answers"]:
            values = sorted(stats["redacted values"].items(), key=lambda kv: -kv[1])
            shown = ", ".join(f"{short(v)} x{n}" for v, n in values[:6])
            detail["import"].append(f"{stats['redacted answers']} answer(s) equal only by allowing for REDACTED; "
                                    f"captured values taken out: {shown}{', ...' if len(values) > 6 else ''}")
        row.update({"replayed": stats["replayed"], "answered as captured": stats["answered"],
                    "wrong status": stats["wrong status"], "wrong body": stats["wrong body"]})
        return row, detail
    finally:
        shutil.rmtree(stubs, ignore_errors=True)


def pick_examples(mismatches, n):
    """Up to N mismatches, one per distinct cause first (status pair, or the kind of body difference)."""
    def cause(m):
        return (m[3], m[4], m[5].split(":")[0] if m[4] == m[3] else m[5], m[6])
    chosen, causes = [], set()
    for m in mismatches:
        if cause(m) not in causes and len(chosen) < n:
            causes.add(cause(m))
            chosen.append(m)
    for m in mismatches:
        if len(chosen) >= n:
            break
        if m not in chosen:
            chosen.append(m)
    return sorted(chosen, key=lambda m: m[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="FILE.har")
    parser.add_argument("--binary", help="stubd to run (default: build the release product)")
    parser.add_argument("--examples", type=int, default=5, help="mismatches listed per file")
    args = parser.parse_args()
    # SIGTERM unwinds like an exception, so temporary folders and the daemon are cleaned up.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    binary = args.binary or build_release()
    rows, details = [], []
    for path in args.files:
        try:
            row, detail = run_file(binary, path)
        except (OSError, ValueError, subprocess.SubprocessError) as error:
            row = {"file": os.path.basename(path), "producer": "?", "entries": "-", "kept": "-", "replayed": "-",
                   "answered as captured": "-", "wrong status": "-", "wrong body": "-", "secrets leaked": "-",
                   "import exit": "-"}
            detail = {"import": [f"not run: {error}"], "mismatches": [], "leaks": []}
        rows.append(row)
        details.append(detail)
        print(f"{row['file']}: {row['answered as captured']}/{row['kept']} answered as captured", file=sys.stderr, flush=True)
    print_table(rows)
    print("\n## Mismatches\n")
    for row, detail in zip(rows, details):
        if not detail["mismatches"]:
            continue
        print(f"**{row['file']}** ({len(detail['mismatches'])}):")
        for index, method, target, want, got, why, repeat in pick_examples(detail["mismatches"], args.examples):
            note = " [repeat of an earlier request that got another answer]" if repeat else ""
            shown = target if len(target) <= 90 else target[:87] + "..."
            print(f"- entries[{index}] {method} {shown}: captured {want}, served {got}{'; ' + why if why else ''}{note}")
        print()
    print("## Import output and leaks\n")
    for row, detail in zip(rows, details):
        print(f"**{row['file']}** (exit {row['import exit']})")
        for line in detail["import"]:
            print(f"    {line}")
        for where, relative in detail["leaks"]:
            print(f"    LEAKED {where} -> {relative}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
