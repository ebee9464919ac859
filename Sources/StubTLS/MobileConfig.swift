#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An Apple configuration profile (`.mobileconfig`) that installs the authority as a root
/// certificate on an iOS device. Its identifiers derive from the authority's fingerprint, so
/// renewing the server certificate rewrites the same profile.
enum MobileConfig {
    static func profile(authorityDER: [UInt8], name: String, fingerprint: [UInt8]) -> String {
        let certificate = Data(authorityDER).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let tag = fingerprint.prefix(8).map { hex($0) }.joined()
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>PayloadContent</key>
        \t<array>
        \t\t<dict>
        \t\t\t<key>PayloadCertificateFileName</key>
        \t\t\t<string>stubd-ca.cer</string>
        \t\t\t<key>PayloadContent</key>
        \t\t\t<data>
        \(certificate)
        \t\t\t</data>
        \t\t\t<key>PayloadDescription</key>
        \t\t\t<string>Lets this device trust HTTPS from stubd on the developer's machine.</string>
        \t\t\t<key>PayloadDisplayName</key>
        \t\t\t<string>\(escape(name))</string>
        \t\t\t<key>PayloadIdentifier</key>
        \t\t\t<string>dev.stubd.ca.\(tag).certificate</string>
        \t\t\t<key>PayloadType</key>
        \t\t\t<string>com.apple.security.root</string>
        \t\t\t<key>PayloadUUID</key>
        \t\t\t<string>\(uuid(fingerprint, variant: 1))</string>
        \t\t\t<key>PayloadVersion</key>
        \t\t\t<integer>1</integer>
        \t\t</dict>
        \t</array>
        \t<key>PayloadDescription</key>
        \t<string>Installs the stubd local certificate authority. After installing, turn on full trust for it in Settings, General, About, Certificate Trust Settings.</string>
        \t<key>PayloadDisplayName</key>
        \t<string>\(escape(name))</string>
        \t<key>PayloadIdentifier</key>
        \t<string>dev.stubd.ca.\(tag)</string>
        \t<key>PayloadRemovalDisallowed</key>
        \t<false/>
        \t<key>PayloadType</key>
        \t<string>Configuration</string>
        \t<key>PayloadUUID</key>
        \t<string>\(uuid(fingerprint, variant: 0))</string>
        \t<key>PayloadVersion</key>
        \t<integer>1</integer>
        </dict>
        </plist>

        """
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// A UUID-shaped string from the fingerprint; `variant` tells the profile's two apart.
    private static func uuid(_ fingerprint: [UInt8], variant: UInt8) -> String {
        var bytes = Array(fingerprint.prefix(16))
        while bytes.count < 16 { bytes.append(0) }
        bytes[15] ^= variant
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let text = bytes.map { hex($0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(text[text.index(text.startIndex, offsetBy: range.lowerBound)..<text.index(text.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }

    private static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
