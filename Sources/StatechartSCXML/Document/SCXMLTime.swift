/// Time values in SCXML attributes.
public enum SCXMLTime {
    /// Parses a `<send>` delay in CSS2 time syntax: a non-negative decimal number followed by `s` or
    /// `ms`, such as `"1s"`, `".5s"`, `"1.5s"` or `"100ms"`. Surrounding whitespace is ignored and the
    /// unit is case-insensitive. Returns `nil` for anything else (a missing unit, a sign, an exponent).
    ///
    /// ```swift
    /// SCXMLTime.parseDelay("1.5s")   // .milliseconds(1500)
    /// SCXMLTime.parseDelay("100ms")  // .milliseconds(100)
    /// SCXMLTime.parseDelay("5")      // nil
    /// ```
    public static func parseDelay(_ text: String) -> Duration? {
        var chars = Substring(text)
        while let first = chars.first, first.isWhitespace { chars.removeFirst() }
        while let last = chars.last, last.isWhitespace { chars.removeLast() }
        let lower = chars.lowercased()
        let number: Substring
        let unitScale: Int   // digits of a second that the unit stands for: s = 0, ms = 3
        if lower.hasSuffix("ms") {
            number = Substring(lower.dropLast(2))
            unitScale = 3
        } else if lower.hasSuffix("s") {
            number = Substring(lower.dropLast(1))
            unitScale = 0
        } else {
            return nil
        }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let integerPart = parts.first else { return nil }
        let fractionPart = parts.count > 1 ? parts[1] : ""
        if integerPart.isEmpty && fractionPart.isEmpty { return nil }
        if parts.count > 1 && fractionPart.isEmpty { return nil }  // "1.s" is not a CSS number
        guard integerPart.allSatisfy(\.isASCIIDigitCharacter), fractionPart.allSatisfy(\.isASCIIDigitCharacter)
        else { return nil }
        // Work in attoseconds: all digits of the number, then scale by the unit.
        let integerDigits = integerPart.drop { $0 == "0" }
        guard integerDigits.count <= 15 else { return nil }  // about 31 million years: surely a mistake
        let integerValue = Int64(integerDigits) ?? 0
        // Fraction digits beyond attosecond precision are dropped.
        let fractionDigitsKept = 18 - unitScale
        var fraction = String(fractionPart.prefix(fractionDigitsKept))
        fraction += String(repeating: "0", count: fractionDigitsKept - fraction.count)
        let fractionAttoseconds = Int64(fraction) ?? 0
        if unitScale == 0 {
            return Duration(secondsComponent: integerValue, attosecondsComponent: fractionAttoseconds)
        }
        let seconds = integerValue / 1000
        let milliseconds = integerValue % 1000
        return Duration(
            secondsComponent: seconds,
            attosecondsComponent: milliseconds * 1_000_000_000_000_000 + fractionAttoseconds)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
