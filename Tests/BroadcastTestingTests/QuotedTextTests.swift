import Foundation
import Testing

@testable import Broadcast
@testable import BroadcastTesting

/// Every text the documentation quotes as printed is one the code prints:
/// debug reports (`BroadcastDiagnostic` descriptions), delivery
/// explanations (`DeliveryExplanation` descriptions) and a failed wait's
/// message, with Swift Testing's line for it.
///
/// A quote is a line of a fenced block that is not Swift, a run of whole-line
/// `//` comments in a Swift block, or a code span in prose, in the README,
/// the CHANGELOG, `Docs/`, the DocC articles, the relay's README and the
/// doc comments of `Sources/`. One that reads as such a text (it begins
/// `Broadcast: `, begins as an explanation does, or has a wait's shape) must
/// be the text the code makes, the names in it (types, protocols, files,
/// lines, actors) standing for any.
@Suite("Texts the documentation quotes are the texts the code prints")
struct QuotedTextTests {
    static let repository = URL(filePath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct Quote: CustomStringConvertible {
        let document: String
        let line: Int
        let text: String
        var description: String { "\(document):\(line): \(text)" }
    }

    // MARK: Finding the quotes

    static func documents() -> [String] {
        var paths = ["README.md", "CHANGELOG.md", "Relays/PostgresRelay/README.md"]
        for folder in ["Docs", "Sources"] {
            let root = repository.appending(path: folder)
            let files =
                FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? []
            paths += files.map { String($0.path.dropFirst(repository.path.count + 1)) }
                .filter { $0.hasSuffix(".md") || $0.hasSuffix(".swift") }
        }
        return paths.sorted()
    }

    /// The lines a reader reads: a Markdown document's, or the doc comments
    /// of a Swift file (another line of code becomes an empty line).
    static func readLines(of document: String) throws -> [Substring] {
        let text = try String(contentsOf: repository.appending(path: document), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard document.hasSuffix(".swift") else { return lines }
        return lines.map { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("///") else { return "" }
            let comment = trimmed.dropFirst(3)
            return comment.first == " " ? comment.dropFirst() : comment
        }
    }

    static func quotes(in document: String) throws -> [Quote] {
        var quotes: [Quote] = []
        var fence: Substring?  // the language of the open fenced block
        var paragraph: (line: Int, text: String)?
        func endParagraph(spans: Bool) {
            guard let (line, text) = paragraph else { return }
            paragraph = nil
            guard spans else {
                quotes.append(Quote(document: document, line: line, text: text))
                return
            }
            let parts = text.split(separator: "`", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() where index % 2 == 1 && index < parts.count - 1 {
                quotes.append(Quote(document: document, line: line, text: String(part)))
            }
        }
        for (index, line) in try readLines(of: document).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                endParagraph(spans: fence == nil)
                fence = fence == nil ? trimmed.dropFirst(3) : nil
                continue
            }
            switch fence {
            case nil:
                if trimmed.isEmpty {
                    endParagraph(spans: true)
                } else {
                    paragraph = (paragraph?.line ?? index + 1, (paragraph.map { $0.text + " " } ?? "") + trimmed)
                }
            case "swift"?:
                // Whole-line comments, joined: a printed text wrapped over comment lines.
                if trimmed.hasPrefix("//") {
                    let comment = trimmed.dropFirst(2).trimmingCharacters(in: .whitespaces)
                    paragraph = (paragraph?.line ?? index + 1, (paragraph.map { $0.text + " " } ?? "") + comment)
                } else {
                    endParagraph(spans: false)
                }
            default:
                if !trimmed.isEmpty { quotes.append(Quote(document: document, line: index + 1, text: trimmed)) }
            }
        }
        endParagraph(spans: fence == nil)
        return quotes
    }

    static func allQuotes() throws -> [Quote] {
        try documents().flatMap { try quotes(in: $0) }
    }

    // MARK: What the code prints

    /// A pattern matching `text` exactly, each placeholder standing for any
    /// name of its kind.
    static func pattern(_ text: String, placeholders: [String: String]) throws -> Regex<AnyRegexOutput> {
        var pattern = ""
        for character in text {
            pattern += "\\^$.|?*+()[]{}/".contains(character) ? "\\\(character)" : "\(character)"
        }
        for (placeholder, replacement) in placeholders {
            pattern = pattern.replacing(placeholder, with: replacement)
        }
        return try Regex(pattern)
    }

    static let placeholders = [
        "PlaceholderType": #"[^ ]+?"#,
        "PlaceholderProtocol": #"[\w.]+"#,
        "PlaceholderFile": #"[\w./+-]+"#,
        "987654": #"\d+"#,
        "PlaceholderActor": #"\w+"#,
    ]

    /// Every report a debug build writes, from each kind Broadcast declares,
    /// with and without the place of the call.
    static func diagnostics() throws -> [Regex<AnyRegexOutput>] {
        let kinds: [BroadcastDiagnostic.Kind] = [
            .listenerReleasedOnRegistration, .isolatedConformanceRegisteredOffMainActor, .unsettledCallLimitReached,
        ]
        // A listener with no actor, and, for the isolated-conformance report, one of an actor.
        return try kinds.flatMap { kind in
            let actors: [String?] =
                kind == .isolatedConformanceRegisteredOffMainActor ? [nil, "PlaceholderActor"] : [nil]
            return try actors.flatMap { actor in
                try [987654, 0].map { line in
                    let diagnostic = BroadcastDiagnostic(
                        kind: kind, typeName: "PlaceholderType", protocolName: "PlaceholderProtocol",
                        fileID: line > 0 ? "PlaceholderFile" : "", line: line, registeringActor: actor)
                    return try pattern(diagnostic.description, placeholders: placeholders)
                }
            }
        }
    }

    actor PlaceholderActor {}

    /// The rules that decide where a call runs, each of which an explanation
    /// can name.
    static let rules: [DeliveryRule] = [
        .noActor, .onItsActor, .sendableCalledWhereBroadcastRuns, .boundToItsActor, .conformanceIsolatedToItsActor,
        .runtimeCannotCheckIsolation, .conformanceFoundIsolatedToTheMainActor, .mainActorSettles,
    ]

    /// Fails to compile when a rule is added and not listed in `rules`.
    static func isListed(_ rule: DeliveryRule) -> Bool {
        switch rule {
        case .noActor, .onItsActor, .sendableCalledWhereBroadcastRuns, .boundToItsActor,
            .conformanceIsolatedToItsActor, .runtimeCannotCheckIsolation, .conformanceFoundIsolatedToTheMainActor,
            .mainActorSettles:
            rules.contains { "\($0)" == "\(rule)" }
        }
    }

    /// Every description of every decision, alone and naming each rule.
    static func explanations() throws -> [Regex<AnyRegexOutput>] {
        let actor = PlaceholderActor()
        let decisions: [DeliveryExplanation] = [
            .calledHere, .scheduled(on: actor), .scheduledIfConforming(on: actor), .notRegistered,
            .registeredOnlyForOtherProtocols(["PlaceholderProtocol"]), .registrationStopped, .doesNotConform,
            .refusedAsBoxedValue,
        ]
        let explained = decisions + decisions.flatMap { decision in rules.map { decision.applying($0) } }
        var placeholders = Self.placeholders
        placeholders["PlaceholderProtocol"] = #"[\w., ]+"#
        return try explained.map { try pattern($0.description, placeholders: placeholders) }
    }

    static let explanationOpenings = [
        "called here, before the broadcast returns", "not registered with this broadcaster",
        "registered only for other protocols", "its registration for this protocol", "registered, but does not",
        "refused: a value boxed",
    ]

    static func readsAsAnExplanation(_ text: String) -> Bool {
        explanationOpenings.contains { text.hasPrefix($0) }
            || text.hasPrefix("scheduled on ") && text.contains(/^scheduled on [A-Z]\w*( if it conforms there)?[:,]/)
    }

    /// `File.swift:42: expected 2 values within 10.0 seconds; 1 arrived: ["Ada"]`:
    /// the place, the count, the timeout and what arrived (after Swift
    /// Testing's `↳ `, when the quote is of its output).
    static var waitMessage: Regex<(Substring, Substring, Substring, Substring, Substring, Substring)> {
        /^(?:↳ )?([\w.\/+-]+):(\d+): expected (\d+) values? within ([\d.]+) seconds; (.*)$/
    }

    // MARK: The checks

    @Test func everyQuotedReportIsOneADebugBuildWrites() throws {
        let reports = try Self.allQuotes().filter { $0.text.hasPrefix("Broadcast: ") }
        let printed = try Self.diagnostics()
        for quote in reports {
            #expect(
                printed.contains { quote.text.wholeMatch(of: $0) != nil },
                "\(quote) is not a report a debug build of Broadcast writes")
        }
        // The article "Diagnosing deliveries" quotes two reports, and BroadcastDiagnostic's doc comment one.
        #expect(reports.filter { $0.document.hasSuffix("Diagnostics.md") }.count >= 2, "\(reports)")
        #expect(reports.contains { $0.document.hasSuffix("BroadcastDiagnostic.swift") }, "\(reports)")
    }

