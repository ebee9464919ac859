#!/usr/bin/env python3
"""The official Pact implementation (pact-python, whose core is the Rust pact_ffi) as an oracle.

  pact_oracle.py verify PACT.json PROVIDER_URL STATE_URL
      Verifies the pact against a running provider, provider states set up through STATE_URL
      (a POST with {"state", "params", "action"} in the body). Prints the verifier's output;
      exits 0 when every interaction passes, 1 otherwise.
  pact_oracle.py consumer DIR
      Writes a pact with pact-python's own consumer DSL (each interaction exercised against
      pact's mock server first, as a consumer test does) into DIR; prints the file's path.
Exits 3 when pact-python is not installed."""
import json
import os
import sys
import urllib.parse
import urllib.request

try:
    from pact import Pact, Verifier, match
except ImportError as error:
    print(f"pact-python is not installed: {error}", file=sys.stderr)
    sys.exit(3)


def verify(pact_file, provider_url, state_url):
    host = urllib.parse.urlsplit(provider_url).hostname
    verifier = (Verifier("provider", host=host).add_transport(url=provider_url).add_source(pact_file)
                .state_handler(state_url, teardown=True, body=True))
    try:
        verifier.verify()
    except Exception as error:  # the verifier raises on any failed interaction
        print(f"verification failed: {error}")
        return 1
    print("verified")
    return 0


def call(url, method="GET", body=None, headers=None):
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def consumer(directory):
    pact = Pact("iOSApp", "UsersAPI").with_specification("V3")
    (pact.upon_receiving("a request for user 1").given("user 1 exists")
     .with_request("GET", match.regex("/users/1", regex=r"^/users/[0-9]+$"))
     .with_header("Accept", "application/json")
     .will_respond_with(200).with_body({"id": 1, "name": "Ann"}, content_type="application/json"))
    (pact.upon_receiving("a request for a missing user").given("no user 999")
     .with_request("GET", "/users/999")
     .will_respond_with(404).with_body({"error": "not found"}, content_type="application/json"))
    (pact.upon_receiving("a search").with_request("GET", "/users").with_query_parameter("name", "ann")
     .will_respond_with(200).with_body([{"id": 1, "name": "Ann"}], content_type="application/json"))
    (pact.upon_receiving("a new user").with_request("POST", "/users")
     .with_body({"name": "Bob"}, content_type="application/json")
     .will_respond_with(201).with_body({"id": 2, "name": "Bob"}, content_type="application/json"))
    with pact.serve() as server:
        base = str(server.url).rstrip("/")
        assert call(base + "/users/1", headers={"Accept": "application/json"})[0] == 200
        assert call(base + "/users/999")[0] == 404
        assert call(base + "/users?name=ann")[0] == 200
        assert call(base + "/users", "POST", json.dumps({"name": "Bob"}).encode(), {"Content-Type": "application/json"})[0] == 201
    pact.write_file(directory, overwrite=True)
    print(os.path.join(directory, "iOSApp-UsersAPI.json"))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "verify":
        sys.exit(verify(*sys.argv[2:]))
    if len(sys.argv) == 3 and sys.argv[1] == "consumer":
        sys.exit(consumer(sys.argv[2]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
