/// The stubd release, reported by `--version` and the health endpoint.
public enum StubdVersion {
    /// Semantic version of this build.
    public static let current = "0.1.0"
}