    @Test func everyQuotedExplanationIsOneADeliveryExplanationDescribes() throws {
        #expect(Self.rules.allSatisfy(Self.isListed))
        let quoted = try Self.allQuotes().filter { Self.readsAsAnExplanation($0.text) }
        let described = try Self.explanations()
        for quote in quoted {
            #expect(
                described.contains { quote.text.wholeMatch(of: $0) != nil },
                "\(quote) is not a description of a DeliveryExplanation")
        }
        #expect(quoted.contains { $0.document.hasSuffix("Diagnostics.md") }, "\(quoted)")
        #expect(quoted.contains { $0.document.hasSuffix("DeliveryExplanation.swift") }, "\(quoted)")
    }

    /// A quoted wait failure: its place, the count it expected, the
    /// timeout, and the values that arrived.
    struct QuotedWait {
        let file: Substring
        let line: UInt
        let expected: Int
        let seconds: Double
        let arrived: [String]

        init?(_ text: String) throws {
            guard text.contains(" expected "), let parts = text.wholeMatch(of: QuotedTextTests.waitMessage)?.output
            else { return nil }
            file = parts.1
            line = try #require(UInt(parts.2))
            expected = try #require(Int(parts.3))
            seconds = try #require(Double(parts.4))
            if parts.5 == "none arrived" {
                arrived = []
            } else {
                let list = try #require(parts.5.firstMatch(of: /^\d+ arrived: (\[.*\])$/), "\(text)")
                arrived = try JSONDecoder().decode([String].self, from: Data(list.output.1.utf8))
            }
        }
    }

    @Test func everyQuotedWaitFailureIsTheMessageAWaitWrites() throws {
        let quoted = try Self.allQuotes().compactMap { quote in try QuotedWait(quote.text).map { (quote, $0) } }
        for (quote, wait) in quoted {
            let written = RecorderTimeout(
                expected: wait.expected, arrived: wait.arrived, timeout: .milliseconds(wait.seconds * 1000),
                at: WaitPlace(fileID: "PlaceholderFile", filePath: "PlaceholderFile", line: wait.line, column: 1)
            ).description
            #expect(
                written.replacing("PlaceholderFile", with: wait.file) == quote.text.trimmingPrefix("↳ "), "\(quote)")
        }
        #expect(quoted.contains { $0.0.document.hasSuffix("TestingWithBroadcast.md") }, "\(quoted.map(\.0))")
    }

    /// Swift Testing's line for a failed wait, quoted before the wait's
    /// message: its words for the failed expectation, as a wait for the
    /// values of that message records them.
    @Test func everyQuotedTestFailureIsWhatSwiftTestingRecordsForAFailedWait() async throws {
        let quotes = try Self.allQuotes()
        let quoted = quotes.indices.filter { quotes[$0].text.hasPrefix("✘ Test ") }
        for index in quoted {
            let quote = quotes[index]
            let words = try #require(
                quote.text.firstMatch(of: /^✘ Test .* recorded an issue at [^ ]+: (Expectation failed: .*)$/)?.output.1,
                "\(quote)")
            let message = try #require(quotes.indices.contains(index + 1) ? quotes[index + 1] : nil, "\(quote)")
            let wait = try #require(try QuotedWait(message.text), "\(quote) is not followed by the wait's message")
            let recorder = BroadcastRecorder<String>()
            for value in wait.arrived { recorder.record(value) }
            let recorded = BroadcastRecorder<String>()
            try await withKnownIssue {
                try await recorder.waitForValues(count: wait.expected, timeout: .milliseconds(1))
            } matching: { issue in
                recorded.record("\(issue.kind)")
                return true
            }
            #expect(recorded.values == [String(words)], "\(quote)")
        }
        #expect(quoted.contains { quotes[$0].document.hasSuffix("TestingWithBroadcast.md") }, "\(quoted)")
    }
}
