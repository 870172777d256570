import Dispatch
import Foundation
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct ExecutionContextTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func dispatchQueueContextRunsOnTheQueue() throws {
        let queue = DispatchQueue(label: "handlers")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let onQueue = Promise<Int?>()
        Future(value: 1).onSuccess(on: .queue(queue)) { _ in
            onQueue.succeed(DispatchQueue.getSpecific(key: key))
        }
        #expect(try onQueue.future.wait(timeout: .seconds(60)) == 7)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func operationQueueContextRunsOnTheQueue() throws {
        let queue = OperationQueue()
        let onQueue = Promise<Bool>()
        Future(value: 1).onSuccess(on: .operationQueue(queue)) { _ in
            onQueue.succeed(OperationQueue.current === queue)
        }
        #expect(try onQueue.future.wait(timeout: .seconds(60)))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func globalContextRunsOffTheCallingThread() throws {
        let ran = Promise<Void>()
        Future(value: 1).always(on: .global(qos: .utility)) { ran.succeed() }
        try ran.future.wait(timeout: .seconds(60))
    }

    @Test func mainIsNotInlineAndInlineIsTheDefaultContext() {
        #expect(!ExecutionContext.main.isInline)
        #expect(ExecutionContext.inline.isInline)
        // The default runs the handler synchronously on an already completed future.
        let ran = Counter()
        Future(value: 1).onSuccess { _ in ran.increment() }
        #expect(ran.count == 1)
    }

    @Test func customContextRunsEachJobThroughItsExecuteFunction() {
        let executor = ManualExecutor()
        let ran = Counter()
        executor.context.execute { ran.increment() }
        executor.context.execute { ran.increment() }
        #expect(ran.count == 0)
        #expect(executor.runAll() == 2)
        #expect(ran.count == 2)
    }

    @Test func inlineRunsTheJobBeforeExecuteReturns() {
        let ran = Counter()
        ExecutionContext.inline.execute { ran.increment() }
        #expect(ran.count == 1)
    }
}
