import Testing
@testable import BetaServer

/// A group's middleware hands a typed value (a resolved principal) to the handlers after it.
@Suite struct ContextValuesTests {
    struct Account: Sendable, Equatable { var name: String }

    /// Resolves the `:account` parameter once and stores it typed; an unknown one is 404.
    struct AccountAuth: Middleware {
        func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
            let name = try request.parameters.require("account")
            guard name != "nobody" else { throw HTTPError(.notFound, "no account \(name)") }
            var context = context
            context.values[Account.self] = Account(name: name)
            return try await next(request, context)
        }
    }

    func call(_ router: Router, _ path: String) async throws -> Response? {
        guard case .matched(let route, let parameters) = router.resolve(method: .get, path: path) else { return nil }
        var request = Request(method: .get, target: path)
        request.parameters = parameters
        return try await route.handler(request, .testing())
    }

    var router: Router {
        var router = Router()
        router.group("/a/:account", middleware: [AccountAuth()]) { group in
            group.get("") { _, context in .text("hello \(try context.require(Account.self).name)") }
        }
        router.get("/open/:account") { _, context in .text("hello \(try context.require(Account.self).name)") }
        return router
    }

    @Test func handlersReadTheValueTheirGroupsMiddlewareStored() async throws {
        let response = try #require(try await call(router, "/a/ann"))
        guard case .bytes(let bytes) = response.body else { Issue.record("no body"); return }
        #expect(String(decoding: bytes, as: UTF8.self) == "hello ann")
    }

    @Test func aRouteOutsideTheGroupIsAWiringErrorNamingTheType() async throws {
        let error = await #expect(throws: HTTPError.self) { try await call(router, "/open/ann") }
        #expect(error?.status == .internalServerError)
        #expect(error?.message.contains("Account") == true)
    }

    @Test func theMiddlewareRefusesBeforeTheHandlerRuns() async throws {
        let error = await #expect(throws: HTTPError.self) { try await call(router, "/a/nobody") }
        #expect(error?.status == .notFound)
    }

    @Test func valuesAreKeyedByTypeAndReplaceable() {
        var values = ContextValues()
        #expect(values[Account.self] == nil)
        values[Account.self] = Account(name: "a")
        values[Int.self] = 7
        values[Account.self] = Account(name: "b")
        #expect(values[Account.self] == Account(name: "b"))
        #expect(values[Int.self] == 7)
        values[Int.self] = nil
        #expect(values[Int.self] == nil)
    }
}
