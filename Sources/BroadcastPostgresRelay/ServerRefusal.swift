#if PostgresRelay
    import PostgresNIO

    /// Tells a statement the server refused from a session the server ended.
    ///
    /// Both arrive as an error response (`PSQLError.Code.server`). A refusal
    /// (an `ERROR`: a payload the server will not take, a standby that cannot
    /// notify) rolls the statement back and leaves the session usable, so the
    /// relay finds the refused events one by one. A termination (a `FATAL` or
    /// `PANIC`, such as "terminating connection due to administrator command"
    /// when the server shuts down or an administrator or a proxy ends the
    /// session) ends the connection: the events of its statement may or may
    /// not have been delivered, and nothing more can be sent on it.
    enum ServerRefusal {
        /// Whether `error` is the server refusing a statement on a session that
        /// goes on.
        static func isRefusal(_ error: PSQLError) -> Bool {
            guard error.code == .server else { return false }
            return isRefusal(severity: error.serverInfo?[.severity], sqlState: error.serverInfo?[.sqlState])
        }

        /// Whether `error`, as postgres-nio throws it for a prepared
        /// statement (``PostgresConnection/runToEnd(_:values:)``), is the
        /// server refusing a statement on a session that goes on.
        static func isRefusal(_ error: PostgresError) -> Bool {
            guard case .server(let response) = error else { return false }
            return isRefusal(severity: response.fields[.severity], sqlState: response.fields[.sqlState])
        }

        private static func isRefusal(severity: String?, sqlState: String?) -> Bool {
            guard severity == "ERROR" else { return false }
            // Operator intervention and connection exceptions end the session
            // even when sent as an `ERROR`.
            let sqlState = sqlState ?? ""
            return !sqlState.hasPrefix("57") && !sqlState.hasPrefix("08")
        }
    }
#endif
