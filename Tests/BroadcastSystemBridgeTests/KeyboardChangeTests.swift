import BroadcastSystemBridge
import Foundation
import Testing

/// The raw UIKit keys: the values on Linux, and the constants' values on iOS.
private enum Key {
    static let begin = "UIKeyboardFrameBeginUserInfoKey"
    static let end = "UIKeyboardFrameEndUserInfoKey"
    static let duration = "UIKeyboardAnimationDurationUserInfoKey"
    static let curve = "UIKeyboardAnimationCurveUserInfoKey"
    static let isLocal = "UIKeyboardIsLocalUserInfoKey"
}

private func rectValue(_ rect: CGRect) -> NSValue {
    #if canImport(UIKit)
        NSValue(cgRect: rect)
    #else
        NSValue(rect: rect)
    #endif
}

@Suite struct KeyboardChangeParsingTests {
    @Test func parsesUIKitShapedUserInfo() {
        let change = KeyboardChange(userInfo: [
            Key.begin: rectValue(CGRect(x: 0, y: 800, width: 400, height: 300)),
            Key.end: rectValue(keyboardFrame),
            Key.duration: NSNumber(value: 0.25),
            Key.curve: NSNumber(value: 7),
            Key.isLocal: NSNumber(value: true),
        ])
        #expect(
            change
                == KeyboardChange(
                    beginFrame: CGRect(x: 0, y: 800, width: 400, height: 300), endFrame: keyboardFrame,
                    animationDuration: 0.25, animationCurve: .init(rawValue: 7), isLocal: true))
    }

    @Test func acceptsSwiftValuesAndIntegersForNumbers() {
        let change = KeyboardChange(userInfo: [
            Key.end: keyboardFrame,  // a CGRect, not an NSValue
            Key.duration: 1,  // an Int where a Double belongs
            Key.curve: 3.0,  // a Double that is an integer
            Key.isLocal: 0,
        ])
        #expect(change.endFrame == keyboardFrame)
        #expect(change.animationDuration == 1)
        #expect(change.animationCurve == .linear)
        #expect(change.isLocal == false)
    }

    @Test func missingUserInfoGivesAllNil() {
        #expect(KeyboardChange(userInfo: nil) == KeyboardChange())
        #expect(KeyboardChange(userInfo: [:]) == KeyboardChange())
    }

    /// The Linux trap: `.rectValue` on an NSValue that holds a number or a
    /// point.
    ///
    /// These must give nil, not crash the test process.
    @Test func wrongTypesGiveNilFields() {
        let change = KeyboardChange(userInfo: [
            Key.begin: NSNumber(value: 3),
            Key.end: NSValue(point: CGPoint(x: 1, y: 2)),
            Key.duration: "0.25",
            Key.curve: 7.5,
            Key.isLocal: NSObject(),
        ])
        #expect(change == KeyboardChange())
    }

    @Test func nonFiniteNumbersGiveNil() {
        let change = KeyboardChange(userInfo: [
            Key.end: rectValue(CGRect(x: 0, y: CGFloat.nan, width: 10, height: 10)),
            Key.begin: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 10),
            Key.duration: Double.nan,
            Key.curve: NSNumber(value: Double.infinity),
        ])
        #expect(change == KeyboardChange())
        #expect(KeyboardChange(animationDuration: .infinity).animationDuration == nil)
        #expect(KeyboardChange(userInfo: [Key.duration: NSNumber(value: -Double.infinity)]).animationDuration == nil)
    }
}

@Suite struct AnimationCurveTests {
    @Test func keepsUnnamedValues() {
        let curve = KeyboardChange.AnimationCurve(rawValue: 7)
        #expect(curve.rawValue == 7)
        #expect(curve != .easeInOut && curve != .easeIn && curve != .easeOut && curve != .linear)
        #expect(KeyboardChange(userInfo: ["UIKeyboardAnimationCurveUserInfoKey": 7]).animationCurve?.rawValue == 7)
    }

    @Test(arguments: [(0, UInt(0)), (1, 0x1_0000), (3, 0x3_0000), (7, 0x7_0000), (15, 0xF_0000)])
    func optionsAreCurveShiftedBy16(raw: Int, options: UInt) {
        #expect(KeyboardChange.AnimationCurve(rawValue: raw).animationOptionsRawValue == options)
    }

    @Test(arguments: [-1, 16, Int.max, Int.min])
    func optionsAreNilOutsideTheCurveField(raw: Int) {
        #expect(KeyboardChange.AnimationCurve(rawValue: raw).animationOptionsRawValue == nil)
    }
}

@Suite struct CoveredHeightTests {
    private func change(_ end: CGRect?) -> KeyboardChange { KeyboardChange(endFrame: end) }

    @Test func coversTheOverlap() {
        #expect(change(keyboardFrame).coveredHeight(of: screenFrame) == 300)
        // A view ending 100 points above the screen's bottom.
        #expect(change(keyboardFrame).coveredHeight(of: CGRect(x: 0, y: 0, width: 400, height: 700)) == 200)
        // Negative sizes are standardized.
        #expect(change(CGRect(x: 400, y: 800, width: -400, height: -300)).coveredHeight(of: screenFrame) == 300)
    }

    @Test func zeroWhenNothingIsCovered() {
        #expect(change(nil).coveredHeight(of: screenFrame) == 0)
        #expect(change(.zero).coveredHeight(of: screenFrame) == 0)  // floating keyboard
        #expect(change(CGRect(x: 0, y: 600, width: 0, height: 200)).coveredHeight(of: screenFrame) == 0)  // empty
        // Hidden below the screen:
        #expect(change(CGRect(x: 0, y: 800, width: 400, height: 300)).coveredHeight(of: screenFrame) == 0)
        #expect(change(CGRect(x: 500, y: 500, width: 400, height: 300)).coveredHeight(of: screenFrame) == 0)  // beside
        #expect(change(keyboardFrame).coveredHeight(of: .zero) == 0)
    }

    /// `CGRect.intersection` traps on Linux for such rectangles; ours must not.
    @Test func hugeAndNonFiniteRectanglesDoNotTrap() {
        let huge = CGRect(x: 0, y: 1e308, width: 10, height: 1e308)
        #expect(change(huge).coveredHeight(of: screenFrame) == 0)
        #expect(change(CGRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300)).coveredHeight(of: screenFrame) == 800)
        #expect(change(keyboardFrame).coveredHeight(of: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 10)) == 0)
    }

    @Test func keyboardStateCoversNothingWhenHidden() {
        #expect(KeyboardState.hidden.coveredHeight(of: screenFrame) == 0)
        #expect(KeyboardState.visible(change(keyboardFrame)).coveredHeight(of: screenFrame) == 300)
        #expect(KeyboardState.visible(change(keyboardFrame)).endFrame == keyboardFrame)
    }
}
