/// When a ``ListenerRegistration`` listens: the period a ``ListenerRegistrations``
/// starts and stops it for.
///
/// `lifetime` registrations start as soon as they are added and run until the
/// registrations (or the listener) go away; `visible` ones are started and
/// stopped with the view (`viewWillAppear` / `viewDidDisappear`); define your
/// own with ``custom(_:)`` for any other period.
public struct Lifespan: Hashable, Sendable, CustomStringConvertible {
    /// The name that identifies the lifespan.
    public let name: String

    init(name: String) {
        self.name = name
    }

    /// Listening for the listener's whole life; started when added.
    public static let lifetime = Lifespan(name: "lifetime")

    /// Listening while the listener's view is on screen.
    public static let visible = Lifespan(name: "visible")

    /// A lifespan of your own, started and stopped by name: two lifespans
    /// with the same name are the same lifespan.
    public static func custom(_ name: String) -> Lifespan {
        Lifespan(name: name)
    }

    /// The lifespan's name.
    public var description: String { name }
}
