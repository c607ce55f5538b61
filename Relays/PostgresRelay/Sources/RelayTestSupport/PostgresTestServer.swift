import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// A throwaway PostgreSQL server on loopback: its own data directory in a
/// temporary folder (a copy of one `initdb` made once per process), a free
/// port, trust authentication; stopped and deleted by ``stop()``.
///
/// PostgreSQL refuses to run as root, so as root (as CI runs) the commands
/// run as the `postgres` system user, through `runuser`.
public final class PostgresTestServer: Sendable {
    /// The server's port on 127.0.0.1.
    public let port: Int
    /// The folder holding the data directory, the socket and the logs.
    public let directory: URL
    private let binaries: URL
    /// The server process, while it runs.
    private let running = NIOLockedValueBox<ChildProcess?>(nil)

    private init(port: Int, directory: URL, binaries: URL) {
        self.port = port
        self.directory = directory
        self.binaries = binaries
    }

    /// Why no server can be started here, or `nil` if one can.
    public static let unavailableReason: String? = {
        guard let binaries = binaryDirectory else {
            return "PostgreSQL's initdb and pg_ctl were not found (set POSTGRES_BIN to the folder holding them)"
        }
        if isRoot && runuser == nil {
            return "running as root, and runuser, needed to start PostgreSQL as the postgres user, was not found"
        }
        _ = binaries
        return nil
    }()

    /// Whether a server can be started here.
    public static var isAvailable: Bool { unavailableReason == nil }

