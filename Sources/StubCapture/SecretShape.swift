import StubCore

/// How an import of documentation (a Postman collection) tells a secret: by its value, not its
/// name alone. Saved examples are written for people: their `password` is a sample that tells a
/// 200 from a 401, their `tokenize: false` is a flag and `tokenExpiry` a date, and rewriting them
/// breaks both the choice of example and the app's decoding. What is a secret there is a
/// credential: a header's or an auth block's (`SecretPolicy` by name), an environment value of
/// type secret, and a string under a secret name that is shaped like a token.
enum SecretShape {
    /// Long and random-looking (`SecretPolicy.looksRandom`), one word, not a date.
    static func isToken(_ value: String) -> Bool {
        SecretPolicy.looksRandom(value) && !value.contains(where: \.isWhitespace) && !looksLikeDate(value)
    }

    /// Starts as an ISO 8601 date does (`2024-05-01`).
    static func looksLikeDate(_ value: String) -> Bool {
        let bytes = Array(value.utf8.prefix(10))
        guard bytes.count == 10 else { return false }
        return bytes.indices.allSatisfy { index in
            index == 4 || index == 7 ? bytes[index] == UInt8(ascii: "-") : (48...57).contains(bytes[index])
        }
    }

    /// True when the value under `name` must not be written: by name alone for a capture, by name
    /// and token shape for documentation (`byShape`), unless the name was asked for (`--redact`).
    static func isSecret(_ name: String, value: String, policy: SecretPolicy, byShape: Bool) -> Bool {
        policy.isSecret(name) && (!byShape || isToken(value) || asked(name, policy))
    }

    /// True when `--redact` named `name`.
    static func asked(_ name: String, _ policy: SecretPolicy) -> Bool {
        policy.extra.contains(SecretPolicy.normalize(name))
    }
}
