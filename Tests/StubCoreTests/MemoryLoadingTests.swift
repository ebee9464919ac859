import Foundation
import StubCore
import Testing

/// `stubd check` on what stubs remember: every broken seed, state file and placeholder is named
/// with its file and the path inside it.
@Suite struct MemoryLoadingTests {
    static let collection = #"{"path": "/items", "collection": {"seed": "items.json"}}"#

    @Test(arguments: [
        ("{}", "svc/items/items.json: (top level): expected an array of objects, found an object"),
        ("[1]", "svc/items/items.json: [0]: expected an object, found a number"),
        (#"[{"name": "x"}]"#, "svc/items/items.json: [0].id: expected an id (a string or a whole number), found none"),
        (#"[{"id": 1}, {"id": 2}, {"id": 1}]"#, "svc/items/items.json: [2].id: duplicate id 1; [0] has it too"),
        (#"[{"id": 1.5}]"#, "svc/items/items.json: [0].id: expected an id (a string or a whole number), found a number"),
    ])
    func aBadSeedIsNamedWithItsPlace(seed: String, expected: String) throws {
        let problems = try TemporaryStubs(["svc/items/route.json": MemoryLoadingTests.collection, "svc/items/items.json": seed]).problems()
        #expect(problems.contains(expected), "\(problems)")
    }

    @Test(arguments: [
        (#"{"path": "/items", "method": "GET", "collection": {}}"#, "svc/items/route.json: method: a collection answers GET, POST, PUT, PATCH and DELETE itself; expected no method"),
        (#"{"path": "/items", "collection": {"seed": "none.json"}}"#, "svc/items/route.json: collection.seed: expected a file none.json beside route.json, found none"),
        (#"{"path": "/items", "collection": {"ids": "serial"}}"#, #"svc/items/route.json: collection.ids: expected "integer" or "uuid""#),
        (#"{"path": "/items", "collection": {"pagination": {"style": "pages"}}}"#, #"svc/items/route.json: collection.pagination.style: expected "page", "offset", "cursor" or "none""#),
        (#"{"path": "/items", "collection": {"list": {"data": []}}}"#, #"svc/items/route.json: collection.list: expected "{{items}}" somewhere in the list's template"#),
        (#"{"path": "/items/{id}/parts", "collection": {}}"#, #"svc/items/route.json: collection.idParameter: the list path already has {id}; name the item's parameter another way ("idParameter": "id2")"#),
    ])
    func aBadCollectionIsExplained(route: String, expected: String) throws {
        let problems = try TemporaryStubs(["svc/items/route.json": route]).problems()
        #expect(problems.contains(expected), "\(problems)")
    }

    @Test func unknownStateNamesAndHelpersAreNamedWithTheirVariant() throws {
        let problems = try TemporaryStubs([
            "svc/_state.json": #"{"token": "t"}"#,
            "svc/a/route.json": #"{"method": "GET", "path": "/a", "variants": {"200": {"template": true, "body": {"t": "{{state.tokn}}"}}}}"#,
            "svc/b/route.json": #"{"method": "GET", "path": "/b", "variants": {"200": {"body": {}, "when": {"state": {"loged": true}}}}}"#,
            "svc/c/route.json": #"{"method": "GET", "path": "/c", "variants": {"200": {"template": true, "body": {"n": "{{fake.nmae}}"}}}}"#,
            "svc/d/route.json": #"{"method": "GET", "path": "/d/{id}", "variants": {"200": {"body": {}, "then": {"set": {"order.{{path.id}}": 1}}}}}"#,
            "svc/e/route.json": #"{"method": "GET", "path": "/e", "variants": {"200": {"template": true, "body": {"o": "{{state.order.7}}"}}}}"#,
        ]).problems()
        #expect(problems.contains { $0.hasPrefix(#"svc/a/route.json: variants.200: unknown state name "tokn"; expected one the service has in svc/_state.json or sets with then"#) }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix(#"svc/b/route.json: variants.200: unknown state name "loged""#) }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("svc/c/route.json: variants.200.template: expected one of fake.name") }, "\(problems)")
        // A name a templated `then` writes (order.…) may be read whole (order.7).
        #expect(!problems.contains { $0.contains("order.7") }, "\(problems)")
        #expect(problems.count == 3, "\(problems)")
    }

    @Test func aStateFileMustBeAnObject() throws {
        let problems = try TemporaryStubs([
            "svc/_state.json": "[1]",
            "svc/a/route.json": #"{"method": "GET", "path": "/a"}"#, "svc/a/200.json": "{}",
        ]).problems()
        #expect(problems == ["svc/_state.json: (top level): expected an object of state name to initial value, found an array"])
    }

    @Test func theShippedStubsRememberWhatTheyShould() throws {
        let catalog = try StubLoader.load(directory: ShippedStubs.url.path).get()
        #expect(catalog.memory.stateSeed("app")["password"] == .string("correct-horse"))
        let todos = try #require(catalog.memory.collection("app/todos"))
        #expect(todos.seedInOrder.count == 5 && todos.ids == .integer && todos.seedMaxID == 5)
        #expect(catalog.routes.filter { $0.memory != nil }.map(\.id).sorted() == [
            "app/changePass", "app/login", "app/todos:create", "app/todos:delete", "app/todos:get", "app/todos:list", "app/todos:replace", "app/todos:update",
        ])
    }
}
