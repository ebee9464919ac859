import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubCore

/// The upstream calls in flight, as URLSession's delegate sees them: each task's answer is
/// gathered as it arrives (cancelled once it passes `maxBodyBytes`), redirects are passed back
/// instead of followed, and each task's completion runs once, on URLSession's delegate thread.
final class UpstreamCalls: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the only state, `tasks`, is behind a lock.
    typealias Completion = @Sendable (Result<(Data, HTTPURLResponse), Error>) -> Void

    private struct Call {
        let completion: Completion
        var data = Data()
        var response: HTTPURLResponse?
        var tooLarge = false
    }

    let maxBodyBytes: Int
    private let tasks = Locked<[Int: Call]>([:])

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Starts `task`; `completion` gets its answer or its error.
    func start(_ task: URLSessionDataTask, completion: @escaping Completion) {
        tasks.withLock { $0[task.taskIdentifier] = Call(completion: completion) }
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let expected = response.expectedContentLength
        let allowed = tasks.withLock { calls -> Bool in
            calls[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            if expected > Int64(maxBodyBytes) { calls[dataTask.taskIdentifier]?.tooLarge = true; return false }
            return true
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = tasks.withLock { calls -> Bool in
            guard var call = calls[dataTask.taskIdentifier], !call.tooLarge else { return false }
            call.data.append(data)
            if call.data.count > maxBodyBytes {
                call.tooLarge = true
                call.data = Data()
            }
            calls[dataTask.taskIdentifier] = call
            return call.tooLarge
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let call = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if call.tooLarge {
            call.completion(.failure(UpstreamBodyTooLarge(limit: maxBodyBytes)))
        } else if let error {
            call.completion(.failure(error))
        } else if let response = call.response ?? task.response as? HTTPURLResponse {
            call.completion(.success((call.data, response)))
        } else {
            call.completion(.failure(URLError(.badServerResponse)))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

/// An upstream answer whose body passed the proxy's limit.
struct UpstreamBodyTooLarge: LocalizedError {
    let limit: Int
    var errorDescription: String? { "the upstream's body is over \(limit) bytes, the proxy's limit" }
}
