import Foundation

/// HAR documents in the shapes the tools iOS developers use export them.
package enum HARFixtures {
    /// Proxyman 5: plain `text` bodies, full header lists, a CONNECT tunnel and a logo to skip.
    package static let proxyman = #"""
    {"log": {"version": "1.2", "creator": {"name": "Proxyman", "version": "5.1.0"}, "entries": [
     {"startedDateTime": "2026-11-30T10:00:00.000Z", "time": 12,
      "request": {"method": "GET", "url": "https://api.example.com/api/v1/users/1", "httpVersion": "HTTP/1.1",
        "headers": [{"name": "Accept", "value": "application/json"}, {"name": "Host", "value": "api.example.com"}],
        "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
      "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
        "headers": [{"name": "Content-Type", "value": "application/json; charset=utf-8"}, {"name": "ETag", "value": "\"u1\""},
                    {"name": "Date", "value": "Mon, 30 Nov 2026 10:00:00 GMT"}, {"name": "Server", "value": "nginx"}, {"name": "Content-Length", "value": "71"}],
        "content": {"size": 71, "mimeType": "application/json", "text": "{\"id\":1,\"name\":\"Jane\",\"followers\":12345678901234567890,\"ratio\":1.10}"},
        "redirectURL": "", "headersSize": -1, "bodySize": 71},
      "cache": {}, "timings": {"send": 0, "wait": 10, "receive": 2}},
     {"request": {"method": "GET", "url": "https://api.example.com/api/v1/users/2", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "ETag", "value": "\"u2\""}],
        "content": {"mimeType": "application/json", "text": "{\"id\":2,\"name\":\"Joe\"}"}}},
     {"request": {"method": "GET", "url": "https://api.example.com/api/v1/users/999", "headers": [], "queryString": []},
      "response": {"status": 404, "headers": [{"name": "Content-Type", "value": "application/json"}],
        "content": {"mimeType": "application/json", "text": "{\"error\":\"not found\",\"id\":999}"}}},
     {"request": {"method": "GET", "url": "https://api.example.com/api/v1/users?page=2", "headers": [], "queryString": [{"name": "page", "value": "2"}]},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"},
        {"name": "Link", "value": "<https://api.example.com/api/v1/users?page=3>; rel=\"next\""}, {"name": "X-RateLimit-Remaining", "value": "41"}],
        "content": {"mimeType": "application/json", "text": "[{\"id\":3}]"}}},
     {"request": {"method": "GET", "url": "https://api.example.com/api/v1/users?page=1", "headers": [], "queryString": [{"name": "page", "value": "1"}]},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "X-RateLimit-Remaining", "value": "42"}],
        "content": {"mimeType": "application/json", "text": "[{\"id\":1},{\"id\":2}]"}}},
     {"request": {"method": "DELETE", "url": "https://api.example.com/api/v1/users/2", "headers": [], "queryString": []},
      "response": {"status": 204, "headers": [], "content": {"size": 0, "mimeType": ""}}},
     {"request": {"method": "GET", "url": "https://cdn.example.com/logo.png", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "image/png"}], "content": {"mimeType": "image/png", "text": "iVBORw0KGgo=", "encoding": "base64"}}},
     {"request": {"method": "CONNECT", "url": "https://api.example.com:443", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [], "content": {"mimeType": ""}}}
    ]}}
    """#

    /// Chrome DevTools: base64 bodies, `_`-prefixed fields everywhere, a font to skip.
    package static let chrome = #"""
    {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [], "entries": [
     {"_initiator": {"type": "script"}, "_priority": "High", "_resourceType": "fetch", "cache": {}, "connection": "443",
      "request": {"method": "GET", "url": "https://shop.test/v2/orders/5f1c9a2b7e4d3c2b1a0f9e8d", "httpVersion": "http/2.0",
        "headers": [{"name": ":authority", "value": "shop.test"}, {"name": "accept", "value": "application/vnd.api+json"}], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
      "response": {"status": 200, "statusText": "", "httpVersion": "http/2.0",
        "headers": [{"name": "content-type", "value": "application/vnd.api+json"}, {"name": "cache-control", "value": "private, max-age=60"}],
        "cookies": [], "content": {"size": 40, "mimeType": "application/vnd.api+json", "compression": 0,
          "text": "eyJkYXRhIjp7InR5cGUiOiJvcmRlcnMiLCJpZCI6IjEifX0=", "encoding": "base64"},
        "redirectURL": "", "headersSize": -1, "bodySize": -1, "_transferSize": 321, "_error": null},
      "serverIPAddress": "10.0.0.1", "startedDateTime": "2026-11-30T10:00:00.000Z", "time": 40.1, "timings": {"blocked": 1, "dns": -1, "ssl": -1, "connect": -1, "send": 0.1, "wait": 30, "receive": 2, "_blocked_queueing": 0.5}},
     {"_resourceType": "xhr",
      "request": {"method": "GET", "url": "https://shop.test/v2/orders/6a2d0b3c8f5e4d3c2b1a0f9e", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [{"name": "content-type", "value": "application/vnd.api+json"}, {"name": "cache-control", "value": "private, max-age=60"}],
        "content": {"mimeType": "application/vnd.api+json", "text": "eyJkYXRhIjp7InR5cGUiOiJvcmRlcnMiLCJpZCI6IjIifX0=", "encoding": "base64"}}},
     {"_resourceType": "fetch",
      "request": {"method": "GET", "url": "https://shop.test/v2/receipts/1.pdf?download=1", "headers": [], "queryString": [{"name": "download", "value": "1"}]},
      "response": {"status": 200, "headers": [{"name": "content-type", "value": "application/octet-stream"}],
        "content": {"mimeType": "application/octet-stream", "text": "AAECA//+/fz7", "encoding": "base64"}}},
     {"_resourceType": "fetch",
      "request": {"method": "GET", "url": "https://shop.test/v2/health", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [{"name": "content-type", "value": "text/plain"}], "content": {"mimeType": "text/plain", "text": "ok\n"}}},
     {"_resourceType": "font",
      "request": {"method": "GET", "url": "https://shop.test/fonts/inter.woff2", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [{"name": "content-type", "value": "font/woff2"}], "content": {"mimeType": "font/woff2", "text": "d09GMgABAAAA", "encoding": "base64"}}}
    ]}}
    """#

    /// One request asked three times (a retry) with different answers, as Charles exports it.
    package static let repeated = #"""
    {"log": {"version": "1.2", "creator": {"name": "Charles Proxy", "version": "4.6.6"}, "entries": [
     {"request": {"method": "GET", "url": "http://localhost:9000/status", "headers": [], "queryString": []},
      "response": {"status": 503, "headers": [{"name": "Retry-After", "value": "1"}, {"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"state\":\"starting\"}"}}},
     {"request": {"method": "GET", "url": "http://localhost:9000/status", "headers": [], "queryString": []},
      "response": {"status": 503, "headers": [{"name": "Retry-After", "value": "1"}, {"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"state\":\"starting\"}"}}},
     {"request": {"method": "GET", "url": "http://localhost:9000/status", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"state\":\"up\"}"}}}
    ]}}
    """#

    /// The secret strings of `secrets`: none may appear under the output directory.
    package static let secretStrings = ["eyJhbGciOiJIUzI1NiJ9.c3ViMTIz.s1gn4tur3", "sid=9d8c7b6a5f4e", "9d8c7b6a5f4e", "AKIA1234567890SECRET",
                                "qk_live_0a1b2c3d", "hunter2-hunter2", "cs_8899aabbccdd", "at_1234567890abcdef", "rt_fedcba0987654321"]

    /// Secrets in headers, the query, the request body, the response body, and echoed elsewhere.
    package static let secrets = #"""
    {"log": {"version": "1.2", "creator": {"name": "Proxyman", "version": "5.1.0"}, "entries": [
     {"request": {"method": "POST", "url": "https://auth.example.com/oauth/token?api_key=qk_live_0a1b2c3d&client=ios",
        "headers": [{"name": "Authorization", "value": "Bearer eyJhbGciOiJIUzI1NiJ9.c3ViMTIz.s1gn4tur3"}, {"name": "Cookie", "value": "sid=9d8c7b6a5f4e"},
                    {"name": "X-API-Key", "value": "AKIA1234567890SECRET"}, {"name": "Content-Type", "value": "application/json"}],
        "queryString": [{"name": "api_key", "value": "qk_live_0a1b2c3d"}, {"name": "client", "value": "ios"}],
        "postData": {"mimeType": "application/json", "text": "{\"username\":\"jane\",\"password\":\"hunter2-hunter2\",\"client_secret\":\"cs_8899aabbccdd\"}"}},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Set-Cookie", "value": "sid=9d8c7b6a5f4e; Path=/; HttpOnly"},
        {"name": "Location", "value": "https://auth.example.com/done?token=at_1234567890abcdef"}],
        "content": {"mimeType": "application/json", "text": "{\"access_token\":\"at_1234567890abcdef\",\"refresh_token\":\"rt_fedcba0987654321\",\"token_type\":\"bearer\",\"expires_in\":3600,\"note\":\"issued for sid 9d8c7b6a5f4e\",\"user\":{\"name\":\"jane\",\"email\":\"jane@example.com\"}}"}}}
    ]}}
    """#
}

extension HARFixtures {
    /// What real captures hold that the first importer missed: Chrome's `queryString` values left
    /// percent-encoded, a method no route can have, a JSON body labelled `text/plain` carrying a
    /// token, and an encoded path segment.
    package static let realWorld = #"""
    {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [
     {"request": {"method": "GET", "url": "https://api.example.com/v1/search?q=caf%C3%A9%20au%20lait&sort=new", "headers": [],
        "queryString": [{"name": "q", "value": "caf%C3%A9%20au%20lait"}, {"name": "sort", "value": "new"}]},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"hits\":[\"cafe au lait\"]}"}}},
     {"request": {"method": "GET", "url": "https://api.example.com/v1/search?q=tea&sort=new", "headers": [],
        "queryString": [{"name": "q", "value": "tea"}, {"name": "sort", "value": "new"}]},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"hits\":[\"green tea\"]}"}}},
     {"request": {"method": "PURGE", "url": "https://api.example.com/v1/cache", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [], "content": {"mimeType": "text/plain", "text": "purged"}}},
     {"request": {"method": "POST", "url": "https://api.example.com/v1/oauth/token", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/plain; charset=utf-8"}],
        "content": {"mimeType": "text/plain", "text": "{\"access_token\":\"tok_live_4f9a8b7c6d5e\",\"expires_in\":3600}"}}},
     {"request": {"method": "GET", "url": "https://api.example.com/v1/places/S%C3%A3o%20Paulo", "headers": [], "queryString": []},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"city\":\"São Paulo\"}"}}}
    ]}}
    """#
}

extension HARFixtures {
    /// Answers told apart by a request header, an encoded slash inside a path segment, a repeated
    /// query name, a browser cache revalidation (304 with the cached body) and cookies of both kinds.
    package static let quirks = #"""
    {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [
     {"request": {"method": "POST", "url": "http://localhost:3000/api/check-header", "headers": [{"name": "Accept", "value": "*/*"}]},
      "response": {"status": 401, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"error\":\"no header\"}"}}},
     {"request": {"method": "POST", "url": "http://localhost:3000/api/check-header", "headers": [{"name": "Accept", "value": "*/*"}, {"name": "X-Custom-Auth", "value": "true"}]},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"ok\":true}"}}},
     {"request": {"method": "GET", "url": "http://localhost:3000/api/db/recording%2Fnode-http%2Fget", "headers": []},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"recording\":1}"}}},
     {"request": {"method": "GET", "url": "http://localhost:3000/api/users?id=3&id=9", "headers": []},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "[{\"id\":3},{\"id\":9}]"}}},
     {"request": {"method": "GET", "url": "http://localhost:3000/api/users?id=6&id=3", "headers": []},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "[{\"id\":6},{\"id\":3}]"}}},
     {"request": {"method": "GET", "url": "http://localhost:3000/api/profile", "headers": [{"name": "Cookie", "value": "theme=dark; user_session=Xk29fjQ0aP8s7Lm3Tq"}, {"name": "If-None-Match", "value": "\"v1\""}]},
      "response": {"status": 304, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"name\":\"darkhorse\",\"theme\":\"dark\"}"}}},
     {"request": {"method": "GET", "url": "http://localhost:3000/api/settings", "headers": [{"name": "If-None-Match", "value": "\"v2\""}]},
      "response": {"status": 304, "headers": [], "content": {"mimeType": "", "size": 0}}}
    ]}}
    """#

    /// An Apollo-style app's traffic: two GetUser queries told apart by a variable, a Login
    /// mutation whose variables hold a password, and one REST call on the same host.
    package static let graphQL = ##"""
    {"log": {"version": "1.2", "creator": {"name": "Proxyman", "version": "5.0"}, "entries": [
    {"request": {"method": "POST", "url": "https://api.example.com/graphql", "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Authorization", "value": "Bearer gql-s3cr3t-t0ken"}], "queryString": [], "postData": {"mimeType": "application/json", "text": "{\"operationName\": \"GetUser\", \"query\": \"query GetUser($id: ID!) { user(id: $id) { id name } }\", \"variables\": {\"id\": \"1\"}}"}}, "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"data\": {\"user\": {\"id\": \"1\", \"name\": \"Jane\"}}}"}}},
    {"request": {"method": "POST", "url": "https://api.example.com/graphql", "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Authorization", "value": "Bearer gql-s3cr3t-t0ken"}], "queryString": [], "postData": {"mimeType": "application/json", "text": "{\"operationName\": \"GetUser\", \"query\": \"query GetUser($id: ID!) { user(id: $id) { id name } }\", \"variables\": {\"id\": \"2\"}}"}}, "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"data\": {\"user\": {\"id\": \"2\", \"name\": \"John\"}}}"}}},
    {"request": {"method": "POST", "url": "https://api.example.com/graphql", "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Authorization", "value": "Bearer gql-s3cr3t-t0ken"}], "queryString": [], "postData": {"mimeType": "application/json", "text": "{\"operationName\": \"Login\", \"query\": \"mutation Login($input: LoginInput!) { login(input: $input) { token } }\", \"variables\": {\"input\": {\"email\": \"jane@example.com\", \"password\": \"hunter2-pw\"}}}"}}, "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"data\": {\"login\": {\"token\": \"tok-9f8e7d\"}}}"}}},
    {"request": {"method": "GET", "url": "https://api.example.com/health", "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Authorization", "value": "Bearer gql-s3cr3t-t0ken"}], "queryString": []}, "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"mimeType": "application/json", "text": "{\"ok\": true}"}}}
    ]}}
    """##
}
