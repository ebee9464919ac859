@testable import StubFleet
import Testing

/// `RESPScanner` lets every reply a store really sends through, cut anywhere, and refuses an
/// array header that claims more elements than one reply can hold, before hiredis makes them.
@Suite(.timeLimit(.minutes(3))) struct RESPScannerTests {
    /// Feeds `text` in pieces of `piece` bytes; the first error, if any.
    private func scan(_ text: String, piece: Int, maxReplyBytes: Int = 64 << 20) -> StoreError? {
        var scanner = RESPScanner(maxReplyBytes: maxReplyBytes)
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            let failed = bytes[start..<end].withUnsafeBytes { chunk -> StoreError? in
                do throws(StoreError) { try scanner.scan(chunk) } catch { return error }
                return nil
            }
            if let failed { return failed }
            start = end
        }
        return nil
    }

    @Test func realRepliesPassWhereverTheyAreCut() {
        let replies = [
            "+OK\r\n", "-ERR unknown command\r\n", ":42\r\n", "$-1\r\n", "*-1\r\n", "*0\r\n", "$0\r\n\r\n",
            // A bulk string holding what looks like headers, and CR LF inside it.
            "$13\r\n*9999999999\r\n\r\n",
            // A pipeline's replies back to back; nested arrays (EXEC of LRANGE, a message).
            "*4\r\n+OK\r\n+QUEUED\r\n*2\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n:1\r\n$-1\r\n",
            "*3\r\n$7\r\nmessage\r\n$13\r\nstubd:changes\r\n$2\r\n17\r\n",
        ]
        let all = replies.joined()
        for piece in [1, 2, 3, 5, 7, all.utf8.count] {
            #expect(scan(all, piece: piece) == nil, "cut every \(piece) bytes")
        }
    }

    @Test func anArrayNoReplyCanHoldIsRefusedAtItsHeader() {
        // 64 MiB holds at most 22,369,621 elements of 3 bytes.
        #expect(scan("*2147483647\r\n", piece: 1)?.description.contains("2147483647 elements") == true)
        #expect(scan("*22369621\r\n", piece: 4) == nil)
        #expect(scan("*22369622\r\n", piece: 4) != nil)
        // Nested claims count together (300 bytes hold 100 elements).
        #expect(scan("*2\r\n*98\r\n", piece: 1, maxReplyBytes: 300) == nil)
        #expect(scan("*2\r\n*99\r\n", piece: 1, maxReplyBytes: 300) != nil)
        // Once elements arrive, their room is free again.
        #expect(scan("*2\r\n:1\r\n:2\r\n*100\r\n", piece: 1, maxReplyBytes: 300) == nil)
        // hiredis reads seven levels at most.
        #expect(scan(String(repeating: "*1\r\n", count: 7) + ":1\r\n", piece: 3) == nil)
        #expect(scan(String(repeating: "*1\r\n", count: 8), piece: 3)?.description.contains("nested") == true)
    }

    @Test func whatIsNotRESPIsRefusedAtItsFirstByte() {
        #expect(scan("HTTP/1.1 200 OK\r\n", piece: 1)?.description.contains("'H'") == true)
        #expect(scan("+OK\r\n\u{1}", piece: 64)?.description.contains("byte 1") == true)
    }
}
