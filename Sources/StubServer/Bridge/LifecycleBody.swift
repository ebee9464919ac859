/// The one kind of pulled body: libmicrohttpd's content reader asks the request's lifecycle
/// (through the bridge) for each piece, whatever the body is (a stream, a throttled body, a
/// truncated one). Retains the request until libmicrohttpd frees the response.
final class LifecycleBody: PulledBody {
    let context: RequestContext
    let bridge: RequestBridge

    init(_ context: RequestContext, bridge: RequestBridge) {
        self.context = context
        self.bridge = bridge
        super.init()
    }

    override func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        bridge.pull(context, at: offset, into: buffer)
    }

    override func responseFreed() {
        bridge.responseFreed(context)
    }
}
