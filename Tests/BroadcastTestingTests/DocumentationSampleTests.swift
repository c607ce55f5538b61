import Foundation
import Testing

/// The documentation's samples with thread-safe state, each copied verbatim
/// into a test that runs under ThreadSanitizer (`scripts/sanitizers thread`),
/// stay copies: a test file marks its copy with a comment line
/// `// Verbatim from PATH.md` before it and a line `// End of the sample.`
/// after it, and the copy, its shared indentation removed, must be a run of
/// whole lines of one Swift block of that document.
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
    ]

    static let marker = "// Verbatim from "

    struct Copy: CustomStringConvertible {
        let file: String
        let document: String
        let lines: [Substring]
        var description: String { "\(file) (from \(document))" }
    }

    static func copies() throws -> [Copy] {
        let tests = repository.appending(path: "Tests")
        let files =
            FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
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

    /// The lines of each ```swift block of a Markdown document.
    static func blocks(of document: String) throws -> [[Substring]] {
        let text = try String(contentsOf: repository.appending(path: document), encoding: .utf8)
        var blocks: [[Substring]] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if let block = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(block)
                current = nil
            } else {
                current?.append(line)
            }
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
        let found = blocks.contains { block in
            block.count >= copy.lines.count
                && (0...(block.count - copy.lines.count)).contains {
                    Array(block[$0..<$0 + copy.lines.count]) == copy.lines
                }
        }
        #expect(found, "\(copy.file) is no longer a copy of a block of \(copy.document)")
    }
}
