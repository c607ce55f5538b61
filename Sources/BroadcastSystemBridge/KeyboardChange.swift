import Foundation

/// What one keyboard notification says about the keyboard, parsed once from
/// its `userInfo`.
///
/// Every field is optional: a key that is missing, holds the wrong type, or
/// holds a non-finite number gives `nil`, never a trap. Frames are in screen
/// coordinates, as UIKit sends them; convert them to a view's coordinates
/// before comparing with its bounds, or use ``coveredHeight(of:)`` with a
/// rectangle already in screen coordinates.
public struct KeyboardChange: Sendable, Equatable {
    /// Where the keyboard starts (`UIKeyboardFrameBeginUserInfoKey`).
    public var beginFrame: CGRect?
    /// Where the keyboard ends up (`UIKeyboardFrameEndUserInfoKey`).
    public var endFrame: CGRect?
    /// How long the keyboard animates, in seconds
    /// (`UIKeyboardAnimationDurationUserInfoKey`).
    public var animationDuration: TimeInterval?
    /// The curve of the keyboard's animation
    /// (`UIKeyboardAnimationCurveUserInfoKey`).
    public var animationCurve: AnimationCurve?
    /// Whether the keyboard belongs to this app rather than another one in
    /// split view (`UIKeyboardIsLocalUserInfoKey`; often missing).
    public var isLocal: Bool?

    /// Creates a change from its fields; every field defaults to unknown.
    public init(
        beginFrame: CGRect? = nil,
        endFrame: CGRect? = nil,
        animationDuration: TimeInterval? = nil,
        animationCurve: AnimationCurve? = nil,
        isLocal: Bool? = nil
    ) {
        self.beginFrame = beginFrame.flatMap(Self.finite)
        self.endFrame = endFrame.flatMap(Self.finite)
        self.animationDuration = animationDuration.flatMap { $0.isFinite ? $0 : nil }
        self.animationCurve = animationCurve
        self.isLocal = isLocal
    }

    /// Parses a keyboard notification's `userInfo`, tolerating anything.
    ///
    /// Frames are accepted as an `NSValue` holding a `CGRect` (checked before
    /// it is opened) or a `CGRect`; numbers as `NSNumber`, `Double`, `Float`,
    /// `CGFloat` or `Int`. Anything else, and any non-finite number, gives
    /// `nil` for that field.
    public init(userInfo: [AnyHashable: Any]?) {
        let info = userInfo ?? [:]
        self.init(
            beginFrame: TolerantValue.rect(info[PlatformNames.keyboardFrameBeginKey]),
            endFrame: TolerantValue.rect(info[PlatformNames.keyboardFrameEndKey]),
            animationDuration: TolerantValue.number(info[PlatformNames.keyboardAnimationDurationKey]),
            animationCurve: TolerantValue.integer(info[PlatformNames.keyboardAnimationCurveKey]).map(
                AnimationCurve.init(rawValue:)),
            isLocal: TolerantValue.bool(info[PlatformNames.keyboardIsLocalKey]))
    }

    /// The `userInfo` UIKit would send for this change: frames as `NSValue`,
    /// numbers as `NSNumber`; unknown fields are left out.
    var userInfo: [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [:]
        if let beginFrame { info[PlatformNames.keyboardFrameBeginKey] = PlatformNames.value(of: beginFrame) }
        if let endFrame { info[PlatformNames.keyboardFrameEndKey] = PlatformNames.value(of: endFrame) }
        if let animationDuration {
            info[PlatformNames.keyboardAnimationDurationKey] = NSNumber(value: animationDuration)
        }
        if let animationCurve {
            info[PlatformNames.keyboardAnimationCurveKey] = NSNumber(value: animationCurve.rawValue)
        }
        if let isLocal { info[PlatformNames.keyboardIsLocalKey] = NSNumber(value: isLocal) }
        return info
    }

    /// How much of `rect` the keyboard covers once this change ends: the
    /// height of the overlap between `rect` and ``endFrame``, which is the
    /// bottom inset a screen occupying `rect` needs.
    ///
    /// Both rectangles must be in the same (screen) coordinates. Returns 0
    /// when the end frame is unknown, when either rectangle is empty (a
    /// floating or undocked keyboard often reports a zero frame), when they do
    /// not overlap (a hidden keyboard ends below the screen), or when an edge
    /// is not a finite number. Negative sizes are standardized first.
    ///
    /// Pure geometry, written without `CGRect.intersection`, which traps on
    /// Linux for very large rectangles.
    public func coveredHeight(of rect: CGRect) -> CGFloat {
        guard let endFrame else { return 0 }
        return Self.overlapHeight(rect, endFrame)
    }

