// HTMLTemplates — filled by its issue.
import Foundation
