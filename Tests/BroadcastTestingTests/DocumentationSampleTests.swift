import Foundation
import Testing

/// The documentation's samples copied into tests stay copies.
///
/// Those with thread-safe state are copied into tests that run under
/// ThreadSanitizer (`scripts/sanitizers thread`); the PostgreSQL relay
/// README's blocks into the relay's tests, which alone build with its trait.
/// A test file marks its
/// copy with a comment line `// Verbatim from PATH.md` before it and a line
/// `// End of the sample.` after it, and the copy, its shared indentation
/// removed, must be a run of whole lines of one Swift block of that document.
@Suite("Documentation samples copied into tests")
struct DocumentationSampleTests {
    static let repository = URL(filePath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The documents whose thread-safe samples must have a copy under test.
    static let documented: Set = [
        "Sources/Broadcast/Broadcast.docc/TestingWithBroadcast.md",
        "Sources/Broadcast/Broadcast.docc/GettingStarted.md",
        "Sources/Broadcast/Broadcast.docc/ActorsThatListen.md",
        "Sources/BroadcastSystemBridge/BroadcastSystemBridge.docc/KeyboardAndAppState.md",
        "Sources/BroadcastSystemBridge/BroadcastSystemBridge.docc/MigratingNotifications.md",
        relayReadme,
    ]

    static let relayReadme = "Relays/PostgresRelay/README.md"

    static let marker = "// Verbatim from "

    struct Copy: CustomStringConvertible {
        let file: String
        let document: String
        let lines: [Substring]
        var description: String { "\(file) (from \(document))" }
    }

    static func copies() throws -> [Copy] {
        let files = ["Tests", "Relays/PostgresRelay/Tests"].flatMap { folder in
            FileManager.default.enumerator(at: repository.appending(path: folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        }
        return try files.sorted { $0.path < $1.path }.flatMap { file in
            let lines = try String(contentsOf: file, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { ($0, $0.trimmingPrefix(while: \.isWhitespace)) }
            var copies: [Copy] = []
            var marker = lines.startIndex
            while let found = lines[marker...].firstIndex(where: { $0.1.hasPrefix(Self.marker) }) {
                let document = String(
                    lines[found].1.dropFirst(Self.marker.count).prefix { !$0.isWhitespace && $0 != "," })
                let start = lines[found...].firstIndex { !$0.1.hasPrefix("//") } ?? lines.endIndex
                let end = lines[start...].firstIndex { $0.1 == "// End of the sample." } ?? lines.endIndex
                copies.append(
                    Copy(
                        file: file.lastPathComponent, document: document, lines: unindented(lines[start..<end].map(\.0))
                    ))
                marker = end
            }
            return copies
        }
    }

    /// The lines with the indentation they share removed: a copy may be
    /// nested in a type, so that its names cannot meet others in its module.
    static func unindented(_ lines: [Substring]) -> [Substring] {
        let indentation = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { $0.dropFirst(indentation) }
    }

    /// A ```swift block of a Markdown document.
    struct Block: CustomStringConvertible {
        let document: String
        let firstLine: Int
        let lines: [Substring]
        /// The reason a `<!-- not compiled: REASON -->` line just before the
        /// fence gives.
        let notCompiledBecause: Substring?
        var description: String { "the block at \(document):\(firstLine)" }
    }

    /// The ```swift blocks of a Markdown document.
    static func blocks(of document: String) throws -> [Block] {
        let text = try String(contentsOf: repository.appending(path: document), encoding: .utf8)
        var blocks: [Block] = []
        var current: [Substring]?
        var start = 0
        var reason: Substring?
        var previous: Substring = ""
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
                start = index + 2
                reason = previous.firstRange(of: "<!-- not compiled: ").map { previous[$0.upperBound...].dropLast(4) }
            } else if let block = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(Block(document: document, firstLine: start, lines: block, notCompiledBecause: reason))
                current = nil
            } else {
                current?.append(line)
            }
            previous = line
        }
        return blocks
    }

    @Test func everyDocumentWithAThreadSafeSampleHasACopyUnderTest() throws {
        #expect(Self.documented.isSubset(of: try Self.copies().map(\.document)))
    }

    @Test(arguments: try copies())
    func eachCopyIsVerbatim(_ copy: Copy) throws {
        #expect(!copy.lines.isEmpty)
        let blocks = try Self.blocks(of: copy.document)
        let found = blocks.map(\.lines).contains { block in
            block.count >= copy.lines.count
                && (0...(block.count - copy.lines.count)).contains {
                    Array(block[$0..<$0 + copy.lines.count]) == copy.lines
                }
        }
        #expect(found, "\(copy.file) is no longer a copy of a block of \(copy.document)")
    }

    /// Every block of the relay's README compiles: it is copied whole into the
    /// relay's tests, it is the `PostgresRelayExample` target's source (less
    /// the lines the README leaves out), or it says why it is not compiled.
    @Test(arguments: try blocks(of: relayReadme))
    func everyBlockOfTheRelayReadmeIsCompiledOrSaysWhyNot(_ block: Block) throws {
        guard let reason = block.notCompiledBecause else {
            #expect(try Self.copies().map(\.lines).contains(block.lines), "\(block) has no verbatim copy in a test")
            return
        }
        #expect(!reason.isEmpty)
        guard reason.contains("PostgresRelayExample") else { return }
        var source = try String(
            contentsOf: Self.repository.appending(path: "Relays/PostgresRelay/Sources/PostgresRelayExample/main.swift"),
            encoding: .utf8
        ).split(separator: "\n", omittingEmptySubsequences: false)[...]
        for line in block.lines {
            guard let found = source.firstIndex(of: line) else {
                Issue.record("\(block) is no longer the PostgresRelayExample target's source: \(line)")
                return
            }
            source = source[(found + 1)...]
        }
    }
}
