// Shared by every compile-failure case: a chart whose events declare a context.
import Statechart

struct Tally: Sendable, Codable, Equatable { var attempts = 0 }
struct Ledger: Sendable { var entries: [String] = [] }
enum Door: Hashable, Sendable { case closed, open }
enum DoorEvent: ChartEvent {
    case knock
    typealias Context = Tally
}
