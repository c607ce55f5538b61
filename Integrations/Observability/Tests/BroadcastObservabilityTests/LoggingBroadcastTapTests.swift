import Broadcast
import BroadcastLogging
import InMemoryLogging
import Logging
import Testing

@Suite("LoggingBroadcastTap: a line per broadcast and post")
struct LoggingBroadcastTapTests {
    /// A logger whose lines `handler` keeps, at every level.
    private func logger(into handler: InMemoryLogHandler, metadataProvider: Logger.MetadataProvider? = nil) -> Logger {
        Logger(label: "test") { _, _ in
            var handler = handler
            handler.logLevel = .trace
            handler.metadataProvider = metadataProvider
            return handler
        }
    }

    @Test("A broadcast is one line at the tap's level, whose metadata is what the broadcaster observed")
    func broadcastLine() throws {
        let handler = InMemoryLogHandler()
        let recorder = RecordingTap()
        let broadcaster = Broadcaster(
            tap: Taps(recorder, LoggingBroadcastTap(logger: logger(into: handler), level: .notice)))
        let spy = SessionSpy()
        broadcaster.addListener(spy)

        broadcaster.sessionStarted(id: 1, sticky: true)

        let observation = try #require(recorder.observations.only)
        #expect(observation.kind == .broadcast)
        #expect(observation.subjectName.contains("SessionListener"))
        let entry = try #require(handler.entries.only)
        #expect(entry.level == .notice)
        #expect(entry.message.description == observation.kind.description)
        #expect(
            entry.metadata.mapValues(\.description) == [
                "broadcast.kind": observation.kind.description,
                "broadcast.subject": observation.subjectName,
                "broadcast.called": "1",
                "broadcast.scheduled": "0",
                "broadcast.duration": observation.duration.description,
                "broadcast.main_thread": "\(observation.ranOnMainThread)",
                "broadcast.sticky": "true",
            ])
    }

    @Test("A post is a line of its own kind, naming the event type")
    func postLine() throws {
        let handler = InMemoryLogHandler()
        let broadcaster = Broadcaster(tap: LoggingBroadcastTap(logger: logger(into: handler)))
        let token = broadcaster.addHandler(for: SessionEnded.self) { _ in }

        broadcaster.post(SessionEnded(id: 1))
        withExtendedLifetime(token) {}

        let entry = try #require(handler.entries.only)
        #expect(entry.level == .debug)
        #expect(entry.message.description == BroadcastObservation.Kind.post.description)
        #expect(entry.metadata["broadcast.kind"]?.description == BroadcastObservation.Kind.post.description)
        #expect(entry.metadata["broadcast.subject"]?.description.contains("SessionEnded") == true)
        #expect(entry.metadata["broadcast.called"]?.description == "1")
        #expect(entry.metadata["broadcast.sticky"]?.description == "false")
    }

    @Test("A line below the logger's level is not written")
    func belowLevel() throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .info
        let logger = Logger(label: "test") { _ in handler }
        let broadcaster = Broadcaster(
            tap: Taps(LoggingBroadcastTap(logger: logger), LoggingBroadcastTap(logger: logger, level: .info)))

        broadcaster.sessionStarted(id: 1)

        let entry = try #require(handler.entries.only)
        #expect(entry.level == .info)
    }

    @Test("The line is written in the task that broadcast: the logger's metadata provider sees its task locals")
    func callersTaskLocals() throws {
        let handler = InMemoryLogHandler()
        let provider = Logger.MetadataProvider { RequestID.current.map { ["request.id": .string($0)] } ?? [:] }
        let broadcaster = Broadcaster(
            tap: LoggingBroadcastTap(logger: logger(into: handler, metadataProvider: provider)))

        RequestID.$current.withValue("request-7") {
            broadcaster.sessionStarted(id: 1)
        }

        let entry = try #require(handler.entries.only)
        #expect(entry.metadata["request.id"] == "request-7")
    }
}

/// A request's identifier, as a server keeps it in a task local.
private enum RequestID {
    @TaskLocal static var current: String?
}

extension Array {
    /// The only element, or nil if there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
