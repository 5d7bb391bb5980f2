import Statechart

/// Values computed from expression texts (conditions, `expr` attributes), found again by the
/// text without `Hasher`: a document evaluates the same few texts over and over, and hashing
/// them with SipHash cost more than evaluating an `In()` condition.
///
/// `HashIndex` over a hash of the text's UTF-8 bytes (eight at a time); a hit is confirmed
/// with `String` equality, which is immediate for the text the document
/// itself holds (the same string every time). Holds at most `limit` texts: past that it
/// starts over.
///
/// ```swift
/// var cache = ExpressionCache<NullExpression>()
/// if let known = cache[text] { return known }
/// cache[text] = parsed
/// ```
struct ExpressionCache<Value> {
    /// Entries by the hash of their text; an entry is a position in `texts` and `values`, so a
    /// probe copies (retains) no text or value.
    private var index = HashIndex()
    private var texts: [String] = []
    private var values: [Value] = []
    private let limit: Int

    init(limit: Int = 4_096) {
        self.limit = limit
    }

    subscript(text: String) -> Value? {
        get {
            index.find(HashIndex.hash(text), where: { texts[$0] == text }).map { values[$0] }
        }
        set {
            guard let newValue else { return }       // only ever added to
            let hash = HashIndex.hash(text)
            if let entry = index.find(hash, where: { texts[$0] == text }) {
                values[entry] = newValue
                return
            }
            if texts.count >= limit { self = ExpressionCache(limit: limit) }
            index.insert(hash, entry: texts.count)
            texts.append(text)
            values.append(newValue)
        }
    }
}
