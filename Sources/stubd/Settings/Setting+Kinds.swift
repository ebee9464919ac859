#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// The kinds of value a setting takes, each with its parser, range check, wording and way of
/// writing the value back (so a default in help reads like what a user would type).
extension Setting {
    typealias Path<Value> = WritableKeyPath<ServeOptions, Value> & Sendable

    /// A whole number within `range`.
    static func number(_ flag: String, _ name: String, _ range: ClosedRange<Int>, _ path: Path<Int>, help: String) -> Setting {
        Setting(flag: flag, valueName: name, help: help, expectation: "a whole number from \(range.lowerBound) to \(range.upperBound)",
                apply: { text, options in
                    guard let n = Int(text), range.contains(n) else { return false }
                    options[keyPath: path] = n
                    return true
                },
                reset: { $0[keyPath: path] = ServeOptions()[keyPath: path] }, show: { "\($0[keyPath: path])" })
    }

    /// A whole number within `range` whose default is worked out at start (`defaultNote`).
    static func optionalNumber(_ flag: String, _ name: String, _ range: ClosedRange<Int>, _ path: Path<Int?>, help: String, defaultNote: String) -> Setting {
        Setting(flag: flag, valueName: name, help: help, expectation: "a whole number from \(range.lowerBound) to \(range.upperBound)",
                defaultNote: defaultNote,
                apply: { text, options in
                    guard let n = Int(text), range.contains(n) else { return false }
                    options[keyPath: path] = n
                    return true
                },
                reset: { $0[keyPath: path] = nil }, show: { $0[keyPath: path].map { "\($0)" } })
    }

    /// A port number, 0 for a free one.
    static func port(_ flag: String, _ path: Path<Int>, help: String) -> Setting {
        var setting = number(flag, "PORT", 0...65535, path, help: help)
        setting = Setting(flag: flag, valueName: "PORT", help: help, expectation: "a port number from 0 to 65535",
                          apply: setting.apply, reset: setting.reset, show: setting.show)
        return setting
    }

    /// A duration in milliseconds, written `1500`, `1500ms`, `2s` or `5m`, at least `minimum`.
    static func duration(_ flag: String, _ path: Path<Int>, minimum: Int = 0, help: String) -> Setting {
        Setting(flag: flag, valueName: "DURATION", help: help, expectation: Setting.durationWords(minimum: minimum),
                apply: { text, options in
                    guard let ms = Setting.parseDuration(text), ms >= minimum else { return false }
                    options[keyPath: path] = ms
                    return true
                },
                reset: { $0[keyPath: path] = ServeOptions()[keyPath: path] }, show: { Setting.durationText($0[keyPath: path]) })
    }

    /// A duration held as seconds (`Double`), written like any other duration.
    static func seconds(_ flag: String, _ path: Path<Double>, minimum: Int = 0, help: String) -> Setting {
        Setting(flag: flag, valueName: "DURATION", help: help, expectation: Setting.durationWords(minimum: minimum),
                apply: { text, options in
                    guard let ms = Setting.parseDuration(text), ms >= minimum else { return false }
                    options[keyPath: path] = Double(ms) / 1000
                    return true
                },
                reset: { $0[keyPath: path] = ServeOptions()[keyPath: path] },
                show: { Setting.durationText(Int(($0[keyPath: path] * 1000).rounded())) })
    }

    /// A size in bytes: `1048576`, `512k`/`512KiB`, `16m`/`16MiB` or `1g`/`1GiB`, within `range`.
    static func size(_ flag: String, _ path: Path<Int>, _ range: ClosedRange<Int> = 1...(4 << 30), help: String) -> Setting {
        Setting(flag: flag, valueName: "SIZE", help: help,
                expectation: "a size from \(Setting.sizeText(range.lowerBound)) to \(Setting.sizeText(range.upperBound)) like 1048576, 512k or 16MiB",
                apply: { text, options in
                    guard let bytes = Setting.parseSize(text), range.contains(bytes) else { return false }
                    options[keyPath: path] = bytes
                    return true
                },
                reset: { $0[keyPath: path] = ServeOptions()[keyPath: path] }, show: { Setting.sizeText($0[keyPath: path]) })
    }

