#if PostgresRelay
    import Broadcast

    /// One event type a ``PostgresRelay`` carries between instances, with its
    /// channel and whether it arrives sticky.
    ///
    /// ```swift
    /// let relay = try PostgresRelay(
    ///     broadcaster: broadcaster, configuration: configuration,
    ///     relaying: [
    ///         .events(of: CacheInvalidated.self),
    ///         .events(of: ChatMessage.self, channel: "chat"),
    ///         .events(of: ActiveUsers.self, sticky: true),
    ///     ])
    /// ```
    public struct RelayedEvents: Sendable {
        /// The PostgreSQL channel the events travel on.
        public let channel: String
        /// Whether the sticky state is relayed, and kept for later instances:
        /// a received event is posted as the sticky event
        /// (``/Broadcast/Broadcaster/post(_:sticky:isolation:)`` with
        /// `sticky: true`).
        public let sticky: Bool
        /// The event type, as `String(reflecting:)` names it.
        public let typeName: String

        let eventType: ObjectIdentifier
        let makeRoute: @Sendable (RouteContext) -> any RelayRoute

        /// Relays the `Event` values posted on the relay's broadcaster, as JSON.
        ///
        /// - Parameters:
        ///   - eventType: The events to relay.
        ///   - channel: The PostgreSQL channel, at most 63 bytes, the same on
        ///     every instance; by default the type's name as
        ///     `String(reflecting:)` spells it (`"MyApp.ChatMessage"`). Name it
        ///     when instances built from different modules, or from different
        ///     versions in which the type moved, must understand each other.
        ///   - sticky: Whether the relay carries the sticky `Event` instead of
        ///     the posts: each change of it made on an instance (a post with
        ///     `sticky: true`, `setStickyEvent(_:)`, `clearStickyEvent(for:)`)
        ///     is posted sticky, or cleared, on the others, and kept in the
        ///     database, so that an instance that starts or resumes later has
        ///     it once it listens. A post without `sticky: true` is not relayed;
        ///     a take (`takeStickyEvent(for:)`) is local.
        /// - Returns: The description of the relayed events, for
        ///   ``PostgresRelay/init(broadcaster:configuration:relaying:logger:)``.
        public static func events<Event: Codable & Sendable>(
            of eventType: Event.Type,
            channel: String? = nil,
            sticky: Bool = false
        ) -> RelayedEvents {
            let channel = channel ?? String(reflecting: Event.self)
            return RelayedEvents(
                channel: channel, sticky: sticky, typeName: String(reflecting: Event.self),
                eventType: ObjectIdentifier(Event.self)
            ) { context in
                EventRoute<Event>(channel: channel, sticky: sticky, context: context)
            }
        }

        /// Why `channel` cannot be used, or `nil` if it can.
        var channelProblem: String? {
            if channel.isEmpty { return "it is empty" }
            if channel.utf8.count > 63 { return "it is \(channel.utf8.count) bytes long, and PostgreSQL's limit is 63" }
            if channel.contains("\"") || channel.contains("\u{0}") { return "it contains a double quote or NUL" }
            if channel == LiveInstances.channel { return "it is the channel of the relays' heartbeats" }
            return nil
        }
    }
#endif
