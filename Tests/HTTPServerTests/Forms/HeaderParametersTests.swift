import Testing
@testable import HTTPServer

/// `HeaderParameters` and `MediaType`: `type/subtype; name=value; name="quoted"` lists.
@Suite struct HeaderParametersTests {
    @Test func mediaTypesAreLowercasedWithTheirParameters() {
        let type = MediaType("Multipart/Form-Data; Boundary=\"a;b\\\"c\"; charset=UTF-8")
        #expect(type.essence == "multipart/form-data")
        #expect(type.parameters == ["boundary": "a;b\"c", "charset": "UTF-8"])
        #expect(MediaType("text/html").parameters.isEmpty)
        #expect(MediaType("").essence == "")
    }

    @Test func semicolonsInsideQuotesDoNotSplit() {
        #expect(HeaderParameters.split("form-data; name=\"a;b\"; filename=\"x\\\";y\"")
                == ["form-data", " name=\"a;b\"", " filename=\"x\\\";y\""])
    }

    @Test func theFirstOfARepeatedNameWinsAndBrokenPartsAreSkipped() {
        let parameters = HeaderParameters.parse(["name=first", " NAME=second", "novalue", "=x", " spaced = v "])
        #expect(parameters == ["name": "first", "spaced": "v"])
    }

    @Test func unquotingHandlesEscapesAndLeavesBareValues() {
        #expect(HeaderParameters.unquote("\"a\\\\b\\\"c\"") == "a\\b\"c")
        #expect(HeaderParameters.unquote("bare") == "bare")
        #expect(HeaderParameters.unquote("\"") == "\"")
        #expect(HeaderParameters.unquote("\"\"") == "")
    }
}
