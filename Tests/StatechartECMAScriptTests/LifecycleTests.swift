import Statechart
import XCTest

@testable import StatechartECMAScript

final class LifecycleTests: XCTestCase {
    func testManyEnginesCreatedAndDestroyed() throws {
        for index in 0..<10_000 {
            let engine = try ECMAScriptEngine()
            try engine.declare("i", value: .number(Double(index)))
            try engine.registerFunction("twice") { arguments in
                guard case .number(let n)? = arguments.first else { return .null }
                return .number(2 * n)
            }
            XCTAssertEqual(try engine.evaluate("twice(i)"), .number(Double(2 * index)))
        }
    }

    func testEnginesAreIndependent() throws {
        let first = try ECMAScriptEngine()
        let second = try ECMAScriptEngine()
        try first.declare("x", value: .number(1))
        XCTAssertFalse(second.isDeclared("x"))
        try second.setReadOnly("_sessionid", value: .string("two"))
        try first.declare("_sessionid", value: .string("free here"))
        XCTAssertEqual(try first.evaluate("_sessionid"), .string("free here"))
    }

    func testRepeatedWorkDoesNotGrowTheHeap() throws {
        let engine = try ECMAScriptEngine()
        try engine.registerFunction("echo") { $0.first ?? .null }
        func cycle() throws {
            for _ in 0..<200 {
                try engine.setReadOnly("_event", value: .object(["name": .string("e"), "data": .array([.number(1), .string("x")])]))
                _ = try engine.evaluate("echo({a: [_event.name, _event.data]})")
                _ = try? engine.evaluate("missing")
                _ = try engine.foreachItems("[1, 2, 3]")
                _ = engine.parseJSON(#"{"k": [1, 2, 3]}"#)
            }
            try engine.collectGarbage()
        }
        try cycle()
        let baseline = engine.memoryInUse
        try cycle()
        try cycle()
        XCTAssertLessThanOrEqual(engine.memoryInUse, baseline + 4096, "heap grew from \(baseline) to \(engine.memoryInUse)")
    }

    func testEngineCanBeMovedToAnotherTaskAndUsedThere() async throws {
        let engine = try ECMAScriptEngine()
        try engine.declare("n", value: .number(20))
        let result = try await Task.detached { [engine] () async throws -> DataValue in
            try engine.evaluate("n + 22")
        }.value
        XCTAssertEqual(result, .number(42))
    }
}
