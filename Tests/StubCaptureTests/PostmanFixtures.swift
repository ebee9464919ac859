/// Postman collections in the shapes Postman exports them.
enum PostmanFixtures {
    /// Format v2.1: folders, collection variables, a `:id` path variable, examples told apart by
    /// path, query and body, a secret in a saved response, a request without an example.
    static let shop = #"""
    {"info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
     "variable": [{"key": "baseUrl", "value": "https://api.shop.example/v1"}, {"key": "token", "value": "from-collection"}],
     "item": [
      {"name": "Users", "item": [
        {"name": "Get user",
         "request": {"method": "GET", "header": [{"key": "Authorization", "value": "Bearer {{token}}"}],
                     "url": {"raw": "{{baseUrl}}/users/:id", "host": ["{{baseUrl}}"], "path": ["users", ":id"], "variable": [{"key": "id", "value": "1"}]}},
         "response": [
           {"name": "User found", "originalRequest": {"method": "GET", "header": [],
              "url": {"raw": "{{baseUrl}}/users/:id", "host": ["{{baseUrl}}"], "path": ["users", ":id"], "variable": [{"key": "id", "value": "1"}]}},
            "status": "OK", "code": 200, "_postman_previewlanguage": "json",
            "header": [{"key": "Content-Type", "value": "application/json"}, {"key": "ETag", "value": "\"u1\""}],
            "body": "{\"id\": 1, \"name\": \"Ann\", \"session_token\": \"s3cr3t-session-value\"}"},
           {"name": "User not found", "originalRequest": {"method": "GET", "header": [],
              "url": {"raw": "{{baseUrl}}/users/:id", "host": ["{{baseUrl}}"], "path": ["users", ":id"], "variable": [{"key": "id", "value": "999"}]}},
            "status": "Not Found", "code": 404, "header": [{"key": "Content-Type", "value": "application/json"}],
            "body": "{\"error\": \"no such user\"}"}
         ]},
        {"name": "List users",
         "request": {"method": "GET", "url": "{{baseUrl}}/users?page=1"},
         "response": [
           {"name": "First page", "originalRequest": {"method": "GET", "url": {"raw": "{{baseUrl}}/users?page=1",
              "query": [{"key": "page", "value": "1"}]}}, "code": 200, "header": [{"key": "Content-Type", "value": "application/json"}],
            "body": "[{\"id\": 1}, {\"id\": 2}]"},
           {"name": "Second page", "originalRequest": {"method": "GET", "url": {"raw": "{{baseUrl}}/users?page=2",
              "query": [{"key": "page", "value": "2"}]}}, "code": 200, "header": [{"key": "Content-Type", "value": "application/json"}],
            "body": "[{\"id\": 3}]"}
         ]},
        {"name": "Delete user", "request": {"method": "DELETE", "url": "{{baseUrl}}/users/:id"}, "response": []}
      ]},
      {"name": "Log in",
       "request": {"method": "POST", "header": [{"key": "Content-Type", "value": "application/json"}],
                   "body": {"mode": "raw", "raw": "{\"user\": \"ann\", \"password\": \"right\"}"}, "url": "{{baseUrl}}/login"},
       "response": [
         {"name": "Logged in", "originalRequest": {"method": "POST", "header": [{"key": "Content-Type", "value": "application/json"}],
            "body": {"mode": "raw", "raw": "{\"user\": \"ann\", \"password\": \"right\"}"}, "url": "{{baseUrl}}/login"},
          "code": 200, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"ok\": true}"},
         {"name": "Wrong password", "originalRequest": {"method": "POST", "header": [{"key": "Content-Type", "value": "application/json"}],
            "body": {"mode": "raw", "raw": "{\"user\": \"bob\", \"password\": \"wrong\"}"}, "url": "{{baseUrl}}/login"},
          "code": 401, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"ok\": false}"}
       ]}
     ]}
    """#

    /// Format v2.0: the URL and headers as strings, a host from an environment.
    static let legacy = #"""
    {"info": {"name": "Legacy", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
     "item": [
      {"name": "Status", "request": {"url": "{{host}}/status", "method": "GET", "header": "Accept: application/json"},
       "response": [{"name": "Up", "originalRequest": {"url": "{{host}}/status", "method": "GET"}, "code": 200,
                     "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"up\": true}"}]}
     ]}
    """#

    static let environment = #"{"name": "Staging", "values": [{"key": "host", "value": "http://staging.example:8080", "enabled": true}, {"key": "unused", "value": "x", "enabled": false}]}"#
}
