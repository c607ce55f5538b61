/// A chat message, as an app would relay one: the event the tests and the
/// two-process check relay.
public struct ChatMessage: Codable, Sendable, Equatable {
    /// Tells the messages of a test apart.
    public var number: Int
    /// The message.
    public var text: String

    /// A message numbered `number`.
    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }
}

/// Who is online: state that new listeners need at once, relayed sticky.
public struct OnlineUsers: Codable, Sendable, Equatable {
    /// The users online.
    public var names: [String]

    /// The users `names` online.
    public init(names: [String]) {
        self.names = names
    }
}