    /// One of an enum's raw values.
    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(_ flag: String, _ name: String, _ path: Path<Value>, help: String) -> Setting
        where Value.RawValue == String {
        let words = Value.allCases.map(\.rawValue)
        return Setting(flag: flag, valueName: name, help: help, expectation: Setting.list(words),
                       apply: { text, options in
                           guard let value = Value(rawValue: text) else { return false }
                           options[keyPath: path] = value
                           return true
                       },
                       reset: { $0[keyPath: path] = ServeOptions()[keyPath: path] }, show: { $0[keyPath: path].rawValue })
    }

    /// Free text (a host, a token, a folder).
    static func text(_ flag: String, _ name: String, _ path: Path<String>, help: String) -> Setting {
        Setting(flag: flag, valueName: name, help: help, expectation: "a value",
                apply: { text, options in
                    options[keyPath: path] = text
                    return true
                },
                reset: { $0[keyPath: path] = ServeOptions()[keyPath: path] }, show: { $0[keyPath: path] })
    }

    /// Free text with no default.
    static func optionalText(_ flag: String, _ name: String, _ path: Path<String?>, help: String) -> Setting {
        Setting(flag: flag, valueName: name, help: help, expectation: "a value",
                apply: { text, options in
                    options[keyPath: path] = text
                    return true
                },
                reset: { $0[keyPath: path] = nil }, show: { $0[keyPath: path] })
    }

    /// Host names separated by commas (`stubd.internal,mocks.local`): letters, digits, dots and
    /// dashes, or an IP address; no port, no scheme.
    static func hostNames(_ flag: String, _ path: Path<[String]>, help: String) -> Setting {
        Setting(flag: flag, valueName: "NAME[,NAME]", help: help, expectation: "host names separated by commas, without ports",
                apply: { text, options in
                    let names = text.split(separator: ",").map { String($0.filter { $0 != " " }).lowercased() }
                    guard !names.isEmpty, names.allSatisfy(isHostName) else { return false }
                    options[keyPath: path] = names
                    return true
                },
                reset: { $0[keyPath: path] = [] }, show: { $0[keyPath: path].isEmpty ? nil : $0[keyPath: path].joined(separator: ",") })
    }

    /// A DNS name or IPv4 address (letters, digits, dots, dashes), or an IPv6 address without
    /// brackets; never a port.
    static func isHostName(_ name: String) -> Bool {
        let dns = Set("abcdefghijklmnopqrstuvwxyz0123456789.-"), v6 = Set("0123456789abcdef:")
        if !name.isEmpty && name.allSatisfy(dns.contains) { return name.first != "." && name.first != "-" }
        return name.allSatisfy(v6.contains) && name.filter { $0 == ":" }.count >= 2
    }

    /// An absolute `http://` or `https://` URL with a host.
    static func upstream(_ flag: String, _ path: Path<URL?>, help: String) -> Setting {
        Setting(flag: flag, valueName: "URL", help: help, expectation: "an http:// or https:// URL",
                apply: { text, options in
                    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                          url.host?.isEmpty == false else { return false }
                    options[keyPath: path] = url
                    return true
                },
                reset: { $0[keyPath: path] = nil }, show: { $0[keyPath: path]?.absoluteString })
    }

    /// A switch: the flag alone turns it on; the variable takes 1/0, true/false, yes/no or on/off.
    /// `path` is set to `on` when it is on (`--no-admin` sets `adminEnabled` to false).
    static func toggle(_ flag: String, _ path: Path<Bool>, on: Bool = true, help: String) -> Setting {
        Setting(flag: flag, valueName: nil, help: help, expectation: "1 or 0 (true/false, yes/no, on/off)",
                apply: { text, options in
                    guard let value = Setting.switchValue(text) else { return false }
                    options[keyPath: path] = value ? on : !on
                    return true
                },
                reset: { $0[keyPath: path] = ServeOptions()[keyPath: path] },
                show: { $0[keyPath: path] == on ? "1" : "0" })
    }
}
