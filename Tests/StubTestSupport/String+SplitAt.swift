extension String {
    /// The text before the first `separator` and after it ("" when absent): a raw response's
    /// head and body.
    package func split(at separator: String) -> (String, String) {
        guard let range = range(of: separator) else { return (self, "") }
        return (String(self[..<range.lowerBound]), String(self[range.upperBound...]))
    }
}
