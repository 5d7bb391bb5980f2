import Foundation
import Statechart
import StatechartExamples
import XCTest

/// The pictures of the example charts in the documentation are drawn from the charts' own
/// export: `docs/images/swift-NAME.dot` must equal `chart.definition.dot()`, so an example
/// that changes fails here until `scripts/diagrams.sh` draws it again (that script sets
/// `STATECHART_WRITE_DIAGRAMS`, which makes this test write the files instead, and renders
/// them as SVG into the DocC catalog).
final class ExampleDiagramTests: XCTestCase {
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/images")

    func examples() throws -> [(name: String, chart: ChartDefinition)] {
        [
            ("swift-turnstile", try Turnstile.chart(hardware: TurnstileTests.Gate(recorder: Recorder())).definition),
            ("swift-matter", try Matter.chart(log: { _ in }).definition),
            ("swift-app-launcher",
             try AppLauncher.chart(services: AppLauncherTests.FakeServices(needsUpgrade: false, hasSession: false)).definition),
            ("swift-media-player", try MediaPlayer.chart(output: MediaPlayerTests.Speaker(recorder: Recorder())).definition),
        ]
    }

    func testTheCommittedDiagramsAreTheChartsExport() throws {
        let writing = ProcessInfo.processInfo.environment["STATECHART_WRITE_DIAGRAMS"] != nil
        for (name, chart) in try examples() {
            let file = Self.images.appendingPathComponent(name + ".dot")
            if writing { try chart.dot().write(to: file, atomically: true, encoding: .utf8) }
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), chart.dot(),
                           "\(name): the example changed; run scripts/diagrams.sh")
        }
    }
}