    /// The configuration of a connection to the server's `postgres` database.
    public var connection: PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: port, username: "postgres", password: nil, database: "postgres", tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// Makes a data directory and starts a server on a free port.
    public static func start() async throws -> PostgresTestServer {
        guard let binaries = binaryDirectory else { throw Failure(unavailableReason ?? "PostgreSQL is unavailable") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("broadcast-relay-pg-\(UInt32.random(in: .min ... .max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if isRoot {
            try FileManager.default.setAttributes(
                [.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres"], ofItemAtPath: directory.path)
        }
        do {
            let copy = try launch(
                URL(fileURLWithPath: "/bin/cp"),
                ["-a", try await template.value.path, directory.appendingPathComponent("data").path],
                log: directory.appendingPathComponent("copy.log"))
            try await copy.succeed(within: .seconds(60))
            // A port taken meanwhile by another program fails the start: try
            // another.
            var lastError: (any Error)?
            for _ in 0..<5 {
                let server = PostgresTestServer(
                    port: Int.random(in: 20_000...60_000), directory: directory, binaries: binaries)
                do {
                    try await server.startAgain()
                    return server
                } catch {
                    lastError = error
                }
            }
            throw lastError ?? Failure("the server did not start")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// The data directory that `initdb` made once in this process, which
    /// each server copies; made by the first server to start (a static
    /// constant is initialized once, whichever threads ask).
    ///
    /// `initdb` takes seconds of processor time; the tests start some thirty
    /// servers at once, and on a loaded 2-core machine their `initdb`s went
    /// over the tests' time limits. A copy takes a fraction of one.
    private static let template = Task<URL, any Error> {
        guard let binaries = binaryDirectory else { throw Failure(unavailableReason ?? "PostgreSQL is unavailable") }
        return try await makeTemplate(binaries: binaries)
    }

    /// The folder of ``template``, deleted when the process
    /// exits.
    private static let templateDirectory = NIOLockedValueBox<URL?>(nil)

    private static func makeTemplate(binaries: URL) async throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("broadcast-relay-pg-template-\(UInt32.random(in: .min ... .max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        templateDirectory.withLockedValue { $0 = directory }
        atexit {
            if let directory = PostgresTestServer.templateDirectory.withLockedValue({ $0 }) {
                try? FileManager.default.removeItem(at: directory)
            }
        }
        if isRoot {
            try FileManager.default.setAttributes(
                [.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres"], ofItemAtPath: directory.path)
        }
        let data = directory.appendingPathComponent("data")
        let initdb = try launch(
            binaries.appendingPathComponent("initdb"),
            ["-D", data.path, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-locale", "--no-sync"],
            log: directory.appendingPathComponent("initdb.log"))
        try await initdb.succeed(within: .seconds(60))
        return data
    }

    /// Starts the stopped server again, on the same port, and waits until it
    /// accepts connections.
    ///
    /// The server runs in the foreground, as a child of this process:
    /// `pg_ctl start` would leave a daemon holding the descriptor through
    /// which Foundation's `Process` learns that a child has exited, so that
    /// `pg_ctl` would never be seen to exit.
    public func startAgain() async throws {
        let server = try Self.launch(
            binaries.appendingPathComponent("postgres"),
            [
                "-D", dataDirectory, "-p", "\(port)", "-k", directory.path, "-c", "listen_addresses=127.0.0.1",
                "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off",
            ],
            log: directory.appendingPathComponent("server.log"))
        running.withLockedValue { $0 = server }
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            if let status = server.status {
                throw Failure("postgres exited with \(status): \(server.output)")
            }
            if let connection = try? await connect() {
                try await connection.close()
                return
            }
            guard ContinuousClock.now < deadline else {
                throw Failure("postgres did not accept connections within 30 seconds: \(server.output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops the server (`pg_ctl stop -m fast`: connections are closed at
    /// once), keeping its data directory, to start it again.
    public func stopKeepingData() async throws {
        guard let server = running.withLockedValue({ $0.take() }) else { return }
        let stop = try Self.launch(
            binaries.appendingPathComponent("pg_ctl"), ["-D", dataDirectory, "-m", "fast", "-w", "stop"],
            log: directory.appendingPathComponent("pg_ctl.log"))
        try await stop.succeed(within: .seconds(60))
        _ = try await server.exit(within: .seconds(60))
    }

    /// How `pg_ctl` stops a server.
    public enum ShutdownMode: String, Sendable, CaseIterable {
        /// Ends every session at once, each told "terminating connection due
        /// to administrator command", then shuts down cleanly.
        case fast
        /// Kills the server's processes without a word to their clients; the
        /// next start recovers from the write-ahead log, as after a crash.
        case immediate
    }

    /// Restarts the server as `pg_ctl restart -m <mode>` does (stop, then
    /// start on the same port and data directory), and waits until it
    /// accepts connections again.
    public func restart(_ mode: ShutdownMode) async throws {
        guard let server = running.withLockedValue({ $0.take() }) else { throw Failure("the server is not running") }
        let stop = try Self.launch(
            binaries.appendingPathComponent("pg_ctl"), ["-D", dataDirectory, "-m", mode.rawValue, "-w", "stop"],
            log: directory.appendingPathComponent("pg_ctl.log"))
        try await stop.succeed(within: .seconds(60))
        _ = try await server.exit(within: .seconds(60))
        try await startAgain()
    }

    /// Stops every process of the server (`SIGSTOP`): the postmaster and
    /// every session's backend, as on a hung host, with every connection
    /// left open and silent; ``thaw()`` continues them.
    ///
    /// As root, `runuser`, which started the postmaster, stops itself when
    /// its child stops (as `su` does); this returns once it has, so that
    /// ``thaw()`` finds it stopped and continues it, and it does not stop
    /// later, unable to see the postmaster exit.
    public func freeze() async throws {
        let postmaster = try postmasterProcess()
        for pid in [postmaster] + Self.children(of: postmaster) { kill(pid, SIGSTOP) }
        guard Self.isRoot, let starter = Self.parent(of: postmaster) else { return }
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.state(of: starter) != "T" {
            guard ContinuousClock.now < deadline else { throw Failure("runuser did not stop with its child") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Continues the processes ``freeze()`` stopped.
    public func thaw() throws {
        let postmaster = try postmasterProcess()
        if Self.isRoot, let starter = Self.parent(of: postmaster) { kill(starter, SIGCONT) }
        for pid in [postmaster] + Self.children(of: postmaster) { kill(pid, SIGCONT) }
    }

    /// The postmaster's process id, from its `postmaster.pid`.
    private func postmasterProcess() throws -> Int32 {
        let pidFile = directory.appendingPathComponent("data/postmaster.pid")
        guard let firstLine = try String(contentsOf: pidFile, encoding: .utf8).split(separator: "\n").first,
            let postmaster = Int32(firstLine)
        else { throw Failure("postmaster.pid names no process") }
        return postmaster
    }

    /// The processes whose parent is `pid`.
    private static func children(of pid: Int32) -> [Int32] {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.compactMap { Int32($0) }.filter { parent(of: $0) == pid }
    }

    /// The state letter of process `pid` (`T` when stopped), from
    /// `/proc/PID/stat`.
    private static func state(of pid: Int32) -> Substring? {
        statFields(of: pid)?.first
    }

    /// The parent of process `pid`, from `/proc/PID/stat`.
    private static func parent(of pid: Int32) -> Int32? {
        guard let fields = statFields(of: pid), fields.count > 1 else { return nil }
        return Int32(fields[1])
    }

    /// The fields of `/proc/PID/stat` after the process name.
    ///
    /// The first is its state, the second its parent, and so on.
    private static func statFields(of pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.range(of: ") ", options: .backwards)
        else { return nil }
        return stat[afterName.upperBound...].split(separator: " ")
    }

    /// Stops the server and deletes its folder.
    public func stop() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try await stopKeepingData()
    }

    /// Opens a connection to the server, for tests that write `NOTIFY`s by
    /// hand or count the relay's sessions.
    public func connect(logger: Logger = Logger(label: "PostgresTestServer")) async throws -> PostgresConnection {
        try await PostgresConnection.connect(configuration: connection, id: 0, logger: logger)
    }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }

    /// A command that failed, with what it printed.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with what the command printed.
        public let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: - Processes

    private static let isRoot = geteuid() == 0

    private static let runuser: URL? = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
        .map { URL(fileURLWithPath: $0) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// `POSTGRES_BIN`, or the newest `/usr/lib/postgresql/*/bin`, or the
    /// folder of `initdb` on the `PATH`.
    private static let binaryDirectory: URL? = {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let configured = environment["POSTGRES_BIN"] { candidates.append(URL(fileURLWithPath: configured)) }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            candidates.append(URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin"))
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(folder)))
        }
        return candidates.first { folder in
            ["initdb", "pg_ctl"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent($0).path)
            }
        }
    }()

    /// Starts `executable` (as the postgres user, as root), writing what it
    /// prints to `log`.
    private static func launch(_ executable: URL, _ arguments: [String], log: URL) throws -> ChildProcess {
        let process = Process()
        if isRoot, let runuser {
            process.executableURL = runuser
            process.arguments = ["-u", "postgres", "--", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        return try ChildProcess(process, log: log)
    }
}
