/// Anything that counts consumers' interest, seen without its value type.
@usableFromInline
protocol InterestCounting: Sendable {
    func addInterest()
    func withdrawInterest(cancelling: Bool)
}

extension FutureStorage: InterestCounting {}
