import Foundation
import HTTPServer
import OpenMarketCore

extension ProductFormController {
    /// `GET /products/{id}/duplicate`: the register form filled from that product, its images
    /// fetched through the API and staged (`data-staged-images`, removable and reorderable like
    /// any staged image); submitting registers a new product. An image the rules refuse (size,
    /// type, pixel limits) or that cannot be fetched is named in the form's alert, not dropped
    /// silently.
    func duplicateForm(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let id = try Pages.productID(request)
        let product = try await loadProduct(id, retry: "/products/\(id)/duplicate")
        let context = context.withFormKey()
        let l = context.localizer

        var accepted: [(filename: String, data: Data, format: ImageFormat)] = []
        var refused: [String] = []
        // A product takes at most five images: only those are fetched, all at once, so the page
        // answers within one upstream timeout however many images the API lists (500 once
        // kept this page fetching one by one, never answering).
        let maxImages = ProductRules.imageCount.upperBound
        let wanted = Array(product.images.prefix(maxImages))
        let fetched = await BoundedConcurrency.map(wanted, limit: wanted.count) { image in
            await self.fetchImage(image.url)
        }
        if product.images.count > maxImages {
            refused.append(l("bounds_duplicate_first_images", ["count": l.number(product.images.count), "max": String(maxImages)]))
        }
        for (index, image) in wanted.enumerated() {
            let number = String(index + 1)
            var filename = ImageStager.safeFilename(URL(string: image.url)?.lastPathComponent ?? "image-\(number)")
            switch fetched[index] {
            case .success(var data, var format):
                // A JPEG or PNG is copied only when it decodes completely, and one over the limit
                // is made to fit, as on register without JS.
                do {
                    let fitted = try await imageStager.shrinkForUpload(data, filename: filename)
                    if let fittedFormat = ImageFormat.detect(fitted.data) {
                        (data, filename, format) = (fitted.data, fitted.filename, fittedFormat)
                    }
                } catch let failure as ImportImageFailure where !failure.leftToFileChecks {
                    refused.append(l("duplicate_refused_photo", ["number": number, "reason": l(failure.key, failure.arguments)]))
                    continue
                } catch {}
                if data.count > ProductRules.maxImageBytes {
                    refused.append(l("duplicate_refused_size", ["number": number, "name": filename,
                                                                 "max": String(ProductRules.maxImageBytes / 1024)]))
                } else if let size = ImageDimensions.read(data),
                          size.width > ProductRules.maxImageSide || size.height > ProductRules.maxImageSide
                            || size.width * size.height > ProductRules.maxImagePixels {
                    refused.append(l("duplicate_refused_pixels", ["number": number, "name": filename,
                                                                   "width": String(size.width), "height": String(size.height)]))
                } else {
                    // Named by its place in the original ("이미지 2.jpg"): the API's stored names
                    // are hashes that tell the seller nothing on the form.
                    accepted.append((l("duplicate_image_name", ["number": number]) + "." + format.fileExtension, data, format))
                }
            case .notAnImage:
                refused.append(l("duplicate_refused_type", ["number": number, "name": filename]))
            case .unavailable:
                refused.append(l("duplicate_refused_fetch", ["number": number, "name": filename]))
            }
        }

        var state = ProductFormState(values: ProductFormValues(product: product, thumbnailID: nil))
        state.values.name = String((l("duplicate_name", ["name": DisplayBounds.name(product.name)])).prefix(ProductRules.nameLength.upperBound))
        state.back = BackLink.validated(request.query["back"])
        if !accepted.isEmpty {
            state.staged = try? await imageStager.staging.stage(token: nil, owner: context.formKey, adding: accepted, removing: [])
        }
        if !refused.isEmpty {
            state.alert = l("duplicate_refused_intro") + " " + refused.joined(separator: " ")
        }
        return try pages.page(ProductNewPageView(form: formView(state, editing: nil, csrfToken: context.csrfToken, l)),
                        title: l("duplicate_title", ["name": DisplayBounds.name(product.name)]),
                        context: context, section: .register)
    }

    enum FetchedImage: Sendable {
        case success(Data, ImageFormat)
        case notAnImage
        case unavailable
    }

    /// An image of the API (or a configured media origin) by its URL, through the transport.
    func fetchImage(_ urlText: String) async -> FetchedImage {
        guard let path = presenter.media.panelPath(for: urlText), path.hasPrefix("/media/"),
              let url = presenter.media.upstreamURL(forPath: String(path.dropFirst("/media/".count)).removingPercentEncoding ?? "")
        else { return .unavailable }
        guard let answer = try? await upstream.transport.send(TransportRequest(method: "GET", url: url, headers: [], body: nil,
                                                                      timeout: pages.configuration.api.timeout)),
              answer.status == 200 else { return .unavailable }
        guard let format = ImageFormat.detect(answer.body) else { return .notAnImage }
        return .success(answer.body, format)
    }
}
