/// A chat message, as an app would relay one: the event the tests and the
/// two-process check relay.
public struct ChatMessage: Codable, Sendable, Equatable {
    public var number: Int
    public var text: String

    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }
}

/// Who is online: state that new listeners need at once, relayed sticky.
public struct OnlineUsers: Codable, Sendable, Equatable {
    public var names: [String]

    public init(names: [String]) {
        self.names = names
    }
}
