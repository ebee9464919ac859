/// Where finished requests go besides the journal: the transport's access log.
package protocol RequestLogger: Sendable {
    /// Takes one finished request; called on the thread that served it.
    func log(_ record: RequestRecord)
}
