// OpenMarketCore — filled by its issue.
import Foundation
