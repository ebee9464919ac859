import CHiredis

/// hiredis's replies copied out into `RedisReply`, and what hiredis says went wrong.
extension RedisConnection {
    /// The next complete reply in a TLS connection's reader, if any.
    static func takeReply(from reader: UnsafeMutablePointer<redisReader>) throws(StoreError) -> RedisReply? {
        var raw: UnsafeMutableRawPointer?
        guard redisReaderGetReply(reader, &raw) == REDIS_OK else { throw StoreError(description: "the store's reply could not be read") }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        return try convert(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// The reply as `RedisReply`. A type stubd does not read (a newer hiredis's RESP3 types,
    /// which `RESPScanner` refuses before hiredis sees them) is a protocol error that ends the
    /// call and the connection, never a null that reads as "no such key".
    static func convert(_ reply: UnsafeMutablePointer<redisReply>) throws(StoreError) -> RedisReply {
        let r = reply.pointee
        func bytes() -> [UInt8] {
            guard let str = r.str else { return [] }
            return Array(UnsafeRawBufferPointer(start: str, count: r.len))
        }
        switch r.type {
        case REDIS_REPLY_STRING: return .string(bytes())
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: return .integer(Int(r.integer))
        case REDIS_REPLY_NIL: return .null
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(r.elements)
            for i in 0..<r.elements {
                guard let element = r.element[i] else { continue }
                elements.append(try convert(element))
            }
            return .array(elements)
        default:
            throw StoreError(description: "Protocol error: the store sent a reply of type \(r.type), which stubd does not read")
        }
    }

    /// What the plain context says went wrong.
    static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if !text.isEmpty { return text }
        return context.pointee.err == REDIS_ERR_EOF ? "the store closed the connection" : "error \(context.pointee.err)"
    }
}
