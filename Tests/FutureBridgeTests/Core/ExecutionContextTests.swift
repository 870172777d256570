import Dispatch
import Foundation
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct ExecutionContextTests {
    @available(ClockAPI, *)
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

    @available(ClockAPI, *)
    @Test func operationQueueContextRunsOnTheQueue() throws {
        let queue = OperationQueue()
        let onQueue = Promise<Bool>()
        Future(value: 1).onSuccess(on: .operationQueue(queue)) { _ in
            onQueue.succeed(OperationQueue.current === queue)
        }
        #expect(try onQueue.future.wait(timeout: .seconds(60)))
    }

    @available(ClockAPI, *)
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

    /// A context is one word, so a future (its storage and its default context) is two:
    /// `.custom` keeps its function in a box. On Linux every payload is a Swift class
    /// reference, whose spare bits hold the case.
    #if os(Linux)
        @Test func aContextIsOneWordAndAFutureTwo() {
            #expect(MemoryLayout<ExecutionContext>.size == MemoryLayout<Int>.size)
            #expect(MemoryLayout<Future<Int>>.size == 2 * MemoryLayout<Int>.size)
            #expect(MemoryLayout<Future<Int>>.stride == 2 * MemoryLayout<Int>.size)
        }
    #endif

    @Test func everyKindOfContextKeepsItsKindAndRuns() {
        let executor = ManualExecutor()
        let ran = Counter()
        let contexts: [ExecutionContext] = [.inline, executor.context, .custom { job in job() }]
        for context in contexts { context.execute { ran.increment() } }
        #expect(ran.count == 2)
        #expect(executor.runAll() == 1)
        #expect(ran.count == 3)
        #expect(contexts.map(\.isInline) == [true, false, false])
        #expect(!ExecutionContext.mainImmediate.isInline)
        #expect(!ExecutionContext.global().isInline)
        #expect(!ExecutionContext.operationQueue(OperationQueue()).isInline)
    }

    @Test func inlineRunsTheJobBeforeExecuteReturns() {
        let ran = Counter()
        ExecutionContext.inline.execute { ran.increment() }
        #expect(ran.count == 1)
    }
}
