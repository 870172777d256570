import FutureBridge

print("FutureBridge tour")
let promise = Promise<Int>()
promise.future.onSuccess { print("value:", $0) }
promise.succeed(42)
