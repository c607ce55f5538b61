import BenchmarkKit
import Foundation

// The guard rails: the limits a broadcast must stay within, each a ratio of
// two measurements made in the same run (or a count), so that the load of
// the machine cancels out as far as it can. Docs/Benchmarks.md, "Guard
// rails", gives the reasons for each limit.

/// One guard rail, or a ratio printed beside them for information.
///
/// An information row has no `limit` and no `passed`. The JSON keys are stable; `id` names the rail across
/// runs (`--baseline`).
struct GuardRail: Codable {
    var id: String
    var rule: String
    var measured: Double?
    var unit: String
    var limit: Double?
    var passed: Bool?
}

/// The guard rails, evaluated on one run's measurements.
func evaluateGuardRails(rows: [Row], memory: [RegistrationMemory]) -> [GuardRail] {
    func row(_ implementation: String, _ scenario: String, _ n: Int) -> Row? {
        rows.first { $0.implementation == implementation && $0.scenario == scenario && $0.n == n }
    }
    func shape(_ name: String, _ n: Int) -> Row? { row(name, userShapesScenarioName, n) }
    func ratio(_ a: Double?, _ b: Double?) -> Double? {
        guard let a, let b, b > 0 else { return nil }
        return a / b
    }
    /// The fastest peer at `n`, by the value `key` reads.
    func fastestPeer(_ n: Int, _ key: (Row) -> Double?) -> (name: String, value: Double)? {
        valuePeerNames.compactMap { name in shape(name, n).flatMap(key).map { (name, $0) } }
            .min { $0.1 < $1.1 }
    }
    var rails: [GuardRail] = []
    func add(_ id: String, _ rule: String, _ measured: Double?, unit: String = "×", limit: Double?) {
        rails.append(
            GuardRail(
                id: id, rule: rule, measured: measured, unit: unit, limit: limit,
                passed: limit.map { limit in measured.map { $0 <= limit } ?? false }))
    }

    let with = "Broadcaster, struct payload, with:"
    let withMainActor = "Broadcaster, struct payload, with:, main actor"
    let perDelivery = shape(with, 1000)?.nsPerDelivery
    add(
        "delivery-vs-cast-floor",
        "per delivery, N = 1,000, `with:` ÷ \(WeakCastValueShape.name), the cast floor",
        ratio(perDelivery, shape(WeakCastValueShape.name, 1000)?.nsPerDelivery), limit: 1.25)
    let peer1000 = fastestPeer(1000) { $0.nsPerDelivery }
    add(
        "delivery-vs-fastest-peer",
        "per delivery, N = 1,000, `with:` ÷ the fastest peer (\(peer1000?.name ?? "none measured"))",
        ratio(perDelivery, peer1000?.value), limit: 0.65)
    add(
        "delivery-vs-generic-cast-floor",
        "per delivery, N = 1,000, `with:` ÷ \(WeakGenericCastValueShape.name), the isolation-checking cast floor",
        ratio(perDelivery, shape(WeakGenericCastValueShape.name, 1000)?.nsPerDelivery), limit: nil)
    add(
        "one-listener-vs-generic-cast-floor",
        "one broadcast to 1 listener, `with:` ÷ \(WeakGenericCastValueShape.name), the isolation-checking cast floor",
        ratio(shape(with, 1)?.nsPerBroadcast, shape(WeakGenericCastValueShape.name, 1)?.nsPerBroadcast), limit: nil)
    add(
        "delivery-vs-typed-floor",
        "per delivery, N = 1,000, `with:` ÷ \(WeakTypedValueShape.name), the typed floor",
        ratio(perDelivery, shape(WeakTypedValueShape.name, 1000)?.nsPerDelivery), limit: nil)
    let peer1 = fastestPeer(1) { $0.nsPerBroadcast }
    add(
        "one-listener-vs-fastest-peer",
        "one broadcast to 1 listener, `with:` ÷ the fastest peer (\(peer1?.name ?? "none measured"))",
        ratio(shape(with, 1)?.nsPerBroadcast, peer1?.value), limit: 0.9)
    let zeroShapes = MainActor.assumeIsolated { zeroAllocationShapes }
    add(
        "allocations-with",
        "allocations per broadcast, every `with:` shape called at once, N = 1 and 1,000 (fails every run)",
        rows.filter {
            $0.scenario == userShapesScenarioName && $0.implementation.hasPrefix("Broadcaster")
                && zeroShapes.contains($0.implementation)
        }
        .compactMap(\.allocationsPerBroadcast).max(), unit: "", limit: 0)
    add(
        "main-actor-vs-nonisolated",
        "main-actor ÷ non-isolated listeners, per delivery at N = 1,000, `with:`",
        ratio(shape(withMainActor, 1000)?.nsPerDelivery, perDelivery), limit: 1.05)
    let b = BroadcasterImplementation.name
    add(
        "unrelated-10000-vs-10",
        "10 listeners among 10,000 non-conforming objects ÷ 10 among 10",
        ratio(
            row(b, "10-among-unrelated", 10000)?.nsPerBroadcast, row(b, "10-among-unrelated", 10)?.nsPerBroadcast),
        limit: 1.5)
    // The typed floor never looks at the non-conforming objects, so its
    // ratio is what the memory layout alone costs (the matching entries are
    // spread among the others' allocations): read the rail beside it.
    add(
        "unrelated-10000-vs-10-typed-floor",
        "the same for \(referenceName), which never looks at the non-conforming objects",
        ratio(
            row(referenceName, "10-among-unrelated", 10000)?.nsPerBroadcast,
            row(referenceName, "10-among-unrelated", 10)?.nsPerBroadcast),
        limit: nil)
    add(
        "remove-vs-add",
        "remove ÷ add, N = 10,000 (removed in random order)",
        ratio(row(b, "remove-random", 10000)?.nsPerBroadcast, row(b, "add", 10000)?.nsPerBroadcast), limit: 10)
    add(
        "bytes-per-registration",
        "bytes kept per registration (see the memory table)",
        memory.first { $0.implementation == b }?.retainedBytesPerRegistration, unit: " B", limit: 100)
    return rails
}

