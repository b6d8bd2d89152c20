import Foundation
import Testing
@testable import HTTPServer

/// `application/x-www-form-urlencoded` bodies: escapes, `+`, repeated names, limits, bad input.
@Suite struct URLEncodedFormTests {
    private func decode(_ body: String, limits: FormLimits = FormLimits()) throws -> FormFields {
        try URLEncodedForm.decode(Data(body.utf8), limits: limits)
    }

    @Test func fieldsAreDecodedInOrderWithRepeats() throws {
        let form = try decode("name=Green+tea+%E2%98%95&tag=a&tag=b&empty=&flag&price=1%2C000")
        #expect(form["name"] == "Green tea ☕")
        #expect(form.all("tag") == ["a", "b"])
        #expect(form["empty"] == "" && form["flag"] == "")
        #expect(form["price"] == "1,000")
        #expect(form["missing"] == nil)
    }

    @Test func emptyPiecesAndEncodedSeparatorsAreNotFields() throws {
        let form = try decode("&&a=1&&b=%26%3D&")
        #expect(form["a"] == "1" && form["b"] == "&=")
        #expect(try decode("").items.isEmpty)
    }

    @Test(arguments: ["a=%", "a=%4", "a=%zz", "%G0=1", "a=%FF", "a=%C3%28"])
    func malformedEscapesAre400(body: String) {
        #expect(throws: HTTPError.self) { try decode(body) }
        do { _ = try decode(body) } catch let error as HTTPError {
            #expect(error.status == 400, "\(body)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func limitsOnFieldsAndFieldSizeAre413() {
        var limits = FormLimits()
        limits.maxFields = 2
        limits.maxFieldBytes = 4
        for body in ["a=1&b=2&c=3", "a=12345", "abcde=1", "a=%41%41%41%41%41"] {
            do {
                _ = try decode(body, limits: limits)
                Issue.record("accepted \(body)")
            } catch let error as HTTPError {
                #expect(error.status == 413, "\(body)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect((try? decode("a=%41%41%41%41&b=1", limits: limits))?["a"] == "AAAA")
    }
}
