import Foundation
import StatechartSCXML

/// The W3C suite in `../shared/w3c-scxml`, beside the repository (CI clones it there too).
enum Conformance {
    static let suite = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/w3c-scxml")

    static var manifest: Manifest {
        (try? Manifest(contentsOf: suite.appendingPathComponent("manifest.tsv"))) ?? Manifest()
    }
}
