// OpenMarketSandbox — filled by its issue.
import Foundation
