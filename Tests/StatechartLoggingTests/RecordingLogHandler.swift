import Logging
import Synchronization

/// A `LogHandler` that keeps every record, so tests can assert exactly what was logged.
struct RecordingLogHandler: LogHandler {
    struct Record: Sendable, Equatable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String] = [:]
    }

    /// Shared by the copies swift-log makes of the handler.
    final class Records: Sendable {
        private let records = Mutex<[Record]>([])
        var all: [Record] { records.withLock { $0 } }
        func append(_ record: Record) { records.withLock { $0.append(record) } }
    }

    let records: Records
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        records.append(Record(level: event.level, message: event.message.description,
                              metadata: merged.mapValues { "\($0)" }))
    }

    /// A logger at `level` recording into a new list.
    static func logger(level: Logger.Level = .trace) -> (Logger, Records) {
        let records = Records()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = level
        return (logger, records)
    }
}
