import Foundation
import StatechartSCXML

/// The W3C suite at `../shared/w3c-scxml` from the repository root (CI lays it there too): the one
/// convention of every test target (the CLI tests run the tool in the repository root and name
/// `../shared/...`).
enum Conformance {
    /// The repository root: three folders up from this file (`Tests/StatechartSCXMLTests/`).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let suite = repository.appendingPathComponent("../shared/w3c-scxml").standardizedFileURL

    static var manifest: Manifest {
        (try? Manifest(contentsOf: suite.appendingPathComponent("manifest.tsv"))) ?? Manifest()
    }
}
