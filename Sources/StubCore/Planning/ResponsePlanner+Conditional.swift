/// Conditional and range requests: a cache's revalidation answered `304`, a resumed download
/// answered `206` with the part it asks for.
extension ResponsePlanner {
    /// A GET or HEAD whose `If-None-Match` or `If-Modified-Since` the variant's validators meet
    /// gets `304 Not Modified`: no body, the validators and caching headers of the variant; its
    /// delay as planned. Only variants with an `ETag` or `Last-Modified` pay for this.
    func answerConditionally(_ plan: inout ResponsePlan, _ request: some RequestHead, variant: Variant, validators: Validators) {
        guard request.method == "GET" || request.method == "HEAD",
              validators.notModified(ifNoneMatch: request.header("If-None-Match"), ifModifiedSince: request.header("If-Modified-Since")) else { return }
        let kept = variant.headers.filter { Validators.keptOnNotModified.contains($0.name.lowercased()) }
        // The body goes along unsent: libmicrohttpd (0.9.75 and 1.0) sends a 304's head only,
        // with the body's size as Content-Length, which RFC 9110 §8.6 allows only when it is
        // the size a 200 would have sent, as this makes it.
        plan.response = .reply(Reply(status: 304, headers: kept, body: plan.renderedBody ?? variant.body))
        plan.status = 304
        plan.renderedBody = nil
        plan.stream = nil
    }

    /// A GET or HEAD whose `Range` asks for part of a 200's body gets `206` with those bytes and
    /// `Content-Range` (one range; several get the whole body, as RFC 9110 allows), or `416` when
    /// no byte of the body is in it; an `If-Range` the variant's validators do not meet gets the
    /// whole body. The part goes out as the whole would have: delayed, throttled, or cut by a
    /// `truncate` fault mid-range.
    func answerRange(_ plan: inout ResponsePlan, _ request: some RequestHead, variant: Variant) {
        guard request.method == "GET" || request.method == "HEAD", plan.stream == nil, case .variant = plan.response,
              Validators.rangeApplies(ifRange: request.header("If-Range"), validators: variant.validators) else { return }
        let total = (plan.renderedBody ?? variant.body).count
        switch ByteRange.asked(by: request.header("Range"), total: total) {
        case .whole:
            return
        case .range(let range):
            plan.range = range
            if plan.fault == nil { plan.status = 206 }
        case .unsatisfiable:
            guard plan.fault == nil else { return }
            plan.response = .reply(Reply(status: 416, headers: [HTTPHeader("Content-Range", "bytes */\(total)")], body: []))
            plan.status = 416
            plan.renderedBody = nil
        }
    }
}
