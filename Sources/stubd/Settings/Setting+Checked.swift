#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubFleet
import StubSystem

/// Kinds whose values are checked against the world when they are read: paths that must exist,
/// an address to bind, a store's URL. A bad one is a usage error (exit 2) naming the setting,
/// before anything starts, not a failure halfway through starting.
extension Setting {
    /// A file that must exist and be readable, no default.
    static func file(_ flag: String, _ name: String, _ path: Path<URL?>, help: String) -> Setting {
        existing(flag, name, path, folder: false, help: help)
    }

    /// A folder that must exist, no default.
    static func folder(_ flag: String, _ name: String, _ path: Path<URL?>, help: String) -> Setting {
        existing(flag, name, path, folder: true, help: help)
    }

    /// A file or folder (`folder`) that must exist, no default.
    private static func existing(_ flag: String, _ name: String, _ path: Path<URL?>, folder: Bool, help: String) -> Setting {
        Setting(flag: flag, valueName: name, help: help, expectation: folder ? "an existing folder" : "an existing, readable file",
                apply: { text, options in
                    guard Setting.exists(text, folder: folder) else { return false }
                    options[keyPath: path] = URL(fileURLWithPath: text)
                    return true
                },
                reset: { $0[keyPath: path] = nil }, show: { $0[keyPath: path]?.path })
    }

    /// A folder that must exist, with a default (which is checked where it is used).
    static func folder(_ flag: String, _ name: String, _ path: Path<String>, help: String) -> Setting {
        Setting(flag: flag, valueName: name, help: help, expectation: "an existing folder",
                apply: { text, options in
                    guard Setting.exists(text, folder: true) else { return false }
                    options[keyPath: path] = text
                    return true
                },
                reset: { $0[keyPath: path] = ServeOptions()[keyPath: path] }, show: { $0[keyPath: path] })
    }

    /// An address to bind: `localhost`, or an IPv4 or IPv6 address (brackets optional).
    static func bindHost(_ flag: String, _ path: Path<String>, help: String) -> Setting {
        Setting(flag: flag, valueName: "HOST", help: help, expectation: "localhost or an IPv4 or IPv6 address",
                apply: { text, options in
                    let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
                    guard bare == "localhost" || LibC.ipv4Address(bare, port: 0) != nil || LibC.ipv6Address(bare, port: 0) != nil else {
                        return false
                    }
                    options[keyPath: path] = text
                    return true
                },
                reset: { $0[keyPath: path] = ServeOptions()[keyPath: path] }, show: { $0[keyPath: path] })
    }

    /// A store's URL (`redis://[:PASSWORD@]HOST[:PORT][/DB]`, `rediss://` for TLS), no default.
    static func storeURL(_ flag: String, _ path: Path<String?>, help: String) -> Setting {
        Setting(flag: flag, valueName: "URL", help: help, expectation: "a redis://HOST[:PORT][/DB] URL (rediss:// for TLS)",
                apply: { text, options in
                    guard (try? StateStoreURL(text)) != nil else { return false }
                    options[keyPath: path] = text
                    return true
                },
                reset: { $0[keyPath: path] = nil }, show: { $0[keyPath: path] })
    }

    /// True when `path` names an existing folder (`folder`) or a readable file that is not one.
    static func exists(_ path: String, folder: Bool) -> Bool {
        guard FileKind.of(path) == (folder ? .directory : .file) else { return false }
        return folder || FileManager.default.isReadableFile(atPath: path)
    }
}
