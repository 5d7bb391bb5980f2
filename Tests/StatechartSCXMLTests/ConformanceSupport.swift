import Foundation
import StatechartSCXML

/// The W3C suite at `Tests/W3C` in the repository (see its README.md): the one convention of
/// every test target (the CLI tests run the tool in the repository root and name `Tests/W3C/...`).
enum Conformance {
    /// The repository root: three folders up from this file (`Tests/StatechartSCXMLTests/`).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let suite = repository.appendingPathComponent("Tests/W3C")

    static var manifest: Manifest {
        (try? Manifest(contentsOf: suite.appendingPathComponent("manifest.tsv"))) ?? Manifest()
    }
}
