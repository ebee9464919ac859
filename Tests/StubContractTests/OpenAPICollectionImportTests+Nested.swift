import Foundation
import StubCore
import Testing

/// Nested resources (`/users/{userId}/posts` with `/users/{userId}/posts/{postId}`), cursor and
/// offset pagination, a seed made from the item schema, and a candidate that stays routes.
extension OpenAPICollectionImportTests {
    static let nested = """
    openapi: 3.1.0
    info: { title: Blog, version: "1" }
    paths:
      /users:
        get:
          parameters: [{ name: after, in: query, schema: { type: string } }, { name: limit, in: query, schema: { type: integer, maximum: 50 } }]
          responses:
            "200":
              description: Users
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      users: { type: array, items: { $ref: "#/components/schemas/User" } }
                      next_cursor: { type: [string, "null"] }
      /users/{userId}:
        get: { responses: { "200": { description: A user, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } } } }
        patch: { responses: { "200": { description: Updated, content: { application/json: { schema: { $ref: "#/components/schemas/User" } } } } } }
      /users/{userId}/posts:
        get:
          parameters: [{ name: offset, in: query, schema: { type: integer } }, { name: limit, in: query, schema: { type: integer } }]
          responses:
            "200": { description: Posts, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Post" } } } } }
            "401": { description: Who are you, content: { application/json: { schema: { type: object, required: [reason], properties: { reason: { type: string } } } } } }
        post:
          requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Post" } } } }
          responses: { "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/Post" } } } } }
      /users/{userId}/posts/{postId}:
        get: { responses: { "200": { description: A post, content: { application/json: { schema: { $ref: "#/components/schemas/Post" } } } } } }
        delete: { responses: { "204": { description: Gone } } }
      /tags:
        get: { operationId: listTags, responses: { "200": { description: Tags, content: { application/json: { example: [{ id: 1 }] } } } } }
      /tags/{tagId}:
        get: { operationId: showTag, responses: { "200": { description: A tag, content: { application/json: { example: { id: 1 } } } } } }
    components:
      schemas:
        User:
          type: object
          required: [id, name]
          properties: { id: { type: string, format: uuid }, name: { type: string } }
        Post:
          type: object
          required: [postId, title]
          properties: { postId: { type: string, format: uuid }, userId: { type: string }, title: { type: string } }
    """

    @Test func nestedResourcesBecomeCollectionsAndACandidateWithoutWritesStaysRoutes() throws {
        let imported = try importer(OpenAPICollectionImportTests.nested)
        #expect(imported.collectionCount == 2)
        try expectSame(try json(imported, "Blog/get-users-userId-posts/route.json"), """
        {"path": "/users/{userId}/posts",
         "collection": {"seed": "posts.json", "id": "postId", "ids": "uuid", "pagination": {"style": "offset", "offset": "offset", "limit": "limit"}},
         "variants": {"401": {}}}
        """)
        // No example: one object made from the item schema, its uuid id filled in.
        let seed = try json(imported, "Blog/get-users-userId-posts/posts.json")
        guard case .array(let objects) = seed, objects.count == 1, case .string(let id)? = objects[0]["postId"] else {
            Issue.record("seed: \(seed.serialized())")
            return
        }
        #expect(UUID(uuidString: id) != nil && objects[0]["title"] != nil, "\(seed.serialized())")
        try expectSame(try json(imported, "Blog/get-users-userId-posts/401.json"), #"{"reason": "string"}"#)
        try expectSame(try json(imported, "Blog/get-users/route.json"), """
        {"path": "/users",
         "collection": {"seed": "users.json", "id": "id", "ids": "uuid", "pagination": {"style": "cursor", "cursor": "after", "limit": "limit", "maxSize": 50},
                        "list": {"users": "{{items}}", "next_cursor": "{{nextCursor}}"}}}
        """)
        // GET-only on the item: a candidate, not a resource; its two routes written as ever.
        #expect(imported.collectionReport.last == "/tags and /tags/{tagId}: no PUT, PATCH or DELETE on /tags/{tagId}; imported as routes",
                "\(imported.collectionReport)")
        #expect(imported.files.contains { $0.path == "Blog/listTags/route.json" } && imported.files.contains { $0.path == "Blog/showTag/route.json" })
    }

    @Test func candidatesACollectionCannotAnswerForStayRoutesWithTheReason() throws {
        let imported = try importer("""
        openapi: 3.0.3
        info: { title: Odd, version: "1" }
        paths:
          /customers:
            post:
              requestBody: { content: { application/x-www-form-urlencoded: { schema: { type: object, properties: { name: { type: string } } } } } }
              responses: { "200": { description: ok, content: { application/json: { example: { id: cus_1 } } } } }
          /customers/{customer}:
            get: { responses: { "200": { description: ok, content: { application/json: { example: { id: cus_1 } } } } } }
            delete: { responses: { "200": { description: ok } } }
          /charges:
            get: { responses: { "200": { description: ok, content: { application/json: { example: [{ id: ch_1 }] } } } } }
          /charges/{charge}:
            get: { responses: { "200": { description: ok, content: { application/json: { example: { id: ch_1 } } } } } }
            post: { responses: { "200": { description: ok, content: { application/json: { example: { id: ch_1 } } } } } }
          /droplets:
            get: { responses: { "200": { description: ok, content: { application/json: { example: { droplets: [{ id: 1 }] } } } } } }
          /droplets/{droplet_id}:
            get: { responses: { "200": { description: ok, content: { application/json: { schema: { type: object, properties: { droplet: { type: object, properties: { id: { type: integer } } } } } } } } } }
            delete: { responses: { "204": { description: gone } } }
        """)
        #expect(imported.collectionCount == 0 && imported.routeCount == 9)
        #expect(imported.collectionReport == [
            "/customers and /customers/{customer}: POST /customers takes application/x-www-form-urlencoded bodies, and a collection reads JSON ones; imported as routes",
            "/charges and /charges/{charge}: no PUT, PATCH or DELETE on /charges/{charge} (POST updates it, and a collection updates with PUT or PATCH); imported as routes",
            "/droplets and /droplets/{droplet_id}: the object GET /droplets/{droplet_id} answers has no field \"droplet_id\" or \"id\", nor a required one "
                + "ending in \"id\"; it wraps the object in \"droplet\", and a collection answers with the bare object; imported as routes",
        ], "\(imported.collectionReport)")
    }
}
