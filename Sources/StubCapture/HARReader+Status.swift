import StubCore

extension HARReader {
    /// The HTTP status an imported file gives a response (a Pact interaction's, a Postman
    /// example's): a whole number from 100 to 599, else a problem naming the file, the place and
    /// what was there (`pact.json: interactions[0].response.status: expected an HTTP status (a
    /// whole number from 100 to 599), found a number 1e19`).
    static func status(_ value: JSONValue?, file: String, at path: String) throws(Problem) -> Int {
        guard let status = value?.wholeNumber(in: 100...599) else {
            throw Problem(file: file, path: path, message: "expected an HTTP status (a whole number from 100 to 599), found \(value?.foundDescription ?? "nothing")")
        }
        return status
    }
}
