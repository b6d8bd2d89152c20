import HTTPServer

extension MediaController {
    /// `GET /uploads/{token}/{image}`: a staged image's preview, for the session that staged it.
    func stagedPreview(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        guard let token = request.pathParameters["token"],
              let id = request.pathParameters["image"].flatMap({ Int($0) }),
              let stored = await staging.data(token: token, owner: context.formKey, id: id) else {
            throw PageFailure.notFound("failure_staged_expired")
        }
        var response = HTTPResponse(status: 200, body: .data(stored.data))
        response.headers["Content-Type"] = stored.format.mimeType
        response.headers["Cache-Control"] = "private, no-store"
        return response
    }
}