    static func overlapHeight(_ a: CGRect, _ b: CGRect) -> CGFloat {
        guard let a = Span(a), let b = Span(b) else { return 0 }
        let width = Swift.min(a.maxX, b.maxX) - Swift.max(a.minX, b.minX)
        let height = Swift.min(a.maxY, b.maxY) - Swift.max(a.minY, b.minY)
        guard width > 0, height > 0, height.isFinite else { return 0 }
        return CGFloat(height)
    }

    /// A rectangle's edges as finite `Double`s, standardized; nil if an edge
    /// is not finite or the rectangle is empty.
    private struct Span {
        let minX, maxX, minY, maxY: Double

        init?(_ rect: CGRect) {
            let x = Double(rect.origin.x)
            let y = Double(rect.origin.y)
            let w = Double(rect.size.width)
            let h = Double(rect.size.height)
            guard x.isFinite, y.isFinite, w.isFinite, h.isFinite, w != 0, h != 0 else { return nil }
            minX = Swift.min(x, x + w)
            maxX = Swift.max(x, x + w)
            minY = Swift.min(y, y + h)
            maxY = Swift.max(y, y + h)
            guard maxX.isFinite, maxY.isFinite, minX.isFinite, minY.isFinite else { return nil }
        }
    }

    private static func finite(_ rect: CGRect) -> CGRect? {
        let parts = [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height]
        return parts.allSatisfy { Double($0).isFinite } ? rect : nil
    }
}

extension KeyboardChange {
    /// The curve of the keyboard's animation: UIKit's `UIView.AnimationCurve`
    /// raw value, kept even when it has no name.
    ///
    /// The keyboard really sends 7, which no public case names; it is kept as
    /// is, so you can pass it on through ``animationOptionsRawValue``.
    public struct AnimationCurve: RawRepresentable, Sendable, Hashable {
        /// The raw `UIView.AnimationCurve` value.
        public var rawValue: Int

        /// Wraps any raw value, named or not.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// `UIView.AnimationCurve.easeInOut` (0).
        public static let easeInOut = AnimationCurve(rawValue: 0)
        /// `UIView.AnimationCurve.easeIn` (1).
        public static let easeIn = AnimationCurve(rawValue: 1)
        /// `UIView.AnimationCurve.easeOut` (2).
        public static let easeOut = AnimationCurve(rawValue: 2)
        /// `UIView.AnimationCurve.linear` (3).
        public static let linear = AnimationCurve(rawValue: 3)

        /// The matching `UIView.AnimationOptions` raw value, `curve << 16`,
        /// for `UIView.animate(withDuration:delay:options:animations:)`.
        ///
        /// `nil` when the curve does not fit the options' curve field
        /// (bits 16–19): negative, or above 15, where the shifted value would
        /// spill into the transition bits.
        public var animationOptionsRawValue: UInt? {
            guard (0...15).contains(rawValue) else { return nil }
            return UInt(rawValue) << 16
        }
    }
}

/// Reads `userInfo` values of uncertain type without trapping.
enum TolerantValue {
    /// A `CGRect` from an `NSValue` that holds one (checked by type encoding
    /// before it is opened: on Linux opening any other `NSValue`, such as an
    /// `NSNumber`, traps) or from a `CGRect` itself.
    static func rect(_ raw: Any?) -> CGRect? {
        guard let raw else { return nil }
        if let value = raw as? NSValue {
            guard String(cString: value.objCType) == PlatformNames.rectEncoding else { return nil }
            return PlatformNames.rect(in: value)
        }
        return raw as? CGRect
    }

    /// A finite number from any of the numeric types a `userInfo` may hold.
    static func number(_ raw: Any?) -> Double? {
        let number: Double?
        switch raw {
        case let value as Double: number = value
        case let value as Int: number = Double(value)
        case let value as Float: number = Double(value)
        case let value as CGFloat: number = Double(value)
        case let value as NSNumber: number = value.doubleValue
        default: number = nil
        }
        guard let number, number.isFinite else { return nil }
        return number
    }

    /// An integer, from a number that is exactly one.
    static func integer(_ raw: Any?) -> Int? {
        if let value = raw as? Int { return value }
        return number(raw).flatMap { Int(exactly: $0) }
    }

    /// A Boolean from a `Bool` or a number (non-zero is `true`).
    static func bool(_ raw: Any?) -> Bool? {
        if let value = raw as? Bool { return value }
        return number(raw).map { $0 != 0 }
    }
}
