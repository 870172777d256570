extension WeakSelfRule {
    static let examples: [CallExample] = [
        CallExample(
            "weak self with guard let self: kept alive, and said so",
            before: """
                final class Model: Sendable {
                    let api: FakeAPI
                    let trace: Trace

                    init(api: FakeAPI, trace: Trace) {
                        self.api = api
                        self.trace = trace
                    }

                    func refresh() async {
                        api.load(id: 5) { [weak self] result in
                            guard let self else { return }
                            switch result {
                            case .success(let value):
                                self.trace.log("got \\(value)")
                            case .failure(let error):
                                self.trace.failed(error)
                            }
                        }
                    }
                }

                func run(api: FakeAPI, trace: Trace) async {
                    let model = Model(api: api, trace: trace)
                    trace.keepAlive(model)
                    await model.refresh()
                }
                """,
            after: .rewritten(
                """
                final class Model: Sendable {
                    let api: FakeAPI
                    let trace: Trace

                    init(api: FakeAPI, trace: Trace) {
                        self.api = api
                        self.trace = trace
                    }

                    func refresh() async {
                        do {
                            let value = try await api.load(id: 5)
                            self.trace.log("got \\(value)")
                        } catch {
                            self.trace.failed(error)
                        }
                    }
                }

                func run(api: FakeAPI, trace: Trace) async {
                    let model = Model(api: api, trace: trace)
                    trace.keepAlive(model)
                    await model.refresh()
                }
                """),
            notes: ["object kept alive across the await"]),
        CallExample(
            "weak self in `self?.` statements: the method's self, kept alive, and said so",
            before: """
                final class Model: Sendable {
                    let trace: Trace

                    init(trace: Trace) {
                        self.trace = trace
                    }

                    func refresh(api: FakeAPI) async {
                        api.save("a") { [weak self] error in
                            if let error {
                                self?.trace.failed(error)
                                return
                            }
                            self?.trace.log("saved")
                        }
                    }
                }

                func run(api: FakeAPI, trace: Trace) async {
                    let model = Model(trace: trace)
                    trace.keepAlive(model)
                    await model.refresh(api: api)
                }
                """,
            after: .rewritten(
                """
                final class Model: Sendable {
                    let trace: Trace

                    init(trace: Trace) {
                        self.trace = trace
                    }

                    func refresh(api: FakeAPI) async {
                        do {
                            try await api.save("a")
                            self.trace.log("saved")
                        } catch {
                            self.trace.failed(error)
                        }
                    }
                }

                func run(api: FakeAPI, trace: Trace) async {
                    let model = Model(trace: trace)
                    trace.keepAlive(model)
                    await model.refresh(api: api)
                }
                """),
            notes: ["skipped the handler's `self?.` statements"]),
        CallExample(
            "weak self bound to another name by guard let: that name becomes self",
            before: """
                final class Model: Sendable {
                    let trace: Trace

                    init(trace: Trace) {
                        self.trace = trace
                    }

                    func refresh(api: FakeAPI) async {
                        api.load(id: 2) { [weak self] result in
                            guard let strongSelf = self else { return }
                            switch result {
                            case .success(let value):
                                strongSelf.trace.log("got \\(value)")
                            case .failure(let error):
                                strongSelf.trace.failed(error)
                            }
                        }
                    }
                }

                func run(api: FakeAPI, trace: Trace) async {
                    let model = Model(trace: trace)
                    trace.keepAlive(model)
                    await model.refresh(api: api)
                }
                """,
            after: .rewritten(
                """
                final class Model: Sendable {
                    let trace: Trace

                    init(trace: Trace) {
                        self.trace = trace
                    }

                    func refresh(api: FakeAPI) async {
                        do {
                            let value = try await api.load(id: 2)
                            self.trace.log("got \\(value)")
                        } catch {
                            self.trace.failed(error)
                        }
                    }
                }

                func run(api: FakeAPI, trace: Trace) async {
                    let model = Model(trace: trace)
                    trace.keepAlive(model)
                    await model.refresh(api: api)
                }
                """),
            notes: ["object kept alive across the await"]),
        CallExample(
            "weak self read as an optional value: left alone",
            before: """
                final class Model: Sendable {
                    let trace = Trace()

                    func refresh(api: FakeAPI) async {
                        api.save("a") { [weak self] error in
                            let trace = self?.trace
                            trace?.log("saved \\(error == nil)")
                        }
                    }
                }
                """,
            after: .leftAlone(.captureList, "`self?.trace` is a value, not a statement")),
        CallExample(
            "weak self checked against nil: left alone (a released object delivered nothing)",
            before: """
                final class Model: Sendable {
                    let trace = Trace()

                    func refresh(api: FakeAPI) async {
                        api.save("a") { [weak self] error in
                            guard self != nil else { return }
                            self?.trace.log("saved \\(error == nil)")
                        }
                    }
                }
                """,
            after: .leftAlone(.captureList, "`self` is used as an optional value")),
    ]
}
