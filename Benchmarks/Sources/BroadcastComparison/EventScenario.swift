import BenchmarkKit
import Foundation

// The event API (BenchmarkKit/EventShapes.swift) beside protocol broadcasts
// and the peers, in the README's shape: `post` to closure handlers in every
// registration form and to `EventListener` objects, at 1 to 1,000
// recipients; sticky posts with what builds on them; `events(of:)` beside a
// hand-written stream.

let eventScenarioName = "deliver-events"
let stickyEventScenarioName = "sticky-events"
let eventStreamScenarioName = "event-streams"

extension Options {
    var eventNValues: [Int] { quick ? [1, 1000] : [1, 10, 100, 1000] }
}

/// The contestants of one N: the typed floor first (`× ref`).
@MainActor
func eventShapes(listenerCount n: Int) -> [any UserShape] {
    [WeakTypedValueShape(listenerCount: n), ValueShape(listenerCount: n, form: .with)]
        + HandlerForm.allCases.map { PostHandlerShape(listenerCount: n, form: $0) }
        + [
            PostEventListenerShape(listenerCount: n),
            MainActorMessageValueShape(listenerCount: n), AsyncMessageValueShape(listenerCount: n),
            OpenCombineValueShape(listenerCount: n), NotificationCenterValueShape(listenerCount: n),
        ]
}

/// Measures `shapes` side by side, each delivering `deliveries` per call.
@MainActor
func measureShapes(_ shapes: [any UserShape], scenario: String, n: Int, deliveries: Int, options: Options) -> [Row] {
    let contestants = shapes.map { shape in
        Contestant(name: shape.name, run: { shape.broadcast(times: $0) }, delivered: { shape.delivered })
    }
    let results = measure(contestants, expectedDeliveries: deliveries, options: options)
    let reference = results[0].ns
    return contestants.indices.map { index in
        Row(
            implementation: contestants[index].name, scenario: scenario, n: n, nsPerBroadcast: results[index].ns,
            nsPerDelivery: deliveries > 0 ? results[index].ns / Double(deliveries) : nil,
            ratioToReference: results[index].ns / reference, allocationsPerBroadcast: results[index].allocations)
    }
}

/// Every table of the event API, and the ratios the targets are stated in.
@MainActor
func eventSection(options: Options) -> [Row] {
    var rows: [Row] = []
    for n in options.eventNValues {
        rows += measureShapes(
            eventShapes(listenerCount: n), scenario: eventScenarioName, n: n, deliveries: n, options: options)
    }
    printTable(
        "The event API: post to N handlers or EventListener objects, beside broadcast(to:with:) and the peers "
            + "(struct payload; × ref = ÷ \(WeakTypedValueShape.name))", rows)
    printEventRatios(rows)

    let sticky = measureShapes(
        [PostHandlerShape(listenerCount: 1, form: .plain), StickyPostShape(setsOnly: false)],
        scenario: stickyEventScenarioName, n: 1, deliveries: 1, options: options)
    let set = measureShapes(
        [PostHandlerShape(listenerCount: 1, form: .plain), StickyPostShape(setsOnly: true)],
        scenario: stickyEventScenarioName, n: 1, deliveries: 1, options: options)
    let stickyRows = sticky + set.dropFirst()
    printTable(
        "Sticky events with an ObservableStickyEvent and a consuming handler registered (× ref = ÷ a plain post "
            + "to one handler)", stickyRows)
    rows += stickyRows

    var streams: [Row] = []
    for n in options.eventNValues {
        streams += measureShapes(
            [LockedContinuationsShape(listenerCount: n), EventStreamShape(listenerCount: n)],
            scenario: eventStreamScenarioName, n: n, deliveries: n, options: options)
    }
    printTable(
        "events(of:) per element beside a hand-written AsyncStream (× ref = ÷ \(LockedContinuationsShape.name))",
        streams)
    rows += streams
    return rows
}

/// The ratios the targets name, per N.
func printEventRatios(_ rows: [Row]) {
    func perDelivery(_ name: String, _ n: Int) -> Double? {
        rows.first { $0.implementation == name && $0.n == n }?.nsPerDelivery
    }
    let plain = "post to handlers, \(HandlerForm.plain.rawValue)"
    print(
        "\n| N | post ÷ MainActorMessage | post ÷ broadcast(to:with:) | post ÷ OpenCombine | "
            + "EventListener ÷ broadcast(to:with:) | slowest form ÷ plain |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in Set(rows.map(\.n)).sorted() {
        guard let post = perDelivery(plain, n) else { continue }
        let forms = HandlerForm.allCases.compactMap { perDelivery("post to handlers, \($0.rawValue)", n) }
        let cells = [
            perDelivery(MainActorMessageValueShape.name, n).map { post / $0 },
            perDelivery("Broadcaster, struct payload, with:", n).map { post / $0 },
            perDelivery(OpenCombineValueShape.name, n).map { post / $0 },
            perDelivery(PostEventListenerShape.name, n).flatMap { listener in
                perDelivery("Broadcaster, struct payload, with:", n).map { listener / $0 }
            },
            forms.max().map { $0 / post },
        ]
        print("| \(n) | " + cells.map { format($0, digits: 2) + "×" }.joined(separator: " | ") + " |")
    }
}

/// The event rows that must allocate nothing per post: every handler form
/// and `EventListener` objects, posted where they run.
@MainActor
let zeroAllocationEventShapes: Set<String> = Set(
    eventShapes(listenerCount: 0).filter(\.allocatesNothing).map(\.name)
        .filter { $0 != WeakTypedValueShape.name && !$0.hasPrefix("Broadcaster") })
