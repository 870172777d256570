extension CallSiteProgram {
    /// A multi-shot handler's program (`StreamCallRule`): its handler's code runs once per
    /// value, and the trace tests for one-shot handlers do not apply to it.
    public var isMultiShot: Bool { name.hasPrefix("StreamCallRule:") }
}
