import Broadcast
import Foundation
import Testing

@Suite("The README of the observability package")
struct ReadmeTests {
    /// This package's folder.
    private static let packageFolder = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Every Swift block of the README is in this package's sources, as written, so it compiles")
    func everyReadmeBlockIsCompiled() throws {
        let readme = try String(contentsOf: Self.packageFolder.appending(path: "README.md"), encoding: .utf8)
        let sources = try swiftSources().map(Self.codeLines)
        let blocks = Self.compiledBlocks(of: readme)
        #expect(blocks.count >= 7)
        for block in blocks {
            let lines = Self.codeLines(block)
            let found = sources.contains { source in
                source.indices.contains { start in source[start...].starts(with: lines) }
            }
            #expect(found, "README block not found as written in Sources or Tests:\n\(block)")
        }
    }

    @Test("The README's broadcaster with three taps calls its listeners as one without")
    func threeTaps() {
        let broadcaster = ReadmeExamples.broadcasterWithThreeTaps()
        let spy = SessionSpy()
        broadcaster.addListener(spy)

        #expect(broadcaster.sessionStarted(id: 1) == 1)
        #expect(spy.callCount == 1)
    }

    /// The ```swift blocks, but those marked `<!-- not compiled: ... -->`.
    private static func compiledBlocks(of markdown: String) -> [String] {
        var blocks: [String] = []
        var block: (lines: [String], compiled: Bool)?
        var previous = ""
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if block == nil, line == "```swift" {
                block = ([], !previous.hasPrefix("<!-- not compiled:"))
            } else if let finished = block, line == "```" {
                if finished.compiled { blocks.append(finished.lines.joined(separator: "\n")) }
                block = nil
            } else if block != nil {
                block?.lines.append(line)
            }
            previous = line
        }
        return blocks
    }

    /// The lines of `text` that say something, without their indentation.
    private static func codeLines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private func swiftSources() throws -> [String] {
        var sources: [String] = []
        for folder in ["Sources", "Tests"] {
            let root = Self.packageFolder.appending(path: folder)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                if file.pathExtension == "swift" { sources.append(try String(contentsOf: file, encoding: .utf8)) }
            }
        }
        return sources
    }
}
