/// Why a control call was refused.
public enum ControlError: Error, Sendable, Equatable {
    /// No route has this id.
    case unknownRoute(String, known: [String])
    /// The route has no variant of this name.
    case unknownVariant(route: String, variant: String, known: [String])
    /// A delay outside 0...3600000 ms.
    case invalidDelay(Int)
    /// The fleet's store did not take the change (it went away or is too slow): nothing changed.
    case storeUnavailable
}
