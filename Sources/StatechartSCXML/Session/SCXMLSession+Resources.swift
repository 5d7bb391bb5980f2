import Foundation

// Files a document reads (`<data src>`, `<script src>`, `<invoke src>`), through SourceAccess.

extension SCXMLSession {

    /// `uri` as a file URL: `file:` paths and bare relative paths resolve against `baseURL`.
    static func url(of uri: String, baseURL: URL?) throws -> URL {
        if uri.hasPrefix("file:") {
            var path = String(uri.dropFirst(5))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            return path.hasPrefix("/") ? URL(fileURLWithPath: path)
                : (baseURL?.appendingPathComponent(path) ?? URL(fileURLWithPath: path))
        } else if let absolute = URL(string: uri), absolute.scheme != nil {
            throw SCXMLExecutionError("cannot load '\(uri)': only file: URIs are supported")
        }
        return baseURL?.appendingPathComponent(uri) ?? URL(fileURLWithPath: uri)
    }

    /// The text `src` names, within ``sourceAccess``.
    func loadResource(_ uri: String) throws -> String {
        if let text = preloaded[uri] { return text }
        return try sourceAccess.readText(uri, baseURL: baseURL)
    }
}
