import Broadcast
import BroadcastPostgresRelay
import Foundation
import PostgresNIO
import Testing

/// The Swift blocks of the relay's README compile: each block is copied
/// verbatim into ``ReadmeSamples`` (which the compiler checks with the tests),
/// the example the README shows whole is the `PostgresRelayExample` target, or
/// the block says why it is not compiled.
///
/// A copy is marked as the core's documentation copies are: a comment line
/// `// Verbatim from Relays/PostgresRelay/README.md` before it and
/// `// End of the sample.` after it.
@Suite struct ReadmeSampleTests {
    static let package = URL(filePath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let readme = package.appending(path: "README.md")

    struct Block: CustomStringConvertible {
        let firstLine: Int
        let lines: [Substring]
        /// The `<!-- not compiled: … -->` comment on the line before the fence.
        let notCompiledBecause: Substring?
        var description: String { "the block at line \(firstLine)" }
    }

    static func blocks() throws -> [Block] {
        let lines = try String(contentsOf: readme, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var blocks: [Block] = []
        var index = lines.startIndex
        while let fence = lines[index...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```swift" }) {
            let end =
                lines[(fence + 1)...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "```" } ?? lines.endIndex
            let before = fence > lines.startIndex ? lines[fence - 1] : ""
            let reason = before.firstRange(of: "<!-- not compiled: ").map { before[$0.upperBound...].dropLast(4) }
            blocks.append(
                Block(firstLine: fence + 2, lines: Array(lines[(fence + 1)..<end]), notCompiledBecause: reason))
            index = end
        }
        return blocks
    }

    /// The copies of README blocks in this file, their shared indentation removed.
    static func copies() throws -> [[Substring]] {
        let lines = try String(contentsOf: URL(filePath: #filePath), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        var copies: [[Substring]] = []
        var index = lines.startIndex
        while let marker = lines[index...].firstIndex(where: {
            $0.trimmingPrefix(while: \.isWhitespace) == "// Verbatim from Relays/PostgresRelay/README.md"
        }) {
            let end =
                lines[marker...].firstIndex { $0.trimmingPrefix(while: \.isWhitespace) == "// End of the sample." }
                ?? lines.endIndex
            let copy = lines[(marker + 1)..<end]
            let indentation = copy.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            copies.append(copy.map { $0.dropFirst(indentation) })
            index = end
        }
        return copies
    }

    @Test(arguments: try blocks())
    func everyBlockIsCompiledOrSaysWhyNot(_ block: Block) throws {
        if let reason = block.notCompiledBecause {
            #expect(!reason.isEmpty)
            guard reason.contains("PostgresRelayExample") else { return }
            // The example is the target's source, whose other lines (its event
            // types, the thread reading what is typed) the README leaves out.
            var source = try String(
                contentsOf: Self.package.appending(path: "Sources/PostgresRelayExample/main.swift"), encoding: .utf8
            ).split(separator: "\n", omittingEmptySubsequences: false)[...]
            for line in block.lines {
                guard let found = source.firstIndex(of: line) else {
                    Issue.record("\(block) is no longer the PostgresRelayExample target's source: \(line)")
                    return
                }
                source = source[(found + 1)...]
            }
            return
        }
        #expect(try Self.copies().contains(block.lines), "\(block) has no verbatim copy in ReadmeSamples")
    }
}

/// The README's blocks, compiled, not run; the names they take as given are
/// declared around them.
enum ReadmeSamples {
    struct ChatMessage: Codable, Sendable {
        let room: String
        let text: String
    }

    struct CacheInvalidated: Codable, Sendable {
        let key: String
    }

    struct OnlineUsers: Codable, Sendable {
        let names: [String]
    }

    static func introduction(broadcaster: Broadcaster, connection: PostgresConnection.Configuration) throws {
        // Verbatim from Relays/PostgresRelay/README.md
        let relay = try PostgresRelay(
            broadcaster: broadcaster,
            configuration: .init(connection: connection),  // a PostgresConnection.Configuration
            relaying: [
                .events(of: ChatMessage.self, channel: "chat"),
                .events(of: CacheInvalidated.self, channel: "cache-invalidated"),
            ])
        // Run it in a ServiceGroup (it is a Service), or: try await relay.run()

        broadcaster.post(ChatMessage(room: "lobby", text: "Hello"))  // every instance's listeners receive it
        // End of the sample.
        _ = relay
    }

    static func stickyState(broadcaster: Broadcaster, configuration: PostgresRelay.Configuration) throws {
        // Verbatim from Relays/PostgresRelay/README.md
        let relay = try PostgresRelay(
            broadcaster: broadcaster, configuration: configuration,
            relaying: [.events(of: OnlineUsers.self, channel: "online", sticky: true)])

        broadcaster.post(OnlineUsers(names: ["ada"]), sticky: true)  // every instance's state, now and later
        broadcaster.clearStickyEvent(for: OnlineUsers.self)  // cleared on every instance
        // End of the sample.
        _ = relay
    }

    static func configuring(broadcaster: Broadcaster, connection: PostgresConnection.Configuration) throws {
        // Verbatim from Relays/PostgresRelay/README.md
        var configuration = PostgresRelay.Configuration(connection: connection)
        configuration.healthCheckInterval = .seconds(5)
        let relay = try PostgresRelay(
            broadcaster: broadcaster, configuration: configuration, relaying: [.events(of: ChatMessage.self)])
        // End of the sample.
        _ = relay
    }
}
