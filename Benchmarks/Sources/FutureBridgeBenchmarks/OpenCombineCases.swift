import Dispatch
import OpenCombine

/// OpenCombine's `Future` and `PassthroughSubject`.
enum OpenCombineCases {
    static func b1(_ n: Int) {
        for index in 0..<n {
            let future = Future<Int, Never> { promise in promise(.success(index)) }
            let subscription = future.sink { blackHole($0) }
            blackHole(subscription)
        }
    }

    static func b2(_ n: Int) {
        for index in 0..<n {
            let future = Future<Int, Never> { promise in promise(.success(index)) }
            let chain = future.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
                .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
                .map { $0 &+ 1 }
            let subscription = chain.sink { blackHole($0) }
            blackHole(subscription)
        }
    }

    static func b3(_ n: Int) {
        for index in 0..<n {
            var resolve: ((Result<Int, Never>) -> Void)?
            let future = Future<Int, Never> { resolve = $0 }
            let subscription = future.sink { blackHole($0) }
            resolve?(.success(index))
            blackHole(subscription)
        }
    }

    static func b4(_ n: Int, on queue: DispatchQueue) async {
        for index in 0..<n {
            // OpenCombine's promise closure is not `Sendable`: it is set once, inside the
            // `Future`'s initializer, before the queue's job that calls it is submitted.
            nonisolated(unsafe) var resolve: ((Result<Int, Never>) -> Void)?
            let future = Future<Int, Never> { resolve = $0 }
            nonisolated(unsafe) let captured = resolve
            queue.async { captured?(.success(index)) }
            blackHole(await future.value)
        }
    }

    static func b6(_ n: Int) {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let subscription = subject.map { $0 &* 2 }.filter { $0 % 3 != 0 }.sink { sum &+= $0 }
        for value in 0..<n { subject.send(value) }
        blackHole(sum)
        blackHole(subscription)
    }

    final class Kept {
        let future: Future<Int, Never>
        let subscription: AnyCancellable
        var resolve: ((Result<Int, Never>) -> Void)?
        init() {
            var resolve: ((Result<Int, Never>) -> Void)?
            future = Future { resolve = $0 }
            subscription = future.sink { blackHole($0) }
            self.resolve = resolve
        }
    }
}
