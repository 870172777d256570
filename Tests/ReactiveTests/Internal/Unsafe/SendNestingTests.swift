import FutureBridgeAtomics
import Testing

@testable import Reactive

/// The per-thread nesting bound, on the test's own thread (it starts and ends at depth 0).
@Suite struct SendNestingTests {
    @Test func levelsNestUpToTheLimitThenWorkIsDeferredToTheOutermostLevel() {
        var entered: [UnsafeMutablePointer<fb_send_nesting_t>] = []
        while let level = SendNesting.enter() { entered.append(level) }
        #expect(entered.count == SendNesting.limit)
        var order: [String] = []
        SendNesting.deferUntilOutermostReturns { order.append("deferred") }
        for level in entered.dropFirst().reversed() { SendNesting.leave(level) }
        order.append("outermost returns")
        SendNesting.leave(entered[0])
        #expect(order == ["outermost returns", "deferred"])
        let again = SendNesting.enter()  // back at depth 0
        #expect(again != nil)
        if let again { SendNesting.leave(again) }
    }

    @Test func deferredWorkRunsAsAnOutermostLevelAndMayDeferMore() {
        var entered: [UnsafeMutablePointer<fb_send_nesting_t>] = []
        while let level = SendNesting.enter() { entered.append(level) }
        var depths: [Int] = []
        SendNesting.deferUntilOutermostReturns {
            var nested: [UnsafeMutablePointer<fb_send_nesting_t>] = []
            while let level = SendNesting.enter() { nested.append(level) }
            depths.append(nested.count)  // the deferred job is level 1: it nests limit - 1 more
            SendNesting.deferUntilOutermostReturns { depths.append(-1) }
            for level in nested.reversed() { SendNesting.leave(level) }
        }
        for level in entered.reversed() { SendNesting.leave(level) }
        #expect(depths == [SendNesting.limit - 1, -1])
    }
}
