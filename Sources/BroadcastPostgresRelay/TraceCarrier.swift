#if PostgresRelay
    import Foundation
    import Instrumentation

    /// The trace context of a post, as an envelope carries it between
    /// instances: the values the instrument of swift-distributed-tracing
    /// injects (a W3C `traceparent`, or whatever the tracer the app
    /// bootstrapped writes), as a JSON object of strings.
    ///
    /// On sending, the relay injects `ServiceContext.current` of the posting
    /// task; on receiving, it extracts the context and posts the event inside
    /// `ServiceContext.withValue`, so that the receiving instance's listeners,
    /// and a tap on its broadcaster, run in the sender's trace. A post without
    /// a context, or with an instrument that injects nothing (the default
    /// `NoOpInstrument`), writes no field: it pays for reading a task-local.
    struct TraceCarrier: Sendable, Equatable {
        let values: [String: String]
        /// `values` as a JSON object with sorted keys, as the envelope holds it.
        let json: String

        private init(values: [String: String], json: String) {
            self.values = values
            self.json = json
        }

        /// The trace context of the current task, as the current instrument
        /// injects it; nil if there is none, or the instrument injects
        /// nothing.
        static func current() -> TraceCarrier? {
            guard let context = ServiceContext.current, !context.isEmpty else { return nil }
            var values: [String: String] = [:]
            InstrumentationSystem.instrument.inject(context, into: &values, using: DictionaryInjector())
            guard !values.isEmpty else { return nil }
            return TraceCarrier(values: values)
        }

        /// The carrier of `values`.
        init(values: [String: String]) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // A dictionary of strings always encodes.
            let data = (try? encoder.encode(values)) ?? Data("{}".utf8)
            self.init(values: values, json: String(decoding: data, as: UTF8.self))
        }

        /// The carrier whose JSON object is `json`; nil unless it is an object
        /// of strings.
        init?(json: Substring) {
            guard let values = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8)) else {
                return nil
            }
            self.init(values: values, json: String(json))
        }

        /// The context the current instrument extracts from the values.
        func extracted() -> ServiceContext {
            var context = ServiceContext.topLevel
            InstrumentationSystem.instrument.extract(values, into: &context, using: DictionaryExtractor())
            return context
        }

        /// Runs `body` in the context extracted from `carrier`, or in the
        /// current one if there is none.
        static func whileIn<Result>(_ carrier: TraceCarrier?, _ body: () -> Result) -> Result {
            guard let carrier else { return body() }
            return ServiceContext.withValue(carrier.extracted(), operation: body)
        }

        private struct DictionaryInjector: Injector {
            func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
                carrier[key] = value
            }
        }

        private struct DictionaryExtractor: Extractor {
            func extract(key: String, from carrier: [String: String]) -> String? {
                carrier[key]
            }
        }
    }
#endif
