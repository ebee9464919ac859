/// The room a transport gives for the next piece of a pulled body (libmicrohttpd's content
/// reader buffer). The cursors write into it only through `copy`, which checks the bounds, so the
/// one write through a raw pointer is here.
package struct PullBuffer {
    private let room: UnsafeMutableRawBufferPointer

    /// Room that stays valid for the pull it is given to.
    package init(_ room: UnsafeMutableRawBufferPointer) {
        self.room = room
    }

    /// How many bytes fit.
    package var count: Int { room.count }

    /// Copies `count` bytes of `bytes` from `offset` to the start of the room.
    package func copy(_ bytes: [UInt8], from offset: Int, count: Int) {
        precondition(count >= 0 && count <= room.count && offset >= 0 && offset + count <= bytes.count, "a pull copies inside both buffers")
        guard count > 0 else { return }
        bytes.withUnsafeBytes { room.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
    }
}
