import Foundation
@testable import StatechartCodegen
import XCTest

/// How generated files reach the disk (issue 28): temporary files are created exclusively, so
/// a symlink planted in the output folder is replaced or ignored, never followed.
final class CGeneratedFilesWriteTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-write-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func files() throws -> CGeneratedFiles {
        try CCodeGenerator.generate(scxml: Data("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null"><state id="a"/></scxml>
            """.utf8), fileName: "tiny.scxml", traceMain: true)
    }

    /// The old temporary name was `.NAME.h.tmp-PID`: a symlink planted there (and at the final
    /// names) must not get its target written.
    func testPlantedSymlinksAreNotFollowed() throws {
        let victim = folder.appendingPathComponent("victim.txt")
        try "KEEP".write(to: victim, atomically: false, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        for name in ["tiny.h", "tiny.c", "tiny_main.c"] {
            try FileManager.default.createSymbolicLink(at: out.appendingPathComponent(".\(name).tmp-\(getpid())"),
                                                       withDestinationURL: victim)
        }
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("tiny.c"), withDestinationURL: victim)
        let generated = try files()
        try generated.write(to: out)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "KEEP")
        for (name, contents) in generated.files {
            let path = out.appendingPathComponent(name).path
            let type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
            XCTAssertEqual(type, .typeRegular, name)
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), contents, name)
        }
        // Nothing but the planted links and the three files: no temporary file is left.
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".") && !$0.hasSuffix("-\(getpid())") }
        XCTAssertEqual(left, [])
    }
}
