import ArgumentParser
import StatechartSCXML

/// The network options of `run` and `trace`: the BasicHTTP Event I/O Processor's server is
/// started for documents that use it (loopback only, an unguessable path per session), and
/// `<send type="basichttp">` reaches loopback hosts only unless `--allow-host` names more.
///
/// ```
/// statechart run order.scxml --allow-host orders.example.com --allow-host 192.0.2.7
/// ```
struct NetworkOptions: ParsableArguments {
    @Option(name: .customLong("allow-host"),
            help: ArgumentHelp("A host that BasicHTTP <send>s may reach besides loopback (repeatable; '*' for any).",
                               valueName: "HOST"))
    var allowedHosts: [String] = []

    func validate() throws {
        for host in allowedHosts where host != "*" {
            let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            let isName = !name.isEmpty && name.utf8.allSatisfy { byte in
                byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            }
            guard isName else {
                throw ValidationError("--allow-host '\(host)' is not a host name or an IP address")
            }
        }
    }

    /// Applies the options to the machine's: the server when the document uses it, the hosts.
    func apply(to options: inout SCXMLMachine.Options) {
        options.basicHTTPServer = .whenDocumentUsesIt
        if allowedHosts.contains("*") { options.httpHosts.allowsAnyHost = true }
        options.httpHosts.hosts.formUnion(allowedHosts.filter { $0 != "*" }.map { $0.lowercased() })
    }
}
