import Foundation
import XCTest
@testable import StatechartSCXML

/// SourceAccess under a hostile file system (issue 28): what is opened is what is checked and
/// read, so a folder swapped for a symlink between a check and an open cannot lead a read
/// outside; and a refusal does not tell whether a file outside the folder exists.
final class SourceAccessRaceTests: XCTestCase {
    private var root: URL!
    private var folder: URL!

    override func setUpWithError() throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("source-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made.appendingPathComponent("charts/sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: made.appendingPathComponent("outside"), withIntermediateDirectories: true)
        root = URL(fileURLWithPath: SourceAccess.resolved(made.path)!)
        folder = root.appendingPathComponent("charts")
        try "inside".write(to: folder.appendingPathComponent("sub/data.json"), atomically: true, encoding: .utf8)
        try "SECRET-CONTENTS".write(to: root.appendingPathComponent("outside/data.json"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func refusal(_ access: SourceAccess, _ uri: String) -> String {
        do {
            let text = try access.readText(uri, baseURL: folder)
            return "read: \(text)"
        } catch {
            return "\(error)"
        }
    }

    /// Another thread keeps exchanging `charts/sub` with a symlink to `outside`
    /// (`renameat2(RENAME_EXCHANGE)`: atomic, so `sub` is always one or the other) while
    /// `sub/data.json` is read 20,000 times: each read gets the inside file or a refusal, never
    /// the outside one. (Checking a resolved path and then opening the path by name again read
    /// the secret whenever the exchange fell between the two.)
    func testSwappingAFolderForASymlinkNeverLeadsOutside() throws {
        let access = SourceAccess(options: SCXMLMachine.Options(), baseURL: folder)
        let sub = folder.appendingPathComponent("sub").path
        let link = folder.appendingPathComponent("sub-link").path
        XCTAssertEqual(symlink(root.appendingPathComponent("outside").path, link), 0)
        // glibc's renameat2 (Swift's Glibc module does not declare it), looked up by name.
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        let renameExchange: UInt32 = 1 << 1     // RENAME_EXCHANGE, <stdio.h>
        let symbol = try XCTUnwrap(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2"))   // RTLD_DEFAULT
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        XCTAssertEqual(renameat2(AT_FDCWD, sub, AT_FDCWD, link, renameExchange), 0, "renameat2 exchanges")
        let stop = StopFlag()
        let swapper = Thread {
            while !stop.isSet { _ = renameat2(AT_FDCWD, sub, AT_FDCWD, link, renameExchange) }
        }
        swapper.start()
        var read = 0, refused = 0
        for _ in 0..<20_000 {
            let outcome = refusal(access, "sub/data.json")
            XCTAssertFalse(outcome.contains("SECRET"), outcome)
            if outcome == "read: inside" { read += 1 } else { refused += 1 }
            if outcome.contains("SECRET") { break }
        }
        stop.set()
        while !swapper.isFinished { usleep(1000) }
        XCTAssertGreaterThan(read, 0, "the inside file is read when the folder is in place")
        XCTAssertGreaterThan(refused, 0, "the exchange ran while reading")
    }

    /// The refusal is one text for a file outside that exists and one that does not, by `..`
    /// or by a symlink (dangling or not).
    func testARefusalDoesNotTellWhetherAFileOutsideExists() throws {
        let access = SourceAccess(options: SCXMLMachine.Options(), baseURL: folder)
        let outside = "it is not a file inside the folder documents may read from, \(folder.path) (SCXMLMachine.Options.sourceDirectory, the CLI's --allow-dir)"
        XCTAssertEqual(refusal(access, "../outside/data.json"), "cannot load '../outside/data.json': \(outside)")
        XCTAssertEqual(refusal(access, "../outside/none.json"), "cannot load '../outside/none.json': \(outside)")
        XCTAssertEqual(refusal(access, "../nowhere/none.json"), "cannot load '../nowhere/none.json': \(outside)")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("to-secret").path,
                                                   withDestinationPath: root.appendingPathComponent("outside/data.json").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("to-nothing").path,
                                                   withDestinationPath: root.appendingPathComponent("outside/none.json").path)
        XCTAssertEqual(refusal(access, "to-secret"), "cannot load 'to-secret': \(outside)")
        XCTAssertEqual(refusal(access, "to-nothing"), "cannot load 'to-nothing': \(outside)")
        // Inside the folder, a missing file is named as such: nothing outside is told.
        XCTAssertEqual(refusal(access, "sub/none.json"),
                       "cannot load 'sub/none.json' (\(folder.path)/sub/none.json): No such file or directory")
        XCTAssertEqual(refusal(access, "sub/data.json"), "read: inside")
    }
}

/// A flag one thread sets and another polls.
private final class StopFlag: @unchecked Sendable {
    // @unchecked: `value` is only read and written holding `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
