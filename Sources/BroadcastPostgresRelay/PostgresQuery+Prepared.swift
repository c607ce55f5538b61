#if PostgresRelay
    import PostgresNIO

    extension PostgresQuery {
        /// The query that runs `statement`, a text ``PreparedStatements``
        /// prepares, with `values` bound: what a connection where it is not
        /// prepared sends instead, so that each statement's text has one home.
        ///
        /// `statement` is one of ``EventLog``'s constants and takes every
        /// value as a parameter (`$1`, `$2`…), never spliced into its text.
        init(prepared statement: String, values: [PostgresData]) {
            var bindings = PostgresBindings(capacity: values.count)
            for value in values { bindings.append(value) }
            self.init(unsafeSQL: statement, binds: bindings)
        }
    }
#endif
