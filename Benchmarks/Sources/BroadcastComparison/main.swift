import BenchmarkKit
import Foundation

// BroadcastComparison: runs every scenario side by side, prints the tables
// (Markdown) and the guard rails (GuardRails.swift), and writes the JSON.
// A full run exits with status 1 if a guard rail is not met; a quick run only
// if a broadcast documented to allocate nothing allocated.
//
//   swift run -c release --package-path Benchmarks BroadcastComparison --quick
//   swift run -c release --package-path Benchmarks BroadcastComparison
//   swift run -c release --package-path Benchmarks BroadcastComparison --baseline EARLIER.json

let packageDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
var options = Options(arguments: CommandLine.arguments)
if !CommandLine.arguments.contains("--json") {
    options.jsonPath =
        packageDirectory.appendingPathComponent(
            options.quick ? "results/quick.tmp.json" : "results/full.json"
        ).path
}

func machineDescription() -> [String: String] {
    var machine: [String: String] = [:]
    machine["nproc"] = String(ProcessInfo.processInfo.activeProcessorCount)
    machine["memory_gib"] = String(format: "%.1f", Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824)
    if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let colon = line.firstIndex(of: ":")
    {
        machine["cpu"] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    machine["os"] = ProcessInfo.processInfo.operatingSystemVersionString
    #if compiler(>=6.4)
        machine["swift"] = ">= 6.4"
    #elseif compiler(>=6.3)
        machine["swift"] = "6.3"
    #else
        machine["swift"] = "< 6.3"
    #endif
    machine["date"] = ISO8601DateFormatter().string(from: Date())
    return machine
}

/// The 1, 5 and 15 minute load averages ("0.12 0.30 0.25"), where the
/// system reports them.
func loadAverage() -> String? {
    guard let line = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
    return line.split(separator: " ").prefix(3).joined(separator: " ")
}

/// How the bytes per registration are measured, printed under the rails.
func printRegistrationMemoryMethod() {
    print(
        """

        Bytes per registration: `Broadcaster`'s row of the memory table: 1,000 fresh listeners (class payload, \
        one protocol) whose weak-reference side tables were formed before counting; counted from before the first \
        `addListener` to after one broadcast (which builds the protocol's index), on all threads; usable bytes of \
        the blocks allocated (malloc_usable_size) minus those of the blocks freed, ÷ 1,000.
        """)
}

func format(_ value: Double?, digits: Int = 1) -> String {
    guard let value else { return "–" }
    if value >= 1000 { return String(format: "%.0f", value) }
    return String(format: "%.\(digits)f", value)
}

func printTable(_ title: String, _ rows: [Row], perOperation: Bool = false) {
    print("\n### \(title)\n")
    if perOperation {
        print("| operation | implementation | N | ns per operation | × \(referenceName) |")
        print("| --- | --- | ---: | ---: | ---: |")
        for row in rows {
            print(
                "| \(row.scenario) | \(row.implementation) | \(row.n) | \(format(row.nsPerBroadcast)) | \(format(row.ratioToReference, digits: 2)) |"
            )
        }
        return
    }
    print("| implementation | N | ns per broadcast | ns per delivery | × ref | allocations per broadcast |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in rows {
        print(
            "| \(row.implementation) | \(row.n) | \(format(row.nsPerBroadcast)) | \(format(row.nsPerDelivery, digits: 2)) "
                + "| \(format(row.ratioToReference, digits: 2)) | \(format(row.allocationsPerBroadcast, digits: 2)) |"
        )
    }
}

@MainActor
func run() async {
    let started = Date()
    var machine = machineDescription()
    machine["load_average_start"] = loadAverage()
    print(
        "BroadcastComparison (\(options.quick ? "quick" : "full") mode) on \(machine["nproc"]!) × \(machine["cpu"] ?? "?"), "
            + "\(machine["memory_gib"]!) GiB; reference (× ref) = \(referenceName)")
    print("Load average (1 / 5 / 15 min) at the start: \(machine["load_average_start"] ?? "unknown")")
    if let oneMinute = machine["load_average_start"]?.split(separator: " ").first.flatMap({ Double($0) }),
        oneMinute > 2
    {
        print(
            "warning: the load average is above 2 on \(machine["nproc"]!) cores: other work is running, timings are noisy"
        )
    }
    if !allocationCounting { print("warning: allocation counting is not active on this platform") }

    if options.eventsOnly {
        checkAllocations(eventSection(options: options))
        return
    }
    var all: [Row] = []
    var delivery: [Row] = []
    for n in options.nValues { delivery += deliveryScenario(n: n, options: options) }
    printTable("Deliver to N matching listeners (per delivery, × ref = ns per delivery ÷ \(referenceName)'s)", delivery)
    all += delivery

    all += userShapesSection(options: options)

    all += eventSection(options: options)  // EventScenario.swift

    var filter: [Row] = []
    for unrelated in options.unrelatedCounts { filter += filterScenario(unrelated: unrelated, options: options) }
    printTable("10 matching listeners among N of another protocol", filter)
    all += filter

    let addRemove = addRemoveScenario(options: options)
    printTable("Add 10,000 listeners, then remove them in random order", addRemove, perOperation: true)
    all += addRemove

    let concurrent = concurrentScenario(options: options)
    printTable(
        "2 threads broadcasting to 100 listeners while 1 thread adds and removes (wall time per broadcast per thread)",
        concurrent)
    all += concurrent

    let hop = await hopScenario(options: options)
    printTable(
        "Background broadcast to 10 main-actor listeners, until delivered (× ref = vs \(hop.first!.implementation))",
        hop)
    all += hop

    let isolatedHop = await isolatedConformanceHopScenario(options: options)  // IsolatedConformanceHopScenario.swift
    printTable(
        "Background broadcast to 10 screens whose conformance is isolated to the main actor, until delivered "
            + "(× ref = vs calledOn: MainActor.shared)",
        isolatedHop)
    all += isolatedHop

    let awaited = await awaitedScenario(options: options)  // AwaitedScenario.swift
    printAwaitedTables(awaited)
    all += awaited

    let memory = registrationMemory()
    print(
        "\n### Memory per registration (N = 1000, listeners' side tables formed beforehand; includes the first broadcast)\n"
    )
    print("| implementation | retained bytes | allocated bytes | allocations |")
    print("| --- | ---: | ---: | ---: |")
    for entry in memory {
        print(
            "| \(entry.implementation) | \(format(entry.retainedBytesPerRegistration)) "
                + "| \(format(entry.allocatedBytesPerRegistration)) | \(format(entry.allocationsPerRegistration, digits: 2)) |"
        )
    }

    let sideTable = sideTableCost(options: options)
    print("\n### The weak reference's side table\n")
    print("| measure | plain object | object with a side table |")
    print("| --- | ---: | ---: |")
    print("| bytes | 0 | \(format(sideTable.sideTableBytesPerObject)) |")
    print(
        "| ns per retain + release | \(format(sideTable.nsPerRetainReleasePlain, digits: 2)) | \(format(sideTable.nsPerRetainReleaseSideTable, digits: 2)) |"
    )
    print(
        "| strong-array ns per delivery (N = 1000) | \(format(sideTable.strongArrayNsPerDeliveryPlain, digits: 2)) | \(format(sideTable.strongArrayNsPerDeliverySideTable, digits: 2)) |"
    )
    print(
        "\nOne load through a weak reference and the release of what it loaded: "
            + "\(format(sideTable.nsPerWeakLoad, digits: 2)) ns; through a strong reference: "
            + "\(format(sideTable.nsPerStrongLoad, digits: 2)) ns (1,024 objects, the fastest of the rounds).")

    let pendingMemory = await pendingDeliveryScenario(options: options)  // PendingDeliveryScenario.swift

    let rails = evaluateGuardRails(rows: all, memory: memory)  // GuardRails.swift
    printGuardRails(rails, quick: options.quick, baseline: options.baselinePath.flatMap(loadBaseline))
    printRegistrationMemoryMethod()
    printPendingDeliveryMemory(pendingMemory)

    machine["load_average_end"] = loadAverage()
    print(
        "\nLoad average (1 / 5 / 15 min): \(machine["load_average_start"] ?? "?") when the run started, "
            + "\(machine["load_average_end"] ?? "?") when it ended.")

    let report = Report(
        mode: options.quick ? "quick" : "full", reference: referenceName, machine: machine, rows: all,
        registrationMemory: memory, weakReferenceSideTable: sideTable,
        pendingDeliveryMemory: pendingMemory, guardRails: rails)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
        let url = URL(fileURLWithPath: options.jsonPath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(report).write(to: url)
        print(
            "\nWrote \(url.path) (\(all.count) rows) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    } catch {
        print("error: could not write \(options.jsonPath): \(error)")
        exit(1)
    }
    checkAllocations(all)
    checkGuardRails(rails, quick: options.quick)
}

await run()
