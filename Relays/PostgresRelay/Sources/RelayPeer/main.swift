// One instance of an app, in a process of its own, for the two-process
// test: it relays chat messages over the server on 127.0.0.1:PORT, and is
// driven through standard input and output, one line at a time.
//
// Usage: RelayPeer NAME PORT
//
// Reads:  "post N"   posts ChatMessage(number: N, text: "NAME N")
//         "counts"   prints the relay's counts
//         "quit"     (or the end of input) cancels the relay and exits
// Prints: "listening", "received N TEXT" for every message its listeners
//         receive (its own posts included), "counts sent=… received=…
//         ignoredEchoes=…", "stopped STATUS".

import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import RelayTestSupport

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("Usage: RelayPeer NAME PORT\n".utf8))
    exit(2)
}
let name = arguments[1]

var logger = Logger(label: "relay-peer.\(name)") { StreamLogHandler.standardError(label: $0) }
logger.logLevel = .warning
let broadcaster = Broadcaster()
let relay = try PostgresRelay(
    broadcaster: broadcaster,
    configuration: .init(
        connection: .init(
            host: "127.0.0.1", port: port, username: "postgres", password: nil, database: "postgres", tls: .disable)),
    relaying: [.events(of: ChatMessage.self, channel: "peer.chat")],
    logger: logger)
let output = PeerOutput()
let received = broadcaster.addRelayHandler(for: ChatMessage.self) { message in
    output.say("received \(message.number) \(message.text)")
}
let reports = relay.reports()
Task {
    for await report in reports where report.kind == .listening {
        output.say("listening")
    }
}
let running = Task { try await relay.run() }

for await line in PeerOutput.standardInputLines() {
    let words = line.split(separator: " ")
    switch words.first {
    case "post":
        guard words.count == 2, let number = Int(words[1]) else { continue }
        broadcaster.post(ChatMessage(number: number, text: "\(name) \(number)"))
    case "counts":
        let counts = relay.counts
        output.say("counts sent=\(counts.sent) received=\(counts.received) ignoredEchoes=\(counts.ignoredEchoes)")
    case "quit":
        break
    default:
        continue
    }
    if words.first == "quit" { break }
}
running.cancel()
try await running.value
output.say("stopped \(relay.status)")
withExtendedLifetime(received) {}
