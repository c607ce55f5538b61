import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization
import Testing

/// The event the fuzzed notifications carry when they are valid.
struct Move: Sendable, Equatable {
    let player: String
    let score: Int
}

/// Why a fuzzed notification was rejected.
enum MoveError: Error {
    case noScore
}

/// The parser under fuzz: `score` must be an `Int` (it throws otherwise),
/// `player` a non-empty `String` of at most 64 bytes (it returns nil
/// otherwise); any other key is ignored.
@Sendable func parseMove(_ notification: Notification) throws -> Move? {
    guard let info = notification.userInfo else { return nil }
    guard let score = info["score"] as? Int else { throw MoveError.noScore }
    guard let player = info["player"] as? String, !player.isEmpty, player.utf8.count <= 64 else { return nil }
    return Move(player: player, score: score)
}

@Suite struct ForwardingFuzzTests {
    static let name = Notification.Name("ForwardingFuzzTests.move")
    static let hugeData = Data(repeating: 0xAB, count: 1 << 20)
    static let hugeString = String(repeating: "x", count: 1 << 20)
    static let hugeArray = Array(repeating: 7, count: 10_000)

    /// A value that is never an `Int` (or a short non-empty `String`), of
    /// any shape, including huge ones.
    static func hostileValue(_ g: inout SeededGenerator) -> Any {
        switch Int.random(in: 0..<13, using: &g) {
        case 0: return "42"
        case 1: return 4.5
        case 2: return NSNumber(value: 4.5)
        case 3: return NSNull()
        case 4: return [1, 2, 3]
        case 5: return ["score": 1]
        case 6: return hugeData
        case 7: return hugeString
        case 8: return hugeArray
        case 9: return NSObject()
        case 10: return Double.nan
        case 11: return ""
        default: return CGRect(x: 0, y: 0, width: 1e308, height: .infinity)
        }
    }

    /// A notification and, if it is valid, the move it must be forwarded as.
    static func notification(poster: Int, index: Int, _ g: inout SeededGenerator) -> (Notification, Move?) {
        let player = "p\(poster)-\(index)"
        let score = Int.random(in: .min ... .max, using: &g)
        var info: [AnyHashable: Any] = [:]
        var valid: Move?
        switch Int.random(in: 0..<8, using: &g) {
        case 0, 1, 2:  // valid, sometimes with hostile extra keys, huge or not
            info = ["score": score, "player": player]
            if Bool.random(using: &g) { info["extra"] = hostileValue(&g) }
            if Bool.random(using: &g) { info[AnyHashable(index)] = hostileValue(&g) }
            valid = Move(player: player, score: score)
        case 3:  // score of a wrong type
            info = ["score": hostileValue(&g), "player": player]
        case 4:  // player of a wrong type, empty or huge
            var player = hostileValue(&g)
            while let string = player as? String, !string.isEmpty, string.utf8.count <= 64 {
                player = hostileValue(&g)  // "42" is a fine name
            }
            info = ["score": score, "player": player]
        case 5:  // a key missing
            info = Bool.random(using: &g) ? ["score": score] : ["player": player]
        case 6:  // keys of the wrong type
            info = [AnyHashable(1): score, AnyHashable(2.5): player]
        default:  // no userInfo at all
            return (Notification(name: name, object: nil, userInfo: nil), nil)
        }
        return (Notification(name: name, object: hostileValue(&g), userInfo: info), valid)
    }

    /// Posts `count` fuzzed notifications; returns the valid moves, in order,
    /// and the number of invalid ones.
    static func post(_ count: Int, poster: Int, seed: UInt64, to center: NotificationCenter) -> ([Move], Int) {
        var g = SeededGenerator(seed: seed)
        var valid: [Move] = []
        var invalid = 0
        for index in 0..<count {
            let (notification, move) = notification(poster: poster, index: index, &g)
            if let move { valid.append(move) } else { invalid += 1 }
            center.post(notification)
        }
        return (valid, invalid)
    }

    /// 8,000 notifications with hostile `userInfo` (wrong types, missing
    /// keys, keys of other types, megabyte values, no `userInfo`), posted from
    /// two threads at once: each valid one is forwarded exactly once, in its
    /// poster's order; each invalid one is counted and reported once;
    /// nothing traps.
    @Test(.timeLimit(.minutes(1))) func hostileUserInfoLosesAndDuplicatesNoValidNotification() async {
        let center = NotificationCenter()
        let reports = Atomic<Int>(0)
        let broadcaster = Broadcaster(onDiagnostic: { _ in reports.add(1, ordering: .relaxed) })
        let forwarder = NotificationForwarder(
            forwarding: Self.name, as: Move.self, from: center, to: broadcaster, parse: parseMove)
        let received = Log<Move>()
        let token = broadcaster.addHandler(for: Move.self) { received.append($0) }

        async let first = Task.detached { Self.post(4_000, poster: 0, seed: 0xF0_0D, to: center) }.value
        async let second = Task.detached { Self.post(4_000, poster: 1, seed: 0xBAD_1FF0, to: center) }.value
        let (firstValid, firstInvalid) = await first
        let (secondValid, secondInvalid) = await second

        let moves = received.all
        #expect(moves.filter { $0.player.hasPrefix("p0-") } == firstValid)
        #expect(moves.filter { $0.player.hasPrefix("p1-") } == secondValid)
        #expect(moves.count == firstValid.count + secondValid.count)
        #expect(firstValid.count > 1_000 && secondValid.count > 1_000)
        #expect(forwarder.forwardedCount == moves.count)
        #expect(forwarder.rejectedCount == firstInvalid + secondInvalid)
        #expect(firstInvalid > 1_000 && secondInvalid > 1_000)
        #if DEBUG
            #expect(reports.load(ordering: .relaxed) == firstInvalid + secondInvalid)
        #endif
        withExtendedLifetime(token) {}
    }
}
