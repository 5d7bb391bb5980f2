import ArgumentParser

/// The `--timeout SECONDS` of `run`, `trace` and `conformance`: a finite number of seconds from
/// 0 to a year. Larger values, `inf`, `nan` and negative numbers are refused (exit status 2)
/// rather than overflowing the conversion to a deadline.
///
/// ```
/// statechart run chart.scxml --timeout 2.5
/// ```
enum TimeoutOption {
    /// The longest timeout accepted: a year, in seconds.
    static let maximum: Double = 365 * 24 * 3600

    /// `text` as seconds, or `nil` when it is not a number from 0 to ``maximum``.
    static func seconds(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, value >= 0, value <= maximum else { return nil }
        return value
    }

    /// Checks `text` (from a command's `validate()`): exit status 2 with a message when it is
    /// not a timeout.
    static func check(_ text: String) throws {
        guard seconds(text) != nil else {
            Loading.printError("Error: --timeout must be a number of seconds from 0 to \(Int(maximum)) (a year), not '\(text)'")
            throw ExitCode(2)
        }
    }

    /// `seconds` as whole milliseconds (at most a year's: no overflow).
    static func milliseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }
}
