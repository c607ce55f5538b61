// TEMPORARY: the tap's public declarations, so that the adapters build before
// the tap lands in the core. This file is reverted when the core has them.

public protocol BroadcastTap: Sendable {
    func observe(_ observation: BroadcastObservation)
}

public struct BroadcastObservation: Sendable, CustomStringConvertible {
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public static let broadcast = Kind(name: "broadcast")
        public static let awaitedBroadcast = Kind(name: "awaited broadcast")
        public static let post = Kind(name: "post")
        public var description: String { name }
    }
    public let kind: Kind
    public let subjectName: String
    public let ranOnMainThread: Bool
    public let calledCount: Int
    public let scheduledCount: Int
    public let duration: Duration
    public let isSticky: Bool
    public var description: String { "\(kind) \(subjectName)" }
}

extension Broadcaster {
    public convenience init(tap: some BroadcastTap) {
        self.init()
    }

    @discardableResult
    public func setTap(_ tap: some BroadcastTap) -> Bool {
        false
    }
}
