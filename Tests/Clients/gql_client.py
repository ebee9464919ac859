#!/usr/bin/env python3
"""A real GraphQL client (Python's gql, on requests) against stubd's shipped graphql service.

usage: gql_client.py URL      (URL: http://127.0.0.1:PORT/graphql)
Prints one JSON object with what each call got; exits 3 when gql is not installed.
"""
import hashlib
import json
import sys

try:
    from gql import Client, GraphQLRequest, gql
    from gql.transport.exceptions import TransportQueryError
    from gql.transport.requests import RequestsHTTPTransport
    import requests
except ImportError as error:  # the Swift test says it skipped, and why
    print(f"gql is not installed: {error}", file=sys.stderr)
    sys.exit(3)

url = sys.argv[1]
out = {}
client = Client(transport=RequestsHTTPTransport(url=url, timeout=10))

get_user = gql("query GetUser($id: ID!) { user(id: $id) { id name email } }")
out["query"] = client.execute(get_user, variable_values={"id": "1"})

try:
    client.execute(get_user, variable_values={"id": "999"})
    out["notFound"] = "no error"
except TransportQueryError as error:
    out["notFound"] = {"errors": error.errors, "data": error.data}

create = gql("mutation CreateUser($input: CreateUserInput!) { createUser(input: $input) { id name } }")
out["mutation"] = client.execute(create, variable_values={"input": {"name": "Grace", "email": "grace@example.com"}})
try:
    client.execute(create, variable_values={"input": {"name": "X", "email": "not-an-email"}})
    out["invalid"] = "no error"
except TransportQueryError as error:
    out["invalid"] = {"errors": error.errors, "data": error.data}

list_users = gql("query ListUsers($first: Int, $after: String) { users(first: $first, after: $after) { pageInfo { hasNextPage endCursor } } }")
batch = client.execute_batch([
    GraphQLRequest(list_users, variable_values={"first": 2}),
    GraphQLRequest(list_users, variable_values={"first": 2, "after": "2"}),
])
out["batch"] = batch

# Automatic persisted queries, as Apollo clients send them (gql has no APQ link of its own).
query = "query GetUser($id: ID!) { user(id: $id) { name } }"
ext = {"persistedQuery": {"version": 1, "sha256Hash": hashlib.sha256(query.encode()).hexdigest()}}
hash_only = requests.post(url, json={"operationName": "GetUser", "variables": {"id": "1"}, "extensions": ext}, timeout=10).json()
with_query = requests.post(url, json={"query": query, "variables": {"id": "1"}, "extensions": ext}, timeout=10).json()
again = requests.get(url, params={"variables": json.dumps({"id": "1"}), "extensions": json.dumps(ext)}, timeout=10).json()
out["apq"] = {"hashOnly": hash_only, "withQuery": with_query, "again": again}

print(json.dumps(out))
