extension StubServer {
    /// The libmicrohttpd release serving requests in this process, such as "0.9.75" (Debian 12)
    /// or "1.0.1" (Homebrew ships 1.0.x): printed by `stubd --version`, since what a malformed
    /// request is answered with differs between the two series (see docs/transport.md).
    public static var libmicrohttpdVersion: String { MHDLibrary.version }

    /// Whether libmicrohttpd itself refuses malformed request heads (1.0 and later, at the
    /// discipline level stubd asks for), with its own plain-text 400 and a closed connection,
    /// before stubd sees them; on 0.9.75 stubd refuses them with its JSON errors.
    public static var libraryRefusesMalformedHeads: Bool { MHDLibrary.refusesMalformedHeads }
}
