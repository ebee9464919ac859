import StubCore

/// The dashboard at `/__stubd/ui`: plain HTML, CSS and JavaScript from `Files/`, compiled into
/// the binary, so the page works offline and nothing is fetched from anywhere but this server.
package enum DashboardFiles {
    /// Every file by the name the page asks for.
    package static let files = AdminFiles(files: [
        "index.html": .init(contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        "app.css": .init(contentType: "text/css; charset=utf-8", bytes: PackageResources.app_css),
        "core.js": .init(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.core_js),
        "routes.js": .init(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.routes_js),
        "traffic.js": .init(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.traffic_js),
        "panels.js": .init(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.panels_js),
        "conversations.js": .init(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.conversations_js),
        "state.js": .init(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.state_js),
        "app.js": .init(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.app_js),
        "icon.svg": .init(contentType: "image/svg+xml", bytes: PackageResources.icon_svg),
    ])
}
