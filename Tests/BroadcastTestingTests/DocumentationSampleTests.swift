import Foundation
import Testing

/// The documentation's samples with thread-safe state, each copied verbatim
/// into a test that runs under ThreadSanitizer (`scripts/sanitizers thread`),
/// stay copies: a test file marks its copy with a first line
/// `// Verbatim from PATH.md` and a last line `// End of the sample.`, and the
/// copy must be a run of whole lines of one Swift block of that document.
@Suite("Documentation samples copied into tests")
struct DocumentationSampleTests {
    static let repository = URL(filePath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The documents whose thread-safe samples must have a copy under test.
    static let documented: Set = [
        "Sources/Broadcast/Broadcast.docc/TestingWithBroadcast.md",
        "Sources/Broadcast/Broadcast.docc/GettingStarted.md",
        "Sources/BroadcastSystemBridge/BroadcastSystemBridge.docc/KeyboardAndAppState.md",
    ]

    struct Copy: CustomStringConvertible {
        let file: String
        let document: String
        let lines: [Substring]
        var description: String { "\(file) (from \(document))" }
    }

    static func copies() throws -> [Copy] {
        let tests = repository.appending(path: "Tests")
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.sorted { $0.path < $1.path }.compactMap { file in
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            guard let marker = lines.first?.firstRange(of: "// Verbatim from "), let end = lines.firstIndex(of: "// End of the sample.")
            else { return nil }
            let document = String(lines[0][marker.upperBound...].prefix { !$0.isWhitespace })
            let start = lines.firstIndex { !$0.hasPrefix("//") } ?? end
            return Copy(file: file.lastPathComponent, document: document, lines: Array(lines[start..<end]))
        }
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
                && (0...(block.count - copy.lines.count)).contains { Array(block[$0..<$0 + copy.lines.count]) == copy.lines }
        }
        #expect(found, "\(copy.file) is no longer a copy of a block of \(copy.document)")
    }
}
