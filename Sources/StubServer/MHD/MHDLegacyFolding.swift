/// Obsolete line folding as libmicrohttpd before 0.9.77 keeps it, for `RequestFraming`: those
/// releases cannot be asked to refuse a folded line, and join it where no header check can see
/// it. Used only where `MHDLibrary.refusesMalformedHeads` is false; later releases refuse folding themselves.
///
/// This reads where 0.9.75 places a header's name and value, which is no public promise: 0.9.75
/// appends the continuation to the header's *name* (`Content-Length: 1⏎ 0` reads as
/// `Content-Length0: 1`), in a copy made elsewhere in the connection's memory, while an unfolded
/// header's name and value lie in the request line buffer as sent, the name's colon turned into a
/// NUL and only spaces or tabs before the value. So a value that does not start within a few
/// bytes after its name, or not after a NUL and blanks, means the name was moved: folded. The
/// suite checks it against 0.9.75 (FramingTests); 1.0 never reaches it.
enum MHDLegacyFolding {
    /// True when the library joined a folded line onto this header.
    static func wasFolded(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let nameStart = name.baseAddress, let valueStart = value.baseAddress else { return false }
        let nameEnd = nameStart + name.count
        guard valueStart > nameEnd else { return true }
        let gap = valueStart - nameEnd
        guard gap <= 256, nameEnd.pointee == 0 else { return true }
        for offset in 1..<gap where nameEnd[offset] != 0x20 && nameEnd[offset] != 0x09 { return true }
        return false
    }
}
