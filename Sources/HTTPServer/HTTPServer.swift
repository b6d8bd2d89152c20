// HTTPServer — filled by its issue.
import Foundation
