// The 0.1.0 spelling of making a lifespan, kept for one release.

extension Lifespan {
    /// Creates a lifespan identified by `name`; the 0.1.0 spelling of
    /// ``custom(_:)``.
    ///
    /// - Parameter name: The name that identifies the lifespan.
    @available(*, deprecated, renamed: "custom(_:)")
    public init(_ name: String) {
        self = .custom(name)
    }
}
