import Foundation
import XCTest
@testable import StatechartSCXML

/// What `<data src>`, `<script src>` and `<invoke src>` may read (SourceAccess, one checker for
/// all three): files inside the allowed folder only, as the kernel resolved the opened file, of
/// bounded size, regular files only; errors name the src, never the contents.
final class SourceAccessTests: XCTestCase {
    private var root: URL!       // resolved, so expected paths are exact
    private var folder: URL!     // root/charts: the document's folder

    override func setUpWithError() throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("source-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made.appendingPathComponent("charts/lib"), withIntermediateDirectories: true)
        root = URL(fileURLWithPath: SourceAccess.resolved(made.path)!)
        folder = root.appendingPathComponent("charts")
        try "inside".write(to: folder.appendingPathComponent("lib/data.json"), atomically: true, encoding: .utf8)
        try "SECRET-CONTENTS".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func access(_ change: (inout SCXMLMachine.Options) -> Void = { _ in }, baseURL: URL?) -> SourceAccess {
        var options = SCXMLMachine.Options()
        change(&options)
        return SourceAccess(options: options, baseURL: baseURL)
    }

    private func failure(_ access: SourceAccess, _ uri: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try access.read(uri, baseURL: folder)
            XCTFail("'\(uri)' was read", file: file, line: line)
            return ""
        } catch {
            XCTAssertFalse("\(error)".contains("SECRET-CONTENTS"), file: file, line: line)
            return "\(error)"
        }
    }

    func testTheDocumentsFolderIsTheDefault() throws {
        let access = access(baseURL: folder)
        XCTAssertEqual(try access.readText("lib/data.json", baseURL: folder), "inside")
        XCTAssertEqual(try access.readText("file:lib/../lib/data.json", baseURL: folder), "inside")
        XCTAssertEqual(failure(access, "../secret.txt"),
                       "cannot load '../secret.txt': it is not a file inside the folder documents may read from, \(folder.path) (SCXMLMachine.Options.sourceDirectory, the CLI's --allow-dir)")
        XCTAssertEqual(failure(access, "file:\(root.path)/secret.txt"),
                       "cannot load 'file:\(root.path)/secret.txt': it is not a file inside the folder documents may read from, \(folder.path) (SCXMLMachine.Options.sourceDirectory, the CLI's --allow-dir)")
        // A bare absolute path is a path relative to the document, like any bare path.
        XCTAssertEqual(failure(access, "/etc/passwd"),
                       "cannot load '/etc/passwd' (\(folder.path)/etc/passwd): No such file or directory")
    }

    func testASymlinkOutOfTheFolderIsRefused() throws {
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.txt"),
                                                   withDestinationURL: root.appendingPathComponent("secret.txt"))
        XCTAssertEqual(failure(access(baseURL: folder), "link.txt"),
                       "cannot load 'link.txt': it is not a file inside the folder documents may read from, \(folder.path) (SCXMLMachine.Options.sourceDirectory, the CLI's --allow-dir)")
    }

    func testAWiderFolderCanBeAllowed() throws {
        let access = access({ $0.sourceDirectory = self.root }, baseURL: folder)
        XCTAssertEqual(try access.readText("../secret.txt", baseURL: folder), "SECRET-CONTENTS")
    }

    func testADocumentWithoutAFolderReadsNothing() {
        let access = access(baseURL: nil)
        XCTAssertEqual(failure(access, "lib/data.json"),
                       "cannot load 'lib/data.json': no folder may be read from (the document was not loaded from a file, or SCXMLMachine.Options.sourceDirectory does not exist); set sourceDirectory (the CLI's --allow-dir) to the folder its files may be read from")
    }

    func testSizeTypeAndExistenceAreCheckedBeforeReading() throws {
        let big = folder.appendingPathComponent("big.txt")
        try Data(repeating: 65, count: 101).write(to: big)
        let access = access({ $0.maximumSourceSize = 100 }, baseURL: folder)
        XCTAssertEqual(failure(access, "big.txt"),
                       "cannot load 'big.txt': \(folder.path)/big.txt is 101 bytes, more than the limit of 100 bytes (SCXMLMachine.Options.maximumSourceSize)")
        try Data(repeating: 65, count: 100).write(to: big)
        XCTAssertEqual(try access.read("big.txt", baseURL: folder).data.count, 100)
        XCTAssertEqual(failure(access, "lib"), "cannot load 'lib': \(folder.path)/lib is a directory")
        XCTAssertEqual(failure(access, "missing.txt"),
                       "cannot load 'missing.txt' (\(folder.path)/missing.txt): No such file or directory")
        let fifo = folder.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertEqual(failure(access, "fifo"),
                       "cannot load 'fifo': \(folder.path)/fifo is not a regular file (a FIFO, socket or device)")
        XCTAssertEqual(failure(access, "http://example.com/x.js"),
                       "cannot load 'http://example.com/x.js': only file: URIs are supported")
    }

    func testBoundedReaderReadsFilesThatReportNoSize() throws {
        // /proc files report size 0; the reader reads to the end, within the limit.
        let text = try BoundedFileReader.read("/proc/self/status", limit: 1 << 20)
        XCTAssertTrue(String(decoding: text, as: UTF8.self).hasPrefix("Name:"))
        XCTAssertEqual(try? BoundedFileReader.read("/proc/self/status", limit: 10), nil)
        do {
            _ = try BoundedFileReader.read("/proc/self/status", limit: 10)
        } catch {
            XCTAssertEqual(error, .tooLarge(size: 11, limit: 10))
        }
    }
}
