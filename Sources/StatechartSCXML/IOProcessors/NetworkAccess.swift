import Foundation

/// Which hosts a BasicHTTP `<send>` may reach (``SCXMLMachine/Options/httpHosts``).
///
/// The default reaches loopback only: `127.x.x.x`, `[::1]` and `localhost`, connected to
/// without a name lookup. A target whose host is not allowed fails with `error.communication`
/// before any lookup or connection.
///
/// ```swift
/// var options = SCXMLMachine.Options()
/// options.httpHosts = .loopbackOnly                       // the default
/// options.httpHosts.hosts = ["orders.example.com"]        // and this host too
/// options.httpHosts = .none                               // no HTTP at all
/// ```
public struct HTTPHostAccess: Sendable, Hashable {
    /// Whether loopback targets are allowed.
    public var allowsLoopback: Bool
    /// Further hosts, as targets spell them: names (resolved when a `<send>` uses them) or IP
    /// addresses (`[::1]` or `::1` for IPv6); compared without regard to case.
    public var hosts: Set<String>
    /// Whether every host is allowed (names are resolved).
    public var allowsAnyHost: Bool

    public init(allowsLoopback: Bool = true, hosts: Set<String> = [], allowsAnyHost: Bool = false) {
        self.allowsLoopback = allowsLoopback
        self.hosts = hosts
        self.allowsAnyHost = allowsAnyHost
    }

    /// Loopback only: the default.
    public static let loopbackOnly = HTTPHostAccess()
    /// No host at all.
    public static let none = HTTPHostAccess(allowsLoopback: false)
    /// Every host.
    public static let anyHost = HTTPHostAccess(allowsAnyHost: true)

    func allows(_ target: BasicHTTPClient.Target) -> Bool {
        if allowsAnyHost || (allowsLoopback && target.isLoopback) { return true }
        return hosts.contains { host in
            var name = host.lowercased()
            if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
            return name == target.host
        }
    }

    /// Why a host was refused, and how to allow it.
    var refusal: String {
        let allowed = (allowsLoopback ? ["loopback"] : []) + hosts.sorted()
        return (allowed.isEmpty ? "no host is allowed" : "only \(allowed.joined(separator: ", ")) may be reached")
            + " (SCXMLMachine.Options.httpHosts; statechart run/trace --allow-host HOST)"
    }
}

/// When a session receives events over HTTP (``SCXMLMachine/Options/basicHTTPServer``).
///
/// ```swift
/// var options = SCXMLMachine.Options()
/// options.basicHTTPServer = .whenDocumentUsesIt    // as `statechart run` and `trace` do
/// ```
public struct BasicHTTPServerUse: Sendable, Hashable {
    enum Kind: Hashable { case never, always, whenUsed }
    let kind: Kind

    /// No server; `_ioprocessors` lists no `basichttp` location. The default.
    public static let never = BasicHTTPServerUse(kind: .never)
    /// Every session gets a location on the process's loopback server.
    public static let always = BasicHTTPServerUse(kind: .always)
    /// Sessions whose document names the BasicHTTP Event I/O Processor anywhere in its
    /// attributes, expressions or scripts (the text `basichttp`, in any case: its short type
    /// name, its type URI or `_ioprocessors['basichttp']`), so documents that never use HTTP
    /// open no port.
    public static let whenDocumentUsesIt = BasicHTTPServerUse(kind: .whenUsed)
}

extension SCXMLDocument {
    /// Whether any attribute, expression or script text of the document mentions `basichttp`
    /// (in any case). Source locations are skipped: a file name is not a use.
    var mentionsBasicHTTP: Bool {
        Self.mentions(self)
    }

    private static func mentions(_ value: Any) -> Bool {
        if let text = value as? String { return text.range(of: "basichttp", options: .caseInsensitive) != nil }
        if value is SCXMLSourceLocation { return false }
        return Mirror(reflecting: value).children.contains { mentions($0.value) }
    }
}
