import Dispatch
import NIOCore
import NIOEmbedded
import NIOPosix

/// swift-nio's `EventLoopFuture`, on an `EmbeddedEventLoop` and on a real one-thread loop.
enum NIOCases {
    /// Runs `body` with a new `EmbeddedEventLoop`, created on the calling thread as NIO
    /// requires.
    static func onEmbedded(_ n: Int, _ body: (any EventLoop, Int) -> Void) {
        body(EmbeddedEventLoop(), n)
    }

    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    static var loop: any EventLoop { group.next() }

    static func b1(_ loop: any EventLoop, _ n: Int) {
        for index in 0..<n {
            let promise = loop.makePromise(of: Int.self)
            promise.succeed(index)
            promise.futureResult.whenSuccess { blackHole($0) }
        }
    }

    static func b2(_ loop: any EventLoop, _ n: Int) {
        for index in 0..<n {
            var future = loop.makeSucceededFuture(index)
            for _ in 0..<10 { future = future.map { $0 &+ 1 } }
            future.whenSuccess { blackHole($0) }
        }
    }

    static func b3(_ loop: any EventLoop, _ n: Int) {
        for index in 0..<n {
            let promise = loop.makePromise(of: Int.self)
            promise.futureResult.whenSuccess { blackHole($0) }
            promise.succeed(index)
        }
    }

    /// Runs `body` on the real loop's thread, as NIO code must.
    static func onLoop(_ n: Int, _ body: @escaping @Sendable (any EventLoop, Int) -> Void) {
        let loop = self.loop
        try! loop.submit { body(loop, n) }.wait()
    }

    static func b4(_ n: Int) async {
        let loop = self.loop
        for index in 0..<n {
            let promise = loop.makePromise(of: Int.self)
            loop.execute { promise.succeed(index) }
            blackHole(try? await promise.futureResult.get())
        }
    }

    static func b5(_ loop: any EventLoop, _ n: Int) {
        let promises = (0..<n).map { _ in loop.makePromise(of: Int.self) }
        let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
        for (index, promise) in promises.enumerated() { promise.succeed(index) }
        all.whenSuccess { blackHole($0.count) }
    }

    static func m1(on loop: EmbeddedEventLoop) -> EventLoopPromise<Int> {
        let promise = loop.makePromise(of: Int.self)
        promise.futureResult.whenSuccess { blackHole($0) }
        return promise
    }
}
