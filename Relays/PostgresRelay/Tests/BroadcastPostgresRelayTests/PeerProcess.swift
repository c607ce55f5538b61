import Foundation

/// A `RelayPeer` process: one instance of an app in a process of its own,
/// driven through its standard input, its output lines collected.
final class PeerProcess: Sendable {
    let name: String
    /// Every line it printed, in order.
    let lines = Collected<String>()
    /// Its exit status, once it exited.
    let exit = Collected<Int32>()
    private let process: Process
    private let input: FileHandle

    /// The peer executable, built beside the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("RelayPeer")
    }

    /// Starts `RelayPeer NAME PORT`.
    init(_ name: String, port: Int) throws {
        self.name = name
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = [name, "\(port)"]
        let standardInput = Pipe()
        let standardOutput = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        let lines = lines
        let pending = Pending()
        standardOutput.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            for line in pending.lines(appending: data) { lines.append(line) }
        }
        let exit = exit
        process.terminationHandler = { exit.append($0.terminationStatus) }
        try process.run()
        self.process = process
        self.input = standardInput.fileHandleForWriting
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Kills it with `SIGKILL`: it ends at once, without a word to anyone.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Writes `line` to its standard input.
    func send(_ line: String) throws {
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The numbers of the messages it received, in order.
    var received: [Int] {
        lines.all.compactMap { line in
            line.hasPrefix("received ") ? Int(line.split(separator: " ")[1]) : nil
        }
    }

    /// Output not yet ended by a newline.
    private final class Pending: @unchecked Sendable {
        // @unchecked Sendable: `buffer` is only used while `lock` is held.
        private let lock = NSLock()
        private var buffer = Data()

        func lines(appending data: Data) -> [String] {
            lock.withLock {
                buffer.append(data)
                var lines: [String] = []
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                return lines
            }
        }
    }
}