/// The rails whose failure fails a quick run: only those that do not depend
/// on the machine's load.
let railsFailingQuickRuns: Set<String> = ["allocations-with"]

/// Prints the rails as a table, with the values of an earlier run beside
/// them if one is given.
func printGuardRails(_ rails: [GuardRail], quick: Bool, baseline: [GuardRail]?) {
    func value(_ value: Double?, _ unit: String) -> String {
        guard let value else { return "–" }
        switch unit {
        case "×": return String(format: "%.2f×", value)
        case "": return String(format: "%.2f", value)
        default: return String(format: "%.0f", value) + unit
        }
    }
    print("\n### Guard rails\n")
    if quick {
        print("Quick mode: few, short samples; only the allocation rail fails the run.\n")
    }
    let before = baseline.map { rails in Dictionary(rails.map { ($0.id, $0) }) { first, _ in first } }
    print("| guard rail | measured |\(before == nil ? "" : " before |") limit | result |")
    print("| --- | ---: |\(before == nil ? "" : " ---: |") ---: | --- |")
    for rail in rails {
        let limit = rail.limit.map { "≤ " + value($0, rail.unit) } ?? "–"
        let result: String
        switch rail.passed {
        case nil: result = "info"
        case true?: result = "pass"
        case false?: result = "**FAIL**"
        }
        let earlier = before.map { " \(value($0[rail.id]?.measured, rail.unit)) |" } ?? ""
        print("| \(rail.rule) | \(value(rail.measured, rail.unit)) |\(earlier) \(limit) | \(result) |")
    }
}

/// The rails of an earlier run's JSON (`--baseline PATH`), or nil with a
/// warning if it has none.
func loadBaseline(_ path: String) -> [GuardRail]? {
    struct Earlier: Decodable {
        var guardRails: [GuardRail]
        enum CodingKeys: String, CodingKey { case guardRails = "guard_rails" }
    }
    do {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(Earlier.self, from: data).guardRails
    } catch {
        print("warning: no guard rails read from \(path) (\(error)); printing this run's only")
        return nil
    }
}

/// Exits with status 1 if a rail failed.
///
/// In a full run any rail fails the run, in a quick run only those that do
/// not depend on the load. Called after the
/// JSON is written.
func checkGuardRails(_ rails: [GuardRail], quick: Bool) {
    let failed = rails.filter { $0.passed == false && (!quick || railsFailingQuickRuns.contains($0.id)) }
    guard !failed.isEmpty else { return }
    for rail in failed { print("error: guard rail not met: \(rail.rule)") }
    exit(1)
}
