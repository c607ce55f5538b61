import BenchmarkKit
import Foundation

// BroadcastComparison: runs every scenario side by side, prints the tables
// (Markdown) and the project's performance targets, and writes the JSON.
//
//   swift run -c release --package-path Benchmarks BroadcastComparison --quick
//   swift run -c release --package-path Benchmarks BroadcastComparison

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
                + "| \(format(row.ratioToReference, digits: 2)) | \(format(row.allocationsPerBroadcast, digits: 2)) |")
    }
}

@MainActor
func run() async {
    let started = Date()
    let machine = machineDescription()
    print(
        "BroadcastComparison (\(options.quick ? "quick" : "full") mode) on \(machine["nproc"]!) × \(machine["cpu"] ?? "?"), "
            + "\(machine["memory_gib"]!) GiB; reference (× ref) = \(referenceName)")
    if !allocationCounting { print("warning: allocation counting is not active on this platform") }

    var all: [Row] = []
    var delivery: [Row] = []
    for n in options.nValues { delivery += deliveryScenario(n: n, options: options) }
    printTable("Deliver to N matching listeners (per delivery, × ref = ns per delivery ÷ \(referenceName)'s)", delivery)
    all += delivery

    all += userShapesSection(options: options)

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

    let targets = evaluateTargets(rows: all, memory: memory) + awaitedTargets(rows: all)
    print("\n### Targets\n")
    print("| target | measured | met |")
    print("| --- | --- | --- |")
    for target in targets { print("| \(target.target) | \(target.measured) | \(target.met ? "yes" : "**no**") |") }

    let report = Report(
        mode: options.quick ? "quick" : "full", reference: referenceName, machine: machine, rows: all,
        registrationMemory: memory, weakReferenceSideTable: sideTable, targets: targets)
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
}

func evaluateTargets(rows: [Row], memory: [RegistrationMemory]) -> [TargetResult] {
    func row(_ implementation: String, _ scenario: String, _ n: Int) -> Row? {
        rows.first { $0.implementation == implementation && $0.scenario == scenario && $0.n == n }
    }
    let b = BroadcasterImplementation.name
    var results: [TargetResult] = []
    func ratio(_ a: Double?, _ b: Double?) -> Double? {
        guard let a, let b, b > 0 else { return nil }
        return a / b
    }
    func add(_ target: String, _ value: Double?, _ describe: (Double) -> String, _ met: (Double) -> Bool) {
        guard let value else { return }
        results.append(TargetResult(target: target, measured: describe(value), met: met(value)))
    }
    let x = { (v: Double) in String(format: "%.2f×", v) }
    add(
        "per delivery at N = 1000 ≤ 1.15× \(referenceName)",
        ratio(row(b, "deliver", 1000)?.nsPerDelivery, row(referenceName, "deliver", 1000)?.nsPerDelivery), x
    ) { $0 <= 1.15 }
    add(
        "per delivery at N = 10 ≤ 1.15× \(referenceName)",
        ratio(row(b, "deliver", 10)?.nsPerDelivery, row(referenceName, "deliver", 10)?.nsPerDelivery), x
    ) { $0 <= 1.15 }
    add(
        "N = 1000: ≥ 3× faster than NotificationCenter",
        ratio(
            row(NotificationCenterBlocks.name, "deliver", 1000)?.nsPerDelivery, row(b, "deliver", 1000)?.nsPerDelivery),
        x
    ) { $0 >= 3 }
    add(
        "N = 1000: ≥ 1.4× faster than OpenCombine",
        ratio(row(OpenCombineSubject.name, "deliver", 1000)?.nsPerDelivery, row(b, "deliver", 1000)?.nsPerDelivery), x
    ) { $0 >= 1.4 }
    add(
        "N = 1 ≤ 1.5× \(referenceName)'s N = 1",
        ratio(row(b, "deliver", 1)?.nsPerBroadcast, row(referenceName, "deliver", 1)?.nsPerBroadcast), x
    ) { $0 <= 1.5 }
    add(
        "10 among 10,000 unrelated ≤ 1.5× 10 among 10",
        ratio(row(b, "10-among-unrelated", 10000)?.nsPerBroadcast, row(b, "10-among-unrelated", 10)?.nsPerBroadcast), x
    ) { $0 <= 1.5 }
    add(
        "removing 10,000 in random order ≤ 10× adding them",
        ratio(row(b, "remove-random", 10000)?.nsPerBroadcast, row(b, "add", 10000)?.nsPerBroadcast), x
    ) { $0 <= 10 }
    add(
        "0 allocations per steady-state broadcast (N = 1 and 1000, same thread)",
        [row(b, "deliver", 1)?.allocationsPerBroadcast, row(b, "deliver", 1000)?.allocationsPerBroadcast]
            .compactMap { $0 }.max(),
        { String(format: "%.2f", $0) }
    ) { $0 == 0 }
    addUserShapeTargets(rows: rows, add: add)
    add(
        "≤ 100 bytes allocated by the broadcaster per registration (retained)",
        memory.first { $0.implementation == b }?.retainedBytesPerRegistration,
        { String(format: "%.0f B", $0) }
    ) { $0 <= 100 }
    return results
}

await run()
